"""`doctor`: whether this machine is set up for the checks and the hooks, one check a line.

Each check says what it found and, when that is a problem, how to fix it. Nothing here
asks a model anything: the server is found by the client's own detection (GET requests
that change nothing), a model is loaded only where its server kind offers a load that
generates no text (servers.py: `manages_models` with a `load_path`), and elsewhere the
check says it was not done. The agents' settings files are read where their own docs put
them (agents.py). Nothing here prints; cli/doctor.py does.
"""

import glob
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from typing import Optional

from ..errors import ReceiptPairError
from ..readers import DEFAULT_READER, ENV_READER, get_reader, usable_readers
from ..server.client import ServerUnreachable
from ..server.servers import LLAMA_SERVER
from ..store.files import decode, loads_strict, read_bytes
from ..store.ledger import ENV_LEDGER, not_appendable
from .agents import AGENTS

MIN_PYTHON = (3, 9)
_PROGRAM_NAMES = ("receipt-pair", "receipt_pair")
_COMMAND_KEYS = ("command", "bash", "powershell")  # where a handler names its command


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, whether it is fine, what was found, and
    what to do when it is not."""

    name: str
    ok: Optional[bool]  # None: it could not be checked (what it needs failed its own check)
    said: str
    fix: Optional[str] = None

    def to_dict(self):
        return {"check": self.name, "ok": self.ok, "said": self.said, "fix": self.fix}


def run_doctor(settings, ledger=None, home=None, project=None, version=None):
    """Every check of the set-up, in order: Python, the server, both models, the reader,
    each agent's hook, the ledger. `settings`: a pair.Settings; `ledger`: the ledger given
    (None: none); `home`, `project`: where the agents' settings files are looked for."""
    checks = [check_python(version or sys.version_info)]
    server_check, client, server = check_server(settings)
    checks.append(server_check)
    checks += check_models(settings, client, server)
    checks.append(check_reader(settings.reader))
    checks += check_agents(home or os.path.expanduser("~"), project or os.getcwd())
    checks.append(check_ledger(ledger))
    return checks


def check_python(version):
    found = ".".join(str(part) for part in version[:3])
    if tuple(version[:2]) >= MIN_PYTHON:
        return Check("python", True, f"Python {found}")
    return Check("python", False, f"Python {found} is older than "
                 f"{'.'.join(map(str, MIN_PYTHON))}", "run receipt-pair with Python 3.9 or newer")


def check_server(settings):
    """(the Check, the client, the server's row) for the server `settings` name; the
    client and row are None when nothing answers."""
    where = settings.base_url
    fix = ("start one (Lemonade, or scripts/local-models start on Linux) or name yours with "
           "--base-url or $RECEIPT_PAIR_BASE_URL")
    try:
        client = settings.client()
        server = client.server()
    except ServerUnreachable as exc:  # its message says how to start one
        return Check("server", False, str(exc), exc.cli_hint or fix), None, None
    except ReceiptPairError as exc:
        return Check("server", False, f"the model server at {where}: {exc}",
                     exc.cli_hint or fix), None, None
    return Check("server", True, f"{server.title} answers at {where}"), client, server


def check_models(settings, client, server):
    """A Check for each of models A and B: listed by the server, and loaded where its kind
    can load a model without generating text; else what was not checked and why."""
    pairs = (("A", settings.model_a), ("B", settings.model_b))
    if client is None:
        return [Check(f"model {arm}", None, f"{model}: not checked, no server answers")
                for arm, model in pairs]
    try:
        listed = client.model_statuses()
    except ReceiptPairError as exc:
        listed, why = {}, str(exc)
    else:
        why = None
    checks = []
    for arm, model in pairs:
        checks.append(_check_model(arm, model, client, server, listed, why))
    return checks


def _check_model(arm, model, client, server, listed, list_error):
    name = f"model {arm}"
    option = f"--model-{arm.lower()} or $RECEIPT_PAIR_MODEL_{arm}"
    if server is LLAMA_SERVER:  # one model, whatever a request names
        return Check(name, True, f"{model}: llama-server serves the one model it was started "
                                 f"with ({', '.join(listed) or 'unnamed'}); the name is not "
                                 "checked")
    if listed and model not in listed:
        names = ", ".join(sorted(listed)[:8]) + (" ..." if len(listed) > 8 else "")
        return Check(name, False, f"{model} is not among the models the server lists ({names})",
                     f"name one of them with {option}, or download {model} to the server")
    said = "listed" if listed else ("the server lists no models" + (f" ({list_error})"
                                                                     if list_error else ""))
    if not (server.manages_models and server.load_path):
        return Check(name, True, f"{model}: {said}; loading not checked ({server.title} "
                                 "offers no load that generates no text)")
    if listed.get(model) == "loaded":
        return Check(name, True, f"{model}: listed and loaded")
    try:
        client.load(model)
    except ReceiptPairError as exc:
        return Check(name, False, f"{model}: {said}, but it does not load: {exc}",
                     f"download it to the server, or name another with {option}")
    return Check(name, True, f"{model}: {said}; it loads")


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


