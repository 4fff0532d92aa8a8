"""Check c7: a model's `contradicted` must be about what the claim is about, as the facts'
table holds its own (facts/decide_t4.py). Each rule only takes a `contradicted` away.

- A claim about a part of the tests ("the debuginfo test suite passed", "all 13 tests in
  that file", "test_parser passes") is not contradicted by a failure line that names none
  of that part: another test's panic, a whole run's "25 tests failed". A line that names
  the part (`test result: FAILED ... debuginfo`, `FAILED tests/test_parser.py::...`) still
  stands.
- A lint or type check's summary that counts no error ("✖ 5 problems (0 errors, 5
  warnings)", "0 errors, 3 warnings", "Found 0 errors") is no failure, unless the claim
  says there were no warnings.
"""

import re

from ..answers import CONTRADICTED_NO_ERRORS, CONTRADICTED_OTHER_PART
from ..facts import events as ev
from ..facts.table import UNNAMED, claim_frame
from ..patterns import lazy

_NO_ERRORS = lazy(r"\b0 errors?\b(?!\w)|\bFound 0 errors?\b|\bno errors\b", re.I)
_SOME_ERRORS = lazy(r"\b[1-9]\d* errors?\b|\berror TS\d+|\berror\[", re.I)
_NO_WARNINGS_CLAIMED = lazy(r"\b(?:no|zero|0|without(?: any)?)\s+warnings?\b|"
                            r"\bwarning[- ]free\b", re.I)


def _squeezed(text):
    return re.sub(r"[-_./\s:]+", "", text.lower())


def other_part(claim, lines):
    """True if `claim` is about a part of the tests and no quoted line names that part."""
    frame = claim_frame(claim, "t4")
    if ev.TESTS not in frame.kinds or frame.whole:
        return False
    if frame.groups == (UNNAMED,):
        return True  # named by pointing: no line can be shown to name it
    text = _squeezed(" ".join(lines))
    wanted = [_squeezed(w) for w in frame.parts + frame.groups if w != UNNAMED]
    return not any(w and w in text for w in wanted)


def no_errors(claim, lines):
    """True if every quoted line is a summary that counts no error, and the claim does not
    say there were no warnings."""
    if not lines or _NO_WARNINGS_CLAIMED.search(claim or ""):
        return False
    return all(_NO_ERRORS.search(line) and not _SOME_ERRORS.search(line) for line in lines)


def refusal(verdict, claim, lines):
    """The code of c7's refusal of a checked `contradicted`, or None."""
    if verdict != "contradicted" or not claim:
        return None
    if no_errors(claim, lines):
        return CONTRADICTED_NO_ERRORS
    if other_part(claim, lines):
        return CONTRADICTED_OTHER_PART
    return None
