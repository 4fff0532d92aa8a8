"""The gate: the pair's answer decides whether an action runs.

The action is an argument list run with no shell, so `;`, `&&`, `$HOME` and `*` are plain
characters to it. (On Windows, a `.cmd` or `.bat` program is run by cmd.exe, which does read
`&` and `%`: give such a program only arguments you trust.)
"""

import os
import shlex
import subprocess

from . import errors
from .reader import CONTRADICTED, NOT_SHOWN, SHOWN

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


def decide(answer):
    """(last line, exit status) for a pair answer that does not run the action."""
    if answer == SHOWN:
        raise ValueError("a shown answer runs the action")
    return LINES[answer]


def program_exists(program):
    """Whether `program` names something that could be started (for --dry-run's warning)."""
    if os.sep in program or (os.altsep and os.altsep in program):
        return os.path.exists(program)
    from shutil import which

    return which(program) is not None
