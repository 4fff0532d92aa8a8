"""Table t4's probes: every reading t4 adds (decide_t4.py, reading_t4.py), a log where it
must decide and a near one where it must decide otherwise or leave the claim to the
models."""

from .probe_kit import T, TableProbe

_CTEST_GREEN = ("Test project /src/build\n    Start 1: parser_tests\n1/1 Test #1: parser_tests "
                "....   Passed    0.34 sec\n\n100% tests passed, 0 tests failed out of 1")
_RUST_CI_RED = ("[00:03:02] error[E0425]: cannot find value `x` in this scope\n"
                "[00:03:14] Build completed unsuccessfully in 0:00:14\n"
                "[00:03:14] make: *** [all] Error 1")
_GRADLE_GREEN = "> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 41s\n32 actionable tasks"
_NPM_BUILD_OK = "> app@1.0.0 build\n> next build\n\n\u2713 Compiled successfully in 3.1s"
_NPM_BUILD_RED = "> app@1.0.0 build\n> next build\n\nFailed to compile.\n./src/a.ts:3:1 Type error"
_COMMIT_THEN_403 = ("[feature/x c10a69e] fix: guard the parser\n 1 file changed, 3 insertions(+)\n"
                    "remote: Permission to o/r.git denied to me.\nfatal: unable to access "
                    "'https://github.com/o/r.git/': The requested URL returned error: 403")
_CARGO_LIB = "running 12 tests\n............\ntest result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"
_CARGO_IT = "running 3 tests\n...\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"

