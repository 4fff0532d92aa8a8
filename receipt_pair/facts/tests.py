"""Test runs: which steps run tests (whatever the wrapper), what part of the suite, and what
the runner's own summary says.

A step runs tests when its program is a test runner (pytest, unittest, go test, cargo test,
jest, vitest, mocha, rspec, phpunit, dotnet test, mvn/gradle test, ctest, deno test, bun
test, ...), a project's test script (`npm test`, `npm run test:unit`, `yarn test`, `make
test`, `tox`, `nox`, `./run_tests.sh`, `python manage.py test`), or when its output carries
a runner's summary. Its scope is the whole suite, or a part (paths, `-k`, `-run`,
`--filter`, `--lf`): a part that passes says nothing of the whole. A run of nothing
(`--collect-only`, `--list`, 0 tests collected, every test skipped or deselected) shows
nothing either way.

The summary is read from the runner's own lines (the last of each kind wins), and the line
is kept: it is the line a receipt quotes.
"""

import re
from dataclasses import dataclass
from typing import Tuple

from . import shell
from .events import (BACKGROUND, CUT, ECHO, FAILED, MASKED, NOTHING, PASSED, TESTS, UNKNOWN,
                     Event, step_outcome)
from .endings import CUT_STATUSES, cut_line, failure_line, no_tests_line
from .summaries import read_summary
from ..patterns import lazy

# Programs that are test runners themselves.
RUNNERS = {"pytest", "unittest", "nose", "nose2", "jest", "vitest", "mocha", "ava", "tap",
           "karma", "jasmine", "rspec", "phpunit", "pest", "ctest", "bats", "behave",
           "cucumber", "cucumber-js", "playwright", "cypress", "trial", "ward", "tox", "nox",
           "node --test", "testthat", "busted", "prove", "hardhat", "forge", "robot",
           "gotestsum", "xcodebuild"}
# Tools whose subcommand runs tests: ("go", "test").
_SUBCOMMAND_RUNS = {("go", "test"), ("cargo", "test"), ("cargo", "nextest"), ("dotnet", "test"),
                    ("mvn", "test"), ("mvn", "verify"), ("mvn", "integration-test"),
                    ("gradle", "test"), ("gradle", "check"), ("gradle", "connectedcheck"),
                    ("deno", "test"), ("bun", "test"), ("swift", "test"), ("flutter", "test"),
                    ("dart", "test"), ("mix", "test"), ("sbt", "test"), ("sbt", "testonly"),
                    ("lein", "test"), ("stack", "test"), ("cabal", "test"), ("zig", "build"),
                    ("rails", "test"), ("rake", "test"), ("rake", "spec"), ("hatch", "test"),
                    ("php", "artisan"), ("python manage.py", "test"), ("ng", "test"),
                    ("nx", "test"), ("turbo", "test"), ("bazel", "test"), ("pants", "test"),
                    ("forge", "test"), ("npm", "test"), ("npm", "t"), ("yarn", "test"),
                    ("pnpm", "test"), ("pnpm", "t")}
# Runners of a project's named scripts: `npm run test:unit`, `make check`.
_SCRIPT_RUNNERS = {"npm": ("run", "run-script"), "yarn": ("run", ""), "pnpm": ("run", ""),
                   "bun": ("run",), "deno": ("task",), "make": ("",), "just": ("",),
                   "task": ("",), "invoke": ("",), "mage": ("",), "composer": ("run", ""),
                   "poe": ("",), "hatch": ("run",), "pixi": ("run",)}
_TEST_NAME = lazy(r"(?:^|[:_./-])(?:tests?|specs?|e2e|unit|integration)"
                        r"(?:$|[:_./-])|^test", re.I)
# Options that make a run list or collect tests instead of running them.
_NOTHING_FLAGS = {"--collect-only", "--co", "--setup-plan", "--fixtures", "--markers",
                  "--listtests", "--list-tests", "--list", "-list", "--no-run", "--dry-run",
                  "--version", "--help", "-h", "-dskiptests", "-dmaven.test.skip=true",
                  "--showconfig", "--init"}
# Options that run a part of the suite (their value, if any, names it).
_PART_OPTIONS = {"-k", "-m", "--lf", "--last-failed", "--deselect", "-run", "--run",
                 "-t", "--testnamepattern", "--grep", "-g", "--filter", "--tests", "-r",
                 "--only", "-p", "--package", "--test", "--lib", "--bin", "-e", "--example",
                 "--spec", "-f", "--focus", "--testpathpattern", "--findrelatedtests",
                 "--changed", "--onlychanged", "-o", "--exact", "--group", "--suite"}
