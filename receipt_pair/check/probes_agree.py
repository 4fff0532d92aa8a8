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
)
