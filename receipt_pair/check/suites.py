"""Check c5's rules about a test suite (closer.py runs them with its own):

- a part of the suite rerun after a run of the whole failed shows nothing of the whole: a
  file, a name filter, `--changed` (`vitest run src/parse.test.ts` after `vitest run`
  failed). `run` is vitest's subcommand, not a part: read as a part, `vitest run` never
  counted as a run of the whole, so its failure never stood against a part rerun;
- a JUnit report is one run, read as a turn per test case and a summary turn per suite
  (logs/): one case's PASSED line cannot show that the tests pass when the report holds a
  failure, and a summary is a test run's result (fit.py asks `report_turn`), so a summary
  of no test passing shows nothing ran;
- a run that found no tests ("No tests were found!!!") shows no test passing, whatever
  line of it is quoted: ctest's header "Test project /repo/build" too.

Like every rule of the check, these only take answers away.
"""

import re

from . import attempts, kinds
from ..answers import SHOWN_IN_FAILED_TURN, SHOWN_NOTHING_RAN, SHOWN_PARTIAL_RERUN
from ..facts import shell, tests
from ..facts.text import command_text, screen_lines
from ..patterns import lazy

# vitest's subcommands: `vitest run` runs the whole suite once, `vitest related x` a part.
_VITEST_SUBCOMMANDS = {"run", "watch", "dev", "bench"}
# vitest's options that pick a part (with a value), and those whose value picks nothing.
_VITEST_PARTS = {"-t", "--testnamepattern", "--project", "--shard", "--dir", "--exclude"}
_VITEST_VALUES = {"--reporter", "--config", "-c", "--root", "-r", "--environment", "--pool",
                  "--outputfile", "--maxworkers", "--minworkers", "--testtimeout",
                  "--hooktimeout", "--mode", "--retry", "--bail", "--workspace", "--silent",
                  "--coverage.provider", "--coverage.reporter", "--coverage.include"}
# How logs/ writes a JUnit report's turns: "test <id>" with "PASSED <id> (0.001s)", and
# "junit summary of <suite>" with its counts, or an ERROR line where they disagree.
_CASE_CMD = lazy(r"^test (\S.*)$")
_CASE_LINE = lazy(r"^(PASSED|FAILED|ERROR|SKIPPED) (\S.*)$")
_SUMMARY_CMD = lazy(r"^junit summary of ")
_SUMMARY = lazy(r"^(\d+) tests: (\d+) passed, (\d+) failed, (\d+) errors, (\d+) skipped$")
# A run that found or ran no test at all ...
_NO_TESTS = lazy(
    r"^\W*(?:No\s+tests?\s+(?:were\s+|was\s+)?(?:found|collected|ran|run|executed|selected|"
    r"available)|No\s+test\s+files?\s+(?:found|to\s+run)|No\s+test\s+is\s+available|"
    r"No\s+test\s+suites?\s+found|collected\s+0\s+items|Ran\s+0\s+tests|0\s+passing|"
    r"0\s+tests?\s+(?:ran|run|executed|collected|found))", re.I)
# ... unless it also counts some passing (another suite or project of the same command).
_SOME_PASSED = lazy(r"\b[1-9]\d*\s+(?:tests?\s+)?(?:passed|passing)\b|"
                    r"\b[1-9]\d*%\s+tests\s+passed|\bout\s+of\s+[1-9]|"
                    r"\b(?:Passed|Tests\s+run|Total\s+tests)\s*:\s*[1-9]", re.I)
# gradle's test tasks: a run of nothing when every one of them had no source.
_GRADLE_TEST = lazy(r"^> Task :(?:\S*:)?test\b(.*)$")


def whole_suite(claim):
    """True if the claim is about the tests as a whole ("all tests pass"), not a part."""
    return kinds.TESTS in kinds.claim_kinds(claim) and not attempts.claim_parts(claim)


