"""Table t15's probes: where it is more careful than t14 (reading_t15.py, decide_t15.py),
each beside a near log where t14's answer stands."""

from .probe_kit import T, TableProbe

_STEP = "build\tRun tests\t2026-01-14T21:59:38.1147120Z "
_GREEN_CI = _STEP + "===== 46 passed in 0.31s ====="
_RED_CI = _STEP + "FAILED tests/test_api.py::test_login\n" + _STEP + \
    "===== 1 failed, 45 passed in 0.31s ====="
_NOTICE = ("npm notice name: use-m\nnpm notice version: 8.13.8\nnpm notice Publishing to "
           "https://registry.npmjs.org/ with tag latest and default access")

T15_PROBES = (
    TableProbe("t15: a CI log a program it does not know printed in an agent's session keeps "
               "gh's columns", "All tests pass",
               (T("git status", "On branch main\nnothing to commit, working tree clean", 0),
                T("nl ci.log", _GREEN_CI, 0)), None, None),
    TableProbe("t15: a CI job's log cut into its steps is read behind them", "All tests pass",
               (T("npm ci", _STEP + "added 843 packages in 12s"), T("pytest", _GREEN_CI)),
               "shown", "tests.passed"),
    TableProbe("t15: an older CI run's failures printed after a local run that passed are not "
               "the local run's", "All tests pass",
               (T("pytest -q", "===== 46 passed in 0.31s =====", 0),
                T("zcat logs.gz", _RED_CI, 0)), "shown", "tests.passed"),
    TableProbe("t15: a publish whose postpublish script failed after the upload is not "
               "contradicted", "use-m 8.13.8 was published to npm",
               (T("npm publish", _NOTICE + "\n\n> use-m@8.13.8 postpublish\n> node notify.js\n"
                  "Error: webhook failed", 1),), None, None),
    TableProbe("t15: nor shown by a dry run npm's config set", "use-m 8.13.8 was published to npm",
               (T("npm publish", _NOTICE + " (dry-run)", 0),), None, None),
    TableProbe("t15: a publish the registry refused before any script ran is",
               "use-m 8.13.8 was published to npm",
               (T("npm publish", _NOTICE + "\nnpm error code E404\nnpm error 404 Not Found - PUT "
                  "https://registry.npmjs.org/use-m", 1),), "contradicted", "deploy.failed"),
    TableProbe("t15: the tests and the build are two things the facts read",
               "The tests and the build pass",
               (T("pytest", "===== 46 passed in 0.31s =====", 0),
                T("npm run build", "\u2713 built in 2.1s", 0)), "shown", "build.passed"),
)
