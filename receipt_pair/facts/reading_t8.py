"""Table t8's reading of a log: t7's reading (reading_t7.py), and facts t7 read wrongly or
not at all (sets 8 and 9, development data since runs 8 and 9).

- A Maven or Gradle step that builds and tests in one (`mvn package`, `mvn install`,
  `mvn verify`, `gradle build`) is a build too: t7 read only its tests. Its build ends as
  Maven or Gradle says in its own last word (the last one: a nested build's earlier word
  is not the build's), which Maven prints after a level (`[INFO] BUILD SUCCESS`,
  `[ERROR] BUILD FAILURE`: t7 read neither with the level in front), or by the step's own
  status. Only where it is the one step of its line that runs (a pipe on to `tail` or
  `grep` shows its output), no `cd` moves it and no option points it elsewhere (`-f
  other/pom.xml`, `-pl core`, `-p buildSrc`, `-N`): a build elsewhere is not the project's.
  A failure where a test failed is not sure to be the code's: its outcome is unknown.
- A test run read from a log file shown with `cat`, `head`, `tail`, `grep` or the like
  shows a run only where an earlier test run of the log wrote that very file (`pytest >
  test.log`, `| tee test.log`): a log the session did not write, or wrote from elsewhere
  (`gh run view --log > ci.log`), may be any day's. How it ended is unknown.
- A Maven or Gradle build t7 read that builds elsewhere, or nothing (`gradle -p other
  build`, `mvn -N package`, `gradle help --task build`, `gradle tasks`, `gradle build -x
  build`), ends unknown: t7 read each as the project's build.
- A test run whose runner counted no failure, and printed no failing test before that
  count, is not failed by a failure line or status that may be another's: a step that
  shares its status (`bun run test && bun run lint`: t7 read biome's "Some errors were
  emitted" as the tests' failure), a lifecycle phase after the tests (`mvn verify`'s
  checkstyle), or a status of -1 (the harness did not learn how it ended). How the run
  ended is unknown.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t6, reading_t7, tests
from .endings import CUT_STATUSES
from .events import BACKGROUND, BUILD, CUT, ECHO, FAILED, MASKED, NOTHING, PASSED, TESTS, UNKNOWN, \
    Event
from ..patterns import lazy

# Maven's options that take a value as the next word (so it is not read as a goal).
_MAVEN_VALUES = {"-f", "--file", "-pl", "--projects", "-P", "--activate-profiles", "-s",
                 "--settings", "-gs", "--global-settings", "-T", "--threads", "-rf",
                 "--resume-from", "-l", "--log-file", "-t", "--toolchains", "-D", "-e"}
_MAVEN_BUILDS = {"package", "install", "verify", "deploy"}
# Gradle's options that take a value as the next word, and its tasks that only tell.
_GRADLE_VALUES = {"-x", "--exclude-task", "-p", "--project-dir", "-b", "--build-file", "-c",
                  "--settings-file", "-I", "--init-script", "--task", "--console",
                  "--warning-mode", "--max-workers", "-g", "--gradle-user-home", "-D", "-P"}
_GRADLE_INFO = {"help", "tasks", "properties", "dependencies", "projects", "wrapper", "init",
                "components", "model", "buildEnvironment", "outgoingVariants"}
_GRADLE_BUILDS = {"build", "assemble"}
# Maven's and Gradle's own last word, with Maven's level in front or not.
_LEVEL = r"^(?:\[(?:INFO|ERROR|WARNING)\]\s+)?"
_BUILT = lazy(_LEVEL + r"BUILD SUCCESS(?:FUL)?\b")
_NOT_BUILT = lazy(_LEVEL + r"(?:BUILD FAILURE\b|BUILD FAILED\b|FAILURE: Build failed with an "
                           r"exception|Failed to execute goal\b)")
# Options under which Maven prints no last word of its own: any it shows is a nested build's.
_QUIET = {"-q", "--quiet"}
# Options under which Maven or Gradle builds nothing.
_DRY = {"--dry-run", "-m", "--help", "-h", "--version", "-v", "-n"}


def _goals(step):
    """The goals or tasks a Maven or Gradle step names (its words that are not options or
    their values), and the tasks it leaves out (`-x build`)."""
    values = _MAVEN_VALUES if step.program == "mvn" else _GRADLE_VALUES
    words, left_out, skip = [], [], None
    for word in step.args:
        if skip is not None:
            (left_out if skip in ("-x", "--exclude-task") else []).append(word)
            skip = None
        elif word in values:
            skip = word
        elif not word.startswith("-"):
            words.append(word)
    return words, left_out


def build_goals(step):
    """The goals or tasks of a Maven or Gradle step that build ("package", ":app:build"),
    or (): none where it only lists or explains tasks (`gradle tasks`, `gradle help --task
    build`) or leaves the build out (`-x build`)."""
    if step.program not in ("mvn", "gradle"):
        return ()
    words, left_out = _goals(step)
    if step.program == "gradle" and set(words) & _GRADLE_INFO:
        return ()
    if step.program == "mvn":  # a word with a colon is a plugin's goal, not a phase
        return tuple(w for w in words if w in _MAVEN_BUILDS)
    return tuple(w for w in words if w.rsplit(":", 1)[-1] in _GRADLE_BUILDS and
                 w not in left_out)


def elsewhere(step):
    """True if a Maven or Gradle step builds another project or only a part of this one, or
    builds nothing, or ends well whatever fails (`-f other/pom.xml`, `-f../fork/pom.xml`,
    `-pl core`, `-p buildSrc`, `-N`, `-fn`, `gradle :docs:build`, `gradle tasks`, `-x build`,
    `-xcompileJava`): what it says is not the project's build."""
    if step.program not in ("mvn", "gradle"):
        return False
    words, left_out = _goals(step)
    glued = any(a.startswith(("-f", "-pl", "-rf")) and ("/" in a or a.endswith(".xml"))
                for a in step.args if step.program == "mvn") or \
        any(a.startswith("-x") and len(a) > 2 or a.startswith("--exclude-task=")
            for a in step.args if step.program == "gradle")
    part = step.program == "gradle" and any(":" in w.lstrip(":") for w in words)
    return any(a.split("=", 1)[0] in _ELSEWHERE for a in step.args) or bool(left_out) or \
        glued or part or (step.program == "gradle" and bool(set(words) & _GRADLE_INFO))


