"""Decision table t19: t18's guards on t17's answers, with the classes an attack pass on
t18 (tests/data/facts/attack-t18.json, 40 cases) found open closed as classes, and three of
its costs given back. Like t18, it only takes t17's `shown` away; none of its answers is
new. Each guard below holds wherever t18's did, except where t19 gives a cost back.

- A test run on Windows: any command with a path in backslashes (`.\\venv\\Scripts\\
  python.exe`, `node_modules\\.bin\\jest.cmd`, `cmd /c "C:\\...\\pytest.exe ..."`), not only
  one with a drive letter, is read again with the backslashes as a path's separators, and
  its `shown` of all tests stands only where that reading finds a run of the whole suite
  (t18 took it away only where it found a part, so a run it could not read at all, inside
  `cmd /c "..."` or PowerShell's `-ArgumentList`, kept its receipt). A part run whose
  count is the claim's keeps the receipt t8's count rule gives it (t18 took it away).
- A test run that Maven's `-Dtest=` (or `-Dit.test=`) narrows to some classes is a part of
  the suite in any shell: its green run shows no claim about all tests.
- A development build: more servers and modes (`ng s`, `nx serve`, `craco start`,
  `parcel` without `build`, `webpack serve`, `--mode development`), and a claim about the
  release build as well as the production one. A command that also runs the production
  build (`vite build && vite preview`, `npm run build && npm start`) keeps its receipt.
- A CI job's word that it failed: also behind a timestamp (Jenkins' Timestamper, GitLab's
  runner), Travis CI's end of a stalled build, and later in the same turn as the build
  line; and more claims about the whole build ("the full build succeeded", "build
  completes successfully"). A later step's failure in GitHub Actions, Azure Pipelines,
  CircleCI or Buildkite is not the job's word: the build before it stands.
- A count of commits: more spellings ("3 separate, atomic commits", "a 3-commit series",
  up to twenty in words), counted in commit lines (one turn's loop may print three), an
  amended commit not counted twice, and a push claim's count held to the commit lines too.
  Number words are read in ASCII only.
"""

import re

from . import decide_t17, decide_t18, events as ev, reading_t15
from .decision import SHOWN
from ..patterns import lazy
from ..turn import Turn

VERSION = "t19"

# A path with Windows' separator: a word, a dot or a drive's colon, a backslash, a word.
_BACKSLASH_PATH = lazy(r"[\w.:]\\[\w.]")
# A Windows shell's command handed to another in quotes: `cmd /c "..."`, `powershell
# -Command "..."`.
_WRAPPED = lazy(r"\b(?:cmd(?:\.exe)?\s+/[ck]|(?:powershell|pwsh)(?:\.exe)?\s+(?:-\w+\s+)*?"
                r"-c(?:ommand)?)\s+(?P<q>[\"'])(?P<inner>.*)(?P=q)", re.I | re.S)
# Maven's narrowing of a test run to some classes.
_MAVEN_SELECTS = lazy(r"(?:^|\s)-D(?:it\.)?test=\S")
_RELEASE = lazy(r"\b(?:prod(?:uction)?|release)\b", re.I)
_DEV_BUILD = lazy(r"\b(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:start|dev|serve)\b|"
                  r"ng\s+s(?:erve)?\b|nx\s+(?:run\s+\S+:)?serve\b|next\s+dev\b|"
                  r"(?:craco|react-scripts)\s+start\b|parcel\b(?!\s+build)|"
                  r"webpack(?:-dev-server|\s+serve)\b|vite\b(?!\s+(?:build|optimize)))")
_DEV_MODE = lazy(r"(?<!\S)--mode[=\s]+development\b")
_PRODUCTION_BUILD = lazy(r"\b(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?build(?=\s|$|[;&|])|"
                         r"(?:vite|next|ng|nx|react-scripts|craco|parcel)\s+build\b)")
_WHOLE_BUILD = lazy(r"^\W*(?:the\s+)?(?:\w+\s+)?build\s+(?:has\s+|was\s+|is\s+)?(?:finish\w*|"
                    r"complet\w*|succe\w*|pass\w*|ran|runs)\b", re.I)
# A timestamp a CI puts before a line (Jenkins' Timestamper, GitLab's runner), and the
# stream GitLab's runner names (`01E`), which is left where the timestamp was taken off.
_STAMP = lazy(r"^(?:\[\d{4}-\d\d-\d\dT[\d:.]+Z?\]\s*|\d{4}-\d\d-\d\dT[\d:.]+Z\s+)?"
              r"(?:\d\d[OE]\+?\s+)?")
