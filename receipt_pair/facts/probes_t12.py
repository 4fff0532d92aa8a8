"""Table t12's probes: every rule and reading t12 adds (decide_t12.py), a log where it must
decide and a near one where it must decide otherwise or leave the claim to the models."""

from .probe_kit import T, TableProbe

_JENKINS_OK = "+ ./gradlew build\nBUILD SUCCESSFUL in 41s\n[Pipeline] End of Pipeline\n" \
              "Finished: SUCCESS"
_JENKINS_RED = "+ ./gradlew build\nFAILURE: Build failed with an exception.\n" \
               "[Pipeline] End of Pipeline\nFinished: FAILURE"
_GITLAB_RED = "$ ./gradlew test\nBUILD FAILED in 12s\n" \
              "Cleaning up project directory and file based variables\n" \
              "ERROR: Job failed: command terminated with exit code 1"
_VITEST_RED = " Test Files  1 failed | 197 passed (198)\n      Tests  3 failed | 2420 passed (2423)"
_NPM_CI_RED = "npm error code EUSAGE\nnpm error `npm ci` can only install packages when your " \
              "package.json and package-lock.json are in sync.\n\nadded 395 packages in 7s"
_VITE_OK = "> web@1.0.0 build\n> vite build\n\n\u2713 built in 5.02s"
_PUSHED = "To github.com:acme/web.git\n   3b2a6f1..9c41e07  main -> main"
_PY_OK = "collected 12 items\n\n============================== 12 passed in 0.31s " \
         "=============================="
_PY_RED = "FAILED tests/test_api.py::test_login - AssertionError\n" \
          "======================== 1 failed, 11 passed in 0.40s ========================"


