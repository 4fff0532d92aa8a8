"""The text of a message as the claim splitter cuts it: code spans masked, sentences, a
row's marks, and spans trimmed to their words. Pure functions over (message, positions);
claims.py, claim_admits.py read a message's rows with them.
"""

from .claim_words import CODE_SPAN, TICKS, is_mark
from ..patterns import lazy

# Where a sentence ends: after . ! or ? and a space, unless the dot ends an abbreviation.
_SENTENCE_END = lazy(r"(?<=[.!?])\s+(?=\S)")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.")
_KEEP_LEAD = "`'\"([$~/."
_TRIM_END = " \t\r\n.,;:!*_|"


def mask_code(message):
    """The message with the inside of every `code span` blanked, so that a ';' or '. '
    inside a command never cuts a sentence (positions stay the same)."""
    return CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", message)


def last_sentence(masked, start, end):
    cut = start
    for match in _SENTENCE_END.finditer(masked, start, end):
        cut = match.end()
    return masked[cut:end]


def last_span(message, masked, start, end):
    """The trimmed span of a row's last sentence, which a short status on the next line of
    the paragraph may lean on."""
    return trim(message, end - len(last_sentence(masked, start, end)), end)


def after_marks(masked, start, end):
    """Where a line's words start after its ticks, emoji and spaces."""
    while start < end and (masked[start] in " \t" or is_mark(masked[start])):
        start += 1
    return start


def tick_before(masked, start, end):
    return any(ch in TICKS for ch in masked[start:end])


def ends_with(masked, start, end, marks):
    tail = masked[start:end].rstrip(" \t*_\ufe0f")
    return bool(tail) and tail[-1] in marks


def sentence_spans(masked, start, end):
    """The (start, end) of each sentence of masked[start:end]."""
    cut = start
    for match in _SENTENCE_END.finditer(masked, start, end):
        before = masked[cut:match.start()].rsplit(None, 1)
        if before and before[-1].lower() in _ABBREVIATIONS:
            continue
        yield cut, match.start()
        cut = match.end()
    yield cut, end


def trim(message, start, end):
    # Leading ticks, emoji and emphasis ("✅ **Pushed") are marks, not words of the claim.
    while start < end and not (message[start].isalnum() or message[start] in _KEEP_LEAD):
        start += 1
    while end > start and (message[end - 1] in _TRIM_END or is_mark(message[end - 1])):
        end -= 1
    return start, end
