"""The summaries of JavaScript and TypeScript runners (jest, vitest, mocha, deno, bun, node's
test runner and TAP, playwright) and of pest, which prints jest's shape."""

import re

from .summary_kit import Summary, counted_lines, each, n, words
from ..patterns import lazy

_JEST = lazy(r"^\s*Tests:\s+(?P<parts>.+?),?\s+(?P<total>\d+) total")


_VITEST = lazy(r"^\s*Tests\s+(?P<parts>\d+ \w+(?: \| \d+ \w+)*)\s+\((?P<total>\d+)\)")


_MOCHA = lazy(r"^\s*(\d+) (passing|failing|pending)\b")


_PEST = lazy(r"^\s*Tests:\s+(?P<parts>\d+ \w+(?:, \d+ \w+)*)\s*\(\d+ assertions?")


_DENO = lazy(r"^(ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed"
                   r"(?: \| (\d+) ignored)?")


_BUN_COUNT = lazy(r"^\s*(\d+) (pass|fail|skip|todo)\s*$")


# TAP's closing counts ("# pass  4"), and node's spec reporter's ("\u2139 pass 1").
_TAP = lazy(r"^(?:#|\u2139)\s+(tests|pass|fail|skip|skipped|todo|cancelled)\s+(\d+)\s*$")


_PLAYWRIGHT = lazy(r"^\s*(\d+) (passed|failed|flaky|skipped|did not run)\b"
                         r"(?: \([\d.]+\s*(?:m|s|ms|h)\))?\s*$")


_NOT_RUN = ("skipped", "todo", "todos", "pending", "incomplete")


# Files or suites that failed to load: jest's "Test Suites: 1 failed", vitest's "Test Files
# 2 failed | 297 passed (299)". Their tests never ran, so the test count alone reads clean.
_SUITES = lazy(r"^\s*(?:Test Suites:|Test Files)\s+(?P<parts>\d+ \w+(?:(?:,| \|) \d+ \w+)*)")


_OLD_JEST = lazy(r"^(?:(\d+) tests? failed, )?(\d+) tests? passed \((\d+) total")


_OLD_MOCHA = lazy(r"^\s*\u2716 (\d+) of (\d+) tests? failed")


def _jest_vitest_pest(lines):
    found, suites = None, None
    for index, line in enumerate(lines):
        group = _SUITES.match(line)
        if group:
            numbers = words(group.group("parts").replace(" |", ","), ",")
            if numbers and numbers.get("failed"):
                suites = (numbers["failed"], line.strip(), index)
            continue
        old_jest = _OLD_JEST.match(line.strip())
        old = old_jest or _OLD_MOCHA.match(line)
        if old:
            if old_jest:
                failed = int(old.group(1) or 0)
                found = Summary(int(old.group(2)), failed, 0, line.strip(), index, "jest")
            else:
                failed, total = int(old.group(1)), int(old.group(2))
                found = Summary(total - failed, failed, 0, line.strip(), index, "mocha")
            continue
        for pattern, separator, runner in ((_JEST, ",", "jest"), (_VITEST, "|", "vitest"),
                                           (_PEST, ",", "pest")):
            match = pattern.match(line)
            numbers = words(match.group("parts"), separator) if match else None
            if numbers:
                skipped = sum(numbers.get(k, 0) for k in _NOT_RUN)
                found = Summary(numbers.get("passed", 0), numbers.get("failed", 0), skipped,
                                line.strip() if runner == "pest" else line, index, runner)
                break
            if match and runner == "jest" and re.match(r"^\s*Tests:\s+0 total", line):
                found = Summary(0, 0, 0, line, index, "jest")
    if suites and (found is None or not found.failed):
        base = found or Summary(0, 0, 0, suites[1], suites[2], "jest")
        return Summary(base.passed, suites[0], base.skipped, suites[1], suites[2], base.runner)
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


_deno = each(_DENO, lambda m, l, i: Summary(n(m, 2), n(m, 3), n(m, 4), l, i, "deno"))


_bun = counted_lines(_BUN_COUNT, lambda m: (m.group(2), m.group(1)), "bun")


_tap = counted_lines(_TAP, lambda m: ({"skipped": "skip"}.get(m.group(1), m.group(1)),
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
