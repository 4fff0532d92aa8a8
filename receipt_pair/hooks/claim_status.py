"""Short statuses: a sentence of a few words that says an operation was done or a check came
out well, with nothing of its own that it was done to ("Fixed.", "Deployed.", "Types check.",
"Lints clean.", "Done."), and the sentence it leans on for what it is about.

    Added a lock around the charge path. Fixed.
    -> the span "Fixed", leaning on "Added a lock around the charge path":
       checked as "Added a lock around the charge path. Fixed"

The rule, in order:

1. A short status is a whole sentence, ending in ".", "!" or a tick, of at most four words,
   every one of them a past form of work done ("fixed", "deployed", "committed"), a word of a
   check ("types check", "lints clean", "compiles", "green"), a word of completion ("done",
   "complete", "all set") or a filler ("now", "all", "also", "and"). What is a claim by its
   own words ("Tests pass.", "Typecheck clean.") stays as it is and leans on nothing.
2. It leans on the nearest sentence before it in its row, else on the last sentence of the
   prose line right before it in the same paragraph; where there is none, on the sentence
   after it in its row ("Fixed. The issue was on line 867 ..."). Interjections ("Perfect!",
   "Great news!") and other statuses are passed over, at most three sentences each way.
   A question, a plan or offer, a hedge, an instruction or a lead ending in ":" cannot be
   leaned on: the search stops there.
3. A status that names an operation or a check is a claim: with the sentence it leans on,
   or, with nothing to lean on, by itself ("Committed." as a message of its own). A status
   of completion alone ("Done.", "All done!", "All set.") is never a claim: what was done is
   the claim beside it ("Done! I've moved task 2.3 to the backlog"), or nothing to check
   ("All done. Thanks for your patience").

Under a heading of next steps or instructions no status is read (claims.py).
"""

import re

from .claim_words import DONE_VERBS, NEUTRAL, TICKS, classify, not_yet_done, plain, \
    strip_marks
from ..patterns import lazy

OPERATION, COMPLETION = "operation", "completion"
_MAX_WORDS = 4
_MAX_LOOK = 3  # sentences searched each way, so a row of thousands of statuses stays linear
_COMPLETION = frozenset("done complete completed finished set".split())
_CHECK = frozenset((
    "check checks checked checking types type typecheck typechecks typechecked type-check "
    "type-checks type-checked lint lints linted tests test build builds built compiles "
    "compiled passes pass passing passed green clean works working ci suite verified "
    "confirmed live deployed online"
).split())
_FILLER = frozenset((
    "now all also both and too again just already then locally successfully cleanly "
    "everything it it's its that's ok okay fine"
).split())
# Courtesies say nothing of the work, whatever their length: passed over like "Perfect!".
_COURTESY = lazy(r"^(?:thanks|thank you|hope|cheers|enjoy|glad|happy|sorry|great|"
                       r"perfect|excellent|awesome|nice|good news|all good)\b")


def status_of(text):
    """OPERATION or COMPLETION when `text` is a short status (rule 1), else None."""
    end = text.rstrip().rstrip("*_ \ufe0f")
    if not end or not (end.endswith((".", "!")) or end[-1] in TICKS):
        return None
    words = plain(strip_marks(text)).replace(",", " ").strip(" .!").split()
    if not words or len(words) > _MAX_WORDS:
        return None
    kinds = set()
    for word in words:
        if word in _COMPLETION:
            kinds.add(COMPLETION)
        elif word in _CHECK or word in DONE_VERBS:
            kinds.add(OPERATION)
        elif word not in _FILLER:
            return None
    if not kinds or classify(text) != NEUTRAL:
        return None
    return OPERATION if OPERATION in kinds else COMPLETION


def lean(message, spans, index, kind, before=None):
    """The claim the short status at `spans[index]` makes (rules 2 and 3), as (start, end,
    text, context), or None. `spans` are the trimmed (start, end) spans of its row's
    sentences, `kind` what status_of said of it, `before` the last sentence of the prose
    line before it in its paragraph."""
    if kind != OPERATION:
        return None
    start, end = spans[index]
    earlier = [spans[j] for j in range(index - 1, max(-1, index - 1 - _MAX_LOOK), -1)]
    if before is not None:
        earlier.append(before)
    later = spans[index + 1:index + 1 + _MAX_LOOK]
    target = _nearest(message, earlier) or _nearest(message, later)
    if target is None:
        return start, end, message[start:end], None
    first, last = min(start, target[0]), max(end, target[1])
    return (start, end, " ".join(message[first:last].split()),
            " ".join(message[target[0]:target[1]].split()))


def _nearest(message, candidates):
    """The first candidate that can be leaned on, passing over interjections and statuses;
    None at the first that cannot (a question, plan, hedge or lead) or when none is left."""
    for start, end in candidates:
        said = message[start:end]
        if status_of(said + ".") or _interjection(said):
            continue
        return None if not_yet_done(message[start:_line_end(message, end)]) else (start, end)
    return None


def _line_end(message, end):
    # A lead's ":" and a question's "?" lie just past the trimmed span: read up to them.
    while end < len(message) and message[end] in "?:*_ " and message[end] != "\n":
        end += 1
    return end


def _interjection(text):
    """"Perfect!", "Great news!": a word or two that say nothing of the work."""
    words = plain(text).split()
    if _COURTESY.match(plain(text)):
        return True
    return len(words) <= 2 and classify(text) == NEUTRAL and not any(
        ch.isdigit() or ch == "`" for ch in text)
