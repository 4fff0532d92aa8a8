"""Table t11's probes: every reading and rule t11 adds (reading_t11.py, decide_t11.py), a
log where it must decide and a near one where it must decide otherwise or leave the claim
to the models."""

from .probe_kit import T, TableProbe

_BUILDKIT = ("#7 [3/3] RUN npm ci\n#7 DONE 9.1s\n\n#8 exporting to image\n#8 exporting layers "
             "0.4s done\n#8 writing image sha256:3ebe67995c664ddcb4b8e7dc9175a39e20337be94b483298"
             "77697170a6ec92e2 done\n#8 naming to docker.io/library/web:latest done\n#8 DONE 0.5s")
_BUILDKIT_RED = ("#7 [3/3] RUN npm ci\n#7 ERROR: process \"/bin/sh -c npm ci\" did not complete "
                 "successfully: exit code: 1\n------\nERROR: failed to solve: process \"/bin/sh "
                 "-c npm ci\" did not complete successfully: exit code: 1")
_PY_ONE_RED = ("FAILED tests/test_jobs.py::test_retry - AssertionError\n"
               "================ 1 failed, 1039 passed, 1 skipped in 9.24s ================")
_NPM_E404 = ("npm notice Publishing to https://registry.npmjs.org with tag latest and public "
             "access\nnpm notice publish Signed provenance statement with source and build "
             "information from GitHub Actions\nnpm notice publish Provenance statement published "
             "to transparency log: https://search.sigstore.dev/?logIndex=1855938116\n"
             "npm error code E404\nnpm error 404 Not Found - PUT https://registry.npmjs.org/"
             "@acme%2fcore - Not found")
_GRADLE_OK = "Downloading https://services.gradle.org/distributions/gradle-8.4-bin.zip\n\n" \
             "BUILD SUCCESSFUL in 4s\n1 actionable task: 1 executed"
_GRADLE_RED = "> Task :app:compileDebugKotlin FAILED\n\nFAILURE: Build failed with an exception."
_VITE_STOPPED = "> web@1.0.0 build\n> vite build\n\nvite v5.2.0 building for production...\n" \
                "transforming (812) src/components/Chart.tsx"
_PY_OK = "collected 46 items\n\n============================== 46 passed in 0.31s " \
         "=============================="


