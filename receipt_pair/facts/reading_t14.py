"""Table t14's reading of a log: t11's, with what set 14 (development data since run 14)
showed it read wrongly or not at all.

- A CI log as `gh run view --log` prints it (`job<TAB>step<TAB>` before the runner's
  timestamp on every line) is read as the runner wrote it, as a log downloaded from the
  job's page is: t11 took the timestamp off a line only at its start, so a line behind
  gh's columns was never a test summary, a push's ref line or a tool's verdict at the start
  of a line. Only in a turn that is a CI step's own: a turn that runs a command printing a
  log or a file (`gh run view --log`, `cat`, `tail`, `grep`, `curl`) keeps the columns, so
  another run's log an agent looked at is not read as its own commands' output. What a
  turn mentions is still read from its text as printed (a step's name).
- A failed test run whose own counts say none failed, where the failing line is another
  tool's summary behind a dot leader (`FAIL   ......... 149 files, 2 style issues`, Laravel
  Pint's in a `composer` script that runs the tests too): how the turn ended is that tool's.
  t11 read it as the tests failing.
- A .NET test run whose own summary counts fewer tests passed, failed and skipped than it
  ran (`Test summary: total: 20, failed: 0, succeeded: 8, skipped: 0`: twelve neither
  passed nor failed, their set-up broke) did not pass its tests, whatever its status: t11
  read it as passed by its status 0.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t11, shell
from .events import FAILED, PASSED, TESTS, UNKNOWN
from ..patterns import lazy

# gh's columns before a CI log's line: `job<TAB>step<TAB>` then the runner's timestamp.
_GH_COLUMNS = lazy(r"^[^\t\n]*\t[^\t\n]*\t(?=\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
                   r"(?:\.\d+)?Z)", re.M)
# Commands that print a log or a file they were pointed at: what they print is not the
# output of the turn's own runs.
_PRINTS_LOGS = frozenset(("gh", "glab", "cat", "tac", "tail", "head", "less", "more", "grep",
                          "egrep", "fgrep", "rg", "sed", "awk", "jq", "curl", "wget", "kubectl",
                          "docker", "journalctl", "type", "Get-Content", "gc", "bat"))
# A tool's summary behind a dot leader (`FAIL   ......... 149 files, 2 style issues`: Laravel
# Pint's), which the `FAIL <path>` of a test runner's failure also matches.
_DOT_LEADER = lazy(r"^\s*FAIL\s+\.{3,}")
# .NET's own summaries of a test run: the new one and the older one.
_DOTNET = (lazy(r"Test summary: total: (?P<total>\d+), failed: (?P<failed>\d+), "
                r"succeeded: (?P<passed>\d+), skipped: (?P<skipped>\d+)"),
           lazy(r"\b(?:Passed|Failed)!\s+-\s+Failed:\s+(?P<failed>\d+), Passed:\s+(?P<passed>\d+), "
                r"Skipped:\s+(?P<skipped>\d+), Total:\s+(?P<total>\d+)"))


@dataclass
class LogT14(reading_t11.LogT11):
    """A Log read by table t14."""


LOG = LogT14  # the class of the logs this module reads (table.py)


def read_events(turns, log_class=LogT14, columns_off=None):
    """The LogT14 (or `log_class`, a later table's) of `turns` (Turns, oldest first).
    `columns_off(turns)`: the turns with gh's columns taken off where the table reads them
    so (t14: each CI step's own turn, `without_gh_columns`)."""
    read = columns_off(turns) if columns_off else [without_gh_columns(t) for t in turns]
    log = reading_t11.read_events(read, log_class)
    # What a turn mentions (a step's name among them) is read from its text as printed.
    log.texts = [(turn.cmd or "") + "\n" + (turn.output or "") for turn in turns]
    log.events = [_not_a_test(_short_count(event, log)) for event in log.events]
    return log


def without_gh_columns(turn):
    """The turn with the columns `gh run view --log` puts before each line taken off, as
    they are off a log downloaded from the job's page, where the turn is a CI step's own
    (its command the step's script): the lines are the runner's. A turn that runs a command
    that prints logs or files (`gh run view`, `cat`, `tail`, `grep`, `curl`) keeps them:
    what it printed is another run's log, not its own commands' output."""
    output = turn.output or ""
    if "\t" not in output or not _GH_COLUMNS.search(output) or \
            any(step.program in _PRINTS_LOGS for step in shell.parse(turn.cmd or "").steps):
        return turn
    return replace(turn, output=_GH_COLUMNS.sub("", output))


def behind_columns(line):
    """True if the line starts with gh's columns and the runner's timestamp."""
    return _GH_COLUMNS.match(line) is not None


def _short_count(event, log):
    """A passed .NET test run whose own summary counts fewer tests passed, failed and
    skipped than it ran: not passed (its outcome unknown)."""
    if event.family != TESTS or event.outcome != PASSED or "dotnet" not in event.operation:
        return event
    for line in log.lines[event.turn]:
        for pattern in _DOTNET:
            found = pattern.search(line)
            if found:
                n = {k: int(v) for k, v in found.groupdict().items()}
                if n["passed"] + n["failed"] + n["skipped"] < n["total"]:
                    return replace(event, outcome=UNKNOWN, line=line.strip())
    return event


def _not_a_test(event):
    """A failed test run whose own counts say none failed and whose failing line is a
    tool's summary behind a dot leader: how it ended is another tool's, not its tests'."""
    if event.family == TESTS and event.outcome == FAILED and event.counts is not None and \
            event.counts[1] == 0 and _DOT_LEADER.match(event.line):
        return replace(event, outcome=UNKNOWN)
    return event
