"""The summaries of every other runner: pytest, unittest, go test, cargo test, rspec,
phpunit, dotnet, maven, gradle, ctest and colcon, bats and ExUnit, swift, dart, and a
project's own "9/9 tests passed"."""

import re

from .summary_kit import Summary, each, n
from ..patterns import lazy

_DURATION = r"(?:in|took)\s+[\d.]+\s*(?:s|ms|m|sec|seconds?)?(?:\s*\([\d:.]+\))?"


_PYTEST = lazy(r"^=*\s*(?P<parts>(?:\d+ \w+(?: \w+)?(?:, )?)+)\s+" + _DURATION + r"\s*=*$")


_PYTEST_NONE = lazy(r"^=*\s*no tests ran(?: " + _DURATION + r")?\s*=*$")


_PYTEST_COLLECTED = lazy(r"^(?:collected|collecting \.\.\. collected) (\d+) items?"
                               r"(?: / (\d+) deselected)?")


_WORD_COUNTS = lazy(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|"
                          r"warnings?|rerun|subtests? passed|subtests? failed)\b")


_UNITTEST_RAN = lazy(r"^Ran (\d+) tests? in [\d.]+s$")


_UNITTEST_END = lazy(r"^(OK|FAILED|NO TESTS RAN)(?: \((?P<parts>[^)]*)\))?\s*$")


_GO_PKG = lazy(r"^(ok|FAIL|---)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[)")


_GO_TEST = lazy(r"^\s*--- (PASS|FAIL|SKIP): \S")


_GO_NONE = lazy(r"^(?:ok\s+\S+\s+.*\[no tests to run\]|\?\s+\S+\s+\[no test files\])")


_CARGO = lazy(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;"
                    r"(?: (\d+) measured;)?(?: (\d+) filtered out)?")


_RSPEC = lazy(r"^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?")


_PHPUNIT_OK = lazy(r"^OK \((\d+) tests?, \d+ assertions?\)")


_PHPUNIT_BAD = lazy(r"^Tests: (\d+), Assertions: \d+(?P<rest>(?:, \w+: \d+)*)\.?$")


_DOTNET = lazy(r"^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:"
                     r"\s+(\d+),\s+Total:\s+(\d+)")


_MAVEN = lazy(r"^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), "
                    r"Skipped: (\d+)(?:, Flakes: \d+)?\s*$")


_GRADLE = lazy(r"^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?")


_COLCON = lazy(r"^\+?Summary: (\d+) tests?, (\d+) errors?, (\d+) failures?, (\d+) skipped")


_CTEST = lazy(r"^\d+% tests passed, (\d+) tests? failed out of (\d+)")


# bats and ExUnit print the same line: "4 tests, 3 failures", "1424 doctests, 3034 tests,
# 0 failures, 7 excluded", "11 tests, 1 failure (2 excluded)".
_TESTS_FAILURES = lazy(r"^(?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) tests?, "
                             r"(\d+) failures?(?P<rest>.*)$")


_SWIFT = lazy(r"^\s*(?:Total )?[Ee]xecuted (\d+) tests?, with (\d+) failures?")


_DART = lazy(r"^[\d:]+ \+(\d+)(?: ~(\d+))?(?: -(\d+))?: (?:All tests passed!|Some tests failed\.)")


# A project's own count: "TEST RESULTS: 9/9 tests passed", "Passed: 9/9", "12 tests passed".
_FRACTION = lazy(r"\b(\d+)\s*/\s*(\d+)\s+(?:tests?|checks?|cases?|specs?)\s+(?:passed|pass|ok)\b",
                       re.I)


_PLAIN = lazy(r"^\W*(?:all\s+)?(\d+)\s+tests?\s+(passed|failed)\W*$", re.I)


def _pytest(lines):
    found, collected = None, None
    for index, line in enumerate(lines):
        got = _PYTEST_COLLECTED.match(line)
        if got:
            collected = int(got.group(1)) - int(got.group(2) or 0)
        if _PYTEST_NONE.match(line):
            found = Summary(0, 0, 0, line, index, "pytest")
            continue
        match = _PYTEST.match(line)
        if not match:
            continue
        words = {}
        body = match.group("parts")
        parts = [p.strip() for p in body.split(",") if p.strip()]
        if not all(_WORD_COUNTS.fullmatch(p) for p in parts):
            continue
        for part in parts:
            count, word = _WORD_COUNTS.fullmatch(part).groups()
            word = {"errors": "error", "warnings": "warning"}.get(word, word)
            words[word] = words.get(word, 0) + int(count)
        passed = words.get("passed", 0) + words.get("xpassed", 0) + sum(
            n for w, n in words.items() if w.startswith("subtest") and w.endswith("passed"))
        failed = words.get("failed", 0) + words.get("error", 0) + sum(
            n for w, n in words.items() if w.startswith("subtest") and w.endswith("failed"))
        skipped = words.get("skipped", 0) + words.get("deselected", 0) + words.get("xfailed", 0)
        if not (passed or failed or skipped):
            continue
        found = Summary(passed, failed, skipped, line, index, "pytest")
    if found is None and collected == 0:
        index = max(i for i, l in enumerate(lines) if _PYTEST_COLLECTED.match(l))
        return Summary(0, 0, 0, lines[index], index, "pytest")
    return found