T11_PROBES = (
    TableProbe("t11: an image build with no status of its own is shown by BuildKit's own last "
               "steps (image named, step done)", "the docker image was built",
               (T("docker build -t web:latest .", _BUILDKIT, None),), "shown", "build.passed"),
    TableProbe("t11: and a BuildKit step in error leaves it failed, not built",
               "the docker image was built",
               (T("docker build -t web:latest .", _BUILDKIT_RED + "\n" + _BUILDKIT, None),),
               "contradicted", "build.failed"),
    TableProbe("t11: two image builds in one turn: whose last steps are whose is not sure",
               "the docker image was built",
               (T("docker build -t api ./api\ndocker build -t web ./web", _BUILDKIT, None),),
               None, None),
    TableProbe("t11: a claim that says what a printed line says is not contradicted by the "
               "failure after it", "the provenance statement was published to the "
               "transparency log", (T("npm publish --provenance", _NPM_E404, 1),), None, None),
    TableProbe("t11: and the publish itself is still contradicted by its failure",
               "the package was published to npm",
               (T("npm publish --provenance", _NPM_E404, 1),), "contradicted", "deploy.failed"),
    TableProbe("t11: a count of passed tests and no more, exactly the run's, is the models'",
               "1039 tests passed",
               (T("pytest", _PY_ONE_RED, 1),), None, None),
    TableProbe("t11: but \"all\" of that count is contradicted by the failure",
               "all 1039 tests passed", (T("pytest", _PY_ONE_RED, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t11: a build claim naming a task another command of the program ran is not "
               "failed by the build that failed",
               "the Gradle wrapper task finished with BUILD SUCCESSFUL",
               (T("./gradlew wrapper --gradle-version 8.4", _GRADLE_OK, None),
                T("./gradlew assembleDebug", _GRADLE_RED, 1)), None, None),
    TableProbe("t11: a build claim naming only the build is failed by it",
               "the Gradle build finished with BUILD SUCCESSFUL",
               (T("./gradlew wrapper --gradle-version 8.4", _GRADLE_OK, None),
                T("./gradlew assembleDebug", _GRADLE_RED, 1)), "contradicted", "build.failed"),
    TableProbe("t11: a CI step's own report written after the build leaves the build fresh",
               "the build succeeded",
               (T("./gradlew build", "BUILD SUCCESSFUL in 2m 3s", None),
                T('echo "## Published" >> $GITHUB_STEP_SUMMARY', "", None)),
               "shown", "build.passed"),
    TableProbe("t11: a script whose output goes to the CI report may write files: still an edit",
               "the build succeeded",
               (T("./gradlew build", "BUILD SUCCESSFUL in 2m 3s", None),
                T("python scripts/bump_version.py >> $GITHUB_OUTPUT", "", None)),
               "not shown", "build.stale"),
    TableProbe("t11: a build stopped by a signal (143) that printed no failure was cut off",
               "The production build succeeds.",
               (T("npm run build", _VITE_STOPPED, 143),), "not shown", "build.not-a-run"),
    TableProbe("t11: the same build ending with a failing status of its own failed",
               "The production build succeeds.",
               (T("npm run build", _VITE_STOPPED, 2),), "contradicted", "build.failed"),
    TableProbe("t11: a file copied over the code after the run makes the run stale",
               "all tests pass",
               (T("pytest", _PY_OK, 0), T("cp /tmp/retry.fixed.py src/retry.py", "", 0)),
               "not shown", "tests.edited-after"),
    TableProbe("t11: a document copied after the run leaves it fresh",
               "all tests pass",
               (T("pytest", _PY_OK, 0), T("cp build/summary.md REPORT.md", "", 0)),
               "shown", "tests.passed"),
    TableProbe("t11: an image the claim names that the build did not name is the models'",
               "the api image was built",
               (T("docker build -t acme/web ./web", _BUILDKIT, None),), None, None),
    TableProbe("t11: the image the build named is shown",
               "the web image was built",
               (T("docker build -t acme/web ./web", _BUILDKIT, None),), "shown", "build.passed"),
    TableProbe("t11: an image build's shown is the models' where another image build failed",
               "the docker image was built",
               (T("docker build -t acme/api ./api", _BUILDKIT_RED, None),
                T("docker build -t acme/web ./web", _BUILDKIT, None)), None, None),
    TableProbe("t11: an echo whose text runs a command into the CI report may edit files",
               "the build succeeded",
               (T("./gradlew build", "BUILD SUCCESSFUL in 2m 3s", None),
                T('echo "version=$(npm version patch)" >> $GITHUB_OUTPUT', "", None)),
               "not shown", "build.stale"),
    TableProbe("t11: a copy out of the project after the run edits nothing it used",
               "all tests pass",
               (T("pytest", _PY_OK, 0), T("cp src/retry.py /tmp/retry.py.orig", "", 0)),
               "shown", "tests.passed"),
    TableProbe("t11: a stopped build that printed an error of its own failed",
               "The build passes",
               (T("make -j8", "cc -O2 -c src/parser.c -o build/parser.o\nsrc/parser.c:88:5: "
                  "error: 'tok' undeclared (first use in this function)", 130),),
               "contradicted", "build.failed"),
    TableProbe("t11: a claim naming the failing step's own program is about that step",
               "Published to npm: provenance statement published to transparency log",
               (T("npm publish --provenance", _NPM_E404, 1),), "contradicted", "deploy.failed"),
    TableProbe("t11: a project file written after the build still makes it stale",
               "the build succeeded",
               (T("./gradlew build", "BUILD SUCCESSFUL in 2m 3s", None),
                T('echo "version=2" >> gradle.properties', "", None)),
               "not shown", "build.stale"),
)
