"""Table t16's probes: where it reads more than t15 or is more careful (decide_t16.py),
each beside a near log where t15's answer stands."""

from .probe_kit import T, TableProbe

_BUILD = T("swift build", "Building for debugging...\nBuild complete! (3.10s)", 0)
_SUREFIRE = ("[INFO]  T E S T S\n[INFO] Results:\n[INFO] Tests run: 11, Failures: 0, Errors: 0, "
             "Skipped: 0\n")
_FORK = ("There was an error in the forked process\norg.apache.maven.surefire.booter."
         "SurefireBooterForkException: There was an error in the forked process\n")
_MAVEN_END = "[INFO] BUILD SUCCESS\n"

T16_PROBES = (
    TableProbe("t16: a claim quoting a test command claims the tests too",
               "`swift build` and `swift test` complete successfully.",
               (_BUILD, T("swift test", "Executed 709 tests, with 3 failures (0 unexpected) in "
                          "113.212 (113.252) seconds", 1)), "contradicted", "tests.failed"),
    TableProbe("t16: and both green show it",
               "`swift build` and `swift test` complete successfully.",
               (_BUILD, T("swift test", "Executed 709 tests, with 0 failures (0 unexpected) in "
                          "113.212 (113.252) seconds", 0)), "shown", "tests.passed"),
    TableProbe("t16: a six-digit sha the commit does not begin with is not the commit",
               "**Committed:** `e85ecc`",
               (T("git commit -m fix", "[stage e85cccc] fix: tab reactivity\n 2 files changed",
                  0),), None, None),
    TableProbe("t16: the commit that begins with it is",
               "**Committed:** `e85ecc`",
               (T("git commit -m fix", "[stage e85ecc1] fix: tab reactivity\n 2 files changed",
                  0),), "shown", "commit.made"),
    TableProbe("t16: checks the facts do not read are not shown by a commit",
               "with all quality checks passing and changes committed",
               (T("git commit -m setup", "[main fd41f22] feat: setup\n 1 file changed", 0),),
               None, None),
    TableProbe("t16: the commit alone is",
               "changes committed",
               (T("git commit -m setup", "[main fd41f22] feat: setup\n 1 file changed", 0),),
               "shown", "commit.made"),
    TableProbe("t16: a forked test process that failed leaves the green count short",
               "the tests pass",
               (T("mvn -f pom.xml package", _SUREFIRE + _FORK + _MAVEN_END, 0),), None, None),
    TableProbe("t16: a green Surefire run with no such error shows it",
               "the tests pass",
               (T("mvn -f pom.xml package", _SUREFIRE + _MAVEN_END, 0),), "shown",
               "tests.passed"),
)
