"""Table t13's probes: the answer t13 takes away (decide_t13.py), logs where it must leave
the claim to the models and near ones where t12's answer stands."""

from .probe_kit import T, TableProbe

_PY_OK = "collected 46 items\n\n============================== 46 passed in 0.31s " \
         "=============================="
_PY_RED = "FAILED tests/test_api.py::test_login - AssertionError\n" \
          "======================== 1 failed, 45 passed in 0.40s ========================"


T13_PROBES = (
    TableProbe("t13: a claim that joins another thing that works is not shown by the tests",
               "All tests pass and the login works.", (T("pytest", _PY_OK, 0),), None, None),
    TableProbe("t13: the same after a comma or a dash", "All tests pass, the app boots cleanly.",
               (T("pytest", _PY_OK, 0),), None, None),
    TableProbe("t13: how the run went is no other thing", "All tests pass with no warnings.",
               (T("pytest", _PY_OK, 0),), "shown", "tests.passed"),
    TableProbe("t13: nor is a second operation the facts read", "All tests pass and the build "
               "succeeds.", (T("pytest", _PY_OK, 0), T("npm run build", "\u2713 built in 2.1s", 0)),
               "shown", "build.passed"),
    TableProbe("t13: a run that counted a failure still contradicts", "All tests pass.",
               (T("pytest", _PY_RED, 1),), "contradicted", "tests.failed"),
)
