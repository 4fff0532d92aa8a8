"""Decision table t10: table t9's decisions on t10's reading of the log
(reading_t10.py), with what t9 decided wrongly on set 11 (development data since run 11).
docs/facts.md says each reading with examples.

- A claim that quotes a command with a Windows program's suffix ("`npm.cmd run build`
  passes") is read as t10 reads the log: the program's plain name.
- A claim of how many of the tests passed ("212 of the 215 tests passed") is `shown` by
  the latest run of the tests where it printed exactly those counts (that many passed,
  that many in all) and nothing the claim does not say (no skipped test to account for),
  ran as the whole suite in place (its runner with options that only say how much it
  prints: no stop at the first failures, no selection, no environment set before it, no
  container; no step before it moved the folder or the code) and nothing it could use was
  edited after it; never `contradicted` by the failures it counts,
  which it admits. Any other answer to it is the models'.
- A claim of two things ("Confirmed the app runs headless and the unit tests pass", "The
  site was built and the artifact was uploaded") is not `shown` by the one the facts read
  where the other says an action or a state the facts do not read (it runs, was uploaded,
  was generated, completed, fixed, verified): that part is the models' to read.
- A failure is no longer the latest word on the tests where the last run, masked (`| tail`,
  `|| true`), ran the same suite in place (the failing run's own command, or a suite whose
  earlier whole run the failing run narrowed), printed its runner's count with none failed
  and at least as many tests as the run it supersedes: "all tests pass" is then `not shown`
  (the mask hides how that run ended), not `contradicted`. Every suite whose last run failed
  must be so superseded.
"""

import re

from . import decide_t8, decide_t9, events as ev, shell
from .decision import CONTRADICTED, SHOWN, Decision, edited_after, not_shown
from .reading_t10 import plain_programs
from ..patterns import lazy

VERSION = "t10"

# The joints of a claim of two things, and the words of an outcome the other thing claims.
_JOINT = lazy(r"\band\b|;")
_OUTCOME = lazy(r"\b(?:runs|running|starts?|started|starting|boots?|booted|booting|uploaded|"
                r"(?:re)?generated|created|completed|deployed|released|published|fixed|"
                r"implemented|updated|added|removed|verified|confirmed|resolved|migrated|"
                r"configured|refactored|wrote|written|returns?|returned|renders?|rendered|"
                r"loads?|loaded|responds?|responded|serves?|served|listens?|listening|"
                r"handles?|handled|applies|applied|gone)\b", re.I)
# The options a counted run may carry and still be the suite's whole run in place: how
# much it prints, nothing that stops, selects, reorders or moves it.
_PLAIN_OPTION = lazy(r"^-(?:v+|q+|s|r[a-zA-Z]+)$|^--(?:verbose|quiet|tb=\w+|no-header|"
                     r"colou?r(?:s|=\w+)?|ci|silent|runInBand|reporter=[\w-]+|no-cache|"
                     r"disable-warnings|durations=\d+|no-coverage)$")
# Programs that run a command in a container, on another machine or in another system.
_ELSEWHERE = lazy(r"\b(?:docker|podman|nerdctl|ssh|kubectl|oc|heroku|vagrant|wsl|lxc|"
                  r"fly|railway|gcloud|az|aws)\b", re.I)
# Steps before a run that move it to another folder or put other code in place.
_MOVES = {"cd", "pushd", "popd", "chdir", "set-location", "sl", "push-location", "pop-location"}
_GIT_SWAPS = {"checkout", "switch", "stash", "reset", "restore", "worktree", "bisect", "co",
              "rebase", "pull", "merge", "cherry-pick", "revert", "am", "apply", "-c", "-C"}
# The words of a part of a claim that point back at the run the facts read ("it completed",
# "confirmed by rerunning pytest", "the returns tests").
_BACK = lazy(r"^\s*(?:it|they|this|that|which|both)\b|\b(?:tests?|specs?|suite|"
             r"pytest|jest|vitest|build|built|lint|linter|type\s*checks?|tsc|re-?run\w*|"
             r"second\s+run|compil\w+)\b", re.I)
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
        _OUTCOME.search(part) and not read_frame_t10(part).kinds and not _BACK.search(part)
        for part in parts)


def _of_total(found, decision, log):
    """"N of M tests passed": a `shown` where the latest run the facts found printed
    exactly N passed and M in all, with no skipped test; else the models'."""
    if decision is None or decision.event is None or decision.event.family != ev.TESTS or \
            decision.event.counts is None:
        return None
    event = decision.event
    if event is not log.of(ev.TESTS)[-1] or event.status_is == "masked" or \
            edited_after(log, event) is not None or not _whole_run_in_place(log, event):
        return None
    passed, failed, skipped = event.counts
    if passed != int(found.group("n")) or passed + failed != int(found.group("total")) or \
            skipped or not failed:
        return None
    return Decision(SHOWN, "tests.of-total", event.turn, event.line, event)


def _whole_run_in_place(log, event):
    """True if the run's line is its runner with options that only say how much it prints
    (no stop at a failure, no selection, no environment set before it, no other folder, no
    container or remote), and no step up to it moved the folder or the code."""
    for command in log.commands[:event.turn + 1]:
        for step in shell.parse(command).steps:
            name = step.program.lower().rsplit("/", 1)[-1]
            if name in _MOVES or (name == "git" and set(step.args[:2]) & _GIT_SWAPS):
                return False
    command = log.commands[event.turn]
    line, first = shell.parse(command), command.split(None, 1)
    if len(line.runs) != 1 or not first or "=" in first[0] or _ELSEWHERE.search(command):
        return False  # a command of no words (a run read from its output alone) is none
    words = line.runs[0].args
    return all(not w.startswith("-") or _PLAIN_OPTION.match(w) for w in words) and \
        not any(w.startswith(("..", "/")) or "=" in w and not w.startswith("-")
                for w in words)


def _masked_pass_after(decision, log):
    """The last test run, where it came after the failure, was masked, ran in place,
    printed its runner's count with none failed and supersedes the last failing run of
    every suite; else None."""
    runs = [e for e in log.of(ev.TESTS) if e.outcome != ev.ECHO]
    if not runs or runs[-1].turn <= decision.turn:
        return None
    last = runs[-1]
    if last.outcome != ev.MASKED or last.counts is None or last.counts[1] or \
            not last.counts[0] or last.key.startswith("output:"):
        return None
    before = runs[:-1]
    latest = {e.key: e for e in before}  # each suite's last run before it
    failing = [e for e in latest.values() if e.outcome in (ev.FAILED, ev.MASKED) and
               (e.outcome == ev.FAILED or (e.counts and e.counts[1]))]
    if not failing or not all(_supersedes(last, e, before) and _same_place(last, e, log)
                              for e in failing):
        return None
    return last


def _same_place(last, failed, log):
    """True if both runs ran in the same folder: the one each line names (`cd app &&
    ...`), or, where neither names one, the log's own with no move before the last."""
    here, there = dict(last.detail).get("place"), dict(failed.detail).get("place")
    if here or there:
        return here == there
    return not decide_t8.moved(log, last)


def _total(event):
    return sum(event.counts) if event.counts else 0


def _supersedes(last, failed, before):
    """True if `last` reran the suite of the run that `failed`: the same command, with as
    many tests, or the suite whose earlier whole run `failed` narrowed."""
    if failed.key == last.key:
        return _total(last) >= _total(failed)
    whole = [e for e in before if e.key == last.key and e.turn < failed.turn and e.counts]
    return bool(whole) and _total(last) >= _total(whole[-1]) and (
        failed.counts is None or _total(failed) < _total(whole[-1]))
