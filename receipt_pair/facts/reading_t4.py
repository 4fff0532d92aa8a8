"""Table t4's reading of a log: t2's reading (reading_t2.py), and two facts t2 did not read.

- `ctest`'s options that take a value but select no test (`--test-dir build`, `-C Debug`,
  `-j 4`, `--timeout 60`) leave the run whole: t2 read their values as a part of the suite,
  so a whole ctest run covered no claim about a group of its tests. Only `-R`, `-E`, `-L`,
  `-LE`, `-I` and their long spellings select tests.
- A build tool's own summary line ("Build completed unsuccessfully", "BUILD FAILED",
  "BUILD SUCCESSFUL", "Build succeeded.", "Failed to compile.", "Compiled successfully")
  printed by a command plain code does not know as a build (a CI script, `./ci.sh`) is a
  build event of that command: a failure line says the build failed; a success line says
  it passed only where the command's own status is 0 or not recorded (a script that went
  on to fail after its build shows nothing sure of it). A command that only echoes such a
  line is an echo, as for test summaries.
"""

from dataclasses import dataclass, replace

from . import builds, files, git, installs, reading_t2, state, tests
from .endings import CUT_STATUSES
from .events import BACKGROUND, BUILD, COMMIT, CUT, ECHO, FAILED, MASKED, PASSED, UNKNOWN, Event
from ..patterns import lazy

# ctest's options that select tests (their values are a part of the suite), and those that
# take a value but select nothing.
_CTEST_SELECT = {"-r", "--tests-regex", "-e", "--exclude-regex", "-l", "--label-regex",
                 "-le", "--label-exclude", "-i", "--tests-information", "-u", "--union"}
_CTEST_VALUE = {"--test-dir", "-c", "--build-config", "-j", "--parallel", "--timeout",
                "--output-log", "-o", "--output-junit", "--repeat", "--stop-time",
                "--resource-spec-file", "-d", "--dashboard", "-s", "--script", "--build-and-test",
                "--schedule-random-seed", "--test-load", "--max-width"}


@dataclass
class LogT4(reading_t2.LogT2):
    """A Log read by table t4."""


LOG = LogT4  # the class of the logs this module reads (table.py)


def read_events(turns, readers=None):
    """The LogT4 of `turns` (Turns, oldest first); a later table's reading may give its own
    family `readers` (default: t4's READERS)."""
    return reading_t2.read_events([_unmarked(turn) for turn in turns],
                                  readers=readers or READERS, log_class=LogT4)


# A line of a Jenkins pipeline's own markup.
_PIPELINE = lazy(r"^\s*\[Pipeline\]")


def _unmarked(turn):
    """`turn`, with no command where its command is only a pipeline's markup."""
    lines = [line for line in (turn.cmd or "").splitlines() if line.strip()]
    if lines and all(_PIPELINE.match(line) for line in lines):
        return replace(turn, cmd="")
    return turn


def ctest_part(args):
    """The part of the suite a ctest run's arguments select: the values of its selecting
    options (`-R parser`), never a folder or a count (`--test-dir build`, `-j 4`)."""
    part, take, skip = [], False, False
    for word in args:
        low = word.lower()
        if take or skip:
            if take:
                part.append(word)
            take = skip = False
            continue
        name, equals, value = low.partition("=")
        if name in _CTEST_SELECT:
            if equals:
                part.append(word.split("=", 1)[1])
            else:
                take = True
        elif name in _CTEST_VALUE and not equals:
            skip = True
    return tuple(part)


def read_tests(read, taken, runs_tests=None):
    """t4's test runs of a turn: tests.read's (`runs_tests` as there), a ctest run's part
    read by ctest_part."""
    for step, event in tests.read(read, taken, runs_tests):
        if step is not None and event.key == "ctest":
            part = ctest_part(step.args)
            event = replace(event, objects=part,
                            detail=tuple((k, ("part" if part else "all") if k == "scope" else v)
                                         for k, v in event.detail))
        yield step, event


# A build tool's own last word, whatever command ran it: its success, its failure. A
# timestamp in front (`[00:03:14] `) is the CI's.
_STAMP = r"^(?:\[\d{1,2}:\d{2}:\d{2}\]\s+)?"
_BUILT = lazy(_STAMP + r"(?:BUILD SUCCESS(?:FUL)?\b|Build succeeded\.?$|Build completed "
                       r"successfully\b|(?:\W\s*)?Compiled successfully\b)")
_NOT_BUILT = lazy(_STAMP + r"(?:BUILD FAILURE\b|BUILD FAILED\b|Build FAILED\.?$|Build completed "
                           r"unsuccessfully\b|Failed to compile\.?$|error: could not compile\b|"
                           r"FAILURE: Build failed with an exception)")


def _builds(read, taken):
    found = list(builds.read(read, taken))
    yield from found
    if found or any(id(step) in taken for step in read.line.runs):
        return  # the turn's build, or another family's run, was read by its command
    event = summary_build(read)
    if event is not None:
        yield event


def summary_build(read):
    """(step, Event) of a build a command plain code does not know printed the summary of,
    or None."""
    failed = passed = None
    for index, raw in enumerate(read.lines):
        line = raw.strip()
        if _NOT_BUILT.match(line):
            failed = failed or (line, index)
        elif _BUILT.match(line):
            passed = (line, index)
    if failed is None and passed is None:
        return None
    step = tests.output_step(read)
    if step is None and read.line.runs:
        return None  # only a file shown: a report read back is no run
    status = read.turn.exit_status
    share = read.status_of(step) if step is not None else "own" if status is not None else "none"
    line, index = failed or passed
    if step is not None and step.echoes:
        outcome = ECHO
    elif share == "background" or not read.turn.finished:
        outcome = BACKGROUND
    elif status in CUT_STATUSES:
        outcome = CUT
    elif failed is not None:
        outcome = FAILED
    elif share == "masked":
        outcome = MASKED
    elif status:
        outcome = UNKNOWN  # it built, then something else failed: nothing sure of the build
    else:
        outcome = PASSED
    return step, Event(read.index, BUILD, "output:build", "output:build", outcome, status, share,
                       line if outcome in (FAILED, PASSED, MASKED) else "", index,
                       command=" ".join(step.words)[:300] if step is not None else "")


def _git(read, taken):
    for step, event in git.read(read, taken):
        if event.family == COMMIT and event.outcome == FAILED and step is not None:
            event = _made_before_failure(read, step, event)
        yield step, event


def _made_before_failure(read, step, event):
    """A failed commit event, or the commit git reported where the failure printed after
    it belongs to a later step of the same command line."""
    runs = list(read.line.runs)
    if step not in runs or runs.index(step) == len(runs) - 1 or event.line_index < 0:
        return event
    made = [(i, m) for i, m in ((i, git.commit_line(line)) for i, line in enumerate(read.lines)
                                if i < event.line_index) if m is not None]
    if len(made) != 1:
        return event
    index, match = made[0]
    return replace(event, outcome=PASSED, line=read.lines[index].strip(), line_index=index,
                   objects=(match.group("branch"), match.group("sha")),
                   detail=(("branch", match.group("branch")), ("sha", match.group("sha")),
                           ("message", match.group("message")[:200])))


# The family readers of t4, in order: test runs first (a later table's reading replaces
# that one alone).
READERS = (read_tests, _git, _builds, installs.read, files.read, state.read)