def eligible(read, step):
    """True if `step` is the one Maven or Gradle step of its line that builds, run where the
    line stands: no other step runs, no `cd` moves it, and no option points it at another
    project (`-f other/pom.xml`, `-pl core`, `-p buildSrc`): a build elsewhere is not the
    project's."""
    runs = [s for s in read.line.runs if s is step or s.program not in _VIEWERS]
    if runs != [step] or any(s.program in ("cd", "pushd") for s in read.line.steps):
        return False
    return not elsewhere(step)


# Programs a build's output may be piped on to: they show it, they run nothing of their own.
_VIEWERS = {"tail", "head", "tee", "grep", "egrep", "less", "more", "cat", "sed", "awk"}


# Options that point Maven or Gradle at another project or a part of this one.
_ELSEWHERE = {"-f", "--file", "-pl", "--projects", "-rf", "--resume-from", "-p",
              "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-N",
              "--non-recursive", "-fn", "--fail-never"}
# A test of the build failed: the build's failure may be its tests', not its code's.
_TESTS_FAILED = lazy(r"Tests run:.*(?:Failures|Errors): [1-9]|There (?:are|were) test "
                     r"failures|\d+ tests? completed, [1-9]\d* failed|Task :\S*test\S* FAILED",
                     re.I)


def _build_of(read, step):
    """The build Event of a Maven or Gradle `step` that builds, by its own last word (the
    last one it printed: a nested build's earlier word is not the build's) or its own
    status."""
    last = None
    for index, raw in enumerate(read.lines):
        line = raw.strip()
        if _NOT_BUILT.match(line):
            last = (FAILED, line, index)
        elif _BUILT.match(line) and not (_QUIET & set(step.args)):
            last = (PASSED, line, index)
    status = read.turn.exit_status
    share = read.status_of(step)
    word, line, index = last or (None, "", -1)
    if step.echoes:
        outcome = ECHO
    elif share == "background" or not read.turn.finished:
        outcome = BACKGROUND
    elif status is not None and status < 0:
        outcome = UNKNOWN  # -1: the harness did not learn how it ended
    elif status in CUT_STATUSES and share in ("own", "shared"):
        outcome = CUT
    elif any(a in _DRY for a in step.args):
        outcome = NOTHING
    elif word == FAILED:
        outcome = FAILED
    elif share == "masked":
        outcome = MASKED if word == PASSED else UNKNOWN
    elif share == "own" and status:
        outcome = FAILED
    elif word == PASSED and (status == 0 or status is None):
        outcome = PASSED
    elif share in ("own", "shared") and status == 0:
        outcome = PASSED
    else:
        outcome = UNKNOWN
    if outcome == FAILED and any(_TESTS_FAILED.search(raw) for raw in read.lines):
        outcome = UNKNOWN  # its tests failed: whether the code built is not sure
    if outcome not in (FAILED, PASSED, MASKED):
        line, index = "", -1
    goal = build_goals(step)[-1].rsplit(":", 1)[-1]
    key = f"{step.program} {goal}"
    return Event(read.index, BUILD, key, key, outcome, status, share, line, index,
                 command=" ".join(step.words)[:300])


