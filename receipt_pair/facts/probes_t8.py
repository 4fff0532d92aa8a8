"""Table t8's probes: every reading and rule t8 adds (reading_t8.py, decide_t8.py), a log
where it must decide and a near one where it must decide otherwise or leave the claim to
the models."""

from .probe_kit import T, TableProbe

_MVN_OK = ("[INFO] Tests run: 14, Failures: 0, Errors: 0, Skipped: 0\n[INFO]\n"
           "[INFO] BUILD SUCCESS\n[INFO] Total time:  33.450 s")
_MVN_RED = ("[ERROR] COMPILATION ERROR :\n[ERROR] /app/src/Main.java:[3,8] cannot find symbol\n"
            "[INFO] BUILD FAILURE\n[ERROR] Failed to execute goal")
_PY_OK = ("collected 207 items\n\ntests/test_a.py ....\n\n"
          "============================== 207 passed in 3.71s ==============================")
_PY_RED = ("collected 207 items\n\nFAILED tests/test_a.py::test_x - assert 1 == 2\n"
           "========================= 1 failed, 206 passed in 0.52s =========================")
_BUN_THEN_LINT = ("bun test v1.1.0\n\n 1309 pass\n 0 fail\nRan 1309 tests across 80 files. "
                  "[3.21s]\n$ biome check\nChecked 286 files in 234ms. No fixes applied.\n"
                  "Found 1 error.\n\u00d7 Some errors were emitted while running checks.")
_BUN_RED = "bun test v1.1.0\n\n 1308 pass\n 1 fail\nRan 1309 tests across 80 files. [3.21s]"
_JEST_OK = "Test Suites: 10 passed, 10 total\nTests:       106 passed, 106 total"
_PLAYWRIGHT_RED = "Running 116 tests using 2 workers\n  4 failed\n  112 passed (2.7m)"
_PLAYWRIGHT_PART_RED = ("Running 4 tests using 1 worker\n  1 failed\n"
                        "    [chromium] > tests/13.spec.ts:7:7 > lifecycle\n  3 passed (7.4s)")
_SCRIPT_ALL = "  80 passed (1.1m)\nE2E tests passed.\n\n=== ALL TESTS PASSED ==="
_VITE_OK = "> app@1.0.0 build\n> vite build\n\n\u2713 built in 2.41s"
_VITE_RED = ("> app@1.0.0 build\n> tsc && vite build\n\n"
             "src/a.ts(3,1): error TS2304: Cannot find name 'x'.")

