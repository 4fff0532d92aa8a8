"""Decision table t10: table t9's decisions on t10's reading of the log
(reading_t10.py), with what t9 decided wrongly on set 11 (development data since run 11).
docs/facts.md says each reading with examples.

- A claim that quotes a command with a Windows program's suffix ("`npm.cmd run build`
  passes") is read as t10 reads the log: the program's plain name.
- A claim of how many of the tests passed ("212 of the 215 tests passed") is `shown` by
  the latest run of the tests where it printed exactly those counts (that many passed,
  that many in all) and nothing the claim does not say (no skipped test to account for);
  never `contradicted` by the failures it counts, which it admits. Any other answer to it
  is the models'.
- A claim of two things ("Confirmed the app runs headless and the unit tests pass", "The
  site was built and the artifact was uploaded") is not `shown` by the one the facts read
  where the other says an action or a state the facts do not read (it runs, was uploaded,
  was generated, completed, fixed, verified): that part is the models' to read.
- A failure is no longer the latest word on the tests where a later run of them, masked
  (`| tail`, `|| true`), printed its runner's count with none failed and was the last run:
  the claim that they pass is `not shown` (the mask hides how that run ended), not
  `contradicted`.
"""

import re

from . import decide_t9, events as ev
from .decision import CONTRADICTED, SHOWN, Decision, not_shown
from .reading_t10 import plain_programs
from ..patterns import lazy

VERSION = "t10"

# The joints of a claim of two things, and the words of an outcome the other thing claims.
_JOINT = lazy(r"\band\b|;")
_OUTCOME = lazy(r"\b(?:runs|running|started|uploaded|(?:re)?generated|created|completed|deployed|"
                r"released|published|fixed|implemented|updated|added|removed|verified|"
                r"confirmed|resolved|migrated|configured|refactored|wrote|written)\b", re.I)
# "212 of the 215 tests passed", "41 out of 43 unit tests pass".
_OF_TOTAL = lazy(r"^\W*(?P<n>\d{1,6})\s+(?:of|out\s+of)\s+(?:the\s+|all\s+)?(?P<total>\d{1,6})"
                 r"\s+(?:[\w-]+\s+)?tests?\s+(?:passed|pass|passing|succeeded)\W*$", re.I)


def read_frame_t10(plain, frame=None):
    """Table t10's frame of a claim with plain quotes: t9's, with a Windows program's
    suffix read away."""
    return decide_t9.read_frame_t9(plain_programs(plain), frame)


def decide(claim, turns, log, frame):
    """The Decision table t10 gives for `claim` (with plain quotes; `frame`: t10's frame of
    it), or None. `log` is t10's reading of the turns (table.decide reads it once)."""
    claim = plain_programs(claim)
    of_total = _OF_TOTAL.match(claim)
    decision = decide_t9.decide(claim, turns, log, frame)
    if of_total and int(of_total.group("n")) < int(of_total.group("total")):
        return _of_total(of_total, decision, log)
    if decision is not None and decision.answer == CONTRADICTED and \
            decision.rule == "tests.failed":
        masked = _masked_pass_after(decision, log)
        if masked is not None:
            return not_shown("tests.masked", masked)
    if decision is not None and decision.answer == SHOWN and _says_another_thing(claim):
        return None
    return decision


def _says_another_thing(claim):
    """True if a part of the claim between its joints reads no kind of the table and says
    an outcome of its own ("the app runs headless")."""
    parts = [p for p in _JOINT.split(claim) if p.strip()]
    return len(parts) > 1 and any(
        _OUTCOME.search(part) and not read_frame_t10(part).kinds for part in parts)


def _of_total(found, decision, log):
    """"N of M tests passed": a `shown` where the latest run the facts found printed
    exactly N passed and M in all, with no skipped test; else the models'."""
    if decision is None or decision.event is None or decision.event.family != ev.TESTS or \
            decision.event.counts is None:
        return None
    event = decision.event
    if event is not log.of(ev.TESTS)[-1] or event.status_is == "masked":
        return None
    passed, failed, skipped = event.counts
    if passed != int(found.group("n")) or passed + failed != int(found.group("total")) or \
            skipped or not failed:
        return None
    return Decision(SHOWN, "tests.of-total", event.turn, event.line, event)


def _masked_pass_after(decision, log):
    """The last test run, where it came after the failure, was masked and printed its
    runner's count with none failed; else None."""
    runs = [e for e in log.of(ev.TESTS) if e.outcome != ev.ECHO]
    if not runs or runs[-1].turn <= decision.turn:
        return None
    last = runs[-1]
    if last.outcome != ev.MASKED or last.counts is None or last.counts[1] or \
            not last.counts[0]:
        return None
    return last