_PART_OPTIONS_WITHOUT_VALUE = {"--lf", "--last-failed", "--lib", "--onlychanged", "--changed",
                               "--exact", "-o"}


@dataclass(frozen=True)
class TestRun:
    """What a step asks of a test runner."""

    suite: str  # what "the same suite" means across wrappers: "pytest", "script:test"
    part: Tuple[str, ...]  # the part it runs (paths, names, patterns); () for the whole
    nothing: bool  # it lists or collects tests, or is told to run none


def test_run(step):
    """The TestRun of a step, or None when the step runs no tests by its command."""
    program, args = step.program, [a for a in step.args]
    low = [a.lower() for a in args]
    sub = shell.subcommand(step).lower()
    suite = None
    if program in RUNNERS:
        suite = "pytest" if program == "pytest" else program
        if program in ("playwright", "cypress") and sub not in ("test", "run"):
            return None
        if program in ("tox", "nox"):
            return TestRun(program, (), any(a in _NOTHING_FLAGS for a in low))
    elif (program, sub) in _SUBCOMMAND_RUNS:
        if program == "php" and not (len(args) > 1 and args[1] == "test"):
            return None
        if program == "zig" and "test" not in low:
            return None
        suite = f"{program} {sub}" if program not in ("npm", "yarn", "pnpm") else "script:test"
        args = args[args.index(next(a for a in args if a.lower() == sub)) + 1:] if sub else args
        low = [a.lower() for a in args]
        if program == "cargo" and sub == "nextest":
            args = args[1:] if args[:1] == ["run"] else args
            low = [a.lower() for a in args]
    elif program in _SCRIPT_RUNNERS:
        script = _script_name(program, args)
        if script and _TEST_NAME.search(script) and not re.search(r"build|lint|type", script,
                                                                 re.I):
            suite = f"script:{script}" if program not in ("make", "just", "task") else \
                f"{program}:{script}"
            args = args[args.index(script) + 1:] if script in args else []
            low = [a.lower() for a in args]
        else:
            return None
    elif _TEST_NAME.search(program) and not program.startswith(("pytest-", "test-")):
        suite = f"script:{program}"  # ./run_tests.sh, test.sh, python test_api.py
    elif program.startswith(("python ", "node ")) and _TEST_NAME.search(program.split(" ", 1)[1]):
        script = program.split(" ", 1)[1]
        if re.match(r"^(?:test_\w+|\w+_test|\w+\.(?:test|spec))\.[jt]sx?$|^(?:test_\w+|\w+_test)\.py$",
                    script):
            return TestRun(f"script:{script}", (script,), False)  # one test file: a part
        suite = f"script:{script}"
    if suite is None:
        return None
    nothing = any(a.split("=", 1)[0] in _NOTHING_FLAGS or a in _NOTHING_FLAGS for a in low)
    if program == "vitest" and sub == "list":
        nothing = True
    return TestRun(suite, _part(suite, args), nothing)


def _script_name(program, args):
    names = [a for a in args if not a.startswith("-") and "=" not in a]
    if not names:
        return ""
    first = names[0]
    if program in ("npm", "bun", "deno", "composer") or (program in ("yarn", "pnpm") and first
                                                         in ("run", "run-script")):
        return names[1] if len(names) > 1 and first in ("run", "run-script", "task") else (
            "" if first in ("run", "run-script", "task") else first)
    return first


def _part(suite, args):
    """The part of the suite a run's arguments name, or () for the whole suite."""
    part = []
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
            part.append(word)
            continue
        low = word.lower()
        if low == "--":
            continue
        name, _, value = low.partition("=")
        if name in _PART_OPTIONS:
            if value:
                part.append(word.split("=", 1)[1])
            elif name in _PART_OPTIONS_WITHOUT_VALUE:
                part.append(name)
            else:
                skip = True
            continue
        if word.startswith("-"):
            if word.startswith("-k") and len(word) > 2:  # -kname
                part.append(word[2:])
            continue
        if shell._is_redirect(word):
            continue
        if suite in ("go test",) and word in ("./...", "...", "./"):
            continue
        if suite in ("cargo test", "cargo nextest") and word in ("--workspace", "--all"):
            continue
        if suite == "unittest" and word == "discover":
            return ()
        if suite.startswith(("script:", "make:", "just:", "task:")) or suite in (
                "tox", "nox", "mvn test", "mvn verify", "gradle test", "gradle check"):
            continue  # arguments of a project's script say nothing sure of its scope
        part.append(word)
    return tuple(part)


