"""`doctor`: whether this machine is set up for the checks and the hooks, one check a line.

Each check does what the user's set-up will do and says what it found and, when that is a
problem, what to change: the server is found by the client's own detection, each model is
asked one question of a single token (doctor_server.py), every hook command found in the
agents' settings files (where their own docs put them, agents.py) is read by the command
line's own parser and its server and models asked the same way (doctor_agents.py). Nothing
here prints; cli/doctor.py does.
"""

import os
import sys

from ..errors import ReceiptPairError
from ..readers import DEFAULT_READER, ENV_READER, get_reader, usable_readers
from ..store.ledger import ENV_LEDGER, not_appendable
from .doctor_agents import Machine, check_agents
from .doctor_check import Check, all_well  # noqa: F401 (read from here too)
from .doctor_server import Servers, check_models, check_server

MIN_PYTHON = (3, 9)


def run_doctor(settings, ledger=None, home=None, project=None, version=None,
               read_command=None):
    """Every check of the set-up, in order: Python, the server, both models, the reader,
    each agent's hook, the ledger. `settings`: a pair.Settings; `ledger`: the ledger given
    (None: none); `home`, `project`: where the agents' settings files are looked for;
    `read_command`: how the command line reads a hook command's words after the program
    into a HookOptions (cli.hook.options_of_words), so that its options are checked as
    the hook will read them (None: they are not)."""
    servers = Servers()
    checks = [check_python(version or sys.version_info), check_server(settings, servers)]
    checks += check_models(settings, servers)
    checks.append(check_reader(settings.reader))
    checks += check_agents(Machine(home or os.path.expanduser("~"), project or os.getcwd(),
                                   servers, read_command))
    checks.append(check_ledger(ledger))
    return checks


def check_python(version):
    found = ".".join(str(part) for part in version[:3])
    if tuple(version[:2]) >= MIN_PYTHON:
        return Check("python", True, f"Python {found}")
    return Check("python", False, f"Python {found} is older than "
                 f"{'.'.join(map(str, MIN_PYTHON))}", "run receipt-pair with Python 3.9 or newer")


def check_reader(version):
    """The reader the commands would use: one that can ask (not unknown, not retired), and
    the current one (the latest sealed choice, readers.DEFAULT_READER)."""
    source = f" (from ${ENV_READER})" if version and version == os.environ.get(ENV_READER) \
        else ""
    version = version or DEFAULT_READER
    try:
        get_reader(version)
    except ReceiptPairError as exc:
        return Check("reader", False, f"{exc}{source}",
                     f"unset ${ENV_READER}, or set it to one of {', '.join(usable_readers())}")
    if version != DEFAULT_READER:
        # A reader a user chose is not a fault of the set-up: said, not held against it.
        return Check("reader", True, f"reader {version}{source}, which can ask (the default "
                                     f"is {DEFAULT_READER}; unset ${ENV_READER} or leave out "
                                     f"--reader to use it)")
    return Check("reader", True, f"reader {version}, the current one")


def check_ledger(path):
    """The ledger receipts go to (--ledger or $RECEIPT_PAIR_LEDGER): one a receipt can be
    appended to, or none."""
    if not path:
        return Check("ledger", True, f"no ledger (--ledger or ${ENV_LEDGER}): receipts are kept "
                                     "where each command saves them")
    problem = not_appendable(path)
    if problem:
        return Check("ledger", False, f"{path}: {problem}",
                     f"name a ledger file that can be written with --ledger or ${ENV_LEDGER}")
    return Check("ledger", True, f"{path}: receipts can be appended"
                                 + ("" if os.path.exists(path) else " (it will be created)"))


def report(checks):
    """The report as JSON-ready data: whether all is well, and each check."""
    return {"ok": all_well(checks), "checks": [check.to_dict() for check in checks]}
