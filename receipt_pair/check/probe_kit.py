"""What a probe of the quote check is: a log, a reply, the claim, and what the check must
give. The probes themselves are in probes.py (every check) and probes_fit.py (the rules of
check c3 that read past the cited line)."""

import json
from dataclasses import dataclass

from ..turn import Turn
from .render import Shown, render_turns


def reply(verdict, turn="T1", quote="", reason="probe"):
    return json.dumps({"verdict": verdict, "turn": turn, "quote": quote, "reason": reason})


PUSH_LOG = (
    Turn(cmd="git push origin main",
         output="To git.example.com:team/parser.git\n   4f1c2d9..8a7b6e5  main -> main"),
    Turn(cmd="git status --short --branch", output="## main...origin/main"),
)
GOOD_PUSH = reply("shown", "T1", "4f1c2d9..8a7b6e5  main -> main")
CLEAN = "Deployed to production OK"


def hiding(prefix_then_clean):
    return (Turn(cmd="./deploy.sh production", output=prefix_then_clean),)


@dataclass(frozen=True)
class Probe:
    name: str  # the rule probed, and which way
    turns: tuple
    reply: str
    answer: str  # what the check must give
    code: str
    claim: str = "the change is in place"

    def shown(self):
        """The turns as a classic reader shows them, with the claim and the turns read."""
        turns = list(self.turns)
        return Shown(render_turns(turns), self.claim, turns)