def _unittest(lines):
    found, ran = None, None
    for index, line in enumerate(lines):
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
            skipped = numbers.get("skipped", 0) + numbers.get("expected failures", 0)
            if end.group(1) == "FAILED" and not failed:
                failed = 1  # "FAILED" with counts we cannot read: it failed all the same
            found = Summary(max(0, ran - failed - skipped), failed, skipped, line, index,
                            "unittest")
            ran = None
    return found


def _go(lines):
    packages = [(i, m) for i, m in ((i, _GO_PKG.match(l)) for i, l in enumerate(lines)) if m]
    tests = [m.group(1) for m in map(_GO_TEST.match, lines) if m]
    nothing = [i for i, l in enumerate(lines) if _GO_NONE.match(l)]
    failed_pkgs = [(i, m) for i, m in packages if m.group(1) == "FAIL"]
    ok_pkgs = [(i, m) for i, m in packages if m.group(1) == "ok" and not _GO_NONE.match(lines[i])]
    if not packages and not tests:
        if nothing:
            return Summary(0, 0, 0, lines[nothing[-1]], nothing[-1], "go test")
        return None
    failed = tests.count("FAIL") or len(failed_pkgs)
    passed = tests.count("PASS") or len(ok_pkgs)
    skipped = tests.count("SKIP")
    index = failed_pkgs[-1][0] if failed_pkgs else (packages[-1][0] if packages else
                                                    max(i for i, l in enumerate(lines)
                                                        if _GO_TEST.match(l)))
    if not failed and not passed:
        return Summary(0, 0, skipped, lines[index], index, "go test")
    return Summary(passed, failed, skipped, lines[index], index, "go test")


def _cargo(lines):
    total, last, bad = None, None, None
    for index, line in enumerate(lines):
        match = _CARGO.match(line)
        if match:
            passed, failed, ignored = (int(match.group(i)) for i in (2, 3, 4))
            filtered = int(match.group(6) or 0)
            total = (passed, failed, ignored + filtered) if total is None else (
                total[0] + passed, total[1] + failed, total[2] + ignored + filtered)
            last = (line, index)
            if failed:
                bad = (line, index)
    crash = next(((l.strip(), i) for i, l in enumerate(lines)
                  if l.startswith("error: process didn't exit successfully")), None)
    if total is None:
        return None
    if crash:  # a test binary that crashed: its tests never reported
        return Summary(total[0], total[1] + 1, total[2], crash[0], crash[1], "cargo")
    line, index = bad or last
    return Summary(total[0], total[1], total[2], line, index, "cargo")


def _rspec(lines):
    """rspec's "N examples, M failures": parallel workers print one each, and they add up."""
    found, seen = None, set()
    for index, line in enumerate(lines):
        match = _RSPEC.match(line.strip())
        if not match or match.groups() in seen:
            continue
        seen.add(match.groups())
        this = Summary(n(match, 1) - n(match, 2) - n(match, 3), n(match, 2), n(match, 3),
                       line.strip(), index, "rspec")
        found = this if found is None else Summary(found.passed + this.passed,
                                                   found.failed + this.failed,
                                                   found.skipped + this.skipped, this.line,
                                                   this.index, "rspec")
    return found


_phpunit_ok = each(_PHPUNIT_OK, lambda m, l, i: Summary(n(m, 1), 0, 0, l, i, "phpunit"))


_phpunit_none = each(lazy(r"^No tests executed!"),
                      lambda m, l, i: Summary(0, 0, 0, l.strip(), i, "phpunit"))


