"""Table t20's probes: a runner's subcommand and its options that choose no tests read as no
part of the suite, each beside the near log where t19's answer stands."""

from .probe_kit import T, TableProbe

_VITEST = " Test Files  3 passed (3)\n      Tests  12 passed (12)"
_VITEST_RED = " Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 11 passed (12)"
_PYTEST = "============ 5 passed in 0.31s ============"
_PLAYWRIGHT = "Running 12 tests using 2 workers\n\n  12 passed (3.1s)"

T20_PROBES = (
    TableProbe("t20: vitest's run subcommand is the whole suite", "All tests pass",
               (T("npx vitest run", _VITEST, 0),), "shown", "tests.passed"),
    TableProbe("t20: vitest run of one file is still a part", "All tests pass",
               (T("npx vitest run tests/a.test.ts", _VITEST, 0),), None, None),
    TableProbe("t20: a whole vitest run that failed contradicts all tests passing",
               "All tests pass", (T("npx vitest run", _VITEST_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t20: a whole vitest run whose worker lost a test file shows nothing",
               "All tests pass",
               (T("npx vitest run", " Test Files  3 passed (4)\n      Tests  51 passed (51)\n"
                  "     Errors  1 error", None),), None, None),
    TableProbe("t20: a whole vitest run with every file passed and no error shows it",
               "All tests pass",
               (T("npx vitest run", " Test Files  4 passed (4)\n      Tests  51 passed (51)",
                  None),), "shown", "tests.passed"),
    TableProbe("t20: after a whole vitest run failed, a part run again shows no claim of all",
               "All tests pass",
               (T("npx vitest run", _VITEST_RED, 1),
                T("npx vitest run tests/a.test.ts", _VITEST, 0)),
               "not shown", "tests.partial-rerun"),
    TableProbe("t20: playwright's test subcommand is the whole suite", "All tests pass",
               (T("npx playwright test", _PLAYWRIGHT, 0),), "shown", "tests.passed"),
    TableProbe("t20: pytest's worker count chooses no tests", "All tests pass",
               (T("python -m pytest -n 4", _PYTEST, 0),), "shown", "tests.passed"),
    TableProbe("t20: pytest's -k still chooses some", "All tests pass",
               (T("python -m pytest -n 4 -k login", _PYTEST, 0),), None, None),
    TableProbe("t20: dotnet's verbosity chooses no tests", "the tests pass",
               (T("dotnet test --no-build --verbosity normal",
                  "Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12", 0),),
               "shown", "tests.passed"),
    TableProbe("t20: dotnet's --filter still chooses some", "the tests pass",
               (T("dotnet test --verbosity normal --filter Category=Unit",
                  "Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12", 0),),
               None, None),
)
