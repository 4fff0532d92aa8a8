"""What a test runner printed about a run: its own summary (counts and the line they stand
on: pytest, unittest, jest, vitest, mocha, go test, cargo test, rspec, phpunit, pest,
dotnet test, maven, gradle, ctest, deno, bun, TAP, bats, playwright, swift, dart, mix, and
a project's own "9/9 tests passed"), a line saying the run was stopped, found no tests, or
that one test failed."""

from . import summaries_js as js, summaries_other as other
from .summary_kit import Summary

_READERS = (other._colcon, other._pytest, other._unittest, js._jest_vitest_pest, js._mocha,
            other._go, other._cargo, other._rspec, other._phpunit_ok, other._phpunit_bad,
            other._phpunit_none, other._dotnet, other._dotnet_old, other._maven, other._gradle,
            other._ctest, js._deno, other._tests_failures, other._swift, other._dart, js._bun,
            js._tap, js._playwright, other._fraction)


def read_summary(lines):
    """The Summary of a run's screen lines (the last summary wins; two runners' summaries
    in one output are added up), or None."""
    found = [s for s in (_read(reader, lines) for reader in _READERS) if s is not None]
    found = [Summary(s.passed, s.failed, s.skipped, s.line.strip(), s.index, s.runner)
             for s in found]
    if not found:
        return None
    colcon = [s for s in found if s.runner == "colcon"]
    if colcon:
        return colcon[-1]  # colcon's closing summary counts every ctest run it printed
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
