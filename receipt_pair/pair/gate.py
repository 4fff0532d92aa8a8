"""The gate: the pair's answer decides whether an action runs.

`decide` is the policy, a pure table; `run_action` starts the program. The action is an
argument list run with no shell, so `;`, `&&`, `$HOME` and `*` are plain characters to it.
(On Windows, a `.cmd` or `.bat` program is run by cmd.exe, which does read `&` and `%`:
give such a program only arguments you trust.)
"""

import shlex
import subprocess
from dataclasses import dataclass

from .. import errors
from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN

GATE_RULES = ("r2", "r3")
COULD_NOT_CHECK = "could not check: no receipt, no action"
LINES = {
    NOT_SHOWN: ("not shown: no receipt, no action", errors.EXIT_NOT_SHOWN),
    CONTRADICTED: ("contradicted: the log shows it failed", errors.EXIT_CONTRADICTED),
}


def shown_line(argv):
    # Only the program's name: the arguments can hold tokens and passwords.
    return f"shown: the log shows it worked, so the command runs: {argv[0]}"


def dry_run_line(argv):
    return f"shown: the log shows it worked; dry run, so nothing runs: {shlex.join(argv)}"


@dataclass(frozen=True)
class Decision:
    """What the pair's answer means for the action: whether it runs, the line, the status."""

    runs: bool
    line: str  # the last line printed before the action runs, or instead of it
    status: int  # the exit status when the action does not run
    why: str = ""  # a line printed before `line` when the witness overrode the models


def decide(answer, could_check, action, dry_run=False, witness_problem=None):
    """The gate's policy: a pair answer (and whether both models could be asked) becomes a
    Decision. It fails closed: only `shown` from two models that both answered runs, and
    never when the witness run itself failed or fell short of its pinned tests
    (`witness_problem` says how), whatever the models said.
    """
    if not could_check:
        return Decision(False, COULD_NOT_CHECK, errors.EXIT_NO_RECEIPT)
    if answer == SHOWN and witness_problem:
        line, status = LINES[NOT_SHOWN]
        return Decision(False, line, status, why=f"the witness run {witness_problem}, so the "
                                                 "claim about it cannot be shown")
    if answer != SHOWN:
        line, status = LINES[answer]
        return Decision(False, line, status)
    if dry_run:
        return Decision(False, dry_run_line(action), errors.EXIT_OK)
    return Decision(True, shown_line(action), errors.EXIT_OK)


def run_action(argv, env=None):
    """Run `argv` with no shell; return (exit status, error message or None).

    127 when the program cannot be found, 126 when it is found but cannot be started, a
    signal's death as 128 + the signal number, else the command's own status.
    """
    try:
        completed = subprocess.run(argv, env=env)
    except FileNotFoundError:
        return errors.EXIT_NOT_FOUND, f"cannot run {argv[0]}: no such program"
    except PermissionError:
        return errors.EXIT_CANNOT_EXECUTE, f"cannot run {argv[0]}: permission denied"
    except OSError as exc:
        return errors.EXIT_CANNOT_EXECUTE, f"cannot run {argv[0]}: {exc.strerror or exc}"
    status = completed.returncode
    return (128 - status if status < 0 else status), None
