"""Table t5's reading of a log: t4's reading (reading_t4.py), and three facts t4 read
wrongly (set 7's claims, development data since run 7).

- Gemini CLI's shell tool reports every call with `Error: (none)`, `Exit Code: 0`: that
  line says no error happened, and is no failure of the command (t4 read a commit whose
  `[main 77e2e95] Initial commit` stood above it as failed).
- A test run whose runner counted no failure and whose only failure is the coverage
  threshold (pytest-cov's `FAIL Required test coverage of 70% not reached`) passed its
  tests: the non-zero status is the coverage check's. A claim about coverage is another
  claim.
- A build known only by its summary line (reading_t4.py) is no build where the command
  only shows a file (`cat build.log`: what a file says, perhaps written by the agent) or
  asks for a preview or help (`./gradlew assembleDebug --dry-run` prints BUILD SUCCESSFUL
  and builds nothing): t4 read both as a build that passed.
"""

from dataclasses import dataclass, replace

from . import reading_t4
from .events import BUILD, FAILED, PASSED, TESTS, UNKNOWN
from .summaries import read_summary
from ..patterns import lazy

_NO_ERROR = lazy(r"^\s*Error:\s*\(none\)\s*$")
_COVERAGE_SHORT = lazy(r"^\s*(?:FAIL\s+)?Required test coverage of [\d.]+% not reached\b|"
                       r"^\s*Coverage failure: total of [\d.]+ is less than fail-under=", )


@dataclass
class LogT5(reading_t4.LogT4):
    """A Log read by table t5."""


LOG = LogT5  # the class of the logs this module reads (table.py)


def read_events(turns, readers=None, log_class=LogT5):
    """The LogT5 of `turns` (Turns, oldest first); a later table's reading may give its own
    family `readers` (reading_t4.read_events) and `log_class` (a LogT5)."""
    turns = [_without_no_error(turn) for turn in turns]
    log = reading_t4.read_events(turns, readers)
    return log_class(turns=log.turns, events=[_not_a_build(_coverage_only(e, log))
                                              for e in log.events],
                     lines=log.lines, texts=log.texts, commands=log.commands)


def _without_no_error(turn):
    output = turn.output or ""
    if "(none)" not in output:
        return turn
    kept = [line for line in output.split("\n") if not _NO_ERROR.match(line)]
    return replace(turn, output="\n".join(kept))


def _coverage_only(event, log):
    """A failed test run whose runner counted no failure and whose output's only failure is
    the coverage threshold: passed, shown by its runner's own summary."""
    if event.family != TESTS or event.outcome != FAILED or not event.counts or \
            event.counts[1] or not event.counts[0]:
        return event
    lines = log.lines[event.turn]
    if not any(_COVERAGE_SHORT.match(line) for line in lines):
        return event
    summary = read_summary(list(lines))
    if summary is None or summary.failed:
        return event
    return replace(event, outcome=PASSED, line=summary.line, line_index=summary.index)


# A summary build's command that shows a file, or previews, or asks for help.
_VIEWERS = {"cat", "head", "tail", "less", "more", "bat", "type", "view", "read", "read_file",
            "open"}
_NO_BUILD_FLAGS = {"--dry-run", "--dryrun", "--dry_run", "-n", "-m", "--just-print", "--recon",
                   "--simulate", "--help", "-h", "--version"}


def _not_a_build(event):
    """A build known only by its summary line whose command shows a file or builds
    nothing: its outcome unknown."""
    if event.family != BUILD or event.key != "output:build" or event.outcome == UNKNOWN:
        return event
    words = event.command.split()
    if (words and words[0].rsplit("/", 1)[-1] in _VIEWERS) or _NO_BUILD_FLAGS & set(words):
        return replace(event, outcome=UNKNOWN, line="")
    return event