# The job's own word, not a step's: a later step of GitHub Actions, Azure Pipelines,
# CircleCI or Buildkite that failed ("Process completed with exit code 1") is another
# operation's failure, and the build before it stands (set 15's r15t-016, set 9's r9t-030).
_JOB_NOT_PASSED = lazy(
    r"^(?:Finished: (?:FAILURE|ABORTED|UNSTABLE)$|Done\. Your build exited with [1-9]\d*\.|"
    r"Your build has been stopped\.|The build has been terminated|ERROR: Job failed\b|"
    r"Build was aborted$)")
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
            "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
            "twenty": 20}
_COUNT = r"(\d+|" + "|".join(_NUMBERS) + r")"
_COMMITS = lazy(_COUNT + r"(?:-commit\b|(?:[\s,]+[\w-]+){0,3}?[\s,]+commits\b)", re.I | re.A)
_COMMIT_LINE = lazy(r"^\[[^\]\s]+(?: \([^)]*\))? [0-9a-f]{7,40}\]")


def decide(claim, turns, log, frame, reading=reading_t15):
    """The Decision table t19 gives for `claim` (with plain quotes; `frame`: t16's frame of
    it), or None. `log` is t15's reading of the turns, which t16 to t19 read too (or
    `reading`'s, a later table's, which reads a Windows command again too)."""
    decision = decide_t17.decide(claim, turns, log, frame)
    if decision is None or decision.answer != SHOWN or decision.turn is None:
        return decision
    command = log.commands[decision.turn] or ""
    if decision.rule.startswith("tests.") and decision.rule != "tests.count-matches" and \
            frame.whole and (_MAVEN_SELECTS.search(command) or
                             _windows_unsure(command, reading)):
        return None  # (a part run whose count is the claim's shows it, as t8 reads it)
    if decision.rule.startswith("build.") and _RELEASE.search(claim) and \
            _development_build(command):
        return None
    if decision.rule.startswith("build.") and _WHOLE_BUILD.search(claim) and \
            _job_not_passed_after(log, decision):
        return None
    if decision.rule.startswith(("commit.", "push.")) and _too_few_commits(claim, log):
        return None
    return decision


def _development_build(command):
    """True if the command builds in development mode, or serves a development build
    without also running the production build."""
    return _DEV_MODE.search(command) is not None or (
        _DEV_BUILD.search(command) is not None and _PRODUCTION_BUILD.search(command) is None)


def _windows_unsure(command, reading=reading_t15):
    """True if the command has a path in backslashes and, read again with them as '/'
    (inside a `cmd /c "..."` or `powershell -Command "..."` too), runs a part of the suite
    or no run of the whole suite that plain code can name."""
    if not _BACKSLASH_PATH.search(command):
        return False
    posix = command.replace("\\", "/")
    inner = _WRAPPED.search(posix)
    runs = [part for text in ((posix, inner.group("inner")) if inner else (posix,))
            for part in _parts_of_test_runs(text, reading)]
    return not runs or any(runs)


def _parts_of_test_runs(text, reading=reading_t15):
    """The parts each test run of a command selects (an empty tuple: the whole suite).
    Vitest's `run` (run once, not watch) selects nothing."""
    return [tuple(o for o in e.objects if not (e.key == "vitest" and o == "run"))
            for e in reading.read_events([Turn(cmd=text)]).of(ev.TESTS)]


def _job_not_passed_after(log, decision):
    """True if a line after the deciding one is a CI job's own word that a step failed or
    the job was stopped."""
    event = decision.event
    for turn in range(decision.turn, log.turns):
        lines = log.lines[turn]
        if turn == decision.turn:
            start = event.line_index + 1 if event is not None and event.line_index >= 0 else 0
            lines = lines[start:]
        if any(_JOB_NOT_PASSED.match(_STAMP.sub("", line.strip())) for line in lines):
            return True
    return False


def _too_few_commits(claim, log, wanted=None):
    """True if the claim says it made more commits than the log's commit lines show (an
    amend replaces a commit: it adds none). `wanted`: the count the claim says, where a
    later table reads it otherwise."""
    wanted = wanted or decide_t18.commits_said(claim, _COMMITS, _NUMBERS)
    if wanted is None:
        return False
    made = 0
    for turn in dict.fromkeys(e.turn for e in log.of(ev.COMMIT) if e.outcome != ev.FAILED):
        if "--amend" in (log.commands[turn] or ""):
            continue
        made += sum(1 for line in log.lines[turn] if _COMMIT_LINE.match(line.strip()))
    return made < wanted
