"""How a run ended when it did not end by itself, read from the last lines it printed: a
harness or shell that stopped it (an interrupt, a kill, a timeout), a runner that found no
tests, and a line reporting one test failing.
"""

import re
from ..patterns import lazy

# Exit statuses of a run that was stopped: an interrupt, a kill, a termination, a timeout.
CUT_STATUSES = {124, 130, 137, 143, -2, -9, -15}
# What a harness or a shell prints when it stops a command: read only at the end of the
# output, where it stands when the command itself was stopped (a test that times out
# inside a run that goes on is the run's own failure, not a cut).
_CUT_LINE = lazy(
    r"^(?:KeyboardInterrupt\b|!+ KeyboardInterrupt !+|\^C$|Terminated$|Killed$|"
    r"(?:Command|Execution|Process) (?:timed out|was killed|was terminated)\b|"
    r"EXECUTION TIMED OUT|Error: Command timed out|\[?Command timed out after|"
    r"The command timed out|Timed out after \d+ ?(?:s|seconds|ms)\b.*$|"
    r"Command exceeded (?:the )?(?:timeout|time limit))", re.I)
# pytest's "Interrupted: 2 errors during collection" is a failure, not a cut.
_COLLECTION_ERRORS = lazy(r"Interrupted: \d+ errors? during collection")
_TAIL = 5


def cut_line(lines):
    """(the line at the end of the output that says the command was stopped before it
    ended, its index) or None."""
    seen = 0
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index].strip()
        if not line:
            continue
        seen += 1
        if _CUT_LINE.match(line) and not _COLLECTION_ERRORS.search(line):
            return line, index
        if seen >= _TAIL:
            break
    return None


# A line that reports one test failing, whatever the runner: jest's and vitest's "FAIL
# path", go's "--- FAIL:", pytest's short summary "FAILED tests/x.py::t", TAP's "not ok",
# a project's "✗ Test failed: ...".
_TEST_FAILED = lazy(r"^(?:FAIL\s+\S|--- FAIL:|FAILED \S+::|FAILED \S+\.py\b|"
                          r"not ok \d+|[\u2717\u2718\u274c\u00d7]\s*\S.*\b(?:fail|error)|"
                          r"\d+\) \S.*\bFAILED\b)", re.I)


def reports_test_failure(line):
    """True if `line` reports one test failing."""
    return bool(_TEST_FAILED.match(line.strip()))


def failure_line(lines):
    """(the first line that reports a test failing, its index) or None."""
    for index, line in enumerate(lines):
        if _TEST_FAILED.match(line.strip()):
            return line.strip(), index
    return None


_NO_TESTS = lazy(r"^(?:No tests found|No test files found|no tests ran|"
                       r"No tests executed!|0 examples, 0 failures|running 0 tests|"
                       r"Ran 0 tests in|NO TESTS RAN|collected 0 items|no tests to run|"
                       r"No test suites? found|.*\[no test files\])", re.I)


def no_tests_line(lines):
    """(the line saying the run found no tests, its index) or None: a line of one part that
    found none ("running 0 tests" of cargo's doc-tests, go's "[no test files]" of one
    package) says nothing when other tests ran."""
    from .summaries import read_summary

    summary = read_summary(lines)
    if summary is not None and summary.ran:
        return None
    for index in range(len(lines) - 1, -1, -1):
        if _NO_TESTS.match(lines[index].strip()):
            return lines[index].strip(), index
    return None


