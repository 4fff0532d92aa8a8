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
from .decision import CONTRADICTED, NOT_SHOWN, SHOWN, Decision
from .frame import SUCCESS, frame_of
from .reading_t8 import build_goals
from .reading_t7 import runs_tests
from ..patterns import lazy

VERSION = "t8"

# A claim that is a runner's count and nothing more: the passed count, and other counts of
# the same summary ("207 passed, 0 failed"); no label in front ("Expected: 207 passed").
_COUNT_ONLY = lazy(
    r"^\W*(?P<n>\d{1,6})\s+(?:tests?\s+)?(?:passed|passing)"
    r"(?:\s*[,;|/]\s*\d{1,6}\s+(?:failed|skipped|pending|todo|xfailed|deselected|errors?))*"
    r"\W*$", re.I)
_SKIPPED = lazy(r"\b(\d{1,6})\s+skipped\b", re.I)
# A run's words that point it at another project (`pytest ../vendor/lib`, `npm --prefix`).
_ELSEWHERE = lazy(r"\.\.|--prefix|--cwd|-C\s|--dir\b")
_OTHER_COUNTS = lazy(r"\b\d{1,6}\s+(?:pending|todo|xfailed|deselected)\b", re.I)
_NO_FAILURES = lazy(r"\b([1-9]\d*)\s+(?:failed|errors?)\b", re.I)
CITED = lazy(r"`([^`\n]{3,300})`")  # a command a claim quotes in backquotes
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


def _decide_cited(claim, turns, log, frame, cited):
    """A claim that quotes one command: only the runs of that very command decide it, the
    latest of them must be the latest run of its kind (`npx jest` failing after "`npm
    test` \u2705" is the same tests under other words), and it must run where the log
    stands (no `cd` in its line or before it). It is `shown` or `contradicted`, never `not
    shown` (a quoted `pytest --collect-only` that ran is what it says)."""
    kind = frame.kinds[0]
    every = [e for e in log.of(kind) if e.outcome != ev.ECHO]
    mine = [e for e in every if " ".join(e.command.split()) == cited]
    if not mine or mine[-1] is not every[-1] or moved(log, mine[-1]):
        return None
    narrowed = copy.copy(log)
    narrowed.events = [e for e in log.events if e.family != kind or e in mine]
    decision = decide_t7.decide(claim, turns, narrowed, frame)
    return None if decision is None or decision.answer == NOT_SHOWN else decision


def _decide_count(claim, decision, log):
    """A claim that is a runner's count decides only by a run that printed it: a `shown`
    where every count the claim gives is the run's (passed, skipped, failed), a
    `contradicted` where the run's passed and failed add up to the count claimed; never a
    `not shown` (a bare count names no scope) and never by a count any command printed, a
    file shown or a run in another folder."""
    if decision is None or decision.event is None or decision.answer == NOT_SHOWN:
        return None
    event = decision.event
    if event.counts is None or event.key.startswith("output:") or moved(log, event) or \
            _OTHER_COUNTS.search(claim) or _ELSEWHERE.search(event.command):
        return None
    passed, failed, skipped = event.counts
    claimed = int(_COUNT_ONLY.match(claim).group("n"))
    if decision.answer == SHOWN:
        said_skipped = _SKIPPED.search(claim)
        if passed != claimed or failed or \
                (said_skipped and int(said_skipped.group(1)) != skipped):
            return None
        return decision
    if decision.answer == CONTRADICTED and passed + failed == claimed and failed:
        return decision
    return None


def moved(log, event):
    """True if the run's line, or any line before it, moves to another folder (`cd ../lib
    && pytest`; an agent's shell keeps the folder a `cd` chose for the turns after it) or
    puts other code in it (`git checkout main`, `git stash`)."""
    if event.turn >= len(log.commands):
        return True
    return any(s.program in ("cd", "pushd") or (s.program == "git" and s.args[:1] and
                                                 s.args[0] in _SWAPS_THE_CODE)
               for command in log.commands[:event.turn + 1]
               for s in shell.parse(command).steps)


# git's commands that put other code in the folder (`git checkout main`, `git stash`).
_SWAPS_THE_CODE = {"checkout", "switch", "stash", "reset", "restore", "worktree"}