def check_agents(home, project):
    """A Check per agent: the documented settings files that run receipt-pair's hook where
    it stops, with what command, and what would stop that command from working."""
    return [_check_agent(agent, home, project) for agent in AGENTS.values()]


def _check_agent(agent, home, project):
    name = f"agent {agent.name}"
    found, problems = {}, []  # (file, command) -> its events; problems, once each
    for place in agent.settings_files:
        for path in _expand(place, home, project):
            shown = _shown(path, home)
            try:
                settings = loads_strict(decode(read_bytes(path), shown))
            except (ReceiptPairError, ValueError) as exc:
                problems.append(f"{shown} cannot be read: {exc}")
                continue
            if not isinstance(settings, dict):
                continue
            if agent.snippet_shape == "gemini" and \
                    (settings.get("tools") or {}).get("enableHooks") is False:
                problems.append(f"{shown} switches Gemini CLI's hooks off (set "
                                "tools.enableHooks to true)")
            for event, command in _hook_commands(settings):
                problem = _command_problem(agent, event, command)
                if problem and f"{shown}: {problem}" not in problems:
                    problems.append(f"{shown}: {problem}")
                elif not problem:
                    found.setdefault((shown, command), []).append(event)
    snippet = f"receipt-pair hook {agent.name} --install-snippet"
    if problems:
        return Check(name, False, "; ".join(problems), f"correct it by what {snippet} prints")
    if not found:
        return Check(name, True, f"no settings file of {agent.label} holds the hook (to hold "
                                 f"it: {snippet})")
    said = "; ".join(f"{shown} runs `{command}` at {' and '.join(events)}"
                     for (shown, command), events in found.items())
    if not agent.reads_session:
        said += (f" (receipt-pair cannot read {agent.label}'s session file yet: the hook lets "
                 "it stop with a notice)")
    return Check(name, True, said)


def _expand(place, home, project):
    """The files a documented place names: "~" is `home`, a relative path is under
    `project`, a "*" is a pattern."""
    if place.startswith("~/"):
        path = os.path.join(home, place[2:])
    elif os.path.isabs(place):
        path = place
    else:
        path = os.path.join(project, place)
    return sorted(glob.glob(path)) if "*" in place else \
        ([path] if os.path.isfile(path) else [])


def _shown(path, home):
    home = os.path.join(home, "")
    return "~/" + path[len(home):] if path.startswith(home) else path


def _hook_commands(settings):
    """(event, command) for every command under `hooks` that runs receipt-pair, in any of
    the documented shapes (a handler's command, bash or powershell, in groups or not)."""
    hooks = settings.get("hooks")
    for event, entries in hooks.items() if isinstance(hooks, dict) else ():
        for command in _strings(entries):
            if any(program in command for program in _PROGRAM_NAMES):
                yield event, command


def _strings(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _COMMAND_KEYS and isinstance(item, str):
                yield item
            else:
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _command_problem(agent, event, command):
    """Why `command`, found at `event` in the agent's settings, would not hold it, or None."""
    if event not in agent.events:
        return (f"runs receipt-pair at {event}, where {agent.label} does not stop (its stop "
                f"is {' or '.join(agent.events)})")
    try:
        words = shlex.split(command)
    except ValueError as exc:
        return f"its command `{command}` cannot be read: {exc}"
    env = {}
    while words and "=" in words[0] and not words[0].startswith(("/", "-")):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    if "hook" not in words:
        return f"`{command}` does not run `receipt-pair hook`"
    named = words[words.index("hook") + 1] if words.index("hook") + 1 < len(words) else ""
    if named != agent.name:
        return f"`{command}` runs the hook of {named or 'no agent'}, not of {agent.name}"
    program = words[0]
    if not (os.access(program, os.X_OK) if os.sep in program else shutil.which(program)):
        return f"its program {program} is not there"
    clone = env.get("PYTHONPATH")
    if clone and not os.path.isdir(os.path.join(clone, "receipt_pair")):
        return f"its PYTHONPATH {clone} holds no receipt_pair"
    if "--reader" in words[:-1]:
        try:
            get_reader(words[words.index("--reader") + 1])
        except ReceiptPairError as exc:
            return f"its reader cannot ask: {exc}"
    return None


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


def all_well(checks):
    """Whether no check found a problem (one that could not be checked is no problem of
    its own: what it needed has its line)."""
    return not any(check.ok is False for check in checks)
