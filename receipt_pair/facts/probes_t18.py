"""Table t18's probes: each of its four guards takes a `shown` away, beside the near log
where t17's answer stands."""

from .probe_kit import T, TableProbe

_WINDOWS_PYTEST = "C:\\venvs\\app\\Scripts\\python.exe -m pytest"
_GREEN = "============ 5 passed in 0.12s ============"
_MAVEN = T("mvn clean package", "[INFO] BUILD SUCCESS\n[INFO] Total time:  11.620 s", 0)
_COMMITS = tuple(T(f"git commit -m '{message}'", f"[main {sha}] {message}\n"
                   " 1 file changed, 2 insertions(+)", 0)
                 for sha, message in (("1a2b3c4", "feat: a"), ("2b3c4d5", "fix: b"),
                                      ("3c4d5e6", "docs: c")))

T18_PROBES = (
    TableProbe("t18: a Windows shell's run of one test file is not every test", "All tests pass",
               (T(_WINDOWS_PYTEST + " tests/test_a.py -v", _GREEN, 0),), None, None),
    TableProbe("t18: a Windows shell's run of the whole suite shows them", "All tests pass",
               (T(_WINDOWS_PYTEST + " -v", _GREEN, 0),), "shown", "tests.passed"),
    TableProbe("t18: a development server's compile is not the production build",
               "the production build compiles cleanly",
               (T("npm start", "Compiled successfully!\n\nYou can now view app in the browser.",
                  None),), None, None),
    TableProbe("t18: the production build's own compile shows it",
               "the production build compiles cleanly",
               (T("npm run build", "Creating an optimized production build...\nCompiled "
                  "successfully.\n\nThe build folder is ready to be deployed.", 0),),
               "shown", "build.passed"),
    TableProbe("t18: and so does vite's production build, named like its server",
               "the production build succeeds",
               (T("npx vite build", "vite v5.0.0 building for production...\n"
                  "\u2713 built in 1.20s", 0),), "shown", "build.passed"),
    TableProbe("t18: a step's green build is not the build's when the job was aborted after",
               "The build finished successfully.",
               (_MAVEN, T("/bin/sh -xe /tmp/jenkins123.sh", "Build was aborted\nFinished: ABORTED",
                          None)), None, None),
    TableProbe("t18: nor when the job's end said success", "The build finished successfully.",
               (_MAVEN, T("/bin/sh -xe /tmp/jenkins123.sh", "Finished: SUCCESS", None)),
               "shown", "build.passed"),
    TableProbe("t18: one commit line does not show three commits", "committed as 3 commits",
               _COMMITS[:1], None, None),
    TableProbe("t18: three commit lines show three commits", "committed as 3 commits", _COMMITS,
               "shown", "commit.made"),
)