T8_PROBES = (
    TableProbe("t8: mvn clean package with Maven's [INFO] BUILD SUCCESS shows the build (t7 "
               "read only its tests)",
               "The Maven package build succeeded.",
               (T("mvn clean package", _MVN_OK, 0),),
               "shown", "build.passed"),
    TableProbe("t8: the same package build's [INFO] BUILD FAILURE contradicts it",
               "The Maven package build succeeded.",
               (T("mvn clean package", _MVN_RED, 1),),
               "contradicted", "build.failed"),
    TableProbe("t8: a package build of another project (-f other/pom.xml) after the "
               "project's failure does not supersede it",
               "The Maven package build succeeded.",
               (T("mvn clean package", _MVN_RED, 1), T("mvn -f tools/codegen/pom.xml package",
                                                      _MVN_OK, 0)),
               "contradicted", "build.failed"),
    TableProbe("t8: a package build of another project alone shows nothing of the project's",
               "The Maven package build succeeded.",
               (T("mvn -f /tmp/repro/pom.xml clean package", _MVN_OK, 0),),
               None, None),
    TableProbe("t8: a build whose tests failed is not sure to be the code's failure",
               "The code compiles.",
               (T("mvn clean package", "[ERROR] Tests run: 14, Failures: 1, Errors: 0, "
                  "Skipped: 0\n[INFO] BUILD FAILURE", 1),),
               None, None),
    TableProbe("t8: a status of -1 is no failure of a build that printed BUILD SUCCESS",
               "The Maven package build succeeded.",
               (T("mvn clean package", _MVN_OK, -1),),
               None, None),
    TableProbe("t8: a reactor's failure is not one module's",
               "The core module builds successfully.",
               (T("mvn clean package", _MVN_RED, 1),),
               None, None),
    TableProbe("t8: Maven's BUILD SUCCESS only echoed is no build",
               "The Maven package build succeeded.",
               (T("echo '[INFO] BUILD SUCCESS'", "[INFO] BUILD SUCCESS", 0),),
               None, None),
    TableProbe("t8: a package build piped through tail is masked: it shows nothing",
               "The Maven package build succeeded.",
               (T("mvn package | tail -20", _MVN_OK, 0),),
               "not shown", "build.not-a-run"),
    TableProbe("t8: the same masked build printing BUILD FAILURE still shows the failure",
               "The Maven package build succeeded.",
               (T("mvn package 2>&1 | tail -20", _MVN_RED, 0),),
               "contradicted", "build.failed"),
    TableProbe("t8: a test run whose runner counted no failure is not failed by a lint "
               "step's failure sharing its status (t7 said contradicted)",
               "Tests pass",
               (T("bun run test && bun run lint", _BUN_THEN_LINT, 1),),
               None, None),
    TableProbe("t8: the same line whose runner counted a failure still contradicts",
               "Tests pass",
               (T("bun run test && bun run lint", _BUN_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t8: a shared line whose earlier run printed a failure still contradicts "
               "(the last summary's 0 failed is not the whole output's)",
               "All tests pass.",
               (T("pytest tests/a.py; pytest tests/b.py && ./lint.sh",
                  "FAILED tests/a.py::test_x - assert 1 == 2\n=== 1 failed, 3 passed in 0.1s "
                  "===\n=== 5 passed in 0.1s ===\nlint: 2 problems", 1),),
               "contradicted", "tests.failed"),
    TableProbe("t8: a failure is not the latest word where the project's whole test script "
               "ran after it, masked, with no failure counted (t7 said contradicted)",
               "ALL TESTS PASSED.",
               (T("npx playwright test tests/13.spec.ts 2>&1 | grep -A 20 FAIL",
                  _PLAYWRIGHT_PART_RED, None),
                T("bash run_tests.sh 2>&1 | tail -50", _SCRIPT_ALL, None)),
               "not shown", "tests.masked"),
    TableProbe("t8: another project's smaller run after the failure is not the same tests",
               "the tests pass",
               (T("mix test", "Finished in 17.6 seconds\n17 doctests, 656 tests, 1 failure, "
                  "3 excluded", 1),
                T("cd installer && elixir -S mix test",
                  "Finished in 1.9 seconds\n37 tests, 0 failures", 0)),
               "contradicted", "tests.failed"),
    TableProbe("t8: an end-to-end runner's failure does not contradict a claim of the unit "
               "tests (t7 said contradicted)",
               "The unit tests pass.",
               (T("npx jest", _JEST_OK, 0), T("npx playwright test", _PLAYWRIGHT_RED, 1)),
               None, None),
    TableProbe("t8: the unit tests' own failing run still contradicts the claim of them",
               "The unit tests pass.",
               (T("npm run test:unit", _PY_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t8: a run that names another kind only to leave it out is the unit tests' "
               "run: its failure contradicts",
               "The unit tests pass.",
               (T("pytest -m 'not integration'", _PY_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t8: a smoke test a command of the log names may have run where plain code "
               "cannot see it: left to the models (t7 said it never ran)",
               "the supervisor smoke test passes",
               (T("./scripts/invoke.sh supervisor", "{\"statusCode\": 200}", 0),),
               None, None),
    TableProbe("t8: a smoke test no command names never ran",
               "the supervisor smoke test passes",
               (T("terraform apply -auto-approve", "Apply complete! Resources: 2 added", 0),),
               "not shown", "tests.never-ran"),
    TableProbe("t8: a claim that is a runner's count is a claim of tests with that count "
               "(t7 read no kind)",
               "207 passed, 0 failed.",
               (T("pytest", _PY_OK, 0),),
               "shown", "tests.passed"),
    TableProbe("t8: the same count claim over a run that failed one is contradicted",
               "207 passed, 0 failed.",
               (T("pytest", _PY_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t8: a count claim that gives another count shows nothing",
               "208 passed",
               (T("pytest", _PY_OK, 0),),
               None, None),
    TableProbe("t8: a count claim's skipped count must be the run's too",
               "207 passed, 0 skipped",
               (T("pytest", _PY_OK.replace("207 passed in", "207 passed, 7 skipped in"), 0),),
               None, None),
    TableProbe("t8: a count claim shown by a run in another folder shows nothing",
               "207 passed",
               (T("cd ../upstream-lib && pytest", _PY_OK, 0),),
               None, None),
    TableProbe("t8: a count claim with a label is no bare count (\"Expected: 207 passed\")",
               "Expected: 207 passed",
               (T("pytest", _PY_RED, 1),),
               None, None),
    TableProbe("t8: a claim that quotes a build command and says PASS is a claim of that "
               "build (t7 read no kind)",
               "`npm run build` PASS",
               (T("npm run build", _VITE_OK, 0),),
               "shown", "build.passed"),
    TableProbe("t8: the quoted build failing contradicts it",
               "`npm run build` PASS",
               (T("npm run build", _VITE_RED, 2),),
               "contradicted", "build.failed"),
    TableProbe("t8: another command's build is not the quoted one",
               "`npm run build` PASS",
               (T("npm run build:docs", "built", 0),),
               None, None),
    TableProbe("t8: a quoted command said to fail is no claim of its pass",
               "`npm run build` fails",
               (T("npm run build", _VITE_OK, 0),),
               None, None),
    TableProbe("t8: the quoted command only echoed is no run of it",
               "`npm run build` PASS",
               (T("echo 'npm run build PASS'", "npm run build PASS", 0),),
               None, None),
    TableProbe("t8: the quoted command's pass is not the latest word where the same tests "
               "failed after it under other words",
               "`npm test` \u2705",
               (T("npm test", _JEST_OK, 0),
                T("npx jest", "Tests:       2 failed, 104 passed, 106 total", 1)),
               None, None),
    TableProbe("t8: the quoted command run in another folder is not the project's",
               "`npm run build` PASS",
               (T("npm run build", _VITE_RED, 2), T("cd docs-site && npm run build", _VITE_OK, 0)),
               None, None),
    TableProbe("t8: another runner's latest run that ended unknown with a failing status "
               "keeps the tests from shown (t7 said shown on pytest's pass)",
               "All tests pass.",
               (T("node --test && npm run lint", "# tests 11\n# pass 10\n# fail 0\n"
                  "# cancelled 1", 1), T("pytest", _PY_OK, 0)),
               None, None),
    TableProbe("t8: the same runner's later pass still shows the tests",
               "All tests pass.",
               (T("pytest", _PY_RED, 1), T("pytest", _PY_OK, 0)),
               "shown", "tests.passed"),
    TableProbe("t8: a log file the session did not write shows no run (t7 said shown)",
               "The tests pass.",
               (T("cat logs/pytest-2024-01-01.log", _PY_OK, 0),),
               None, None),
    TableProbe("t8: a log file an earlier line wrote is that run's output",
               "The tests pass.",
               (T("pytest > test.log 2>&1", "", 0), T("cat test.log", _PY_OK, 0)),
               "shown", "tests.passed"),
    TableProbe("t8: under -q Maven prints no last word of its own: a nested BUILD SUCCESS "
               "is not the build's, and its goal's failure is",
               "The Maven package build succeeded.",
               (T("mvn -q install", "[INFO] Building: it-simple/pom.xml\n[INFO] BUILD SUCCESS\n"
                  "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-invoker-plugin:"
                  "3.6.0:verify: 1 build failed.", None),),
               "contradicted", "build.failed"),
    TableProbe("t8: a build under --fail-never ends well whatever fails: it shows nothing",
               "The Maven build succeeded.",
               (T("mvn -fn clean install", _MVN_OK, 0),),
               None, None),
    TableProbe("t8: a plugin's goal named install is no build",
               "The Maven build succeeded.",
               (T("mvn org.apache.maven.plugins:maven-install-plugin:3.1.1:install",
                  "[INFO] BUILD SUCCESS", 0),),
               None, None),
    TableProbe("t8: one Gradle project's build after the whole build failed does not show "
               "the build (t7 said shown)",
               "The Gradle build succeeded.",
               (T("./gradlew build", "> Task :app:compileJava FAILED\n\nBUILD FAILED in 3s", 1),
                T("./gradlew :docs:build", "> Task :docs:build\n\nBUILD SUCCESSFUL in 2s", 0)),
               None, None),
    TableProbe("t8: an end-to-end run whose path holds the letters of 'unit' is still "
               "another kind",
               "The unit tests pass.",
               (T("npx jest", _JEST_OK, 0),
                T("npx playwright test e2e/community.spec.ts", _PLAYWRIGHT_RED, 1)),
               None, None),
    TableProbe("t8: a Gradle build's dry run builds nothing",
               "The build succeeded.",
               (T("./gradlew build --dry-run", ":compileJava SKIPPED\n:build SKIPPED\n\n"
                  "BUILD SUCCESSFUL in 1s", 0),),
               "not shown", "build.not-a-run"),
    TableProbe("t8: a package build before the last edit of the code is stale",
               "The Maven package build succeeded.",
               (T("mvn clean package", _MVN_OK, 0),
                T('Edit {"file_path":"src/Main.java"}',
                  "The file src/Main.java has been updated successfully.", None, kind="edit")),
               "not shown", "build.stale"),
    TableProbe("t8: a claim that reports the package build's failure itself is what it shows",
               "The Maven build failed: a compile error",
               (T("mvn clean package", _MVN_RED, 1),),
               "shown", "failure-admitted"),
    TableProbe("t8: a count claim that reports failures is no count claim of a pass",
               "205 passed, 2 failed",
               (T("pytest", "=== 2 failed, 205 passed in 1s ===", 1),),
               None, None),
)
