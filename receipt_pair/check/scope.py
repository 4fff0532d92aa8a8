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

And one rule that only takes a `shown` away: what an agent's own edit or write tool
returned ("Wrote file successfully.", "Success. Updated the following files:"), or a
commit's line (`[main 8ea0ede] test: add headless test`) quoted for a claim that is not
about a commit, is the agent's own words or the report of its edit, never a result of
running anything (set 6's labelling rule, and check c5's rule for claims of runs, now for
every claim).
"""

import re

from . import kinds
from ..answers import CONTRADICTED_NO_ERRORS, CONTRADICTED_OTHER_PART, SHOWN_NOT_A_RESULT
from ..facts import events as ev
from ..facts.files import is_edit_tool
from ..facts.git import commit_line
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


def edit_or_commit(claim, cmd, lines):
    """True if the quoted lines are an edit tool's result or the report of an edit (for a
    claim that is not about the edit itself), or a commit's line for a claim that is not
    about a commit (neither says it committed nor names the commit's sha)."""
    tool = (cmd or "").strip().split(None, 1)
    edit = bool(tool) and is_edit_tool(tool[0].rstrip(":")) or any(
        kinds.edit_report(line) or _PATCHED.match(line.strip()) for line in lines)
    if edit:
        return not _ABOUT_THE_EDIT.search(claim)
    made = [m for m in (commit_line(line) for line in lines) if m is not None]
    if not made:
        return False
    frame = claim_frame(claim, "t4")
    named = any(m.group("sha").startswith(s) or s.startswith(m.group("sha"))
                for m in made for s in frame.shas)
    return ev.COMMIT not in frame.kinds and not named


# A claim about the edit itself ("the edit succeeded"), which the edit's report shows.
_ABOUT_THE_EDIT = lazy(r"\b(?:the|my|this|that|these|those)\s+(?:\w+\s+)?edits?\s+(?:"
                       r"succeeded|worked|went\s+through|(?:was|were|got)\s+applied)\b", re.I)


# apply_patch's own report (Codex).
_PATCHED = lazy(r"^Success\. Updated the following files:")


def refusal(verdict, claim, lines, cmd=""):
    """The code of c7's refusal of a checked answer, or None."""
    if not claim:
        return None
    if verdict == "shown":
        return SHOWN_NOT_A_RESULT if edit_or_commit(claim, cmd, lines) else None
    if verdict != "contradicted":
        return None
    if no_errors(claim, lines):
        return CONTRADICTED_NO_ERRORS
    if other_part(claim, lines):
        return CONTRADICTED_OTHER_PART
    return None
