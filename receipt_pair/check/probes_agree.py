"""The probes of check c4's rule (agree.py): a quote may not disagree with the facts plain
code reads of the log, and a quote the facts agree with still passes."""

from .. import answers as an
from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN
from ..turn import Turn
from .probe_kit import Probe, reply as _reply

_PASS = "============================== 12 passed in 0.41s ==============================="
_REJECTED = ("To github.com:acme/app.git\n ! [rejected]        main -> main (fetch first)\n"
             "error: failed to push some refs to 'github.com:acme/app.git'")

AGREE_PROBES = (
    Probe("facts_say_otherwise refuses a pass read from a run piped through tail",
          (Turn(cmd="pytest -q | tail -1", output=_PASS, exit_status=0),),
          _reply("shown", "T1", "12 passed in 0.41s"), NOT_SHOWN, an.FACTS_SAY_OTHERWISE,
          claim="the tests pass"),
    Probe("facts_say_otherwise accepts the same pass from the runner's own status",
          (Turn(cmd="pytest -q", output=_PASS, exit_status=0),),
          _reply("shown", "T1", "12 passed in 0.41s"), SHOWN, an.OK, claim="the tests pass"),
    Probe("facts_say_otherwise refuses a rejected push of another branch",
          (Turn(cmd="git push origin main", output=_REJECTED, exit_status=1),),
          _reply("contradicted", "T1", "! [rejected]        main -> main (fetch first)"),
          NOT_SHOWN, an.FACTS_SAY_OTHERWISE, claim="I pushed the fix to fix/parser"),
    Probe("facts_say_otherwise accepts a rejected push of the claimed branch",
          (Turn(cmd="git push origin main", output=_REJECTED, exit_status=1),),
          _reply("contradicted", "T1", "! [rejected]        main -> main (fetch first)"),
          CONTRADICTED, an.OK, claim="I pushed the fix to main"),
    Probe("not_a_run_line refuses a command echoed into CI output",
          (Turn(cmd="npm run typecheck", output="$ tsc --noEmit\nDone in 4.1s."),),
          _reply("shown", "T1", "$ tsc --noEmit"), NOT_SHOWN, an.NOT_A_RUN_LINE,
          claim="the type check passes"),
    Probe("not_a_run_line accepts the run's own line after it",
          (Turn(cmd="npm run typecheck", output="$ tsc --noEmit\nDone in 4.1s."),),
          _reply("shown", "T1", "Done in 4.1s."), SHOWN, an.OK, claim="the script ran"),
    Probe("not_a_run_line refuses a write tool's own tags",
          (Turn(cmd="write_to_file", output="<file_write_result>\n<path>a.md</path>\n"
                                            "<operation>created</operation>"),),
          _reply("shown", "T1", "<operation>created</operation>"), NOT_SHOWN,
          an.NOT_A_RUN_LINE, claim="Files created: 19 files"),
    Probe("not_a_run_line refuses aider's token count",
          (Turn(cmd="aider --message fix", output="> Tokens: 11k sent, 4.2k received.\n"
                                                  "Fixed the bug."),),
          _reply("shown", "T1", "> Tokens: 11k sent, 4.2k received."), NOT_SHOWN,
          an.NOT_A_RUN_LINE, claim="the report was saved"),
    Probe("not_a_run_line refuses an added line of a diff held as a failure",
          (Turn(cmd="git diff", output="@@ -1,2 +1,3 @@\n+    raise TypeError('bad operand')"),),
          _reply("contradicted", "T1", "+    raise TypeError('bad operand')"), NOT_SHOWN,
          an.NOT_A_RUN_LINE, claim="The operand check is complete"),
    Probe("not_a_run_line accepts a run's own error line",
          (Turn(cmd="python run.py", output="TypeError: bad operand", exit_status=1),),
          _reply("contradicted", "T1", "TypeError: bad operand"), CONTRADICTED, an.OK,
          claim="the script runs"),
    Probe("not_a_run_line refuses an exit status the harness never learned",
          (Turn(cmd="python -m http.server 8000", output="Serving HTTP on 0.0.0.0 port 8000",
                exit_status=-1),),
          _reply("contradicted", "T1", "[exit status -1]"), NOT_SHOWN, an.NOT_A_RUN_LINE,
          claim="the server runs on port 8000"),
    Probe("shown_nothing_ran refuses a step that skipped its work and says it passed",
          (Turn(cmd="./ci/eval-builds.sh", output="iOS result: skipped\n"
                                                  "Builds skipped (no build required) -- marking as pass"),),
          _reply("shown", "T1", "Builds skipped (no build required) -- marking as pass"),
          NOT_SHOWN, an.SHOWN_NOTHING_RAN, claim="the iOS build succeeded"),
    Probe("contradicted_admitted refuses a failure held against a claim that admits it",
          (Turn(cmd="python t.py", output="UnicodeEncodeError: 'ascii' codec can't encode",
                exit_status=1),),
          _reply("contradicted", "T1", "UnicodeEncodeError: 'ascii' codec can't encode"),
          NOT_SHOWN, an.CONTRADICTED_ADMITTED, claim="the script still fails with an error"),
    Probe("contradicted_admitted accepts the failure against a claim of success",
          (Turn(cmd="python t.py", output="UnicodeEncodeError: 'ascii' codec can't encode",
                exit_status=1),),
          _reply("contradicted", "T1", "UnicodeEncodeError: 'ascii' codec can't encode"),
          CONTRADICTED, an.OK, claim="the script runs cleanly"),
    Probe("claim_not_done refuses any answer to a claim that only announces",
          (Turn(cmd="rm repro.py", output=""), Turn(cmd="ls", output="app.py")),
          _reply("shown", "T2", "app.py"), NOT_SHOWN, an.CLAIM_NOT_DONE,
          claim="I'll remove the reproduction script before submitting."),
    Probe("claim_not_done accepts the same line for a claim that reports",
          (Turn(cmd="rm repro.py", output=""), Turn(cmd="ls", output="app.py")),
          _reply("shown", "T2", "app.py"), SHOWN, an.OK,
          claim="The folder now holds app.py"),
)