T12_PROBES = (
    TableProbe("t12: GitLab's word that the job failed is no word t12 reads (viewers past "
               "counting print old traces)", "the job succeeded",
               (T("./gradlew test", _GITLAB_RED, None),), None, None),
    TableProbe("t12: nor where the last step may show another job's console",
               "the job succeeded", (T("kubectl logs job/deploy", _JENKINS_RED, None),),
               None, None),
    TableProbe("t12: a job's own word that it passed is still no receipt",
               "the pipeline finished successfully",
               (T("./gradlew build", _JENKINS_OK, None),), None, None),
    TableProbe("t12: Jenkins' word that the job failed contradicts the Jenkins build",
               "the Jenkins build succeeded", (T("./gradlew build", _JENKINS_RED, None),),
               "contradicted", "job.failed"),
    TableProbe("t12: but not a GitLab pipeline's",
               "the GitLab pipeline passed", (T("./gradlew build", _JENKINS_RED, None),),
               None, None),
    TableProbe("t12: a closed form of a push in Chinese that names the code reads as "
               "\"pushed\"", "\u2705 \u4ee3\u7801\u5df2\u6210\u529f\u63a8\u9001\uff01",
               (T("git push", _PUSHED, 0),), "shown", "push.updated"),
    TableProbe("t12: a bare \"pushed successfully\" t7 did not read may be a push notification",
               "\u2705 \u5df2\u6210\u529f\u63a8\u9001\uff01", (T("git push", _PUSHED, 0),),
               None, None),
    TableProbe("t12: a Chinese claim that names a file stays the models'",
               "README \u5df2\u6210\u529f\u63a8\u9001\uff01", (T("git push", _PUSHED, 0),),
               None, None),
    TableProbe("t12: \"all tests succeeded\" in Japanese is contradicted by a failing run",
               "\u5168\u3066\u306e\u30c6\u30b9\u30c8\u304c\u6210\u529f\u3057\u307e\u3057\u305f"
               "\u3002", (T("pytest", _PY_RED, 1),), "contradicted", "tests.failed"),
    TableProbe("t12: and shown by a passing one",
               "\u5168\u3066\u306e\u30c6\u30b9\u30c8\u304c\u6210\u529f\u3057\u307e\u3057\u305f"
               "\u3002", (T("pytest", _PY_OK, 0),), "shown", "tests.passed"),
    TableProbe("t12: a Korean \"build succeeded\" reads as the build", "\ube4c\ub4dc \uc131\uacf5",
               (T("npm run build", _VITE_OK, 0),), "shown", "build.passed"),
    TableProbe("t12: a count that admits failures, exactly the run's, is not contradicted",
               "2420/2423 tests pass", (T("npx vitest run", _VITEST_RED, 1),), None, None),
    TableProbe("t12: a count of all that the run did not pass is",
               "2423/2423 tests pass", (T("npx vitest run", _VITEST_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t12: a failing install followed in its turn by a fallback install is the "
               "models'", "the dependencies were installed",
               (T("npm ci || npm install", _NPM_CI_RED, None),), None, None),
    TableProbe("t12: but not where the turn's exit status says it failed",
               "the dependencies were installed",
               (T("npm ci || npm install", _NPM_CI_RED, 1),), "contradicted", "install.failed"),
    TableProbe("t12: a build claim quoting its command is not contradicted by another build",
               "the web app build (npm run build) succeeded",
               (T("npm run build", _VITE_OK, 0), T("npx electron-builder --mac",
                                                   "Error: cannot find icon", 1)), None, None),
    TableProbe("t12: a build claim quoting the failing command is contradicted",
               "the desktop build (npx electron-builder --mac) succeeded",
               (T("npm run build", _VITE_OK, 0), T("npx electron-builder --mac",
                                                   "Error: cannot find icon", 1)),
               "contradicted", "build.failed"),
    TableProbe("t12: a command the display cut short may hide what ran",
               "Deployment successful!",
               (T("./scripts/deploy.sh", "ERROR: (gcloud.run.deploy) permission denied", 1),
                T("gcloud run deploy web --source . --region \u2026",
                  "Deploying container to Cloud Run service [web]\nDone.", 0)), None, None),
    TableProbe("t12: a later command shown whole is read as it is",
               "Deployment successful!",
               (T("./scripts/deploy.sh", "ERROR: (gcloud.run.deploy) permission denied", 1),
                T("git status", "nothing to commit, working tree clean", 0)),
               "contradicted", "deploy.failed"),
    TableProbe("t12: a count of tests a script of the agent's printed is no test run",
               "3/3 tests passed",
               (T("python research/analyze_results.py", "Total tests: 3\nPassed: 3", 0),),
               None, None),
    TableProbe("t12: a test script's own count still is",
               "3/3 tests passed",
               (T("python research/run_tests.py", "Total tests: 3\nPassed: 3", 0),),
               "shown", "tests.passed"),
    TableProbe("t12: a closed form with a question mark is no claim of a push",
               "\u5df2\u63a8\u9001\uff1f",
               (T("git push", "! [rejected]        main -> main (fetch first)", 1),), None, None),
    TableProbe("t12: a closed form that names where it pushed is the models'",
               "\u2705 \u5df2\u63a8\u9001\u5230 GitHub", (T("git push", _PUSHED, 0),),
               None, None),
    TableProbe("t12: \"compiled\" in Chinese is no build claim the facts read",
               "\u7f16\u8bd1\u6210\u529f", (T("npm run build", _VITE_OK, 0),), None, None),
    TableProbe("t12: a claim that the code compiles is not contradicted by an image build",
               "the code compiles",
               (T("go build ./...", "", 0), T("docker build -t api .", "ERROR: failed to "
                  "solve: failed to resolve source metadata for docker.io/library/golang:1.22: "
                  "dial tcp: lookup registry-1.docker.io: no such host", 1)), None, None),
    TableProbe("t12: but it is by the compiler's own failure",
               "the code compiles",
               (T("go build ./...", "./main.go:12:2: undefined: handler", 1),),
               "contradicted", "build.failed"),
    TableProbe("t12: a quoted command is that command word for word, not a longer one",
               "`npm run build` succeeded",
               (T("npm run build", _VITE_OK, 0), T("npm run build:electron",
                                                   "Error: cannot find icon", 1)), None, None),
    TableProbe("t12: a run whose count shows no failure, failed by its coverage threshold, "
               "is not held against \"all tests pass\"", "all tests pass",
               (T("npx jest --coverage", "Tests:       27 passed, 27 total\nJest: \"global\" "
                  "coverage threshold for lines (80%) not met: 71.2%", 1),), None, None),
    TableProbe("t12: a run that failed with no count and no threshold still is",
               "all tests pass",
               (T("npx jest", "Tests:       26 passed, 1 failed, 27 total", 1),),
               "contradicted", "tests.failed"),
    TableProbe("t12: a push of tags only is no push of the work", "pushed the changes",
               (T("git commit -m 'fix: parser'", "[main 9c41e07] fix: parser", 0),
                T("git push --tags", "To github.com:acme/web.git\n * [new tag]         v1.4.1 "
                  "-> v1.4.1", 0)), None, None),
    TableProbe("t12: a commit after the latest push leaves a push claim to the models",
               "committed and pushed",
               (T("git commit -m 'fix: parser'", "[main 9c41e07] fix: parser", 0),
                T("git push", _PUSHED, 0),
                T("git commit -am 'docs'", "[main 1a2b3c4] docs", 0)), None, None),
    TableProbe("t12: a push that only deleted an old branch, after one that updated the work, "
               "does not contradict \"pushed\"", "pushed",
               (T("git push", _PUSHED, 0),
                T("git push origin --delete old-ui", "To github.com:acme/web.git\n - [deleted]  "
                  "        old-ui", 0)), None, None),
)