def _phpunit_bad_summary(match, line, index):
    rest = dict((k.strip().lower(), int(v)) for k, v in re.findall(r",\s*(\w+):\s*(\d+)",
                                                                   match.group("rest") or ""))
    failed = rest.get("failures", 0) + rest.get("errors", 0)
    skipped = rest.get("skipped", 0) + rest.get("incomplete", 0) + rest.get("risky", 0) * 0
    return Summary(max(0, n(match, 1) - failed - skipped), failed, skipped, line, index,
                   "phpunit")


_phpunit_bad = each(_PHPUNIT_BAD, _phpunit_bad_summary)


_DOTNET_OLD = lazy(r"^Total tests: (\d+)\.?(?:\s+Passed: (\d+)\.\s+Failed: (\d+)\.\s+Skipped:"
                         r" (\d+)\.)?\s*$")


def _dotnet_old(lines):
    """VSTest's older summary: "Total tests: 11. Passed: 11. Failed: 0. Skipped: 0.", or
    "Total tests: 5" with "Passed: 5" / "Failed: 1" on the lines after it."""
    found = None
    for index, line in enumerate(lines):
        match = _DOTNET_OLD.match(line.strip())
        if not match:
            continue
        if match.group(2) is not None:
            found = Summary(n(match, 2), n(match, 3), n(match, 4), line.strip(), index,
                            "dotnet")
            continue
        after = {m.group(1).lower(): int(m.group(2)) for l in lines[index + 1:index + 5]
                 for m in [re.match(r"^\s*(Passed|Failed|Skipped): (\d+)\s*$", l)] if m}
        total = int(match.group(1))
        failed, skipped = after.get("failed", 0), after.get("skipped", 0)
        found = Summary(after.get("passed", total - failed - skipped), failed, skipped,
                        line.strip(), index, "dotnet")
    return found


_dotnet = each(_DOTNET, lambda m, l, i: Summary(n(m, 2), n(m, 1), n(m, 3), l, i, "dotnet"))


def _maven(lines):
    found = None
    for index, line in enumerate(lines):
        match = _MAVEN.match(line)
        if match:
            ran, failures, errors, skipped = (int(match.group(g)) for g in (1, 2, 3, 4))
            found = Summary(ran - failures - errors - skipped, failures + errors, skipped,
                            line, index, "maven")
    return found


_gradle = each(_GRADLE, lambda m, l, i: Summary(n(m, 1) - n(m, 2) - n(m, 3), n(m, 2),
                                                 n(m, 3), l, i, "gradle"))


_colcon = each(_COLCON, lambda m, l, i: Summary(
    n(m, 1) - n(m, 2) - n(m, 3) - n(m, 4), n(m, 2) + n(m, 3), n(m, 4), l.strip(), i,
    "colcon"))


_ctest = each(_CTEST, lambda m, l, i: Summary(n(m, 2) - n(m, 1), n(m, 1), 0, l, i, "ctest"))


def _tests_failures(lines):
    """bats' and ExUnit's "N tests, M failures" lines: each app or suite prints one, so
    they add up; a line that repeats one already counted is the same suite run again."""
    found, seen = None, set()
    for index, line in enumerate(lines):
        match = _TESTS_FAILURES.match(line.strip())
        if not match:
            continue
        ran = sum(int(match.group(g) or 0) for g in (1, 2, 3))
        failed = int(match.group(4))
        skipped = sum(int(count) for count in re.findall(r"(\d+) (?:excluded|skipped|invalid)",
                                                  match.group("rest")))
        key = (ran, failed, skipped)
        if key in seen:
            continue
        seen.add(key)
        this = Summary(ran - failed - skipped if "(" not in match.group("rest") else ran - failed,
                       failed, skipped, line.strip(), index, "tests-failures")
        found = this if found is None else Summary(found.passed + this.passed,
                                                   found.failed + this.failed,
                                                   found.skipped + this.skipped, this.line,
                                                   this.index, "tests-failures")
    return found


_swift = each(_SWIFT, lambda m, l, i: Summary(n(m, 1) - n(m, 2), n(m, 2), 0, l, i, "swift"))


_dart = each(_DART, lambda m, l, i: Summary(n(m, 1), n(m, 3), n(m, 2), l, i, "dart"))


def _fraction(lines):
    found = None
    for index, line in enumerate(lines):
        match = _FRACTION.search(line)
        if match:
            passed, total = int(match.group(1)), int(match.group(2))
            if passed <= total:
                found = Summary(passed, total - passed, 0, line, index, "fraction")
        plain = _PLAIN.match(line)
        if plain:
            count = int(plain.group(1))
            found = Summary(count, 0, 0, line, index, "plain") if plain.group(2).lower() == \
                "passed" else Summary(0, count, 0, line, index, "plain")
    return found
