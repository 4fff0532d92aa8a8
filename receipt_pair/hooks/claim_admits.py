"""A claim read with the failure it admits: "I ran the tests. One still fails (test_empty)".

An agent that reports a failure honestly often says it in the words right after a claim of
having run something: "Ran pytest; test_empty still fails", "I ran the tests. One still
fails, so I left it for you." Cut apart, "ran the tests" alone reads as a claim that the
tests came out well, and the failure it ran into would be held against the agent for a
report it made itself. So a claim of running something that can fail (tests, a build,
lint, as the facts read the claim) that names no result of its own ("ran the tests", not
"all tests pass") and is followed, in its sentence or the next one of the same line, by
words that admit a failure carries those words as its `context`, and is checked with them
as written ("ran the tests. One still fails (test_empty)"): the facts read that as the
failure admitted, never contradicted. A claim of a result ("All tests pass. One still
fails.") is left as it is: a failure beside it does not make it true.

Plain code, no model; claims.py calls `admitted` on the rows it found.
"""

from itertools import islice

from .claim_text import sentence_spans, trim
from .claim_words import CLAIM, classify, plain
from ..patterns import lazy

# Words that admit a failure, and counts of nothing failing that admit none.
_FAILURE = lazy(r"\b(?:fail(?:s|ed|ing|ures?)?|errors?|errored|erroring|broken|"
                r"crash(?:es|ed|ing)?|timed out|panic(?:s|ked)?)\b")
# What only might fail is no admission: "... attaches the logs when a test fails".
_CONDITION = lazy(r"\b(?:when|whenever|if|unless|in case|would|could|might|may)\b")
_NO_FAILURE = lazy(r"\b(?:0|zero|no|without(?: any)?|none)\s+(?:\w+\s+){0,2}?"
                   r"(?:fail\w*|errors?)\b|\bno longer (?:fails|errors|crashes)\b")
# Words of a result: a claim that says one stands on its own ("All tests pass").
_RESULT = lazy(r"\b(?:pass(?:es|ed|ing)?|green|succe\w*|ok|okay|clean|works?|worked|working|"
               r"fixed|resolved|done|complete[sd]?|finished|live|up to date|pushed|merged|"
               r"deployed|released|published|committed|tagged|installed|built|compiles?|"
               r"compiled|exits? 0|no (?:errors|failures|problems|issues))\b")
# How far past a claim its admission is looked for: a line of thousands of claims is still
# read in time that grows with its length.
_WINDOW = 600


def admitted(message, masked, rows):
    """`rows` (start, end, text, context), each claim that names no result and is followed
    by the failure it admits read with it: its text runs from its span to the end of the
    admission, as written, and the admission is its context. Spans do not change."""
    out = list(rows)
    for index, (start, end, text, context) in enumerate(rows):
        if text is not None or context is not None or _RESULT.search(
                plain(message[start:end])):
            continue
        following = rows[index + 1][0] if index + 1 < len(rows) else len(message)
        found = _admission(message, masked, end, following)
        if found and _runs_something(message[start:end]):
            out[index] = (start, end, " ".join(message[start:found[1]].split()),
                          " ".join(message[found[0]:found[1]].split()))
    return out


def _admission(message, masked, end, following):
    """The (start, end) of the words after a claim ending at `end` that admit a failure:
    the rest of its sentence, or else the next sentence of its line, ending before the
    next claim (at `following`); None when there are none."""
    line_end = message.find("\n", end)
    line_end = len(message) if line_end < 0 else line_end
    window = min(line_end, end + _WINDOW)
    spans = list(islice(sentence_spans(masked, end, window), 3))
    rest = trim(message, *spans[0])
    pick = 0 if rest[1] > rest[0] else 1
    if pick >= len(spans) or (pick == len(spans) - 1 and spans[pick][1] != line_end):
        return None  # no such sentence, or one longer than the window
    words_start, words_end = trim(message, *spans[pick])
    if words_end <= words_start or words_end > following:
        return None
    words = message[words_start:words_end]
    asks = words.rstrip(" *_").endswith("?") or message[words_end:spans[pick][1]].strip() \
        .startswith("?")
    if asks or classify(words) == CLAIM:
        return None  # a question, or a claim of its own
    said = _NO_FAILURE.sub(" ", plain(words))
    return (words_start, words_end) if _FAILURE.search(said) and not _CONDITION.search(said) \
        else None


def _runs_something(claim):
    """Whether the claim is about an operation whose run can fail (tests, a build, lint, a
    push ...), as the facts read it: only such a run's failure can be the one admitted."""
    from ..facts.frame import read_frame

    return bool(read_frame(claim).kinds)
