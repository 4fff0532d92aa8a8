"""Table t16's probes: where it reads more than t15 or is more careful (decide_t16.py),
each beside a near log where t15's answer stands."""

from .probe_kit import T, TableProbe

_BUILD = T("swift build", "Building for debugging...\nBuild complete! (3.10s)", 0)
_SUREFIRE = ("[INFO]  T E S T S\n[INFO] Results:\n[INFO] Tests run: 11, Failures: 0, Errors: 0, "
             "Skipped: 0\n")
_FORK = ("There was an error in the forked process\norg.apache.maven.surefire.booter."
         "SurefireBooterForkException: There was an error in the forked process\n")
_MAVEN_END = "[INFO] BUILD SUCCESS\n"
_PLAY = "PLAY [web] *****\n\nTASK [nginx : install] *****\nok: [web-01]\nok: [web-02]\n\n"
_GREEN = (_PLAY + "PLAY RECAP *****\nweb-01 : ok=9 changed=2 unreachable=0 failed=0 skipped=1\n"
          "web-02 : ok=9 changed=2 unreachable=0 failed=0 skipped=1\n")
_RED = (_PLAY + "PLAY RECAP *****\nweb-01 : ok=9 changed=2 unreachable=0 failed=0 skipped=1\n"
        "web-02 : ok=4 changed=1 unreachable=0 failed=1 skipped=0\n")

T16_PROBES = (
    TableProbe("t16: a claim quoting a test command claims the tests too: a red run vetoes "
               "the build's shown", "`swift build` and `swift test` complete successfully.",
               (_BUILD, T("swift test", "Executed 709 tests, with 3 failures (0 unexpected) in "
                          "113.212 (113.252) seconds", 1)), None, None),
    TableProbe("t16: and both green show it",
               "`swift build` and `swift test` complete successfully.",
               (_BUILD, T("swift test", "Executed 709 tests, with 0 failures (0 unexpected) in "
                          "113.212 (113.252) seconds", 0)), "shown", "build.passed"),
    TableProbe("t16: a quoted command only vetoes: a Makefile's new target is no claimed run",
               "Committed the Makefile with a new `make test` target.",
               (T("make test", "FAIL: TestParse (0.00s)\nFAIL\tgithub.com/x/y\t0.01s", 2),
                T("git commit -am 'make test target'", "[main 4f1c2d9] make test target\n"
                  " 1 file changed", 0)), None, None),
    TableProbe("t16: a push claim's sha must be in the push's lines",
               "Pushed `9c41e0` to main.",
               (T("git push origin main", "To github.com:o/r.git\n   3b2a6f1..77aa2b1  main -> "
                  "main", 0),), None, None),
    TableProbe("t16: it is there",
               "Pushed `77aa2b` to main.",
               (T("git push origin main", "To github.com:o/r.git\n   3b2a6f1..77aa2b1  main -> "
                  "main", 0),), "shown", "push.updated"),
    TableProbe("t16: an amended commit's sha is gone",
               "**Committed:** `e85ecc`",
               (T("git commit -m fix", "[stage e85ecc1] fix: tab reactivity\n 2 files changed",
                  0), T("git commit --amend --no-edit", "[stage 77aa2b1] fix: tab reactivity\n"
                        " 3 files changed", 0)), None, None),
    TableProbe("t16: CI said to be green is not a commit's to show",
               "Committed the fix with CI passing",
               (T("git commit -m fix", "[main fd41f22] fix\n 1 file changed", 0),), None, None),
    TableProbe("t16: a test host that crashed leaves .NET's green count short",
               "All tests pass",
               (T("dotnet test", "The active test run was aborted. Reason: Test host process "
                  "crashed\nPassed!  - Failed:     0, Passed:   412, Skipped:     0, Total:   "
                  "412", 0),), None, None),
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
    TableProbe("t16: a playbook run whose recap has every host at 0 shows the run",
               "the playbook ran with no failed tasks",
               (T("ansible-playbook -i inventory/prod.yml site.yml", _GREEN, 0),), "shown",
               "playbook.passed"),
    TableProbe("t16: a check run does not show that the playbook ran",
               "the playbook ran with no failed tasks",
               (T("ansible-playbook -i inventory/prod.yml site.yml --check --diff", _GREEN, 0),),
               None, None),
    TableProbe("t16: it shows a claim of a check run",
               "the playbook check run had no failed tasks",
               (T("ansible-playbook -i inventory/prod.yml site.yml --check --diff", _GREEN, 0),),
               "shown", "playbook.passed"),
    TableProbe("t16: a host that failed contradicts the run",
               "the playbook ran with no failed tasks",
               (T("ansible-playbook -i inventory/prod.yml site.yml", _RED, 2),), "contradicted",
               "playbook.failed"),
    TableProbe("t16: a claim naming its hosts is not the run's alone",
               "the playbook ran with no failed tasks on web-01",
               (T("ansible-playbook -i inventory/prod.yml site.yml", _GREEN, 0),), None, None),
    TableProbe("t16: a run whose command is not in sight may have been a check",
               "the ansible-playbook run finished successfully",
               (T("stage: Run playbook", _GREEN),), None, None),
    TableProbe("t16: molecule's recaps are a test run's, not a playbook run's",
               "the playbook ran with no failed tasks",
               (T("molecule test", "INFO     Running default > converge\n" + _GREEN, 0),),
               None, None),
)
