"""What a test runner printed about a run: its own summary (counts and the line they stand
on: pytest, unittest, jest, vitest, mocha, go test, cargo test, rspec, phpunit, pest,
dotnet test, maven, gradle, ctest, deno, bun, TAP, bats, playwright, swift, dart, mix, and
a project's own "9/9 tests passed"), a line saying the run was stopped, found no tests, or
that one test failed.
"""

import re
from dataclasses import dataclass

# -- what the runner printed ---------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """A runner's own count of a run, and the line it printed it on."""

    passed: int
    failed: int  # failures and errors
    skipped: int  # skipped, deselected, pending, todo: not run
    line: str
    index: int  # the line's place among the output's screen lines
    runner: str

    @property
    def ran(self):
        return self.passed + self.failed


_DURATION = r"(?:in|took)\s+[\d.]+\s*(?:s|ms|m|sec|seconds?)?(?:\s*\([\d:.]+\))?"
_PYTEST = re.compile(r"^=*\s*(?P<parts>(?:\d+ \w+(?: \w+)?(?:, )?)+)\s+" + _DURATION + r"\s*=*$")
_PYTEST_NONE = re.compile(r"^=*\s*no tests ran(?: " + _DURATION + r")?\s*=*$")
_PYTEST_COLLECTED = re.compile(r"^(?:collected|collecting \.\.\. collected) (\d+) items?"
                               r"(?: / (\d+) deselected)?")
_WORD_COUNTS = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|"
                          r"warnings?|rerun|subtests? passed|subtests? failed)\b")
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in [\d.]+s$")
_UNITTEST_END = re.compile(r"^(OK|FAILED|NO TESTS RAN)(?: \((?P<parts>[^)]*)\))?\s*$")
_JEST = re.compile(r"^\s*Tests:\s+(?P<parts>.+?),?\s+(?P<total>\d+) total")
_VITEST = re.compile(r"^\s*Tests\s+(?P<parts>\d+ \w+(?: \| \d+ \w+)*)\s+\((?P<total>\d+)\)")
_MOCHA = re.compile(r"^\s*(\d+) (passing|failing|pending)\b")
_GO_PKG = re.compile(r"^(ok|FAIL|---)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[)")
_GO_TEST = re.compile(r"^\s*--- (PASS|FAIL|SKIP): \S")
_GO_NONE = re.compile(r"^(?:ok\s+\S+\s+.*\[no tests to run\]|\?\s+\S+\s+\[no test files\])")
_CARGO = re.compile(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;"
                    r"(?: (\d+) measured;)?(?: (\d+) filtered out)?")
_RSPEC = re.compile(r"^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?")
_PHPUNIT_OK = re.compile(r"^OK \((\d+) tests?, \d+ assertions?\)")
_PHPUNIT_BAD = re.compile(r"^Tests: (\d+), Assertions: \d+(?P<rest>(?:, \w+: \d+)*)\.?$")
_PEST = re.compile(r"^\s*Tests:\s+(?P<parts>\d+ \w+(?:, \d+ \w+)*)\s*\(\d+ assertions?")
_DOTNET = re.compile(r"^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:"
                     r"\s+(\d+),\s+Total:\s+(\d+)")
_MAVEN = re.compile(r"^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), "
                    r"Skipped: (\d+)(?:, Flakes: \d+)?\s*$")
_GRADLE = re.compile(r"^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?")
_CTEST = re.compile(r"^\d+% tests passed, (\d+) tests? failed out of (\d+)")
_DENO = re.compile(r"^(ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed"
                   r"(?: \| (\d+) ignored)?")
