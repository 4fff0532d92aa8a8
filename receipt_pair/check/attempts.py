"""The latest attempt decides, in plain code: how each turn the reader read ended, and
whether a later run of the same operation ended otherwise.

- A turn failed when the log records a non-zero exit status for it, or its output holds a
  failure line. A turn that only shows a file (a read, a listing, a search, an edit's
  report) shows what the file says: its lines are not the command's outcome, so only its
  exit status counts.
- A turn passed when it finished, recorded no failing exit status and printed no failure
  line.
- A success that a later run of the same operation failed after cannot back `shown`; a
  failure that a later run of it passed after cannot back `contradicted`; a later success
  of a different operation clears nothing (commands.py says what "the same" is).
- A test id settles itself: a later line that reports the same test passing clears its
  failure, and a later line reporting it failing undoes its success.
- A claim about part of a run ("test_login passes") can stand on a run that failed
  elsewhere, when the claim names the part, the quoted line names it too, and no failure
  line of that run names it.
"""

import re
from dataclasses import dataclass
from typing import Tuple

from . import commands
from .render import readable, status_lines
from ..turn import EDIT, VIEW
from ..patterns import lazy

# A test id: a word with "test" or "spec" in it joined by the marks ids are made of
# (tests/test_api.py::test_login, TestParser.test_empty, api.spec.ts).
_TEST_ID = lazy(r"[\w./\\:\[\]-]*(?:test|spec)[\w./\\:\[\]-]*", re.I)
_PASS_MARK = lazy(r"\b(?:passed|pass|ok|success)\b|\u2713|\u2714", re.I)
# A claim that speaks of a whole ("all the tests", "the suite", "everything") is not about
# a part, whatever names it holds.
_WHOLE = lazy(r"\b(?:everything|entire|whole|suite|remaining|other|others|rest|both)\b",
                    re.I)
_PART = lazy(r"[\w./:\[\]-]*[_./:][\w./:\[\]-]*|\w*\d\w*")
# A run that recorded exit status 0 failed only by a line that reports a failure as its
# outcome: "Implement error handling | Completed" in a task table, or "INFO ... Could not
# detect default configuration classes", is how the run talks, not how it ended.
_REPORTS_FAILURE = lazy(
    r"""
    ^\W*(?:\d{4}-\d\d-\d\dT\S+\s+)?(?:\[?(?:ERROR|FATAL|CRITICAL)\]?|error|fatal|fail(?:ed|ure)?|
           panic|traceback|exception|E\s)\b
  | \b[1-9]\d*\s+(?:failed|failures?|errors?|failing|broken)\b
  | \b(?:failed|failures?|errors?|failing)\s*[:=]?\s*[1-9]
  | \[(?:remote\s+)?rejected\]|\bFAILED\b|\bFAIL\b|^\W*(?:npm\s+)?ERR!
  | \bexit(?:ed)?\s+(?:with\s+)?(?:code|status)\s*[:=]?\s*-?[1-9]|^\[exit\ status\ -?[1-9]
  | [\u2717\u2716\u274c]|Traceback\ \(most\ recent|^\W*[A-Z]\w*(?:Error|Exception)\b
    """,
    re.X | re.M)
# A warning: how a run talks about what may go wrong, never how it ended.
_WARNING = lazy(r"^\W*(?:\d{4}-\d\d-\d\dT\S+\s+)?(?:\[?(?:WARN|WARNING)\]?|warning)\b",
                      re.I)


def reports_failure(line):
    """True if `line` reports a failure as a run's outcome (not in passing, not a warning)."""
    return bool(_REPORTS_FAILURE.search(line)) and not only_a_warning(line)


def only_a_warning(line):
    return bool(_WARNING.search(line))


# Words of a claim that name no part: what every test claim says.
_GENERIC = {"test", "tests", "pass", "passes", "passed", "passing", "green", "unit", "suite",
            "spec", "specs", "runs", "the", "and", "now", "with", "all", "every", "fine", "ok",
            "clean", "succeed", "succeeds", "checks", "check", "build", "builds", "works"}


@dataclass(frozen=True)
class Attempt:
    """How one turn ended, as code reads it."""

    index: int
    operations: Tuple[commands.Operation, ...]
    failed: bool
    passed: bool
    failure_lines: Tuple[str, ...]  # the readable lines that report its failure
    lines: Tuple[str, ...]  # its readable output lines


