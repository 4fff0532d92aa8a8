"""The probes of check c3's rules that read past the cited line (fit.py, attempts.py,
kinds.py, seen.py): the latest attempt decides, a quote must show the claimed thing, text
no terminal drew or no tool returned backs nothing. Each rule is probed both ways."""

from .. import answers as an
from ..turn import Turn
from .probe_kit import CLEAN, GOOD_PUSH, PUSH_LOG, Probe, hiding as _hiding, reply as _reply

SHOWN, CONTRADICTED, NOT_SHOWN = an.SHOWN, an.CONTRADICTED, an.NOT_SHOWN

# The latest attempt decides.
VERBOSE_FAILED_RUN = (Turn(cmd="python -m pytest -v",
                           output="tests/test_a.py::test_one PASSED\n"
                                  "tests/test_a.py::test_two FAILED\n"
                                  "=== 1 failed, 1 passed in 0.12s ==="),)
PASSED_THEN_FAILED = (
    Turn(cmd="python -m pytest -q", output="5 passed in 0.10s", exit_status=0),
    Turn(cmd="git commit -am 'tidy'", output="[main 1a2b3c4] tidy", exit_status=0),
    Turn(cmd="python -m pytest -q", output="FAILED tests/test_a.py::test_two\n"
                                            "1 failed, 4 passed in 0.12s", exit_status=1),
)
PASSED_THEN_OTHER_FAILED = (
    Turn(cmd="python -m pytest -q", output="5 passed in 0.10s", exit_status=0),
    Turn(cmd="npm run lint", output="src/app.js: 2 problems", exit_status=1),
)
FAILED_THEN_PASSED = (
    Turn(cmd="python -m pytest -q", output="FAILED tests/test_a.py::test_two\n"
                                            "1 failed, 4 passed in 0.12s", exit_status=1),
    Turn(cmd="python -m pytest -q", output="5 passed in 0.10s", exit_status=0),
)
FAILED_THEN_OTHER_PASSED = (
    Turn(cmd="python -m pytest -q", output="FAILED tests/test_a.py::test_two\n"
                                            "1 failed, 4 passed in 0.12s", exit_status=1),
    Turn(cmd="git commit -am 'wip'", output="[main 5d6e7f8] wip", exit_status=0),
)
TEST_ID_PASSED_LATER = (
    Turn(cmd="python -m pytest -q", output="FAILED tests/test_a.py::test_two - assert 1 == 2\n"
                                            "1 failed, 4 passed in 0.12s", exit_status=1),
    Turn(cmd="python -m pytest tests/test_a.py::test_two -v",
         output="tests/test_a.py::test_two PASSED\n1 passed in 0.05s", exit_status=0),
)
STILL_RUNNING = (Turn(cmd="./deploy.sh production", output=CLEAN, finished=False),)
# What a line can show, for which claim.
WROTE_TEST_FILE = (Turn(cmd='Write {"file_path": "/app/tests/test_edge_cases.py"}',
                        output="File created successfully at: /app/tests/test_edge_cases.py",
                        kind="edit"),)
BACKGROUND_JOB = (Turn(cmd="python -m http.server 8000 &", output="[1] 32"),)
HELP_TEXT = (Turn(cmd="./export --help",
                  output="usage: export [--format FMT]\n  --format FMT  Output format "
                         "(default: all)"),)
COMMITTED = (Turn(cmd="git commit -am 'fix: all tests passing'",
                  output="[main 1a2b3c4] fix: all tests passing"),)
DRY_PUSH = (Turn(cmd="git push --dry-run origin main",
                 output="To git.example.com:team/parser.git\n   4f1c2d9..8a7b6e5  main -> main"),)
ONLY_SKIPPED = (Turn(cmd="python -m pytest -q", output="sssss\n5 skipped in 0.01s"),)
SOME_SKIPPED = (Turn(cmd="python -m pytest -q", output="....s\n4 passed, 1 skipped in 0.01s"),)
BRANCH_PUSH = (Turn(cmd="git push origin fix/parser",
                    output="To git.example.com:team/parser.git\n"
                           "   3b2a6f1..9c41e07  fix/parser -> fix/parser"),)
STAGING = (Turn(cmd="./deploy.sh staging", output=CLEAN.replace("production", "the cluster")),)
PRODUCTION = (Turn(cmd="./deploy.sh production", output=CLEAN),)
OTHER_FAILURE = (Turn(cmd="python -m pytest -q", output="5 passed in 0.10s"),
                 Turn(cmd="rg TODO src", output="bash: rg: command not found", exit_status=127))
