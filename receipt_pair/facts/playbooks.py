"""Ansible's playbook runs, as Ansible's own recap says how they ended (table t16).

A run of `ansible-playbook` ends with its PLAY RECAP: one line per host, `web-01 : ok=9
changed=2 unreachable=0 failed=0 ...`. A host with `failed` or `unreachable` above 0 did
not get the play; every host at 0 got it. That is the run's own word, as a test runner's
count is. Whether the run was a check (`--check`, `-C`: nothing is changed) is read from its
command, in the turn's command or in the lines it printed before the recap (a CI stage
echoes it: `+ ansible-playbook site.yml --check --diff`); where no command is in sight, it
is not known.

Molecule prints recaps of its own steps (converge, idempotence): those are a test run's,
not a playbook run's, and are not read here.
"""

import re
from dataclasses import dataclass
from typing import Optional, Tuple

from ..patterns import lazy

_RECAP = lazy(r"^\s*PLAY RECAP\b")
_HOST = lazy(r"^\s*(?P<host>\S+)\s*:\s*ok=\d+\s+changed=\d+\s+unreachable=(?P<unreachable>\d+)"
             r"\s+failed=(?P<failed>\d+)\b")
_COMMAND = lazy(r"\bansible-playbook\b")
_CHECK = lazy(r"(?:^|\s)(?:--check|-C)(?=\s|$)")
_MOLECULE = lazy(r"\bmolecule\b", re.I)


@dataclass(frozen=True)
class PlaybookRun:
    """One playbook run's recap: the turn, its host lines (host, failed, unreachable, the
    line), whether it was a check (None: its command is not in the log), the turn's
    recorded exit status, and the command."""

    turn: int
    hosts: Tuple[Tuple[str, int, int, str], ...]
    check: Optional[bool]
    status: Optional[int]
    command: str

    @property
    def failing(self):
        """The recap lines of the hosts that failed or were unreachable."""
        return [line for _, failed, unreachable, line in self.hosts if failed or unreachable]


def playbook_runs(turns, lines_of):
    """The playbook runs of `turns` (each turn's last recap), oldest first. `lines_of(i)`
    gives turn i's screen lines."""
    runs = []
    for index, turn in enumerate(turns):
        lines = lines_of(index)
        heads = [n for n, line in enumerate(lines) if _RECAP.match(line)]
        if not heads or _MOLECULE.search(turn.cmd or "") or \
                any(_MOLECULE.search(line) for line in lines):
            continue
        hosts = []
        for line in lines[heads[-1] + 1:]:
            found = _HOST.match(line)
            if found:
                hosts.append((found.group("host"), int(found.group("failed")),
                              int(found.group("unreachable")), line))
            elif line.strip() or hosts:
                break
        if not hosts:
            continue
        said = [turn.cmd or ""] + list(lines[:heads[-1]])
        commands = [text for text in said if _COMMAND.search(text)]
        command = commands[-1] if commands else ""
        check = bool(_CHECK.search(command[_COMMAND.search(command).end():])) if command \
            else None
        runs.append(PlaybookRun(index, tuple(hosts), check, turn.exit_status, command.strip()))
    return runs
