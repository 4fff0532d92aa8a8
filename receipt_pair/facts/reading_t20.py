"""Table t20's reading of a log: t15's, with a test run's options that choose no tests read
as options, not as a part of the suite.

t15 (like every reading before it) took any word after a runner that does not start with a
dash for a part of the suite, and the value of some options for the part they name. So a
whole run was read as a part where the word was the runner's own subcommand or the value of
an option that only says how to run, and a part never shows a claim about all tests:
- vitest's `run` (`npx vitest run`: run once, not watch) and Playwright's `test`
  (`npx playwright test`) are the runner's subcommand;
- a value of an option that sets how the run reports, how many workers it takes, which
  plugins or settings it loads, or how long it may take (`pytest -n 4`, `pytest -p
  no:cacheprovider`, `pytest -o addopts=""`, `dotnet test --verbosity normal`, `go test
  -timeout 60s`, `mocha --require @babel/register`, `cargo test -j 2`) is no test.
Options that do choose tests (`-k`, `-run`, `--filter`, a package, a config file that may
hold another suite) are a part as before, and so is every word t20 does not know.

A vitest run read as passed whose own summary says a test file did not pass (`Test Files  3
passed (4)`: a worker died with its file) or that errors were caught outside the tests
(`Errors  1 error`) ended UNKNOWN: t15 read such runs only where they were parts, which no
claim about all tests took for a receipt.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t15, shell
from .events import PASSED, TESTS, UNKNOWN
from ..patterns import lazy

# Per suite, the options whose value chooses no tests (lower case, as t15 compares them).
_HOW_TO_RUN = {
    "pytest": frozenset(("-n", "--numprocesses", "-p", "-o", "--override-ini", "--junitxml",
                         "--junit-xml", "--tb", "--maxfail", "--cov", "--cov-report",
                         "--cov-config", "-w", "--timeout", "--durations", "--basetemp",
                         "--rootdir", "--log-level", "--log-cli-level", "--capture",
                         "--color", "--dist", "--reruns", "--import-mode", "--html", "-r")),
    "dotnet test": frozenset(("-v", "--verbosity", "-c", "--configuration", "-f",
                              "--framework", "-l", "--logger", "--results-directory",
                              "--runtime", "-s", "--settings", "--collect", "-a", "--arch",
                              "--os")),
    "go test": frozenset(("-timeout", "-count", "-p", "-parallel", "-coverprofile",
                          "-covermode", "-coverpkg", "-tags", "-cpu", "-o")),
    "cargo test": frozenset(("-j", "--jobs", "--features", "-f", "--target", "--profile",
                             "--color", "--message-format", "--test-threads")),
    "mocha": frozenset(("--require", "-r", "--reporter", "--timeout", "-t", "--ui", "-u",
                        "--slow", "-s")),
    "jest": frozenset(("-w", "--maxworkers", "--reporters", "--coveragereporters",
                       "--testtimeout")),
    "vitest": frozenset(("--reporter", "--pool", "--environment", "--maxworkers")),
    "rspec": frozenset(("--format", "-f", "--require", "-r", "--order", "--seed", "--out",
                        "-o")),
}
# A runner's subcommand that runs its whole suite, read by t15 as a part.
_SUBCOMMAND = {"vitest": "run", "playwright": "test"}
# Vitest's word that a test file did not pass or that errors were caught outside the tests.
_FILES_PASSED = lazy(r"^\s*Test Files\s+(?P<passed>\d+) passed \((?P<total>\d+)\)")
_ERRORS = lazy(r"^\s*Errors\s+\d+ errors?\b")
_COLOURS = lazy(r"\x1b?\[[0-9;]*m")


@dataclass
class LogT20(reading_t15.LogT15):
    """A Log read by table t20."""


LOG = LogT20  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT20 of `turns` (Turns, oldest first)."""
    log = reading_t15.read_events(turns, LogT20)
    log.events = [not_all_files_passed(_without_run_options(event), log)
                  for event in log.events]
    return log


def not_all_files_passed(event, log):
    """A vitest run read as passed whose summary says a test file did not pass or errors
    were caught: UNKNOWN."""
    if event.family != TESTS or event.outcome != PASSED or "vitest" not in (
            event.key, event.operation) and "vitest" not in event.command:
        return event
    for line in log.lines[event.turn]:
        plain = _COLOURS.sub("", line)
        files = _FILES_PASSED.match(plain)
        if _ERRORS.match(plain) or (files and int(files["passed"]) < int(files["total"])):
            return replace(event, outcome=UNKNOWN, line="", line_index=-1)
    return event


def _without_run_options(event):
    """A test run's event with the words of its command that choose no tests taken out of
    its part (its scope `all` where nothing is left)."""
    if event.family != TESTS or not event.objects:
        return event
    chosen = [o for o in event.objects if o not in _choosing_nothing(event.key, event.command)]
    if len(chosen) == len(event.objects):
        return event
    return with_part(event, chosen)


def with_part(event, part):
    """A test run's event with `part` for its part (its scope `all` where it is empty)."""
    detail = tuple((name, ("part" if part else "all") if name == "scope" else value)
                   for name, value in event.detail)
    return replace(event, objects=tuple(part), detail=detail)


def _choosing_nothing(suite, command):
    """The words of a test run's command that t15 read as a part and choose no tests: the
    values of its suite's options that set how it runs, and its runner's subcommand."""
    options = _HOW_TO_RUN.get(suite, frozenset())
    words = set()
    for step in shell.parse(command).runs:
        args = list(step.args)
        if step.program == suite == "vitest" or step.program == suite == "playwright":
            positional = [a for a in args if not a.startswith("-")]
            if positional[:1] == [_SUBCOMMAND[suite]]:
                words.add(_SUBCOMMAND[suite])
        for index, word in enumerate(args):
            name, equals, value = word.lower().partition("=")
            if name not in options:
                continue
            if equals:
                words.add(word.split("=", 1)[1])
            elif index + 1 < len(args):
                words.add(args[index + 1])
    return words