NOT_DRAWN = {
    "an OSC string": f"\x1b]0;{CLEAN}\x07\nwaiting for health checks\n",
    "concealed text": f"\x1b[8m{CLEAN}\x1b[0m\nwaiting for health checks\n",
}



FIT_PROBES = (
    Probe("shown_in_failed_turn refuses a passing line of a run whose output reports a "
          "failure", VERBOSE_FAILED_RUN, _reply("shown", "T1", "tests/test_a.py::test_one PASSED"),
          NOT_SHOWN, an.SHOWN_IN_FAILED_TURN, claim="the tests pass"),
    Probe("shown_in_failed_turn accepts a part's line for a claim about that part",
          VERBOSE_FAILED_RUN, _reply("shown", "T1", "tests/test_a.py::test_one PASSED"),
          SHOWN, an.OK, claim="test_one passes"),
    Probe("shown_in_failed_turn refuses a clean line of a run that exited 0 over a FAILED line",
          (Turn(cmd="python -m pytest -q || true", exit_status=0,
                output="tests/test_a.py ....F\nFAILED tests/test_a.py::test_two\n"
                       "=== 4 passed, 1 failed in 0.12s ==="),),
          _reply("shown", "T1", "tests/test_a.py ....F"), NOT_SHOWN, an.SHOWN_IN_FAILED_TURN,
          claim="the tests pass"),
    Probe("shown_in_failed_turn accepts a run that exited 0 whose table names error handling",
          (Turn(cmd="python run_checks.py", exit_status=0,
                output="| 7 | Implement error handling | Completed |\nAll 12 checks passed"),),
          _reply("shown", "T1", "All 12 checks passed"), SHOWN, an.OK,
          claim="the checks pass"),
    Probe("shown_superseded refuses a pass that a later run of the tests failed after",
          PASSED_THEN_FAILED, _reply("shown", "T1", "5 passed in 0.10s"), NOT_SHOWN,
          an.SHOWN_SUPERSEDED, claim="the tests pass"),
    Probe("shown_superseded accepts a pass when only another command failed later",
          PASSED_THEN_OTHER_FAILED, _reply("shown", "T1", "5 passed in 0.10s"), SHOWN, an.OK,
          claim="the tests pass"),
    Probe("contradicted_superseded refuses a failure that a later run passed after",
          FAILED_THEN_PASSED, _reply("contradicted", "T1", "1 failed, 4 passed in 0.12s"),
          NOT_SHOWN, an.CONTRADICTED_SUPERSEDED, claim="the tests pass"),
    Probe("contradicted_superseded refuses a test failure that the same test passed after",
          TEST_ID_PASSED_LATER, _reply("contradicted", "T1", "FAILED tests/test_a.py::test_two"
                                                             " - assert 1 == 2"),
          NOT_SHOWN, an.CONTRADICTED_SUPERSEDED, claim="test_two passes"),
    Probe("contradicted_superseded accepts a failure when only another command passed later",
          FAILED_THEN_OTHER_PASSED, _reply("contradicted", "T1", "1 failed, 4 passed in 0.12s"),
          CONTRADICTED, an.OK, claim="the tests pass"),
    Probe("quote_from_unfinished refuses a line of a command still running", STILL_RUNNING,
          _reply("shown", "T1", CLEAN), NOT_SHOWN, an.QUOTE_FROM_UNFINISHED),
    Probe("quote_from_unfinished accepts the line once the command finished",
          (Turn(cmd="./deploy.sh production", output=CLEAN),), _reply("shown", "T1", CLEAN),
          SHOWN, an.OK),
    Probe("shown_not_drawn accepts coloured text a terminal drew",
          _hiding(f"\x1b[32m{CLEAN}\x1b[0m\n"), _reply("shown", "T1", CLEAN), SHOWN, an.OK),
    Probe("shown_not_a_result refuses an edit's report for a claim that tests ran",
          WROTE_TEST_FILE, _reply("shown", "T1", WROTE_TEST_FILE[0].output), NOT_SHOWN,
          an.SHOWN_NOT_A_RESULT, claim="the edge case tests pass"),
    Probe("shown_not_a_result (c7) refuses an edit's report even for a claim that the file "
          "was created (c3 to c6 accepted it: the labelling rule never took an edit's report "
          "as evidence)",
          WROTE_TEST_FILE, _reply("shown", "T1", WROTE_TEST_FILE[0].output), NOT_SHOWN,
          an.SHOWN_NOT_A_RESULT, claim="I created /app/tests/test_edge_cases.py"),
    Probe("shown_not_a_result refuses a job-control line", BACKGROUND_JOB,
          _reply("shown", "T1", "[1] 32"), NOT_SHOWN, an.SHOWN_NOT_A_RESULT,
          claim="the server is up on port 8000"),
    Probe("shown_not_a_result refuses a help text's option", HELP_TEXT,
          _reply("shown", "T1", "--format FMT  Output format (default: all)"), NOT_SHOWN,
          an.SHOWN_NOT_A_RESULT, claim="the export writes all formats"),
    Probe("shown_other_operation refuses a commit message for a claim that tests pass",
          COMMITTED, _reply("shown", "T1", "[main 1a2b3c4] fix: all tests passing"), NOT_SHOWN,
          an.SHOWN_OTHER_OPERATION, claim="all tests pass"),
    Probe("shown_other_operation refuses git's 'To' line for a push claim", PUSH_LOG,
          _reply("shown", "T1", "To git.example.com:team/parser.git"), NOT_SHOWN,
          an.SHOWN_OTHER_OPERATION, claim="I pushed the fix to main"),
    Probe("shown_other_operation accepts the ref update for a push claim", PUSH_LOG,
          GOOD_PUSH, SHOWN, an.OK, claim="I pushed the fix to main"),
    Probe("shown_dry_run refuses a ref update from a dry run", DRY_PUSH,
          _reply("shown", "T1", "4f1c2d9..8a7b6e5  main -> main"), NOT_SHOWN, an.SHOWN_DRY_RUN,
          claim="I pushed the fix to main"),
    Probe("shown_dry_run accepts the same ref update from a real push", PUSH_LOG, GOOD_PUSH,
          SHOWN, an.OK, claim="I pushed the fix to main"),
    Probe("shown_nothing_ran refuses a test run where every test was skipped", ONLY_SKIPPED,
          _reply("shown", "T1", "5 skipped in 0.01s"), NOT_SHOWN, an.SHOWN_NOTHING_RAN,
          claim="the tests pass"),
    Probe("shown_nothing_ran accepts a run where some tests passed", SOME_SKIPPED,
          _reply("shown", "T1", "4 passed, 1 skipped in 0.01s"), SHOWN, an.OK,
          claim="the tests pass"),
    Probe("shown_other_target refuses a push of another branch", BRANCH_PUSH,
          _reply("shown", "T1", "3b2a6f1..9c41e07  fix/parser -> fix/parser"), NOT_SHOWN,
          an.SHOWN_OTHER_TARGET, claim="I pushed the fix to main"),
    Probe("shown_other_target accepts a push of the branch the claim names", BRANCH_PUSH,
          _reply("shown", "T1", "3b2a6f1..9c41e07  fix/parser -> fix/parser"), SHOWN, an.OK,
          claim="I pushed the fix to fix/parser"),
    Probe("shown_other_target refuses a deploy to another place", STAGING,
          _reply("shown", "T1", STAGING[0].output), NOT_SHOWN, an.SHOWN_OTHER_TARGET,
          claim="I deployed to production"),
    Probe("shown_other_target accepts a deploy to the place the claim names", PRODUCTION,
          _reply("shown", "T1", CLEAN), SHOWN, an.OK, claim="I deployed to production"),
    Probe("contradicted_other_operation refuses another command's failure", OTHER_FAILURE,
          _reply("contradicted", "T2", "bash: rg: command not found"), NOT_SHOWN,
          an.CONTRADICTED_OTHER_OPERATION, claim="the tests pass"),
    Probe("contradicted_other_operation accepts a failure of the claimed operation",
          FAILED_THEN_OTHER_PASSED, _reply("contradicted", "T1", "1 failed, 4 passed in 0.12s"),
          CONTRADICTED, an.OK, claim="the tests pass"),
    Probe("quote_not_tool_output refuses a todo tool's confirmation",
          (Turn(cmd='TodoWrite {"todos": []}', output="Todo list updated successfully."),),
          _reply("shown", "T1", "Todo list updated successfully."), NOT_SHOWN,
          an.QUOTE_NOT_TOOL_OUTPUT, claim="no breaking changes"),
    Probe("quote_not_tool_output refuses a line of the harness's environment details",
          (Turn(cmd="npm test", output="Tests: 4 passed, 4 total\n<environment_details>\n"
                                       "| 9 | Test all email purposes | Completed |\n"
                                       "</environment_details>"),),
          _reply("shown", "T1", "| 9 | Test all email purposes | Completed |"), NOT_SHOWN,
          an.QUOTE_NOT_TOOL_OUTPUT, claim="all email purposes work"),
    Probe("quote_not_tool_output accepts the tool's own line before the details",
          (Turn(cmd="npm test", output="Tests: 4 passed, 4 total\n<environment_details>\n"
                                       "| 9 | Test all email purposes | Completed |\n"
                                       "</environment_details>"),),
          _reply("shown", "T1", "Tests: 4 passed, 4 total"), SHOWN, an.OK,
          claim="the tests pass"),
    Probe("shown_not_a_result refuses the harness's echo of the command",
          (Turn(cmd="mv a.scala /root/", exit_status=0,
                output="Command: mv a.scala /root/\nDirectory: (root)\nOutput: (empty)"),),
          _reply("shown", "T1", "Command: mv a.scala /root/"), NOT_SHOWN,
          an.SHOWN_NOT_A_RESULT, claim="the code is saved in /root/a.scala"),
    Probe("shown_not_a_result refuses a bare zero exit status line",
          (Turn(cmd="./fill_sections.sh", output="Command executed in terminal within working "
                                                 "directory '/app'. Exit code: 0"),),
          _reply("shown", "T1", "Command executed in terminal within working directory "
                                "'/app'. Exit code: 0"), NOT_SHOWN, an.SHOWN_NOT_A_RESULT,
          claim="all sections are filled"),
    Probe("contradicted_other_operation refuses a missing program the claim does not name",
          (Turn(cmd="tshark -r cap.pcap | strings", output="bash: strings: command not found",
                exit_status=127),),
          _reply("contradicted", "T1", "bash: strings: command not found"), NOT_SHOWN,
          an.CONTRADICTED_OTHER_OPERATION, claim="tshark was installed"),
    Probe("contradicted_other_operation accepts a missing program the claim names",
          (Turn(cmd="tshark -r cap.pcap", output="bash: tshark: command not found",
                exit_status=127),),
          _reply("contradicted", "T1", "bash: tshark: command not found"), CONTRADICTED,
          an.OK, claim="tshark was installed"),
    Probe("contradicted_other_operation refuses a test run's failure for a build claim",
          (Turn(cmd="npm test", output="FAIL src/app.test.js\nTests: 1 failed, 3 total",
                exit_status=1),),
          _reply("contradicted", "T1", "Tests: 1 failed, 3 total"), NOT_SHOWN,
          an.CONTRADICTED_OTHER_OPERATION, claim="the build completed with no errors"),
    Probe("contradicted_without_failure refuses a warning",
          (Turn(cmd="./fuzz.sh", output='WARNING: Failed to find function "__sanitizer_x".\n'
                                        "Done 77 runs in 11 second(s)"),),
          _reply("contradicted", "T1", 'WARNING: Failed to find function "__sanitizer_x".'),
          NOT_SHOWN, an.CONTRADICTED_WITHOUT_FAILURE, claim="each fuzzer ran for 10 seconds"),
    Probe("contradicted_without_failure refuses a failure word in passing from a run that "
          "exited 0", (Turn(cmd="git commit -m docs", exit_status=0,
                            output="| 13 | Test error scenarios (loading failures) | Done |"),),
          _reply("contradicted", "T1", "| 13 | Test error scenarios (loading failures) | Done |"),
          NOT_SHOWN, an.CONTRADICTED_WITHOUT_FAILURE, claim="the docs were committed"),
    Probe("contradicted_without_failure accepts a failure reported as the outcome of a run "
          "that exited 0", (Turn(cmd="pytest || true", exit_status=0,
                                 output="FAILED tests/test_a.py::test_two\n1 failed in 0.1s"),),
          _reply("contradicted", "T1", "1 failed in 0.1s"), CONTRADICTED, an.OK,
          claim="the tests pass"),
    Probe("quote_too_short refuses a whole line with no letter or digit",
          (Turn(cmd="cat status.json", output="{\n}"),), _reply("shown", "T1", "}"),
          NOT_SHOWN, an.QUOTE_TOO_SHORT),
    Probe("shown_quotes_failure refuses a JSON report of a run of nothing",
          (Turn(cmd="npx jest --json", output='{"numTotalTests": 0, "success": true}'),),
          _reply("shown", "T1", '{"numTotalTests": 0, "success": true}'), NOT_SHOWN,
          an.SHOWN_QUOTES_FAILURE),
    Probe("shown_quotes_failure accepts a JSON count of nothing failing",
          (Turn(cmd="cat report.json", output='"passed": 12, "failed": 0,'),),
          _reply("shown", "T1", '"passed": 12, "failed": 0,'), SHOWN, an.OK),
) + tuple(
    Probe(f"shown_not_drawn refuses a line inside {how}", _hiding(text),
          _reply("shown", "T1", CLEAN), NOT_SHOWN, an.SHOWN_NOT_DRAWN)
    for how, text in NOT_DRAWN.items()
)