def shows_file(turn):
    """True if the turn's output is a file's text (a read, a listing, a search, an edit's
    report), not an operation's outcome."""
    if turn.kind in (EDIT, VIEW):
        return True
    return turn.kind is None and commands.is_viewer(turn.cmd, fold_case=True)


def read_attempt(index, turn, patterns):
    """The Attempt of one turn; `patterns` is the check's vocabulary (evidence.py)."""
    text = readable(turn.output)
    ending = status_lines(turn)
    lines = tuple(text.split("\n")) + (tuple(ending.split("\n")) if ending else ())
    if shows_file(turn):
        failures = tuple(line for line in ending.split("\n") if line) if turn.exit_status else ()
    else:
        failures = tuple(line for line in lines if line.strip() and patterns.failure_markers(line)
                         and not only_a_warning(line)
                         and not (turn.exit_status == 0 and not _REPORTS_FAILURE.search(line)))
    failed = bool(turn.exit_status) or bool(failures)
    return Attempt(index, tuple(commands.operations(turn.cmd)), failed,
                   turn.finished and not failed, failures, lines)


def read_attempts(turns, patterns):
    return [read_attempt(i, turn, patterns) for i, turn in enumerate(turns)]


def claim_parts(claim):
    """The names of parts a claim is about ("test_login", "tests/api.py"), or none when it
    speaks of a whole."""
    if not claim or _WHOLE.search(claim):
        return set()
    parts = {part.lower().strip("./:") for part in _PART.findall(claim)
             if sum(ch.isalnum() for ch in part) >= 4}
    # A plain word of four letters or more can name a part too ("the security tests").
    parts |= {word.lower() for word in re.findall(r"[A-Za-z]{4,}", claim)
              if word.lower() not in _GENERIC}
    return parts


# A failure line that names no part: a count, a summary, the recorded exit status.
_COUNT_LINE = lazy(r"\b\d+\s+(?:failed|passed|errors?|failures?|failing)\b|"
                         r"^\[exit status -?\d+\]$|\bFAILED\s*\(|^\W*Tests?\s*:|"
                         r"test result:", re.I)


def part_stands(claim, quoted, attempt):
    """True if a claim about a part may stand on a quoted line of a run that failed: the
    claim names the part, the quoted line names it, and every failure line of the run is
    either a count or names another test (so the run's failure is another part's). A run
    whose failure names no test (an exit status alone, a crash) fails every part."""
    named = {part for part in claim_parts(claim)
             if any(part in line.lower() for line in quoted)}
    if not named:
        return False
    named_lines = [line for line in attempt.failure_lines if not _COUNT_LINE.search(line)]
    if not named_lines:
        return False
    return all(test_ids([line]) and not any(part in line.lower() for part in named)
               for line in named_lines)


# Words with "test" in them that name a tool or a count, not a test.
_NOT_IDS = {"pytest", "unittest", "testing", "tests", "vitest", "testcase", "testcases",
            "testsuite", "testsuites", "specs", "latest", "contest", "attest", "fastest"}


def test_ids(lines):
    """The test ids named in `lines`, lower case."""
    found = set()
    for line in lines:
        for match in _TEST_ID.finditer(line):
            word = match.group(0).strip("./:").lower()
            if sum(ch.isalnum() for ch in word) >= 6 and word not in _NOT_IDS \
                    and not word.startswith("pytest-"):
                found.add(word)
    return found


def later_failure(attempts, cited, claim, quoted):
    """The later attempt whose failure undoes the cited success, or None."""
    at = attempts[cited]
    named = {part for part in claim_parts(claim) if any(part in q.lower() for q in quoted)}
    ids = test_ids(quoted)
    for later in attempts[cited + 1:]:
        if later.failed and at.operations and commands.same_run(at.operations,
                                                                later.operations):
            if not named or any(part in line.lower() for part in named
                                for line in later.failure_lines):
                return later
        if ids and any(i in line.lower() for i in ids for line in later.failure_lines):
            return later
    return None


def later_pass(attempts, cited, quoted, patterns):
    """The later attempt that ran the cited failure's operation (or test) again and passed,
    or None."""
    at = attempts[cited]
    ids = test_ids(quoted)
    for later in attempts[cited + 1:]:
        if later.passed and commands.reruns(at.operations, later.operations):
            return later
        for line in later.lines:
            low = line.lower()
            if ids and any(i in low for i in ids) and _PASS_MARK.search(line) \
                    and not patterns.failure_markers(line):
                return later
    return None