_BUN_RAN = re.compile(r"^Ran (\d+) tests? across \d+ files?")
_BUN_COUNT = re.compile(r"^\s*(\d+) (pass|fail|skip|todo)\s*$")
_TAP = re.compile(r"^# (tests|pass|fail|skipped|todo|cancelled) (\d+)\s*$")
_BATS = re.compile(r"^(\d+) tests?, (\d+) failures?(?:, (\d+) skipped)?")
_PLAYWRIGHT = re.compile(r"^\s*(\d+) (passed|failed|flaky|skipped|did not run)\b(?: \([\d.]+m?s\))?\s*$")
_SWIFT = re.compile(r"^\s*Executed (\d+) tests?, with (\d+) failures?")
_DART = re.compile(r"^[\d:]+ \+(\d+)(?: ~(\d+))?(?: -(\d+))?: (?:All tests passed!|Some tests failed\.)")
_MIX = re.compile(r"^(\d+) (?:doctests?, )?(?:\d+ )?tests?, (\d+) failures?(?: \((\d+) excluded\))?")
# A project's own count: "TEST RESULTS: 9/9 tests passed", "Passed: 9/9", "12 tests passed".
_FRACTION = re.compile(r"\b(\d+)\s*/\s*(\d+)\s+(?:tests?|checks?|cases?|specs?)\s+(?:passed|pass|ok)\b",
                       re.I)
_PLAIN = re.compile(r"^\W*(?:all\s+)?(\d+)\s+tests?\s+(passed|failed)\W*$", re.I)


def read_summary(lines):
    """The Summary of a run's screen lines (the last summary wins; two runners' summaries
    in one output are added up), or None."""
    found = [s for s in (_read(reader, lines) for reader in _READERS) if s is not None]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    found.sort(key=lambda s: s.index)
    last = found[-1]
    # A runner's count and its own echo (pytest's line and the project's "12 tests passed")
    # stand for one run; different runners' counts add up.
    runners = {s.runner for s in found}
    if len(runners) == 1 or {"plain", "fraction"} >= runners - {last.runner}:
        return last
    return Summary(sum(s.passed for s in found), sum(s.failed for s in found),
                   sum(s.skipped for s in found), last.line, last.index, "+".join(
                       sorted(runners)))


def _read(reader, lines):
    try:
        return reader(lines)
    except (ValueError, IndexError):
        return None


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
        passed = words.get("passed", 0) + words.get("xpassed", 0)
        failed = words.get("failed", 0) + words.get("error", 0)
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


def _words(text, separator):
    numbers = {}
    for part in text.split(separator):
        count, _, word = part.strip().partition(" ")
        if not count.isdigit():
            return None
        numbers[word.strip()] = numbers.get(word.strip(), 0) + int(count)
    return numbers


def _jest_vitest_pest(lines):
    found = None
    for index, line in enumerate(lines):
        for pattern, separator, runner in ((_JEST, ",", "jest"), (_VITEST, "|", "vitest"),
                                           (_PEST, ",", "pest")):
            match = pattern.match(line)
            numbers = _words(match.group("parts"), separator) if match else None
            if numbers:
                skipped = sum(numbers.get(k, 0) for k in ("skipped", "todo", "pending"))
                found = Summary(numbers.get("passed", 0), numbers.get("failed", 0), skipped,
                                line, index, runner)
                break
    return found


def _mocha(lines):
    numbers, last = {}, None
    for index, line in enumerate(lines):
        match = _MOCHA.match(line)
        if match:
            if match.group(2) == "passing":
                numbers = {}
            numbers[match.group(2)] = int(match.group(1))
            last = (line, index) if match.group(2) != "pending" or last is None else last
    if not numbers or "passing" not in numbers and "failing" not in numbers:
        return None
    line, index = last
    if numbers.get("failing"):
        failing = next(i for i in range(len(lines) - 1, -1, -1)
                       if _MOCHA.match(lines[i]) and "failing" in lines[i])
        line, index = lines[failing], failing
    return Summary(numbers.get("passing", 0), numbers.get("failing", 0),
                   numbers.get("pending", 0), line, index, "mocha")


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
    if total is None:
        return None
    line, index = bad or last
    return Summary(total[0], total[1], total[2], line, index, "cargo")


def _each(pattern, make):
    def read(lines):
        found = None
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if match:
                value = make(match, line, index)
                if value is not None:
                    found = value
        return found
    return read


def _n(match, group):
    value = match.group(group)
    return int(value) if value else 0


_rspec = _each(_RSPEC, lambda m, l, i: Summary(_n(m, 1) - _n(m, 2) - _n(m, 3), _n(m, 2),
                                               _n(m, 3), l, i, "rspec"))
_phpunit_ok = _each(_PHPUNIT_OK, lambda m, l, i: Summary(_n(m, 1), 0, 0, l, i, "phpunit"))


