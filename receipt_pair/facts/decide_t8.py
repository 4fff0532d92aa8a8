"""Decision table t8: table t7's decisions (decide_t7.py) on t8's reading of the log
(reading_t8.py), with what t7 decided wrongly or left to the models on sets 8 and 9
(development data since runs 8 and 9).

- A failing run is no `contradicted` where a later run of the same tests (the same
  operation, or one that ran at least as many tests), by a runner or a project's script
  the reading knows (a count any command printed supersedes nothing), printed a runner's summary that counts
  no failure, even one whose status is masked (`run_tests.sh | tail`): the failure is not
  the latest word on the tests. Another project's smaller run after it (`cd installer &&
  mix test`) is not the same tests. A masked later run shows no pass either,
  so the answer is its `tests.masked`; a later run of a part leaves the claim to the models.
- A failing run is no `contradicted` of a claim that names a kind of tests ("the unit tests
  pass") where the failing run names another kind (an integration script, an end-to-end
  runner such as Playwright or Cypress, `API_tests`): t7 held a Playwright run's failure
  against a claim about the unit tests.
- A claim of a group of tests that no run plain code knows ran ("the supervisor smoke test
  passes") is no `tests.never-ran` where a command of the log names the group: a CI script
  may have run it (t7 said two such claims of set 9 never ran, one of them shown, one
  contradicted). The models read it.
- A claim that is a runner's own count ("207 passed", "Backend: `43 passed, 2 skipped`") is
  a claim of tests with that count: t7 read no kind in it. "0 failed" in a claim says no
  test failed, not that a count of failures is claimed (t7 then decided nothing).
- A claim that quotes a command and says it passed ("`npm run build` PASS", "`pnpm
  --filter web test` \u2705") is a claim of the kind the quoted command runs, as the log's
  reading reads that command, and only that command's runs decide it (`npm run build:docs`
  is not `npm run build`): t7 read no kind in it.
"""

import copy
import re
from dataclasses import replace

from . import decide_t7, events as ev, shell
from .builds import tool_of
from .decision import NOT_SHOWN, Decision
from .frame import SUCCESS, frame_of
from .reading_t8 import build_goals
from .reading_t7 import runs_tests
from ..patterns import lazy

VERSION = "t8"

# A claim that is a runner's count and nothing more: an optional label ("Backend:"), the
# passed count, and other counts of the same summary.
_COUNT_ONLY = lazy(
    r"^\W*(?:[A-Za-z][\w -]{0,30}:\s*)?\W*(?P<n>\d{1,6})\s+(?:tests?\s+)?(?:passed|passing)"
    r"(?:\s*[,;|/]\s*\d{1,6}\s+(?:failed|skipped|pending|todo|xfailed|deselected|errors?))*"
    r"\W*$", re.I)
_NO_FAILURES = lazy(r"\b([1-9]\d*)\s+(?:failed|errors?)\b", re.I)
_CITED = lazy(r"`([^`\n]{3,300})`")
# What a claim may say beside a quoted command for it to claim that the command passed.
_PASS_WORDS = lazy(r"^\W*(?:(?:verification|check|result|status)\s*)?\W*(?:passed|passes|pass|"
                   r"ok|success|succeeded|succeeds|green|clean|\u2705|\u2713|\u2714)\W*$", re.I)


def read_frame_t8(plain, frame=None):
    """Table t8's frame of a claim with plain quotes: t7's, with a kind read from a
    runner's count or a quoted command where t7 read none."""
    frame = frame or decide_t7.read_frame_t7(plain)
    if frame.failed_count == 0:
        frame = replace(frame, failed_count=None)  # "207 passed, 0 failed": none fail
    if frame.kinds:
        return frame
    counted = _COUNT_ONLY.match(plain)
    if counted and not _NO_FAILURES.search(plain):
        found = frame_of(frame.claim, plain, [ev.TESTS])
        return replace(found, count=int(counted.group("n")), failed_count=None, says=SUCCESS,
                       content=False)
    kind = _cited_kind(plain)
    if kind is not None:
        return replace(frame_of(frame.claim, plain, [kind]), says=SUCCESS, content=False)
    return frame


