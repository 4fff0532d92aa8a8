"""Table t8's reading of a log: t7's reading (reading_t7.py), and facts t7 read wrongly or
not at all (sets 8 and 9, development data since runs 8 and 9).

- A Maven or Gradle step that builds and tests in one (`mvn package`, `mvn install`,
  `mvn verify`, `mvn -f app/pom.xml package`, `gradle build`) is a build too: t7 read only
  its tests. Its build ends as Maven or Gradle says in its own last word, which Maven
  prints after a level (`[INFO] BUILD SUCCESS`, `[ERROR] BUILD FAILURE`: t7 read neither
  with the level in front), or by the step's own status.
- A test run in a line of steps that share one status (`bun run test && bun run lint`)
  whose runner counted no failure is not failed by a failure line of the output: the line
  may be another step's (t7 read biome's "Some errors were emitted" as the tests'
  failure). How the run ended is unknown.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t6, reading_t7
from .endings import CUT_STATUSES
from .events import BACKGROUND, BUILD, CUT, ECHO, FAILED, MASKED, NOTHING, PASSED, UNKNOWN, Event
from ..patterns import lazy

# Maven's options that take a value as the next word (so it is not read as a goal).
_MAVEN_VALUES = {"-f", "--file", "-pl", "--projects", "-P", "--activate-profiles", "-s",
                 "--settings", "-gs", "--global-settings", "-T", "--threads", "-rf",
                 "--resume-from", "-l", "--log-file", "-t", "--toolchains", "-D", "-e"}
_MAVEN_BUILDS = {"package", "install", "verify", "deploy"}
_GRADLE_BUILDS = {"build", "assemble"}
# Maven's and Gradle's own last word, with Maven's level in front or not.
_LEVEL = r"^(?:\[(?:INFO|ERROR|WARNING)\]\s+)?"
_BUILT = lazy(_LEVEL + r"BUILD SUCCESS(?:FUL)?\b")
_NOT_BUILT = lazy(_LEVEL + r"(?:BUILD FAILURE\b|BUILD FAILED\b|FAILURE: Build failed with an "
                           r"exception)")
# Options under which Maven or Gradle builds nothing.
_DRY = {"--dry-run", "-m", "--help", "-h", "--version", "-v", "-n"}


def build_goals(step):
    """The goals or tasks of a Maven or Gradle step that build ("package", ":app:build"),
    or ()."""
    if step.program not in ("mvn", "gradle"):
        return ()
    words, skip = [], False
    for word in step.args:
        if skip:
            skip = False
        elif step.program == "mvn" and word in _MAVEN_VALUES:
            skip = True
        elif not word.startswith("-"):
            words.append(word)
    wanted = _MAVEN_BUILDS if step.program == "mvn" else _GRADLE_BUILDS
    return tuple(w for w in words if w.rsplit(":", 1)[-1] in wanted)


def _build_of(read, step):
    """The build Event of a Maven or Gradle `step` that builds, by its own last word or its
    own status."""
    passed = failed = None
    for index, raw in enumerate(read.lines):
        line = raw.strip()
        if _NOT_BUILT.match(line):
            failed = failed or (line, index)
        elif _BUILT.match(line):
            passed = (line, index)
    status = read.turn.exit_status
    share = read.status_of(step)
    line, index = failed or passed or ("", -1)
    if step.echoes:
        outcome = ECHO
    elif share == "background" or not read.turn.finished:
        outcome = BACKGROUND
    elif status in CUT_STATUSES and share in ("own", "shared"):
        outcome = CUT
    elif any(a in _DRY for a in step.args):
        outcome = NOTHING
    elif failed is not None:
        outcome = FAILED
    elif share == "masked":
        outcome = MASKED if passed else UNKNOWN
    elif share == "own" and status:
        outcome = FAILED
    elif share in ("own", "shared", "none") and status == 0 or \
            passed is not None and status is None and share != "shared":
        outcome = PASSED
    else:
        outcome = UNKNOWN
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
    found = list(_T7[2](read, taken))
    yield from found
    mine = [step for step in read.line.runs if build_goals(step)]
    if len(mine) != 1 or any(step is mine[0] for step, _ in found):
        return  # none, several whose output cannot be told apart, or read by t7
    yield mine[0], _build_of(read, mine[0])


def _read_tests(read, taken):
    """t7's test runs of a turn, where a run in a line of steps that share its status, whose
    runner counted no failure, is not failed by a failure line that may be another step's."""
    for step, event in _T7[0](read, taken):
        if event.outcome == FAILED and event.status_is == "shared" and \
                event.counts is not None and event.counts[1] == 0:
            event = replace(event, outcome=UNKNOWN, line="", line_index=-1)
        yield step, event


READERS = (_read_tests, _T7[1], _read_builds) + _T7[3:]


@dataclass
class LogT8(reading_t7.LogT7):
    """A Log read by table t8."""


LOG = LogT8  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT8 of `turns` (Turns, oldest first)."""
    log = reading_t6.read_events(turns, READERS, LogT8)
    log.events = [reading_t7.unsure(event) for event in log.events]
    return log