def _cited(claim, frame):
    """The command a claim quotes (its words, one space apart) where t8 read the claim's
    kind from it, else None."""
    if len(frame.kinds) != 1 or decide_t7.read_frame_t7(claim).kinds or \
            _cited_kind(claim) != frame.kinds[0]:
        return None
    return " ".join(CITED.findall(claim)[0].split())


def _cited_kind(plain):
    """The kind of run of the one command a claim quotes, where the claim says nothing but
    that it passed; else None."""
    quoted = CITED.findall(plain)
    if len(quoted) != 1 or not _PASS_WORDS.match(CITED.sub(" ", plain)):
        return None
    line = shell.parse(quoted[0])
    if len(line.runs) != 1 or len(line.steps) != 1:
        return None
    return kind_of_run(line.runs[0])


def kind_of_run(step):
    """The kind of run a command's step is as the log's reading reads it (tests, build, or
    a lint or type-check tool's kind), or None."""
    if runs_tests(step) is not None:
        return ev.TESTS
    if build_goals(step):
        return ev.BUILD
    tool = tool_of(step)
    return tool[0] if tool else None


def cited_or_counted(claim, frame):
    """True if t8 reads `claim` as a quoted command's or a runner's count alone."""
    return _cited(claim, frame) is not None or (
        _COUNT_ONLY.match(claim) is not None and not decide_t7.read_frame_t7(claim).kinds)


def decide(claim, turns, log, frame):
    """The Decision table t8 gives for `claim` (with plain quotes; `frame`: t8's frame of
    it), or None. `log` is t8's reading of the turns (table.decide reads it once)."""
    cited = _cited(claim, frame)
    if cited is not None:
        return _decide_cited(claim, turns, log, frame, cited)
    if _COUNT_ONLY.match(claim) and not decide_t7.read_frame_t7(claim).kinds:
        return _decide_count(claim, decide_t7.decide(claim, turns, log, frame), log)
    decision = decide_t7.decide(claim, turns, log, frame)
    if decision is not None and decision.answer == "shown" and ev.TESTS in frame.kinds and \
            frame.whole and decision.event is not None and another_suite_failed(log, decision):
        return None
    if decision is not None and decision.event is not None and \
            decision.event.key.startswith(("mvn ", "gradle ")) and \
            re.search(r"\bmodules?\b|\bsub-?projects?\b", claim, re.I):
        return None  # a reactor's word is the whole build's, not one module's
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


# Words of a run that name a kind of tests only to leave it out.
_LEAVES_A_KIND_OUT = lazy(r"\bnot\s+\S+|--?(?:testPathIgnorePatterns|ignore|exclude|deselect|"
                          r"skip|without)[= ]?\S*", re.I)


def _another_kind(frame, event):
    """True if the claim names a kind of tests and the failing run names another."""
    said = frame.claim.lower()
    ran = f"{event.command} {event.key} {event.operation}".lower()
    ran = _LEAVES_A_KIND_OUT.sub(" ", ran)  # `pytest -m 'not integration'`: not that kind
    for kind, others in _OTHER_KINDS.items():
        if re.search(rf"\b{re.escape(kind)}\b", said) and any(o in ran for o in others) and \
                not re.search(rf"\b{re.escape(kind)}\b", ran):
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


def another_suite_failed(log, decision):
    """True if the latest run of another runner (two runners the reading knows by name,
    not a script, a task or a wrapper that may run the same tests) failed, or ended unknown
    with a failing status: "the tests pass" needs every suite's latest run green."""
    shown = decision.event
    if _WRAPS.match(shown.key):
        return False
    latest = {}
    for e in log.of(ev.TESTS):
        if e.outcome != ev.ECHO and e.turn <= shown.turn and not _WRAPS.match(e.key):
            latest[e.key] = e
    return any(key != shown.key and (e.outcome == ev.FAILED or
                                     (e.outcome == ev.UNKNOWN and e.status))
               for key, e in latest.items())


# Keys of runs that may run any runner's tests: a project's script or task, a wrapper, a
# summary read from output alone.
_WRAPS = lazy(r"^(?:script:|make:|just:|task:|output:|tox|nox|npm|yarn|pnpm|bun run|uv|"
              r"poetry|hatch|pdm|mvn|gradle|dotnet|ctest|bazel)")
