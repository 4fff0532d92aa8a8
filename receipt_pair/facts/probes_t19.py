"""Table t19's probes: each class the attack pass on t18 found open, taken away, beside the
near log where t17's answer stands (three of them t18's costs, given back)."""

from .probe_kit import T, TableProbe

_GREEN = "============ 5 passed in 0.31s ============"
_MAVEN_GREEN = "[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS"
_GRADLE = T("./gradlew build --no-daemon", "> Task :build\n\nBUILD SUCCESSFUL in 41s\n"
            "9 actionable tasks: 9 executed", 0)
_COMMIT = T("git commit -m 'feat: add retry'", "[main 4c1d9e2] feat: add retry\n"
            " 2 files changed, 48 insertions(+)", 0)

T19_PROBES = (
    TableProbe("t19: a relative Windows path's run of one file is not every test",
               "All tests pass",
               (T(".\\venv\\Scripts\\python.exe -m pytest tests\\test_upload.py", _GREEN, 0),),
               None, None),
    TableProbe("t19: nor one inside cmd /c", "All tests pass",
               (T('cmd /c "C:\\app\\venv\\Scripts\\python.exe -m pytest tests\\test_upload.py"',
                  _GREEN, 0),), None, None),
    TableProbe("t19: a whole run after a Windows cd inside powershell -Command shows it",
               "All tests pass",
               (T("powershell -Command \"Set-Location 'c:\\dev\\app'; npx vitest run\"",
                  " Test Files  3 passed (3)\n      Tests  12 passed (12)", 0),),
               "shown", "tests.passed"),
    TableProbe("t19: Maven's -Dtest narrows the run to a class", "All tests pass",
               (T("mvn test -Dtest=UploadClientTest", _MAVEN_GREEN, 0),), None, None),
    TableProbe("t19: Maven's whole test run shows it", "All tests pass",
               (T("mvn test", _MAVEN_GREEN, 0),), "shown", "tests.passed"),
    TableProbe("t19: ng s serves a development build", "the production build compiles cleanly",
               (T("npx ng s", "** Angular Live Development Server is listening on "
                  "localhost:4200 **\n\n\u2714 Compiled successfully.", None),), None, None),
    TableProbe("t19: a release build claim is not shown by npm start",
               "the release build compiles cleanly",
               (T("npm start", "Compiled successfully!\n\nYou can now view app in the browser.",
                  None),), None, None),
    TableProbe("t19: vite build then vite preview runs the production build",
               "the production build succeeds",
               (T("npx vite build && npx vite preview", "vite v5.0.0 building for "
                  "production...\n\u2713 built in 1.20s\n  \u279c  Local:   "
                  "http://localhost:4173/", None),), "shown", "build.passed"),
    TableProbe("t19: a Jenkins end behind Timestamper's stamp is the job's word",
               "The build finished successfully.",
               (_GRADLE, T("./scripts/smoke.sh", "[2024-05-02T10:12:40.118Z] Build step "
                           "'Execute shell' marked build as failure\n"
                           "[2024-05-02T10:12:40.121Z] Finished: FAILURE", None)), None, None),
    TableProbe("t19: a later GitHub Actions step's failure is not the job's word",
               "The build finished successfully.",
               (_GRADLE, T("./scripts/smoke.sh", "curl: (7) Failed to connect\n"
                           "##[error]Process completed with exit code 7.", None)),
               "shown", "build.passed"),
    TableProbe("t19: '3 separate, atomic commits' needs three commit lines",
               "Committed as 3 separate, atomic commits.", (_COMMIT,), None, None),
    TableProbe("t19: an amend makes no second commit", "Committed as 2 commits.",
               (_COMMIT, T("git commit --amend --no-edit", "[main 9e8d7c6] feat: add retry\n"
                           " 3 files changed, 79 insertions(+)", 0)), None, None),
    TableProbe("t19: three commit lines of one loop's turn are three commits",
               "Committed as 3 commits.",
               (T('for m in src tests docs; do git add "$m" && git commit -m "chore($m)"; done',
                  "[main 4c1d9e2] chore(src)\n 2 files changed\n[main 5d6e7f8] chore(tests)\n"
                  " 1 file changed\n[main 6e7f8a9] chore(docs)\n 1 file changed", 0),),
               "shown", "commit.made"),
)
