"""Table t14's probes: what its reading and its decisions add or take away (reading_t14.py,
decide_t14.py), each beside a near log or claim where the answer stays as t13's."""

from .probe_kit import T, TableProbe

_PUSHED = "To github.com:acme/web.git\n   3b2a6f1..9c41e07  fix/parser -> fix/parser"
_NOTICE = ("npm notice\nnpm notice \U0001f4e6  use-m@8.13.8\nnpm notice Tarball Details\n"
           "npm notice name: use-m\nnpm notice version: 8.13.8\nnpm notice total files: 10\n"
           "npm notice Publishing to https://registry.npmjs.org/ with tag latest")
_NPM_404 = "\nnpm error code E404\nnpm error 404 Not Found - PUT https://registry.npmjs.org/use-m"
_DOTNET = ("Test summary: total: {total}, failed: 0, succeeded: 8, skipped: 0, duration: 7.9s\n"
           "Build succeeded in 10.8s")
_PY_ERRORS = ("lint-and-test\tRun tests\t2026-07-06T23:12:50.2586684Z ===== 24 passed, 17 "
              "warnings, 4 errors in 107.19s =====")
_PY_OK = "collected 46 items\n\n============================== 46 passed in 0.31s " \
         "=============================="

T14_PROBES = (
    TableProbe("t14: a CI log an agent printed beside its own run keeps gh's columns: its "
               "failures are not the local run's", "All tests pass locally",
               (T("pytest -q && gh run view 8623 --log-failed", _PY_OK + "\ntest\tRun tests\t"
                  "2026-03-21T23:45:23.9215540Z ===== 5 failed, 389 passed in 12.62s =====", 0),),
               "shown", "tests.passed"),
    TableProbe("t14: a line behind gh's columns is read as the runner wrote it",
               "ruff check passes on the backend code",
               (T("ruff check app/", "Backend CI\tLint with Ruff\t2026-03-17T02:36:22.4451912Z "
                  "All checks passed!"),), "shown", "lint.passed"),
    TableProbe("t14: the same line printed by a command that shows a CI log is that "
               "command's output", "ruff check passes on the backend code",
               (T("gh run view 8623 --log", "Backend CI\tLint with Ruff\t"
                  "2026-03-17T02:36:22.4451912Z All checks passed!", 0),), None, None),
    TableProbe("t14: a push's ref line behind gh's columns", "the version bump was pushed to main",
               (T("git push origin main", "Release\tPush\t2025-12-09T23:54:43.8648584Z To "
                  "https://github.com/acme/web.git\nRelease\tPush\t2025-12-09T23:54:43.8648584Z"
                  "    c3b91bd..8d39b83  main -> main"),), "shown", "push.updated"),
    TableProbe("t14: a style tool's failure behind a dot leader is not the tests'",
               "All 12 node tests passed.",
               (T("composer ci:check", "# tests 12\n# pass 12\n# fail 0\n  FAIL   ......... "
                  "149 files, 2 style issues", 1),), None, None),
    TableProbe("t14: a test runner's FAIL of a test file is",
               "All 12 node tests passed.",
               (T("composer ci:check", "# tests 12\n# pass 11\n# fail 1\n  FAIL  "
                  "tests/Unit/ExampleTest.php", 1),), "contradicted", "tests.failed"),
    TableProbe("t14: a .NET run that counted fewer tests passed than it ran did not pass them",
               "All tests pass.", (T("dotnet test", _DOTNET.format(total=20), 0),), None, None),
    TableProbe("t14: a .NET run whose counts add up passed", "All tests pass.",
               (T("dotnet test", _DOTNET.format(total=8), 0),), "shown", "tests.passed"),
    TableProbe("t14: npm's own notice names the package a failed npm publish was of",
               "use-m 8.13.8 was published to npm",
               (T("npm publish --access public", _NOTICE + _NPM_404, 1),),
               "contradicted", "deploy.failed"),
    TableProbe("t14: and one that succeeded", "use-m 8.13.8 was published to npm",
               (T("npm publish --access public", _NOTICE + "\n+ use-m@8.13.8", 0),),
               "shown", "deploy.done"),
    TableProbe("t14: npm's own + line says the version went up though a later script failed",
               "use-m 8.13.8 was published to npm",
               (T("npm publish --access public", _NOTICE + "\n+ use-m@8.13.8\n> use-m@8.13.8 "
                  "postpublish\n> node notify.js\nError: webhook failed", 1),), None, None),
    TableProbe("t14: a refusal to publish over a published version is no failure to publish",
               "use-m 8.13.8 was published to npm",
               (T("npm publish --access public", _NOTICE + "\nnpm error code E403\nnpm error 403 "
                  "403 Forbidden - PUT https://registry.npmjs.org/use-m - You cannot publish "
                  "over the previously published versions: 8.13.8.", 1),), None, None),
    TableProbe("t14: a notice of another package says nothing of the claimed one",
               "use-n 8.13.8 was published to npm",
               (T("npm publish --access public", _NOTICE + _NPM_404, 1),), None, None),
    TableProbe("t14: nor of another version", "use-m 8.13.9 was published to npm",
               (T("npm publish --access public", _NOTICE + _NPM_404, 1),), None, None),
    TableProbe("t14: a push is no receipt for a claim that names a pull request",
               "The fix commits were pushed to PR #13.",
               (T("git push origin fix/parser", _PUSHED, 0),), None, None),
    TableProbe("t14: nor for one that names pull requests", "Pushed the fixes to both PRs.",
               (T("git push origin fix/parser", _PUSHED, 0),), None, None),
    TableProbe("t14: the same push is one for a claim naming its branch",
               "The fix commits were pushed to fix/parser.",
               (T("git push origin fix/parser", _PUSHED, 0),), "shown", "push.updated"),
    TableProbe("t14: a count of tests passed behind gh's columns is the run's count, and "
               "one the claim gives is not contradicted by it", "24 tests passed.",
               (T("pytest", _PY_ERRORS, 1),), None, None),
    TableProbe("t14: a claim that all of them passed is",
               "All 24 tests passed.", (T("pytest", _PY_ERRORS, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t14: a subject that joins another thing to the tests is not shown by them",
               "The tests and example script are both executing without errors.",
               (T("pytest", _PY_OK, 0),), None, None),
    TableProbe("t14: the tests alone are", "The tests are all executing without errors.",
               (T("pytest", _PY_OK, 0),), "shown", "tests.passed"),
)
