"""Decision table t18: table t17 with what set 17 (development data since run 17) and a
second reading of sets 5 to 16 showed. Each change only takes a `shown` away, so the
claim goes to the models; none gives an answer t17 did not give.

- A test run read only from its output (its command not read as a runner's) stood for the
  whole suite. A command a Windows shell ran with a path in backslashes
  (`C:\\venvs\\app\\Scripts\\python.exe -m pytest tests/test_a.py -v`) reads, in a POSIX
  shell's words, as one unknown program, so the run of one file was read as every test.
  t18 reads such a command again with its backslashes as a path's separators: where that
  reading finds a run of part of the suite, the run cannot show a claim about all tests.
- A claim about a production build ("the production build compiles cleanly") is not shown
  by a development server's compile (`npm start`, `npm run dev`, `ng serve`, `vite`), which
  builds in another mode.
- A claim that the build as a whole finished ("the build finished successfully") is not
  shown by a step's green build where the CI job's own last word, later in the log, says
  the job failed or was aborted (Jenkins' `Finished: ABORTED`, Travis CI's `Done. Your
  build exited with 1.`): t9 lets that word contradict only where it is the log's only
  one; here it only takes the step's receipt away.
- A claim that gives how many commits it made ("committed as 6 commits") is not shown by
  fewer commit lines than that.
"""

import re

from . import decide_t17, events as ev, reading_t15
from .decision import SHOWN
from ..turn import Turn
from ..patterns import lazy

VERSION = "t18"

# A path a Windows shell reads: a drive letter, a colon and a backslash.
_WINDOWS_PATH = lazy(r"(?<![\w\\])[A-Za-z]:\\")
# A claim about the production build, and the commands that serve a development build.
_PRODUCTION = lazy(r"\bprod(?:uction)?\b", re.I)
_DEV_SERVER = lazy(r"\b(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:start|dev|serve)\b|"
                   r"ng\s+serve\b|next\s+dev\b|\bvite\b(?!\s+(?:build|optimize))|"
                   r"webpack(?:-dev-server|\s+serve)\b|react-scripts\s+start\b)")
# A claim about the whole build finishing, and a CI job's own word that it did not.
_WHOLE_BUILD = lazy(r"^\W*(?:the\s+)?build\s+(?:has\s+|was\s+|is\s+)?(?:finished|completed|"
                    r"succeeded|passed|ran)\b", re.I)
_JOB_NOT_PASSED = lazy(r"^(?:Finished: (?:FAILURE|ABORTED|UNSTABLE)|Done\. Your build exited "
                       r"with [1-9]\d*\.|Your build has been stopped\.|ERROR: Job failed\b)")
# How many commits a claim says it made: "as 6 commits", "three commits".
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10}
_COMMITS = lazy(r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[\w-]+\s+){0,2}"
                r"commits\b", re.I)


def decide(claim, turns, log, frame):
    """The Decision table t18 gives for `claim` (with plain quotes; `frame`: t16's frame of
    it), or None. `log` is t15's reading of the turns, which t16 to t18 read too."""
    decision = decide_t17.decide(claim, turns, log, frame)
    if decision is None or decision.answer != SHOWN or decision.turn is None:
        return decision
    if decision.rule.startswith("tests.") and frame.whole and \
            _windows_part(log, decision.event):
        return None
    if decision.rule.startswith("build.") and _PRODUCTION.search(claim) and \
            _DEV_SERVER.search(log.commands[decision.turn] or ""):
        return None
    if decision.rule.startswith("build.") and _WHOLE_BUILD.search(claim) and \
            _job_not_passed_after(log, decision.turn):
        return None
    if decision.rule.startswith("commit.") and _too_few_commits(claim, log):
        return None
    return decision


def _windows_part(log, event):
    """True if the run was read from its output and its command, read with a Windows
    path's backslashes as separators, runs a part of the suite."""
    if event is None or not event.key.startswith("output:"):
        return False
    command = log.commands[event.turn] or ""
    if not _WINDOWS_PATH.search(command):
        return False
    again = reading_t15.read_events([Turn(cmd=command.replace("\\", "/"))])
    return any(e.objects for e in again.of(ev.TESTS))


def _job_not_passed_after(log, turn):
    """True if a line after `turn` is a CI job's own word that it failed or was stopped."""
    return any(_JOB_NOT_PASSED.match(line.strip())
               for later in range(turn + 1, log.turns) for line in log.lines[later])


def _too_few_commits(claim, log):
    """True if the claim says it made more commits than the log's commit lines show."""
    wanted = commits_said(claim, _COMMITS, _NUMBERS)
    return wanted is not None and \
        len([e for e in log.of(ev.COMMIT) if e.outcome != ev.FAILED]) < wanted


def commits_said(claim, pattern, numbers):
    """How many commits the claim says it made, by `pattern` (its first group a count in
    digits or a word of `numbers`), or None."""
    said = pattern.search(claim)
    if said is None:
        return None
    word = said.group(1).lower()
    # None for a number word read only by Unicode's case folding ("ſix"): no count
    return int(word) if word.isdigit() else numbers.get(word)

