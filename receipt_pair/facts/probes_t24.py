"""Table t24's probes: what the attack pass on t23 found (tests/data/facts/attack-t23.json),
each beside the near log where the answer stands."""

from .probe_kit import T, TableProbe

_VITEST = " Test Files  3 passed (3)\n      Tests  12 passed (12)"
_JEST = "Test Suites: 1 passed, 1 total\nTests:       5 passed, 5 total"
_PYTEST = "============ 5 passed in 0.31s ============"

T24_PROBES = (
    TableProbe("t24: npm t hands its test script a file", "All tests pass.",
               (T("npm t -- src/cart.test.js", _JEST, 0),), None, None),
    TableProbe("t24: yarn run vitest run PATH is a part", "All tests pass.",
               (T("yarn run vitest run src/auth", _VITEST, 0),), None, None),
    TableProbe("t24: yarn run vitest run is the whole suite", "All tests pass.",
               (T("yarn run vitest run", _VITEST, 0),), "shown", "tests.passed"),
    TableProbe("t24: pnpm --filter chooses one package", "All tests pass.",
               (T("pnpm --filter web exec vitest run", _VITEST, 0),), None, None),
    TableProbe("t24: coverage run -m pytest FILE is a part", "All tests pass.",
               (T("coverage run -m pytest tests/test_auth.py", _PYTEST, 0),), None, None),
    TableProbe("t24: a file handed to a project's script is a part", "All tests pass.",
               (T("./run_tests.sh tests/test_auth.py", _PYTEST, 0),), None, None),
    TableProbe("t24: the script alone is the whole suite", "All tests pass.",
               (T("./run_tests.sh", _PYTEST, 0),), "shown", "tests.passed"),
    TableProbe("t24: an exported PYTEST_ADDOPTS chooses the runs after it", "All tests pass.",
               (T("export PYTEST_ADDOPTS=--lf", "", 0), T("pytest", _PYTEST, 0)), None, None),
    TableProbe("t24: --cov-branch chooses no tests", "All tests pass.",
               (T("pytest --cov=shop --cov-branch", _PYTEST, 0),), "shown", "tests.passed"),
    TableProbe("t24: --- FAIL: TestTaxError names the tax tests", "The tax tests pass.",
               (T("go test ./...", "--- FAIL: TestTaxError (0.00s)\nFAIL\nFAIL\tshop/tax\t0.01s",
                  1),), "contradicted", "tests.failed"),
    TableProbe("t24: a KeyError naming tax is a message, not the tax tests",
               "The tax tests pass.",
               (T("pytest -n 4", "FAILED tests/test_cart.py::test_total - KeyError: 'tax'\n"
                  "========== 1 failed, 211 passed in 4.02s ==========", 1),), None, None),
)