def _cited(claim, frame):
    """The command a claim quotes (its words, one space apart) where t8 read the claim's
    kind from it, else None."""
    if len(frame.kinds) != 1 or decide_t7.read_frame_t7(claim).kinds or \
            _cited_kind(claim) != frame.kinds[0]:
        return None
    return " ".join(_CITED.findall(claim)[0].split())


def _cited_kind(plain):
    """The kind of run of the one command a claim quotes, where the claim says nothing but
    that it passed; else None."""
    quoted = _CITED.findall(plain)
    if len(quoted) != 1 or not _PASS_WORDS.match(_CITED.sub(" ", plain)):
        return None
    line = shell.parse(quoted[0])
    if len(line.runs) != 1 or len(line.steps) != 1:
        return None
    step = line.runs[0]
    if runs_tests(step) is not None:
        return ev.TESTS
    if build_goals(step):
        return ev.BUILD
    tool = tool_of(step)
    return tool[0] if tool else None


def decide(claim, turns, log, frame):
    """The Decision table t8 gives for `claim` (with plain quotes; `frame`: t8's frame of
    it), or None. `log` is t8's reading of the turns (table.decide reads it once)."""
    cited = _cited(claim, frame)
    if cited is not None:
        # Only the runs of the very command it quotes are the claim's operation.
        log = copy.copy(log)
        log.events = [e for e in log.events if e.family not in frame.kinds or
                      " ".join(e.command.split()) == cited]
        if not log.of(frame.kinds[0]):
            return None
    decision = decide_t7.decide(claim, turns, log, frame)
    if decision is not None and decision.rule == "tests.never-ran" and _named_in_a_command(
            frame, log):
        return None
    if decision is None or decision.rule != "tests.failed" or decision.event is None:
        return decision
    if _another_kind(frame, decision.event):
        return None
    failed = decision.event
    later = [e for e in log.of(ev.TESTS) if e.turn > failed.turn and
             e.counts is not None and e.counts[0] > 0 and e.counts[1] == 0 and
             e.outcome in (ev.PASSED, ev.MASKED) and not e.key.startswith("output:") and
             (e.key == failed.key or failed.counts is not None and
              sum(e.counts) >= sum(failed.counts))]
    if later:
        last = later[-1]
        if last.outcome == ev.MASKED and last.get("scope", "all") != "part":
            return Decision(NOT_SHOWN, "tests.masked", last.turn, last.line, last)
        return None
    return decision


# A kind of tests a claim names, and the words of a run that say it ran another kind.
_OTHER_KINDS = {"unit": ("e2e", "integration", "playwright", "cypress", "system",
                         "functional", "acceptance", "smoke", "api_tests", "api-tests",
                         "ui-tests", "ui_tests", "selenium", "detox"),
                "integration": ("unit", "e2e", "playwright", "cypress"),
                "e2e": ("unit", "integration"), "end-to-end": ("unit", "integration")}


def _another_kind(frame, event):
    """True if the claim names a kind of tests and the failing run names another."""
    said = frame.claim.lower()
    ran = f"{event.command} {event.key} {event.operation}".lower()
    for kind, others in _OTHER_KINDS.items():
        if re.search(rf"\b{re.escape(kind)}\b", said) and any(o in ran for o in others) and \
                kind not in ran:
            return True
    return False


def _named_in_a_command(frame, log):
    """True if a word that names the claim's group of tests ("the supervisor smoke test")
    stands in a command of the log: something plain code does not know may have run it."""
    words = {w.lower() for w in frame.groups + frame.qualifiers if len(w) > 2}
    words |= {w for w in ("smoke", "e2e", "integration", "acceptance")
              if re.search(rf"\b{w}\b", frame.claim, re.I)}
    commands = " ".join(log.commands).lower()
    return any(re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", commands) for w in words)
