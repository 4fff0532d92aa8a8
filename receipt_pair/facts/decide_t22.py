"""Decision table t22: table t21 on t21's reading, with a claim about a commit read where
the commit is the sentence's subject ("The commit was successful.", "Commit created
successfully!", "your git commit (`29b2276`) was completely successful", "Both commits
landed."): every table before read a commit claim only from its verb ("committed", "made a
commit") or a sha after "commit:", so such a claim read no kind and went to the models,
where the commit line (`[main 29b2276] ...`) or git's refusal decides it as it decides
"I committed the fix". Only a claim that reads no other kind is read so, and "both
commits" needs two commit lines, as t19 holds "2 commits" to them.
"""

import re
from dataclasses import replace

from . import decide_t16, decide_t19, decide_t21, events as ev
from .decision import SHOWN
from ..patterns import lazy

VERSION = "t22"

# A claim whose subject is the commit, and what it says of it.
_COMMIT_SUBJECT = lazy(
    r"^\W*(?:(?:the|my|your|our|both|all|this|that)\s+)?(?:git\s+)?commits?"
    r"(?:\s*\(?`?[0-9a-f]{7,40}`?\)?)?\s+(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?"
    r"(?:\w+\s+)?(?:successful(?:ly)?|succeeded|created(?:\s+successfully)?|made|done|"
    r"landed|complete[ds]?|went\s+through)\W*$|"
    r"^\W*(?:git\s+)?commit\s+(?:successful|succeeded|created|made|done)\W*$", re.I)
_BOTH = lazy(r"^\W*both\s+(?:git\s+)?commits\b", re.I)


def read_frame_t22(plain, frame=None):
    """Table t22's frame of a claim with plain quotes: t16's, with a commit read where the
    commit is the sentence's subject and no other kind is read."""
    frame = decide_t16.read_frame_t16(plain, frame)
    if not frame.kinds and _COMMIT_SUBJECT.match(plain):
        frame = decide_t16.read_frame_t16(plain, replace(frame, kinds=(ev.COMMIT,)))
    return frame


def decide(claim, turns, log, frame):
    """The Decision table t22 gives for `claim` (with plain quotes; `frame`: t22's frame of
    it), or None. `log` is t21's reading of the turns."""
    decision = decide_t21.decide(claim, turns, log, frame)
    if decision is not None and decision.answer == SHOWN and _BOTH.match(claim) and \
            decision.rule.startswith(("commit.", "push.")) and \
            decide_t19._too_few_commits(claim, log, wanted=2):
        return None
    return decision