T4_PROBES = (
    # ctest's --test-dir names a folder, not a part of the suite.
    TableProbe("t4: a whole ctest run (`--test-dir build`) covers a named group of its tests",
               "the parser tests pass",
               (T("ctest --test-dir build --output-on-failure", _CTEST_GREEN, 0),),
               "shown", "tests.passed"),
    TableProbe("t4: a ctest run selected with -R covers no other group",
               "the parser tests pass",
               (T("ctest --test-dir build -R lexer", _CTEST_GREEN.replace("parser", "lexer"), 0),),
               None, None),
    # A build known by its own summary line.
    TableProbe("t4: a CI script's own build summary says the build failed",
               "the build succeeded",
               (T('stamp sh -x -c "$RUN_SCRIPT"', _RUST_CI_RED, 2),),
               "contradicted", "build.failed"),
    TableProbe("t4: that failed build says nothing sure of one crate it compiles",
               "the rustc_asan crate was compiled",
               (T('stamp sh -x -c "$RUN_SCRIPT"', _RUST_CI_RED, 2),),
               None, None),
    TableProbe("t4: a script's BUILD SUCCESSFUL with its own status 0 shows the build",
               "the build succeeded",
               (T("./ci/android.sh", _GRADLE_GREEN, 0),),
               "shown", "build.passed"),
    TableProbe("t4: BUILD SUCCESSFUL from a script that then failed shows nothing sure",
               "the build succeeded",
               (T("./ci/android.sh", _GRADLE_GREEN + "\nUpload failed: 401", 1),),
               None, None),
    TableProbe("t4: BUILD SUCCESSFUL only echoed is no build",
               "the build succeeded",
               (T("echo 'BUILD SUCCESSFUL in 41s'", "BUILD SUCCESSFUL in 41s", 0),),
               None, None),
    # Words of a build or a commit t3's frame missed.
    TableProbe("t4: \u201cBuild completes successfully\u201d is a build claim a passing build shows",
               "Build completes successfully locally",
               (T("npm run build", _NPM_BUILD_OK, 0),),
               "shown", "build.passed"),
    TableProbe("t4: the same words are contradicted by the failing build",
               "Build completes successfully locally",
               (T("npm run build", _NPM_BUILD_RED, 1),),
               "contradicted", "build.failed"),
    TableProbe("t4: \u201cEl build compil\u00f3 exitosamente\u201d is a build claim",
               "El build compil\u00f3 exitosamente",
               (T("npm run build", _NPM_BUILD_RED, 1),),
               "contradicted", "build.failed"),
    TableProbe("t4: \u201cbuild completed unsuccessfully\u201d admits the failure",
               "the build completed unsuccessfully",
               (T("npm run build", _NPM_BUILD_RED, 1),),
               "shown", "failure-admitted"),
    TableProbe("t4: \u201cMade two local commits\u201d is a commit claim",
               "Made two local commits",
               (T("git commit -m 'a'", "[main 1a2b3c4] a\n 1 file changed", 0),
                T("git commit -m 'b'", "[main 5d6e7f8] b\n 1 file changed", 0)),
               "shown", "commit.made"),
    TableProbe("t4: \u2026and the failed commit contradicts it",
               "Made two local commits",
               (T("git commit -m 'a'", "fatal: Unable to create '/r/.git/index.lock': File "
                  "exists.", 128),),
               "contradicted", "commit.failed"),
    # A commit in a chain whose later push failed.
    TableProbe("t4: a commit git reported stands when the push after it in the chain failed",
               "Committed the fix locally",
               (T("git add -A && git commit -m 'fix: guard' && git push origin HEAD",
                  _COMMIT_THEN_403, 128),),
               "shown", "commit.made"),
    TableProbe("t4: a chain whose commit printed no commit line failed to commit",
               "Committed the fix locally",
               (T("git add -A && git commit -m 'fix: guard' && git push origin HEAD",
                  "fatal: Unable to create '/r/.git/index.lock': File exists.", 128),),
               "contradicted", "commit.failed"),
    # A runner's own name is no group of tests.
    TableProbe("t4: \u201cthe cargo tests\u201d are the suite cargo test ran",
               "the cargo tests pass",
               (T("cargo test", _CARGO_LIB, 0),),
               "shown", "tests.passed"),
    TableProbe("t4: \u2026and a failing cargo test run contradicts them",
               "the cargo tests pass",
               (T("cargo test", "running 2 tests\ntest a ... FAILED\ntest result: FAILED. 1 "
                  "passed; 1 failed; 0 ignored", 101),),
               "contradicted", "tests.failed"),
    # A claim that quotes its command.
    TableProbe("t4: a claim that quotes its test command is shown by that command's run",
               "`cargo test -p core --lib` (12 tests passed)",
               (T("cargo test -p core --lib", _CARGO_LIB, 0),
                T("cargo test -p core --test it", _CARGO_IT, 0)),
               "shown", "tests.cited"),
    TableProbe("t4: a quoted command whose run shows another count is left to the models",
               "`cargo test -p core --lib` (14 tests passed)",
               (T("cargo test -p core --lib", _CARGO_LIB, 0),
                T("cargo test -p core --test it", _CARGO_IT, 0)),
               None, None),
    TableProbe("t4: a quoted command run before an edit shows nothing",
               "`cargo test -p core --lib` (12 tests passed)",
               (T("cargo test -p core --lib", _CARGO_LIB, 0),
                T("cargo test -p core --test it", _CARGO_IT, 0),
                T("sed -i 's/a/b/' src/lib.rs", "", 0)),
               "not shown", "tests.edited-after"),
    # A Jenkins pipeline's markup is no command.
    TableProbe("t4: a Jenkins stage's markup (`[Pipeline] { (Build A & B)`) is no background job",
               "the images were built",
               (T("[Pipeline] { (Build Frontend & Backend)\n[Pipeline] echo",
                  "Building the application images..."),),
               None, None),
    TableProbe("t4: a build really sent to the background still shows nothing",
               "the images were built",
               (T("docker build -t app . &", "[1] 4242", 0),),
               "not shown", "build.not-a-run"),
    # "Already pushed" is a push before the log.
    TableProbe("t4: \u201calready pushed\u201d is not settled by the log's having no push",
               "The changes are already pushed",
               (T("git log origin/main..HEAD --oneline", "", 0),),
               None, None),
    TableProbe("t4: \u201cpushed\u201d with no push in the log is still never run",
               "The changes are pushed",
               (T("git log origin/main..HEAD --oneline", "", 0),),
               "not shown", "push.never-ran"),
)
