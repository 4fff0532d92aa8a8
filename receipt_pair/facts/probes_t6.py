"""Table t6's probes: every reading t6 adds (reading_t6.py), a log where it must decide and a
near one where it must decide otherwise."""

from .probe_kit import T, TableProbe

_GRADLE_OK = ("> Task :app:compileDebugUnitTestKotlin\n> Task :app:testDebugUnitTest\n\n"
              "BUILD SUCCESSFUL in 3s\n25 actionable tasks: 6 executed, 19 up-to-date")
_GRADLE_RED = ("> Task :app:testDebugUnitTest FAILED\n\nPrefsManagerTest > readsDefault FAILED\n"
               "    java.lang.AssertionError at PrefsManagerTest.kt:31\n\n"
               "4 tests completed, 1 failed\n\nFAILURE: Build failed with an exception.\n\n"
               "BUILD FAILED in 2s")
_PYTEST_OK = "tests/test_api.py ....\n============ 4 passed in 0.21s ============"


def _cursor_edit(path):
    return T('search_replace {"rendering":"Edit file: %s","content":"**Chunk 1**\\nLines '
             'added: 3, lines removed: 1"}' % path, "", None, kind="edit")


T6_PROBES = (
    TableProbe("t6: gradle's variant unit-test task runs the tests (t5 said they never ran)",
               "the unit tests pass",
               (T("./gradlew testDebugUnitTest", _GRADLE_OK, 0),),
               "shown", "tests.passed"),
    TableProbe("t6: the same task failing fails the tests",
               "the unit tests pass",
               (T("./gradlew testDebugUnitTest", _GRADLE_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t6: a module's test task after another task runs the tests",
               "all tests pass",
               (T("./gradlew clean :core:test", _GRADLE_OK.replace(":app:testDebugUnitTest",
                                                                    ":core:test"), 0),),
               "shown", "tests.passed"),
    TableProbe("t6: the same task as a dry run runs nothing",
               "the unit tests pass",
               (T("./gradlew testDebugUnitTest --dry-run", ":app:testDebugUnitTest SKIPPED\n\n"
                  "BUILD SUCCESSFUL in 1s", 0),),
               "not shown", "tests.ran-nothing"),
    TableProbe("t6: a gradle task that only compiles the tests runs none",
               "all tests pass",
               (T("./gradlew testClasses", "> Task :app:testClasses\n\nBUILD SUCCESSFUL "
                  "in 4s", 0),),
               "not shown", "tests.never-ran"),
    TableProbe("t6: a test task excluded with -x runs nothing (t5 showed the claim by it)",
               "all tests pass",
               (T("./gradlew build -x test", "> Task :app:assemble\n\nBUILD SUCCESSFUL in 9s",
                  0),
                T("./gradlew test -x test", "BUILD SUCCESSFUL in 1s", 0)),
               "not shown", "tests.ran-nothing"),
    TableProbe("t6: a report written after the run (named in the tool's rendering) leaves the "
               "run standing",
               "the tests pass",
               (T("pytest", _PYTEST_OK, 0), _cursor_edit("TESTS_FINAL_REPORT.md")),
               "shown", "tests.passed"),
    TableProbe("t6: code edited after the run (named in the same rendering) still makes it "
               "stale",
               "the tests pass",
               (T("pytest", _PYTEST_OK, 0), _cursor_edit("src/api.py")),
               "not shown", "tests.edited-after"),
    TableProbe("t6: a patch written out after the run is no file the run uses",
               "the tests pass",
               (T("pytest", _PYTEST_OK, 0), T("git diff HEAD~1 > model_patch.diff", "", 0)),
               "shown", "tests.passed"),
    TableProbe("t6: a script written out after the run still makes it stale",
               "the tests pass",
               (T("pytest", _PYTEST_OK, 0), T("git show HEAD:api.py > api.py", "", 0)),
               "not shown", "tests.edited-after"),
)
