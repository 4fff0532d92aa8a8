"""Decision table t15: table t14 made more careful where a review found it gave answers it
could not be sure of (docs/facts.md, "t15"). It only takes answers away from t14, or gives
back t13's where t14 took a right one away.

- Its reading (reading_t15.py) takes gh's columns off only where the whole log is a CI
  job's log, not where one turn looks like a CI step's.
- A publish t14 read by npm's own tarball notice is left to the models where npm ran the
  package's `publish` or `postpublish` script (npm prints `+ name@version` only after
  them, so a script that failed after the upload leaves no such line and a failing status),
  or where npm says it ran as a dry run (`(dry-run)`, set by a config or the environment,
  not the command line).
- A subject that joins a second thing to the tests is read with its articles apart from
  its words: t14 read "The tests and the build pass" as joining "the" to the tests and
  took t13's right answer away.
"""

import re

from . import decide_t13, decide_t14
from .decision import SHOWN
from .frame import read_frame
from ..patterns import lazy

VERSION = "t15"

# npm's header of a package script it runs after the upload, and its word for a dry run.
_AFTER_UPLOAD = lazy(r"^> \S+@\S+ (?:publish|postpublish)$|\(dry-run\)")
# A subject of two things joined, as t14 reads it, with the articles kept out of the things.
_THING = rf"(?:(?!(?:{decide_t14.VERBS}|the|an?|my|our)\b)[\w./-]+)"
_JOINT_SUBJECT = lazy(rf"^\W*(?:both\s+)?(?:the\s+|all\s+|our\s+|my\s+)?{_THING}"
                      rf"(?:\s+{_THING})?,?\s+{decide_t14.JOINER}\s+(?:the\s+|an?\s+|my\s+|our\s+)?"
                      rf"(?P<second>{_THING}(?:\s+{_THING}){{0,2}}?),?\s+{decide_t14.VERBS}\b",
                      re.I)


def decide(claim, turns, log, frame):
    """The Decision table t15 gives for `claim` (with plain quotes; `frame`: t12's frame of
    it), or None. `log` is t15's reading of the turns."""
    decision = decide_t13.decide(claim, turns, log, frame)
    if decision is None:
        decision = decide_t14.published_as_npm_says(claim, turns, log, frame)
        if decision is not None and any(_AFTER_UPLOAD.search(line.strip())
                                        for line in log.lines[decision.turn]):
            return None
    if decision is None:
        return None
    if decision.answer == SHOWN and (decide_t14.names_a_pull_request(claim, decision) or
                                     _joint_subject(claim)):
        return None
    return decision


def _joint_subject(claim):
    """t14's reading of a subject that joins a thing of no kind to the tests, with the
    articles apart from the things."""
    found = _JOINT_SUBJECT.match(decide_t13.decide_t12.in_english(claim))
    return found is not None and not read_frame(f"{found.group('second')} pass").kinds
