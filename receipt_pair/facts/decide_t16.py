"""Decision table t16: table t15 with what set 16 (development data since run 16) showed.
Its four false receipts came from rules older tables had; t16 closes each as a case of its
kind, not as a spelling. docs/facts.md says it with examples.

- A claim that quotes commands claims what they run, too: "`swift build` and `swift test`
  complete successfully" claims the tests as well as the build its words name (t15 read a
  build claim, and the green build made it `shown` over a test run that counted 3
  failures). Its operations' `shown` stands only where the runs of each quoted command's
  kind show it too; otherwise the claim goes to the models. (An attack pass found that
  adding those kinds to the claim's frame made new answers: a workflow's or a Makefile's
  command, a step the claim says it skipped or the run that found a bug read as a claimed
  green run, and the quoted kind's decision standing in for a push's whose own checks then
  never ran. They only veto.)
- A short sha a claim gives (six hex digits, as `e85ecc`) is a sha, not a program: the
  commit git reported must begin with it (t15 took any commit as the claimed one).
- A claim that a group of checks passed that the facts do not read ("with all quality
  checks passing and changes committed", "CI is green", "all other checks pass") says more
  than its operations: its commit cannot make it `shown`.
- A test run whose runner says that a forked process or the test host failed (Maven
  Surefire's "There was an error in the forked process", .NET's "Test host process
  crashed") did not run every test its summary leaves out: its green count is not the
  suite's, whichever of the claim's kinds decided.
- A claim about a playbook run as a whole ("the playbook ran with no failed tasks", "the
  ansible-playbook run finished successfully", "the playbook check run had no failed
  tasks") is read against Ansible's own recap of the latest run (playbooks.py): a host
  failed or unreachable contradicts it; every host at 0 shows it, where the run's command
  is in sight and is a check exactly where the claim says a check run. t15 read no kind in
  such a claim. A claim that names hosts, an inventory or what the play did is left to
  the models.

Every other change only takes a `shown` away.
"""

import re
from dataclasses import replace

from . import decide_t8, decide_t12, decide_t15, events as ev, shell
from .decision import CONTRADICTED, SHOWN, Decision
from .frame import SUCCESS
from .playbooks import playbook_runs
from ..patterns import lazy

VERSION = "t16"

# A short sha: six hex digits in backquotes, or unquoted with a digit and a letter among
# them; in backquotes, seven or more digits alone too (t12 reads a sha only with a letter).
_SHORT_SHA = lazy(r"`([0-9a-f]{6}|\d{7,40})`|\b((?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6})\b")
# A group of checks the claim says passed, beside other work: "all quality checks passing",
# "every check passes", "pre-commit hooks", "checks are green", "CI is passing".
_CHECKS = lazy(r"`[^`]*\b(?:check|verify|validate|ci)`|"
               r"\b(?:quality|pre-?commit|all|every|the|ci)\s+(?:\w+\s+){0,2}"
               r"(?:checks?|gates?|validations?|verifications?|hooks?|jobs?|linters?)\b|"
               r"\bchecks?\s+(?:are\s+|is\s+)?(?:pass\w*|green)|"
               r"\bci\s+(?:is\s+|are\s+|was\s+)?(?:pass\w*|green)", re.I)
# Checks besides the ones the claim names: never the named kinds' to show.
_OTHER_CHECKS = lazy(r"\b(?:other|remaining|rest\s+of\s+the)\s+(?:\w+\s+)?checks?\b", re.I)
# A runner's words that a forked test process or the test host failed: tests it held did
# not run (Maven Surefire, .NET's test host).
_FORK_FAILED = lazy(r"There was (?:an error|a timeout) in the fork|The forked VM terminated "
                    r"without|SurefireBooterForkException|Error occurred in starting fork|"
                    r"^\s*Crashed tests:|Test host process crashed|Test Run Aborted|"
                    r"The active test run was aborted|Uncaught exception when running tests|"
                    r"ForkTests\.scala")
