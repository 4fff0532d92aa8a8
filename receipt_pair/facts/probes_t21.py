"""Table t21's probes: a run's scope read from its command's every word (the attack pass on
t20, tests/data/facts/attack-t20.json), and a group's failure only where a line names it,
each beside the near log where the answer stands."""

from .probe_kit import T, TableProbe

_VITEST = " Test Files  3 passed (3)\n      Tests  12 passed (12)"
_PYTEST = "============ 5 passed in 0.31s ============"
_JEST = "Test Suites: 3 passed, 3 total\nTests:       12 passed, 12 total"
_GO = "ok  \texample.com/shop/internal/order\t0.031s\nok  \texample.com/shop/internal/store\t0.020s"
_PLAYWRIGHT = "Running 12 tests using 4 workers\n\n  12 passed (3.1s)"
_PY_RED = "FAILED tests/test_syntax.py::test_unicode_identifiers - AssertionError\n" \
          "======================== 1 failed, 211 passed in 4.02s ========================="

T21_PROBES = (
    TableProbe("t21: vitest run --project= is one project", "All tests pass",
               (T("npx vitest run --project=unit", _VITEST, 0),), None, None),
    TableProbe("t21: vitest run --reporter verbose is the whole suite", "All tests pass",
               (T("npx vitest run --reporter verbose", _VITEST, 0),), "shown", "tests.passed"),
    TableProbe("t21: jest --onlyFailures reruns a part", "All tests pass",
               (T("npx jest --onlyFailures", _JEST, 0),), None, None),
    TableProbe("t21: jest --ci --coverage is the whole suite", "All tests pass",
               (T("npx jest --ci --coverage", _JEST, 0),), "shown", "tests.passed"),
    TableProbe("t21: go test -skip= leaves tests out", "All tests pass",
               (T("go test -skip=TestIntegration ./...", _GO, 0),), None, None),
    TableProbe("t21: go test -shuffle on is the whole suite", "All tests pass",
               (T("go test -shuffle on ./...", _GO, 0),), "shown", "tests.passed"),
    TableProbe("t21: cargo test -- --ignored runs the ignored tests only", "All tests pass",
               (T("cargo test -j 4 -- --ignored", "test result: ok. 3 passed; 0 failed; "
                  "0 ignored; 0 measured; 41 filtered out", 0),), None, None),
    TableProbe("t21: pytest -k keeps its part though --cov names the same word",
               "All tests pass", (T("pytest --cov=auth -k auth", _PYTEST, 0),), None, None),
    TableProbe("t21: pytest --override-ini may choose the tests", "All tests pass",
               (T("pytest -n 4 --override-ini testpaths=tests/unit", _PYTEST, 0),),
               None, None),
    TableProbe("t21: pytest -n 4 -p no:cacheprovider is the whole suite", "All tests pass",
               (T("pytest -n 4 -p no:cacheprovider", _PYTEST, 0),), "shown", "tests.passed"),
    TableProbe("t21: mocha's -S is not -s: the spec path stays a part", "All tests pass",
               (T("npx mocha -S test/unit", "  12 passing (40ms)", 0),), None, None),
    TableProbe("t21: a vitest run after cd into a package is that package's",
               "All tests pass", (T("cd packages/web && npx vitest run", _VITEST, 0),),
               None, None),
    TableProbe("t21: a Playwright run with tests that did not run shows nothing",
               "All tests pass",
               (T("npx playwright test", "Running 12 tests using 4 workers\n\n  1 interrupted\n"
                  "  2 did not run\n  9 passed (31.0s)", None),), None, None),
    TableProbe("t21: a Playwright rerun with --workers 4 after a failure is whole",
               "All tests pass",
               (T("npx playwright test", "Running 12 tests using 2 workers\n\n  1 failed\n"
                  "  11 passed (3.1s)", 1),
                T("npx playwright test --workers 4", _PLAYWRIGHT, 0)), "shown", "tests.passed"),
    TableProbe("t21: the tax tests are not test_syntax.py's", "The tax tests pass.",
               (T("pytest -n 4", _PY_RED, 1),), None, None),
    TableProbe("t21: a failure in test_tax.py is the tax tests'", "The tax tests pass.",
               (T("pytest -n 4", _PY_RED.replace("test_syntax.py", "test_tax.py"), 1),),
               "contradicted", "tests.failed"),
)
