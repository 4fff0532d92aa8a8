"""How many tests a run reports, read in plain code from what it printed.

A verifying run that passes over 3 of 10 tests is still a passing run; a pin (pins.py)
catches it only if the run's count can be read. The count is read from a JUnit XML report
or from the summary lines test runners print:

- pytest: "3 passed, 1 failed, 2 skipped in 0.12s" (the last such line; "no tests ran");
- unittest: "Ran 5 tests in 0.001s" and the "OK (skipped=1)" / "FAILED (failures=1, ...)"
  line after it (the last run);
- jest: "Tests:       1 failed, 1 skipped, 3 passed, 5 total"; vitest: "Tests  1 failed |
  3 passed (4)" (the last such line);
- go test -v: every "--- PASS: / --- FAIL: / --- SKIP:" line, subtests included;
- cargo test: every "test result: ok. 5 passed; 0 failed; 1 ignored; ..." line, summed (one
  per test binary).

Where two kinds of summary are found (a script that runs pytest and then jest), their
counts are added. An expected failure (pytest's xfail, unittest's expectedFailure, a JUnit
<skipped type="pytest.xfail">) ran but is not a pass: it is counted apart, and a pin counts
it with the skips (pins.py), so it cannot make up for a missing passing test. An
unexpected success (xpassed) is counted as passed.

A summary line is text like any other: the code under test can print one. A pin
therefore catches a suite that shrank or skipped its way to green, not a test suite
written to lie about itself.
"""

from dataclasses import asdict, dataclass

from ..errors import InputError
from ..patterns import lazy

_ANSI = lazy(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]")
_XML_START = lazy(r"\A\s*<(?:\?xml|testsuites?[\s>/])")

_DURATION = r"in \d+(?:\.\d+)?s(?:econds)?(?: \(\d+:\d\d:\d\d(?:\.\d+)?\))?"
_PYTEST_LINE = lazy(r"^=*\s*(?P<parts>.+?),? " + _DURATION + r"\s*=*$")
_PYTEST_PART = lazy(r"^(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|"
                          r"warnings?|rerun|subtests? passed|subtests? failed)$")
_PLURALS = {"errors": "error", "warnings": "warning"}
_UNITTEST_RAN = lazy(r"^Ran (\d+) tests? in \d+(?:\.\d+)?s$")
_UNITTEST_END = lazy(r"^(OK|FAILED|NO TESTS RAN)(?: \((?P<parts>[^)]*)\))?$")
_JEST_LINE = lazy(r"^\s*Tests:\s+(?P<parts>.+?),\s+(?P<total>\d+) total\s*$")
_VITEST_LINE = lazy(r"^\s*Tests\s+(?P<parts>\d+ \w+(?: \| \d+ \w+)*)\s+\((?P<total>\d+)\)"
                          r"(?:\s.*)?$")
_GO_RESULT = lazy(r"^\s*--- (PASS|FAIL|SKIP): \S")
_CARGO_LINE = lazy(r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; "
                         r"(\d+) ignored; (\d+) measured; (\d+) filtered out")


@dataclass(frozen=True)
class Counts:
    """The tests a run reports: how many in all (ran or skipped), and how they ended."""

    tests: int  # passed + failed + skipped + expected_failures
    passed: int
    failed: int  # failures and errors
    skipped: int
    source: str  # where the numbers were read: "pytest", "unittest", "junit", ...
    expected_failures: int = 0  # ran and failed as marked to (xfail): not passes

    def to_dict(self):
        return asdict(self)

    def __add__(self, other):
        return Counts(self.tests + other.tests, self.passed + other.passed,
                      self.failed + other.failed, self.skipped + other.skipped,
                      f"{self.source}+{other.source}",
                      self.expected_failures + other.expected_failures)


def describe(counts):
    """Counts (or their dict, as a receipt keeps them) for a person: "10 tests: 7 passed,
    0 failed, 3 expected to fail, 0 skipped"."""
    c = counts.to_dict() if isinstance(counts, Counts) else counts
    return (f"{c.get('tests')} tests: {c.get('passed')} passed, {c.get('failed')} failed, "
            f"{c.get('expected_failures', 0)} expected to fail, {c.get('skipped')} skipped")


def _screen_lines(text):
    """The lines as a terminal shows them: colours removed, a carriage return's overwrite
    applied (a progress line redrawn in place counts once, as it was left)."""
    for line in _ANSI.sub("", text).split("\n"):
        yield line.rstrip("\r").rsplit("\r", 1)[-1].rstrip()