def _vitest_part(args):
    """The part of the suite a vitest command line runs: its file filters, a name pattern,
    `--changed`, a project or shard (the facts read `run` as a file filter)."""
    words = list(args)
    if words[:1] and words[0] in _VITEST_SUBCOMMANDS:
        words = words[1:]
    part, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        name, equals, _ = word.lower().partition("=")
        if name in _VITEST_PARTS or name == "--changed":
            part.append(word)
            skip = name != "--changed" and not equals
        elif name in _VITEST_VALUES:
            skip = not equals
        elif shell.positional([word]):
            part.append(word)  # a file filter, or `related` and its files
    return tuple(part)


def part_of(turn):
    """The part of the suite a turn's test runs ran (() for the whole), or None where its
    command runs no tests (or only lists them)."""
    found = None
    for step in shell.parse(command_text(turn.cmd)).runs:
        run = tests.test_run(step)
        if run is None or run.nothing:
            continue
        part = _vitest_part(step.args) if run.suite == "vitest" else run.part
        found = (found or ()) + part
    return found


def partial_rerun(turns, index, patterns):
    """True if the cited turn ran a part of the suite and the latest run of the whole before
    it failed."""
    if not part_of(turns[index]):
        return False
    for earlier in range(index - 1, -1, -1):
        if part_of(turns[earlier]) == ():
            return attempts.read_attempt(earlier, turns[earlier], patterns).failed
    return False


def _case(turn):
    """The outcome word of a JUnit test case's turn (PASSED, FAILED...), or None."""
    cmd = _CASE_CMD.match(turn.cmd or "")
    line = _CASE_LINE.match((turn.output or "").split("\n", 1)[0])
    if cmd and line and line.group(2).startswith(cmd.group(1)):
        return line.group(1)
    return None


def _summary(turn):
    """(tests, passed, failed, errors, skipped) of a JUnit summary turn, () for one whose
    counts disagreed with its cases, None for any other turn."""
    if not _SUMMARY_CMD.match(turn.cmd or ""):
        return None
    found = _SUMMARY.match((turn.output or "").strip())
    return tuple(int(n) for n in found.groups()) if found else ()


def report_turn(turn):
    """True if the turn is a JUnit report's test case or suite summary: a test run's result."""
    return _case(turn) is not None or _summary(turn) is not None


def report_failed(turns):
    """True if the JUnit report among `turns` holds a failure: a failed or erroring case, a
    summary that counts one, or counts that disagree with the cases."""
    for turn in turns:
        summary = _summary(turn)
        if _case(turn) in ("FAILED", "ERROR") or summary == () or (
                summary and (summary[2] or summary[3])) or (summary is not None
                                                             and turn.exit_status):
            return True
    return False


def found_nothing(turn):
    """True if the turn's output says it found or ran no test, and counts none passing."""
    lines = screen_lines(turn.output)
    tasks = [m.group(1).strip() for m in map(_GRADLE_TEST.match, lines) if m]
    nothing = any(_NO_TESTS.search(line) for line in lines) or (
        bool(tasks) and all(task == "NO-SOURCE" for task in tasks))
    return nothing and not any(_SOME_PASSED.search(line) for line in lines)


def refusal(claim, turns, index, patterns):
    """The code of the rule about a test suite that refuses a `shown` of `claim` quoted from
    turn `index`, or None."""
    if kinds.TESTS not in kinds.claim_kinds(claim):
        return None
    turn, whole = turns[index], whole_suite(claim)
    # "PASSED tests.test_p::test_a" of a report whose test_empty failed.
    if whole and _case(turn) == "PASSED" and report_failed(turns):
        return SHOWN_IN_FAILED_TURN
    summary = _summary(turn)
    # "Test project /repo/build" above "No tests were found!!!".
    if (summary and summary[1] == 0) or found_nothing(turn):
        return SHOWN_NOTHING_RAN
    # `vitest run src/parse.test.ts` after `vitest run` failed.
    if whole and partial_rerun(turns, index, patterns):
        return SHOWN_PARTIAL_RERUN
    return None
