"""Decision table t16: table t15 with what set 16 (development data since run 16) showed.
Its four false receipts came from rules older tables had; t16 closes each as a case of its
kind, not as a spelling. docs/facts.md says it with examples.

- A claim that quotes commands is a claim of every kind they run: "`swift build` and `swift
  test` complete successfully" claims the tests too, not only the build the word "build"
  names (t15 read a build claim, and the build's green run made it `shown` over a test run
  that counted 3 failures).
- A short sha a claim gives (six hex digits, as `e85ecc`) is a sha, not a program: the
  commit git reported must begin with it (t15 took any commit as the claimed one).
- A claim that a group of checks passed that the facts do not read ("with all quality
  checks passing and changes committed") says more than its operations: its commit cannot
  make it `shown`.
- A test run whose runner says that a forked process failed (Maven Surefire's "There was an
  error in the forked process") did not run every test its summary leaves out: its green
  count is not the suite's.
- A claim about a playbook run as a whole ("the playbook ran with no failed tasks", "the
  ansible-playbook run finished successfully", "the playbook check run had no failed
  tasks") is read against Ansible's own recap of the latest run (playbooks.py): a host
  failed or unreachable contradicts it; every host at 0 shows it, where the run's command
  is in sight and is a check exactly where the claim says a check run. t15 read no kind in
  such a claim. A claim that names hosts, an inventory or what the play did is left to
  the models.

Every other change only takes a `shown` away, or adds a kind the claim names to the claim's
frame, whose runs then decide by the rules t15 has.
"""

import re
from dataclasses import replace

from . import decide_t12, decide_t15, events as ev, shell
from .builds import tool_of
from .decision import CONTRADICTED, SHOWN, Decision
from .frame import SUCCESS
from .playbooks import playbook_runs
from .reading_t7 import runs_tests
from .reading_t8 import build_goals
from ..patterns import lazy

VERSION = "t16"

_QUOTED = lazy(r"`([^`\n]{3,300})`")
# A short sha in backquotes: six hex digits, at least one a digit and one a letter.
_SHORT_SHA = lazy(r"`(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])([0-9a-f]{6})`")
# A group of checks the claim says passed, beside other work: "all quality checks passing",
# "every check passes", "pre-commit checks green".
_CHECKS = lazy(r"\b(?:quality|pre-?commit|all|every|the)\s+(?:\w+\s+)?"
               r"(?:checks?|gates?|validations?|verifications?)\b", re.I)
# Maven Surefire's words that a forked test process failed: tests it held did not run.
_FORK_FAILED = lazy(r"There was an error in the forked process|The forked VM terminated "
                    r"without|SurefireBooterForkException|ExecutionException The forked VM")
# A claim about a playbook run as a whole and nothing more: its subject, whether it says a
# check run, and what it says of the run.
_PLAYBOOK_CLAIM = lazy(
    r"^\W*(?:the\s+)?(?:ansible[- ]playbook|(?:ansible\s+)?playbook)\s+"
    r"(?P<check>(?:check(?:[- ]mode)?|dry)[- ]run\s+|run\s+)?"
    r"(?:(?:ran|run|was\s+run|has\s+run|completed|finished|had)\s+)?"
    r"(?:(?:with\s+no|without(?:\s+any)?|no)\s+failed\s+tasks|successfully|cleanly|"
    r"passed|succeeded|with\s+no\s+failures|without\s+(?:errors|failures))\W*$", re.I)


def read_frame_t16(plain, frame=None):
    """Table t16's frame of a claim with plain quotes: t12's (which t13 to t15 read), with
    the kinds of the commands it quotes, and a six-digit sha in backquotes read as a sha."""
    frame = frame or decide_t12.read_frame_t12(plain)
    if frame.says == SUCCESS and frame.kinds:
        extra = tuple(kind for kind in quoted_kinds(plain) if kind not in frame.kinds)
        if extra:
            frame = replace(frame, kinds=frame.kinds + extra)
    short = _SHORT_SHA.findall(plain)
    if short and ev.COMMIT in frame.kinds:
        frame = replace(frame, shas=frame.shas + tuple(short),
                        tools=tuple(t for t in frame.tools if t not in short),
                        programs=tuple(p for p in frame.programs if p not in short))
    return frame


def quoted_kinds(plain):
    """The kinds of run of the commands a claim quotes (`swift test`: tests), each a command
    of one run, a program and its words, that the log's reading would read as that kind. A
    word alone (`pytest`, `test1.mp4`) is a name the claim mentions, not a command it says
    ran."""
    kinds = []
    for quoted in _QUOTED.findall(plain):
        if len(quoted.split()) < 2:
            continue
        line = shell.parse(quoted)
        if len(line.runs) != 1 or len(line.steps) != 1:
            continue
        step = line.runs[0]
        if runs_tests(step) is not None:
            kind = ev.TESTS
        elif build_goals(step):
            kind = ev.BUILD
        else:
            tool = tool_of(step)
            kind = tool[0] if tool else None
        if kind is not None and kind not in kinds:
            kinds.append(kind)
    return kinds


def decide(claim, turns, log, frame):
    """The Decision table t16 gives for `claim` (with plain quotes; `frame`: t16's frame of
    it), or None. `log` is t15's reading of the turns, which t16 reads too."""
    decision = decide_t15.decide(claim, turns, log, frame)
    if decision is None and not frame.kinds:
        return _playbook(claim, turns, log, frame)
    if decision is None or decision.answer != SHOWN:
        return decision
    if _checks_beside(claim, frame) or _fork_failed(decision, log):
        return None
    return decision


def _checks_beside(claim, frame):
    """True if the claim says a group of checks passed that none of its kinds is."""
    checks = {ev.TESTS, ev.BUILD, ev.LINT, ev.TYPECHECK}
    return _CHECKS.search(claim) is not None and not checks & set(frame.kinds)


def _fork_failed(decision, log):
    """True if a test run's `shown` comes from a turn whose runner says a forked test
    process failed."""
    if decision.turn is None or not decision.rule.startswith("tests."):
        return False
    return any(_FORK_FAILED.search(line) for line in log.lines[decision.turn])


def _playbook(claim, turns, log, frame):
    """A claim about a playbook run as a whole, decided by the latest run's recap; None
    where it is another claim, no run is in the log, or the recap does not settle it."""
    said = _PLAYBOOK_CLAIM.match(claim)
    if said is None or frame.says != SUCCESS or turns is None:
        return None
    runs = playbook_runs(turns, lambda index: log.lines[index])
    if not runs:
        return None
    run = runs[-1]
    claims_check = bool(said.group("check")) and not said.group("check").lower().startswith(
        "run")
    if claims_check and run.check is not True:
        return None  # a check run the log does not show was one
    event = ev.Event(turn=run.turn, family=ev.DEPLOY, operation="ansible-playbook",
                     key="ansible-playbook", outcome=ev.FAILED if run.failing else ev.PASSED,
                     status=run.status, status_is="own", command=run.command)
    if run.failing:
        return Decision(CONTRADICTED, "playbook.failed", run.turn, run.failing[0], event)
    if run.status not in (None, 0) or run.check is None or run.check != claims_check:
        return None
    return Decision(SHOWN, "playbook.passed", run.turn, run.hosts[-1][3], event)