# A claim about a playbook run as a whole and nothing more: its subject, whether it says a
# check run, and what it says of the run.
_PLAYBOOK_CLAIM = lazy(
    r"^\W*(?:the\s+)?(?:ansible[- ]playbook|(?:ansible\s+)?playbook)\s+"
    r"(?P<check>(?:check(?:[- ]mode)?|dry)[- ]run\s+|run\s+)?"
    r"(?:(?:ran|run|was\s+run|has\s+run|completed|finished|had)\s+)?"
    r"(?:(?:with\s+no|without(?:\s+any)?|no)\s+failed\s+tasks|successfully|cleanly|"
    r"passed|succeeded|with\s+no\s+failures|without\s+(?:errors|failures))\W*$", re.I)


def read_frame_t16(plain, frame=None):
    """Table t16's frame of a claim with plain quotes: t12's (which t13 to t15 read), with a
    six-digit sha in backquotes read as a sha."""
    frame = frame or decide_t12.read_frame_t12(plain)
    short = tuple(s for pair in _SHORT_SHA.findall(plain) for s in pair
                  if s and s not in frame.shas)
    if short and (ev.COMMIT in frame.kinds or ev.PUSH in frame.kinds):
        frame = replace(frame, shas=frame.shas + tuple(short),
                        tools=tuple(t for t in frame.tools if t not in short),
                        programs=tuple(p for p in frame.programs if p not in short))
    return frame


def quoted_kinds(plain):
    """The kinds of run of the commands a claim quotes (`swift test`: tests; `swift build &&
    swift test`: build and tests; `tox`), each as the log's reading would read that
    command. A file's name (`test1.mp4`) is not a command."""
    kinds = []
    for quoted in decide_t8.CITED.findall(plain):
        if len(quoted.split()) < 2 and "." in quoted:
            continue
        for step in shell.parse(quoted).runs:
            kind = decide_t8.kind_of_run(step)
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
    if _checks_beside(claim, frame) or _fork_failed(decision, frame, log) or \
            not _quoted_shown(claim, turns, log, frame) or _sha_not_sure(decision, frame, log):
        return None
    return decision


def _sha_not_sure(decision, frame, log):
    """True if the claim gives a sha its `shown` does not settle: a push whose lines name no
    commit beginning with it, or a commit amended after (its sha is gone)."""
    if not frame.shas:
        return False
    if decision.rule.startswith("push."):
        named = re.findall(r"\b[0-9a-f]{7,40}\b", decision.line or "")
        return not any(n.startswith(s) or s.startswith(n) for n in named for s in frame.shas)
    if decision.rule == "commit.made":
        return any(e.turn > decision.turn and "--amend" in (e.command or "")
                   for e in log.of(ev.COMMIT))
    return False


def _quoted_shown(claim, turns, log, frame):
    """False if a command the claim quotes runs a kind its frame does not read, and that
    kind's runs do not show the claim (t15's rules deciding it as a claim of that kind)."""
    if frame.says != SUCCESS or not frame.kinds:
        return True
    for kind in quoted_kinds(claim):
        if kind in frame.kinds:
            continue
        alone = decide_t15.decide(claim, turns, log, replace(frame, kinds=(kind,)))
        if alone is None or alone.answer != SHOWN:
            return False
    return True


def _checks_beside(claim, frame):
    """True if the claim says a group of checks passed that none of its kinds is, or
    checks besides the ones it names."""
    checks = {ev.TESTS, ev.BUILD, ev.LINT, ev.TYPECHECK}
    return _OTHER_CHECKS.search(claim) is not None or (
        _CHECKS.search(claim) is not None and not checks & set(frame.kinds))


def _fork_failed(decision, frame, log):
    """True if a `shown` of a claim of the tests comes from a log where a test run's turn
    says a forked test process or the test host failed."""
    if ev.TESTS not in frame.kinds and not decision.rule.startswith("tests."):
        return False
    turns = {event.turn for event in log.of(ev.TESTS)}
    if decision.turn is not None:
        turns.add(decision.turn)
    return any(_FORK_FAILED.search(line) for turn in turns for line in log.lines[turn])


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
