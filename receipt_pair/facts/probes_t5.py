"""Table t5's probes: every reading t5 adds (decide_t5.py, reading_t5.py), a log where it
must decide and a near one where it must decide otherwise."""

from .probe_kit import T, TableProbe

_GEMINI_COMMIT = ("Command: git init && git add . && git commit -m \"Initial commit\"\n"
                  "Directory: (root)\nOutput: Reinitialized existing Git repository in /r/.git/\n"
                  "[main 77e2e95] Initial commit\n 1 file changed, "
                  "40 insertions(+)\nError: (none)\nExit Code: 0\nSignal: 0")
_COVERAGE = ("tests/test_api.py ........\nFAIL Required test coverage of 70% not reached. "
             "Total coverage: 55.00%\n============ 8 passed in 0.62s ============")
_LOCKED = "fatal: Unable to create '/r/.git/index.lock': File exists."

T5_PROBES = (
    TableProbe("t5: Gemini CLI's `Error: (none)` is no failure of the commit above it",
               "Committed the code",
               (T('git init && git add . && git commit -m "Initial commit"', _GEMINI_COMMIT, 0),),
               "shown", "commit.made"),
    TableProbe("t5: an error that names one still fails the commit",
               "Committed the code",
               (T('git add . && git commit -m "Initial commit"',
                  "error: could not lock config file .git/config: File exists", 255),),
               "contradicted", "commit.failed"),
    TableProbe("t5: tests that all passed under a coverage threshold that failed passed",
               "the tests pass",
               (T("pytest --cov=app --cov-fail-under=70", _COVERAGE, 1),),
               "shown", "tests.passed"),
    TableProbe("t5: a failing test under the same threshold still fails the run",
               "the tests pass",
               (T("pytest --cov=app --cov-fail-under=70",
                  _COVERAGE.replace("8 passed", "1 failed, 7 passed"), 1),),
               "contradicted", "tests.failed"),
    TableProbe("t5: \u201cthe same PR branch\u201d names no branch: the retried commit was made",
               "I committed the update to the same PR branch",
               (T("git commit -m 'update'", _LOCKED, 128),
                T("git commit -m 'update'", "[feature/menu 240166a] update\n 1 file changed", 0)),
               "shown", "commit.made"),
    TableProbe("t5: a commit that failed after one was made leaves the claim open (t4 held the "
               "failure against it)",
               "I committed the update to the same PR branch",
               (T("git commit -m 'update'", "[feature/menu 58edbcf] first\n 1 file changed", 0),
                T("git commit -m 'update'", _LOCKED, 128)),
               None, None),
    TableProbe("t5: a build log shown with cat is no build (t4 read it as one that passed)",
               "the build succeeded",
               (T("cat build.log", "> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 41s", 0),),
               None, None),
    TableProbe("t5: a dry run's BUILD SUCCESSFUL is no build",
               "the build succeeded",
               (T("./gradlew assembleDebug --dry-run", ":app:assembleDebug SKIPPED\n\n"
                  "BUILD SUCCESSFUL in 2s", 0),),
               None, None),
    TableProbe("t5: the same script run for real still shows its build",
               "the build succeeded",
               (T("./gradlew assembleDebug", "> Task :app:assembleDebug\n\n"
                  "BUILD SUCCESSFUL in 41s", 0),),
               "shown", "build.passed"),
)
