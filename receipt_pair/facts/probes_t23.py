"""Table t23's probes: what the attack pass on t21 and t22 found (tests/data/facts/
attack-t22.json), each beside the near log where the answer stands."""

from .probe_kit import T, TableProbe

_VITEST = " Test Files  3 passed (3)\n      Tests  12 passed (12)"
_JEST = "Test Suites: 1 passed, 1 total\nTests:       5 passed, 5 total"
_PYTEST = "============ 5 passed in 0.31s ============"
_COMMIT = T("git commit -m 'fix: retry'", "[main 4c1d9e2] fix: retry\n"
            " 2 files changed, 48 insertions(+)", 0)

T23_PROBES = (
    TableProbe("t23: a path pnpm hands vitest chooses a part", "All tests pass.",
               (T("pnpm vitest run src/auth", _VITEST, 0),), None, None),
    TableProbe("t23: pnpm vitest run alone is the whole suite", "All tests pass.",
               (T("pnpm vitest run", _VITEST, 0),), "shown", "tests.passed"),
    TableProbe("t23: a file handed to npm test chooses a part", "All tests pass.",
               (T("npm test -- src/cart.test.js", _JEST, 0),), None, None),
    TableProbe("t23: npm test with --coverage --watchAll=false is the whole suite",
               "All tests pass.", (T("npm test -- --coverage --watchAll=false", _JEST, 0),),
               "shown", "tests.passed"),
    TableProbe("t23: PYTEST_ADDOPTS may choose the tests", "All tests pass.",
               (T("env PYTEST_ADDOPTS=--lf pytest", _PYTEST, 0),), None, None),
    TableProbe("t23: an option pytest's grammar does not know makes a part", "All tests pass.",
               (T("pytest --testmon", _PYTEST, 0),), None, None),
    TableProbe("t23: pytest's -m joined to its marker chooses", "All tests pass.",
               (T("pytest -munit", _PYTEST, 0),), None, None),
    TableProbe("t23: 'The commit was not successful.' is no commit claim read",
               "The commit was not successful.", (_COMMIT,), None, None),
    TableProbe("t23: 'Commit hook succeeded.' is no commit claim read",
               "Commit hook succeeded.", (_COMMIT,), None, None),
    TableProbe("t23: 'Our commits went through.' gives no count the log can hold it to",
               "Our commits went through.", (_COMMIT,), None, None),
    TableProbe("t23: an unchecked box is no claim made", "- [ ] Commit done",
               (T("git commit -m 'fix: retry'", "ruff........................Failed\n"
                  "- hook id: ruff\n- exit code: 1", 1),), None, None),
    TableProbe("t23: 'The commit was completely successful.' is",
               "The commit was completely successful.", (_COMMIT,), "shown", "commit.made"),
    TableProbe("t23: one commit line printed twice is one commit", "Both commits were made.",
               (T("git commit -m 'fix: retry' | tee commit.log && cat commit.log",
                  "[main 4c1d9e2] fix: retry\n 2 files changed\n[main 4c1d9e2] fix: retry\n"
                  " 2 files changed", 0),), None, None),
    TableProbe("t23: two commits' lines are two commits", "Both commits were made.",
               (_COMMIT, T("git commit -m 'docs'", "[main 5d2e0f3] docs\n 1 file changed", 0)),
               "shown", "commit.made"),
    TableProbe("t23: a failure's message is not the failing test's name", "The tax tests pass.",
               (T("pytest -n 4", "FAILED tests/test_cart.py::test_total - KeyError: 'tax'\n"
                  "========== 1 failed, 211 passed in 4.02s ==========", 1),), None, None),
    TableProbe("t23: test_taxes.py names the tax tests", "The tax tests pass.",
               (T("pytest -n 4", "FAILED tests/test_taxes.py::test_rate - AssertionError\n"
                  "========== 1 failed, 211 passed in 4.02s ==========", 1),),
               "contradicted", "tests.failed"),
)