_T7 = reading_t7.READERS  # (tests, git, builds, installs, files, state)


def _read_builds(read, taken):
    """t7's builds of a turn, and the build of a Maven or Gradle step that builds and tests
    in one, which t7 read as a test run only (or, with its options, not at all)."""
    found = [(step, replace(event, outcome=UNKNOWN, line="", line_index=-1))
             if step is not None and event.family == BUILD and elsewhere(step) else
             (step, event) for step, event in _T7[2](read, taken)]
    mine = [step for step in read.line.runs if build_goals(step)]
    if len(mine) != 1 or not eligible(read, mine[0]):
        yield from found  # none, several, or a build elsewhere: as t7 read them
        return
    step, event = mine[0], _build_of(read, mine[0])  # its last word, not t7's first
    if event.outcome == FAILED and any(_TESTS_FAILED.search(raw) for raw in read.lines):
        event = replace(event, outcome=UNKNOWN, line="", line_index=-1)
    yield from ((s, e) for s, e in found if s is not step)
    yield step, event


def _read_tests(read, taken):
    """t7's test runs of a turn, where a run in a line of steps that share its status, whose
    runner counted no failure, is not failed by a failure line that may be another step's."""
    for step, event in _T7[0](read, taken):
        counted_none = event.counts is not None and event.counts[0] > 0 and \
            event.counts[1] == 0 and not _failed_before_summary(read.lines)
        if event.outcome == FAILED and counted_none and (
                event.status_is == "shared" or (event.status is not None and event.status < 0)
                or (step is not None and build_goals(step))):
            # Another step's failure, a status the harness did not learn (-1), or a
            # lifecycle phase after the tests (`mvn verify`'s checkstyle): not the tests'.
            event = replace(event, outcome=UNKNOWN, line="", line_index=-1)
        yield step, event


def _failed_before_summary(lines):
    """True if a line before the runner's last summary says a test failed, errored or was
    cancelled (an earlier run in the same output, an error outside the tests): then the
    shared status's failure may well be the tests'."""
    summary = tests.read_summary(list(lines))
    end = summary.index if summary is not None else len(lines)
    return any(_A_TEST_FAILED.search(line) for line in lines[:end])


# A line that says a test failed, errored or was cancelled.
_A_TEST_FAILED = lazy(r"^\W*[1-9]\d*\s+(?:failed|failing|fail)\b|\b[1-9]\d*\s+(?:failed|failing)"
                      r"\s*[,|]|^FAILED \S|^FAIL \S|^#\s*(?:fail|cancelled)\s+[1-9]|"
                      r"errors? occurred outside|^not ok\b|^Errors\s+[1-9]")


READERS = (_read_tests, _T7[1], _read_builds) + _T7[3:]


@dataclass
class LogT8(reading_t7.LogT7):
    """A Log read by table t8."""


LOG = LogT8  # the class of the logs this module reads (table.py)


def read_events(turns, log_class=LogT8):
    """The LogT8 of `turns` (Turns, oldest first); a later table's reading may give its own
    `log_class` (a LogT8)."""
    log = reading_t6.read_events(turns, READERS, log_class)
    log.events = [_read_back(reading_t7.unsure(event), log) for event in log.events]
    return log


# Programs that show a file (the pipe's viewers but `tee`, and a few that only read).
_VIEWERS_OF_FILES = (_VIEWERS - {"tee"}) | {"type", "bat", "zcat", "gzip", "jq", "/bin/cat",
                                            "/usr/bin/cat"}


def _read_back(event, log):
    """A test run read from a report or log file shown with `cat` (or `head`, `tail`) shows
    a run only where an earlier line of the log wrote that file (`pytest > test.log`, `|
    tee test.log`): a log the session did not write may be any day's (t7 read `cat
    logs/pytest-2024-01-01.log` as a run that passed). How it ended is unknown."""
    if event.family != TESTS or event.outcome not in (PASSED, FAILED, MASKED):
        return event
    words = event.command.split()
    if not words or words[0] not in _VIEWERS_OF_FILES:
        return event
    shown = [w for w in words[1:] if not w.startswith("-")]
    if not shown:
        return event
    path = shown[-1].removeprefix("./")
    written = re.compile(r"(?:>>?|\btee\s+(?:-a\s+)?)\s*(?:\./)?" + re.escape(path) +
                         r"(?=$|[\s;&|)])")
    runs = {e.turn for e in log.of(TESTS) if not e.key.startswith("output:") and
            e.turn < event.turn}
    if any(written.search(log.commands[turn]) for turn in runs):
        return event  # a run the log holds wrote it
    return replace(event, outcome=UNKNOWN, line="", line_index=-1)
