"""Decision table t17: table t16 without a hole an attacker's reading of it found after run
17 was sealed. t16 read a playbook run from any turn that printed Ansible's PLAY RECAP, with
the run's command in the turn's command line or echoed before the recap: a turn that only
printed such text (`cat old-run.log` of another day's run, an `echo`) was read as the run,
and a claim that the playbook ran got a receipt. t17 reads a playbook run only from a turn
whose own command runs `ansible-playbook` (through `sudo`, `env`, a wrapper the shell reading
looks through), so the recap is that run's. It only takes answers away.
"""

from . import decide_t16, shell

VERSION = "t17"


def decide(claim, turns, log, frame):
    """The Decision table t17 gives for `claim` (with plain quotes; `frame`: t16's frame of
    it), or None. `log` is t15's reading of the turns, which t16 and t17 read too."""
    decision = decide_t16.decide(claim, turns, log, frame)
    if decision is None or not decision.rule.startswith("playbook."):
        return decision
    return decision if _runs_a_playbook(log.commands[decision.turn]) else None


def _runs_a_playbook(command):
    """True if the command itself runs ansible-playbook, not only echoes or shows text."""
    line = shell.parse(command or "")
    return not line.echoes_only and any(
        (step.program.split() or [""])[0].rsplit("/", 1)[-1] == "ansible-playbook"
        for step in line.runs)