def _phpunit_bad_summary(match, line, index):
    rest = dict((k.strip().lower(), int(v)) for k, v in re.findall(r",\s*(\w+):\s*(\d+)",
                                                                   match.group("rest") or ""))
    failed = rest.get("failures", 0) + rest.get("errors", 0)
    skipped = rest.get("skipped", 0) + rest.get("incomplete", 0) + rest.get("risky", 0) * 0
    return Summary(max(0, _n(match, 1) - failed - skipped), failed, skipped, line, index,
                   "phpunit")


_phpunit_bad = _each(_PHPUNIT_BAD, _phpunit_bad_summary)
_dotnet = _each(_DOTNET, lambda m, l, i: Summary(_n(m, 2), _n(m, 1), _n(m, 3), l, i, "dotnet"))


def _maven(lines):
    found = None
    for index, line in enumerate(lines):
        match = _MAVEN.match(line)
        if match:
            ran, failures, errors, skipped = (int(match.group(g)) for g in (1, 2, 3, 4))
            found = Summary(ran - failures - errors - skipped, failures + errors, skipped,
                            line, index, "maven")
    return found


_gradle = _each(_GRADLE, lambda m, l, i: Summary(_n(m, 1) - _n(m, 2) - _n(m, 3), _n(m, 2),
                                                 _n(m, 3), l, i, "gradle"))
_ctest = _each(_CTEST, lambda m, l, i: Summary(_n(m, 2) - _n(m, 1), _n(m, 1), 0, l, i, "ctest"))
_deno = _each(_DENO, lambda m, l, i: Summary(_n(m, 2), _n(m, 3), _n(m, 4), l, i, "deno"))
_bats = _each(_BATS, lambda m, l, i: Summary(_n(m, 1) - _n(m, 2) - _n(m, 3), _n(m, 2),
                                             _n(m, 3), l, i, "bats"))
_swift = _each(_SWIFT, lambda m, l, i: Summary(_n(m, 1) - _n(m, 2), _n(m, 2), 0, l, i, "swift"))
_dart = _each(_DART, lambda m, l, i: Summary(_n(m, 1), _n(m, 3), _n(m, 2), l, i, "dart"))
_mix = _each(_MIX, lambda m, l, i: Summary(_n(m, 1) - _n(m, 2), _n(m, 2), _n(m, 3), l, i, "mix"))


def _counted_lines(pattern, names, runner):
    """A runner that prints one count per line ("5 pass" / "0 fail", "# pass 5"): the last
    block of such lines, quoted by its failing line if it has one, else its passing one."""
    def read(lines):
        numbers, where = {}, {}
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if not match:
                continue
            word, count = names(match)
            numbers[word] = int(count)
            where[word] = index
        if "pass" not in numbers and "fail" not in numbers:
            return None
        key = "fail" if numbers.get("fail") else "pass"
        index = where.get(key, max(where.values()))
        return Summary(numbers.get("pass", 0), numbers.get("fail", 0),
                       numbers.get("skip", 0) + numbers.get("skipped", 0) + numbers.get("todo", 0),
                       lines[index], index, runner)
    return read


_bun = _counted_lines(_BUN_COUNT, lambda m: (m.group(2), m.group(1)), "bun")
_tap = _counted_lines(_TAP, lambda m: ({"skipped": "skip"}.get(m.group(1), m.group(1)),
                                       m.group(2)), "tap")


def _playwright(lines):
    numbers, where = {}, {}
    for index, line in enumerate(lines):
        match = _PLAYWRIGHT.match(line)
        if match:
            numbers[match.group(2)] = int(match.group(1))
            where[match.group(2)] = index
    if "passed" not in numbers and "failed" not in numbers:
        return None
    key = "failed" if numbers.get("failed") else "passed"
    index = where.get(key)
    return Summary(numbers.get("passed", 0) + numbers.get("flaky", 0), numbers.get("failed", 0),
                   numbers.get("skipped", 0) + numbers.get("did not run", 0), lines[index],
                   index, "playwright")


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


_READERS = (_pytest, _unittest, _jest_vitest_pest, _mocha, _go, _cargo, _rspec, _phpunit_ok,
            _phpunit_bad, _dotnet, _maven, _gradle, _ctest, _deno, _bats, _swift, _dart, _mix,
            _bun, _tap, _playwright, _fraction)