def _pytest(lines):
    found = None
    for line in lines:
        match = _PYTEST_LINE.match(line)
        if not match:
            continue
        body = match.group("parts").strip()
        if body == "no tests ran":
            found = Counts(0, 0, 0, 0, "pytest")
            continue
        numbers = {}
        for part in body.split(", "):
            word = _PYTEST_PART.match(part.strip())
            if not word:
                break
            key = _PLURALS.get(word.group(2), word.group(2))
            numbers[key] = numbers.get(key, 0) + int(word.group(1))
        else:
            passed = numbers.get("passed", 0) + numbers.get("xpassed", 0)
            failed = numbers.get("failed", 0) + numbers.get("error", 0)
            skipped = numbers.get("skipped", 0)
            expected = numbers.get("xfailed", 0)
            # An expected failure ran (not a pass); a deselected test did not run.
            found = Counts(passed + failed + skipped + expected, passed, failed, skipped,
                           "pytest", expected)
    return found


def _unittest(lines):
    found, ran = None, None
    for line in lines:
        match = _UNITTEST_RAN.match(line)
        if match:
            ran = int(match.group(1))
            continue
        end = _UNITTEST_END.match(line)
        if end and ran is not None:
            numbers = {}
            for part in (end.group("parts") or "").split(","):
                key, _, value = part.strip().partition("=")
                if value.isdigit():
                    numbers[key] = int(value)
            failed = numbers.get("failures", 0) + numbers.get("errors", 0)
            skipped = numbers.get("skipped", 0)
            expected = numbers.get("expected failures", 0)
            found = Counts(ran, ran - failed - skipped - expected, failed, skipped, "unittest",
                           expected)
            ran = None
    return found


def _parts(text, separator):
    numbers = {}
    for part in text.split(separator):
        count, _, word = part.strip().partition(" ")
        if not count.isdigit():
            return None
        numbers[word] = numbers.get(word, 0) + int(count)
    return numbers


def _jest_or_vitest(lines):
    found = None
    for line in lines:
        for pattern, separator, source in ((_JEST_LINE, ",", "jest"),
                                           (_VITEST_LINE, "|", "vitest")):
            match = pattern.match(line)
            numbers = _parts(match.group("parts"), separator) if match else None
            if numbers is not None:
                skipped = numbers.get("skipped", 0) + numbers.get("todo", 0)
                failed = numbers.get("failed", 0)
                found = Counts(int(match.group("total")), numbers.get("passed", 0), failed,
                               skipped, source)
    return found


def _go(lines):
    results = [m.group(1) for m in map(_GO_RESULT.match, lines) if m]
    if not results:
        return None
    return Counts(len(results), results.count("PASS"), results.count("FAIL"),
                  results.count("SKIP"), "go test")


def _cargo(lines):
    found = None
    for line in lines:
        match = _CARGO_LINE.match(line)
        if match:
            passed, failed, ignored = (int(match.group(i)) for i in (1, 2, 3))
            counts = Counts(passed + failed + ignored, passed, failed, ignored, "cargo")
            found = counts if found is None else Counts(
                found.tests + counts.tests, found.passed + passed, found.failed + failed,
                found.skipped + ignored, "cargo")
    return found


def count_junit(data, name="JUnit report"):
    """Counts of a JUnit XML report (bytes or text): every <testcase>, and its outcome.

    A report with no test case elements is read from its suites' `tests`, `failures`,
    `errors` and `skipped` attributes. Not JUnit XML is an InputError naming the file.
    """
    import xml.etree.ElementTree as ET  # only a JUnit report is XML: a hook's start skips it

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, column = exc.position
        raise InputError(f"{name} line {line} column {column + 1}: not valid XML") from None
    if root.tag not in ("testsuites", "testsuite"):
        raise InputError(f"{name}: XML, but not a JUnit report (the root is <{root.tag}>)")
    cases = list(root.iter("testcase"))
    if not cases:
        suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
        totals = {key: 0 for key in ("tests", "failures", "errors", "skipped")}
        for suite in suites:
            for key in totals:
                value = (suite.get(key) or "0").strip()
                totals[key] += int(value) if value.isdigit() else 0
        failed = totals["failures"] + totals["errors"]
        return Counts(totals["tests"], totals["tests"] - failed - totals["skipped"], failed,
                      totals["skipped"], "junit")
    failed = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
    # pytest writes an expected failure as <skipped type="pytest.xfail">.
    not_run = [c.find("skipped") for c in cases if c.find("skipped") is not None
               and c.find("failure") is None and c.find("error") is None]
    expected = sum(1 for s in not_run if s.get("type") == "pytest.xfail")
    skipped = len(not_run) - expected
    return Counts(len(cases), len(cases) - failed - skipped - expected, failed, skipped,
                  "junit", expected)


_READERS = (_pytest, _unittest, _jest_or_vitest, _go, _cargo)


def count_tests(output):
    """The Counts a run's output reports, or None when no count can be read from it."""
    if _XML_START.match(output):
        try:
            return count_junit(output.encode("utf-8", "surrogatepass"))
        except InputError:
            pass
    lines = list(_screen_lines(output))
    found = [counts for counts in (read(lines) for read in _READERS) if counts is not None]
    if not found:
        return None
    total = found[0]
    for counts in found[1:]:
        total = total + counts
    return total
