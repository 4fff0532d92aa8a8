"""Table t9's probes: every reading and rule t9 adds (decide_t9.py), a log where it must
decide and a near one where it must decide otherwise or leave the claim to the models."""

from .probe_kit import T, TableProbe

_JENKINS_OK = "[INFO] BUILD SUCCESS\n[Pipeline] End of Pipeline\nFinished: SUCCESS"
_JENKINS_RED = "[ERROR] Failed to execute goal\nBuild step 'Invoke top-level Maven targets' " \
               "marked build as failure\nFinished: FAILURE"
_TRAVIS_RED = "The command \"yarn install\" failed and exited with 1 during .\n\n" \
              "Your build has been stopped."
_TRAVIS_OK = "The command \"npm test\" exited with 0.\n\nDone. Your build exited with 0."
_PY_OK = "collected 46 items\n\n============================== 46 passed in 0.31s " \
         "=============================="
_UNITTEST_OK = "...\n----------------------------------------------------------------------\n" \
               "Ran 46 tests in 0.006s\n\nOK"

T9_PROBES = (
    TableProbe("t9: a Jenkins job's own Finished: FAILURE contradicts a claim that the job "
               "finished successfully (t8 left it to the models)",
               "The Jenkins build finished successfully.",
               (T("mvn clean install", _JENKINS_RED, None),),
               "contradicted", "job.failed"),
    TableProbe("t9: the job's Finished: SUCCESS shows it",
               "the pipeline finished successfully",
               (T("docker push app:latest", "latest: digest: sha256:af68 size: 2214", None),
                T("End of Pipeline", "GitHub has been notified\n\nFinished: SUCCESS", None)),
               "shown", "job.passed"),
    TableProbe("t9: Travis CI's Your build has been stopped. contradicts the build passing",
               "the pull request build passed",
               (T("curl -o- -L https://yarnpkg.com/install.sh | bash", _TRAVIS_RED, 1),),
               "contradicted", "job.failed"),
    TableProbe("t9: Travis CI's Done. Your build exited with 0. shows it",
               "The Travis build passed.",
               (T("npm test", _TRAVIS_OK, 0),),
               "shown", "job.passed"),
    TableProbe("t9: a job that ended UNSTABLE is neither",
               "The Jenkins build finished successfully.",
               (T("mvn test", "Tests run: 4, Failures: 1\nFinished: UNSTABLE", None),),
               None, None),
    TableProbe("t9: Finished: SUCCESS only echoed is no job's end (and no build ran)",
               "The Jenkins build finished successfully.",
               (T("echo 'Finished: SUCCESS'", "Finished: SUCCESS", 0),),
               "not shown", "build.never-ran"),
    TableProbe("t9: a console shown with curl is any day's job",
               "The Jenkins build finished successfully.",
               (T("curl -s https://ci.example.com/job/app/lastBuild/consoleText",
                  _JENKINS_OK, 0),),
               None, None),
    TableProbe("t9: a job's end that is not the log's last line is no job's end",
               "The Jenkins build finished successfully.",
               (T("mvn clean install", _JENKINS_OK, None),
                T("./deploy.sh", "deploying...", None)),
               None, None),
    TableProbe("t9: a step that passed is not the job, which may not have ended",
               "The Jenkins build finished successfully.",
               (T("docker build . -t src", "Successfully built 0c6cd842f12f\n"
                  "Successfully tagged src:latest", 0),),
               None, None),
    TableProbe("t9: the site builds is a build claim: its build's failure contradicts it",
               "the site builds",
               (T("npm run build", "> site@1.0.0 build\n> astro build\n\n"
                  "error   Could not resolve './layout'", 1),),
               "contradicted", "build.failed"),
    TableProbe("t9: a claim that reports the push's refusal is not contradicted by it",
               "Direct push to main was blocked by repository rules",
               (T("git push origin main", "remote: error: GH013: Repository rule violations "
                  "found for refs/heads/main.\n ! [remote rejected] main -> main (push "
                  "declined due to repository rule violations)\nerror: failed to push some "
                  "refs", 1),),
               None, None),
    TableProbe("t9: the same push claimed done is contradicted",
               "Pushed to main.",
               (T("git push origin main", " ! [remote rejected] main -> main (push declined "
                  "due to repository rule violations)\nerror: failed to push some refs", 1),),
               "contradicted", "push.rejected"),
    TableProbe("t9: a lint claim that counts what the linter found is not contradicted by "
               "its failure",
               "There are 27 ESLint issues",
               (T("npx eslint .", "\u2716 27 problems (20 errors, 7 warnings)", 1),),
               None, None),
    TableProbe("t9: a lint claim of no problems is contradicted by the same failure",
               "ESLint passes with no issues",
               (T("npx eslint .", "\u2716 27 problems (20 errors, 7 warnings)", 1),),
               "contradicted", "lint.failed"),
    TableProbe("t9: tests labelled as one part are not contradicted by the whole run's "
               "failure",
               "Service Layer Tests: 97 tests passing",
               (T("pytest", "FAILED tests/api/test_x.py::test_y - assert 1 == 2\n"
                  "=== 1 failed, 310 passed in 2.1s ===", 1),),
               None, None),
    TableProbe("t9: a commit claim about what the commit holds is not shown by the commit",
               "The commit beb921d includes all the file upload fixes",
               (T("git commit -m 'fix upload'", "[main beb921d] fix upload\n 2 files changed",
                  0),),
               None, None),
    TableProbe("t9: a test file run by its interpreter shows no pass by its exit status",
               "Integration test: `test_resolver.py` - **PASSED**",
               (T("python test_resolver.py", "\u2717 resolver is not available\n"
                  "=== Test completed ===", 0),),
               None, None),
    TableProbe("t9: the same under an environment prefix (t8 said shown)",
               "Integration test: `test_resolver.py` - **PASSED**",
               (T("DEV_MODE=true python test_resolver.py", "=== Test completed ===", 0),),
               None, None),
    TableProbe("t9: the same file run by its runner shows it",
               "Integration test: `test_resolver.py` - **PASSED**",
               (T("DEV_MODE=true pytest test_resolver.py", "collected 3 items\n\n"
                  "test_resolver.py ...\n\n=== 3 passed in 0.2s ===", 0),),
               "shown", "tests.passed"),
    TableProbe("t9: a runner that is missing ran nothing, and the count's own run shows the "
               "claim",
               "All 46 unit tests pass.",
               (T("python3 -m pytest unit_tests/ -v", "No module named pytest", 1),
                T("python3 -m unittest discover unit_tests", _UNITTEST_OK, 0)),
               "shown", "tests.passed"),
    TableProbe("t9: a runner that ran and failed still contradicts though another ran after",
               "All tests pass.",
               (T("npx jest", "Tests: 2 failed, 40 passed, 42 total", 1),
                T("pytest", _PY_OK, 0)),
               None, None),
    TableProbe("t9: an edit of the agent's bookkeeping after the run does not make it stale",
               "All tests passed.",
               (T("pytest", _PY_OK, 0),
                T('Edit {"file_path": "_bmad-output/sprint-status.yaml"}', "ok", None,
                  kind="edit")),
               "shown", "tests.passed"),
    TableProbe("t9: an edit of the project's config after the run still does",
               "All tests passed.",
               (T("pytest", _PY_OK, 0),
                T('Edit {"file_path": "config/settings.yaml"}', "ok", None, kind="edit")),
               "not shown", "tests.edited-after"),
    TableProbe("t9: a scratch file written after the run and removed again does not make it "
               "stale",
               "All tests passed.",
               (T("pytest", _PY_OK, 0), T("echo 'print(1)' > scratch.py && python scratch.py",
                                          "1", 0),
                T("rm scratch.py", "", 0)),
               "shown", "tests.passed"),
    TableProbe("t9: a file written after the run and kept still makes it stale",
               "All tests passed.",
               (T("pytest", _PY_OK, 0), T("echo 'X = 2' > settings.py", "", 0)),
               "not shown", "tests.edited-after"),
)