# -- the events of one turn ---------------------------------------------------------------------

# Viewers whose output is a file: a test report or a run's log shown with them is a run's
# output read back, with no status of its own.
_REPORTS = lazy(r"\.(?:log|out|txt|xml|json)$", re.I)


def read(read, taken, runs_tests=None):
    """(step, Event) of every test run of one turn: steps that run tests by their command
    (`runs_tests`, a later table's reading of a step; default test_run), or, where none
    does, the step whose output carries a runner's summary."""
    lines = list(read.lines)
    summary = read_summary(lines)
    runs_tests = runs_tests or test_run
    runs = [(step, runs_tests(step)) for step in read.line.runs if id(step) not in taken]
    runs = [(step, run) for step, run in runs if run is not None]
    if not runs and summary is not None:
        step = output_step(read)
        if step is not None or not read.line.runs:
            runs = [(step, TestRun(f"output:{summary.runner}", (), False))]
    status = read.turn.exit_status
    for number, (step, run) in enumerate(runs):
        last = number == len(runs) - 1
        share = read.status_of(step) if step is not None else (
            "background" if not read.turn.finished else "own" if status is not None else "none")
        mine = summary if last else None
        cut = cut_line(lines)
        none = no_tests_line(lines)
        line, index, counts = "", -1, None
        if mine is not None:
            counts = (mine.passed, mine.failed, mine.skipped)
        if step is not None and step.echoes:
            outcome = ECHO
        elif share == "background":
            outcome = BACKGROUND
        elif run.nothing:
            outcome = NOTHING
            line, index = (mine.line, mine.index) if mine else none or ("", -1)
        elif (share in ("own", "shared", "none") and status in CUT_STATUSES) or cut is not None:
            outcome = CUT
            line, index = cut or ("", -1)
        elif mine is not None and mine.failed:
            outcome, line, index = FAILED, mine.line, mine.index
        elif failure_line(lines) is not None and last:
            outcome = FAILED
            line, index = failure_line(lines)
        elif mine is not None and mine.ran == 0:
            outcome, line, index = NOTHING, mine.line, mine.index
        elif mine is None and none is not None and not status:
            outcome = NOTHING
            line, index = none
        elif mine is not None and run.suite.startswith("output:") and mine.runner in (
                "plain", "fraction"):
            outcome = UNKNOWN  # a count any script can print: it shows a failure, not a pass
        elif mine is not None:
            if share == "masked":
                outcome, line, index = MASKED, mine.line, mine.index
            elif share == "own" and status:
                outcome = FAILED  # the runner's own status says it failed (coverage, ...)
            elif share in ("own", "shared") and status == 0 or share == "none" or \
                    status is None:
                outcome, line, index = PASSED, mine.line, mine.index
            else:
                outcome = UNKNOWN
        elif step is not None:
            outcome, line, index = step_outcome(read, step)
            if outcome == FAILED and not last and share == "shared":
                outcome = UNKNOWN
        elif status:
            outcome = FAILED
        else:
            outcome = UNKNOWN
        if not last and outcome in (PASSED, FAILED) and mine is None and share != "own":
            outcome = UNKNOWN  # several runs in one line: which one failed is not known
        yield step, Event(read.index, TESTS, run.suite, run.suite, outcome, status, share,
                          line, index, run.part, counts,
                          detail=(("scope", "part" if run.part else "all"),),
                          command=" ".join(step.words)[:300] if step is not None else "")


def output_step(read):
    """The step whose output carries a runner's summary, when no step runs tests by its
    command: the last step that runs something, unless it only shows a file that is not a
    run's report, or only echoes."""
    runs = [s for s in read.line.runs if s.program not in shell.FILTERS or s is
            read.line.runs[0]]
    if not runs:
        return None
    step = runs[-1]
    if step.echoes:
        return step
    viewers = {"cat", "head", "tail", "less", "more", "type", "bat", "read", "view",
               "read_file", "open"}
    if step.program in viewers or read.turn.kind in ("view", "edit"):
        files = shell.positional(step.args)
        if not (files and _REPORTS.search(files[-1])):
            return None
    return step
