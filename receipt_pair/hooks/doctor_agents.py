"""`doctor`'s line per agent: the documented settings files that run receipt-pair's hook
where it stops, with what command, and everything that would keep that hook from checking
the agent's claims: a file that is not the agent's JSON object, hooks switched off
(Claude Code's `disableAllHooks`, Gemini CLI's `hooksConfig.enabled`, Codex's
`[features] hooks`), a handler's timeout shorter than the hook's own budget (Gemini CLI's
is in milliseconds), a command that is not there or whose options the command line refuses
(read by the same parser, `read_command`), a server or a model the command names that does
not answer, and an agent whose session receipt-pair cannot read (NOT CHECKED). Nothing here
prints.
"""

import os
import shlex
import shutil
from dataclasses import dataclass
from typing import Callable, Optional

from ..errors import ReceiptPairError
from ..readers import get_reader
from ..server.transport import check_base_url
from .agents import AGENTS
from .doctor_check import Check
from .options import DEFAULT_BUDGET
from .settings_files import (command_of, expand, handlers, read_json_settings, read_text,
                             runs_receipt_pair, shown, toml_tables)
from .text_settings import kimi_handlers, plugin_handlers


@dataclass(frozen=True)
class Machine:
    """Where doctor looks and what it asks with: the home and project folders, the
    servers it already asked (doctor_server.Servers), and `read_command`, the command
    line's own reading of a hook command's words after the program (a HookOptions, or a
    ReceiptPairError saying what is wrong; None: options are not read)."""

    home: str
    project: str
    servers: object
    read_command: Optional[Callable] = None


def check_agents(machine):
    """A Check per agent (hooks.agents.AGENTS)."""
    return [check_agent(agent, machine) for agent in AGENTS.values()]


def check_agent(agent, machine):
    name = f"agent {agent.name}"
    found, problems, warnings, switched = {}, [], [], []
    for place in agent.settings_files:
        for path in expand(place, machine.home, machine.project):
            where = shown(path, machine.home)
            try:
                settings, pairs, shape = _read(agent, path, where)
            except ReceiptPairError as exc:
                problems.append(str(exc))
                continue
            switched += _switch(agent, settings, where, problems, warnings)
            problems += [f"{where}: {problem}" for problem in shape]
            for event, handler in pairs:
                command = command_of(handler)
                if not runs_receipt_pair(command) or _anothers(agent, command, place):
                    continue
                problem = _command_problem(agent, event, command, machine) or \
                    _timeout_problem(agent, handler, command, machine)
                if problem:
                    _add(problems, f"{where}: {problem}")
                else:
                    found.setdefault((where, command), []).append(event)
    problems += _switched_off(agent, switched)
    if agent.switch == "codex":
        _codex_config(agent, machine, problems, warnings)
    return _verdict(agent, name, found, problems, warnings)


def _read(agent, path, where):
    """(the settings object, [(event, handler)], shape problems) of a settings file: an
    agent's JSON, Kimi Code CLI's config.toml or OpenCode's plugin."""
    if agent.snippet_shape == "kimi":
        return {}, kimi_handlers(toml_tables(read_text(path, where))), []
    if agent.snippet_shape == "opencode":
        return {}, plugin_handlers(read_text(path, where)), []
    settings = read_json_settings(path, where)
    return (settings,) + handlers(settings)


def _verdict(agent, name, found, problems, warnings):
    install = f"receipt-pair install {agent.name}"
    if problems:
        return Check(name, False, "; ".join(problems + warnings),
                     f"correct what is said; {install} writes the hook as it should be")
    if not found:
        return Check(name, True, f"no settings file of {agent.label} holds the hook (to hold "
                                 f"it: {install})" + "".join(f"; {w}" for w in warnings))
    said = "; ".join(f"{where} runs `{command}` at {' and '.join(events)}"
                     for (where, command), events in found.items())
    said += "".join(f"; {warning}" for warning in warnings)
    why = agent.why_unchecked
    if why:
        return Check(name, False, f"{said}; but {why}: the hook lets {agent.label} stop "
                                  "with a notice and checks no claim", "nothing in the "
                     "settings will change that; receipt-pair uninstall "
                     f"{agent.name} takes the hook out", unchecked=True)
    return Check(name, True, said)


def _add(problems, problem):
    if problem not in problems:
        problems.append(problem)


def _anothers(agent, command, place):
    """Whether `command` runs another agent's hook from a place that agent documents too
    (a file two agents read), which is that agent's line, not this one's."""
    named = _named(command)
    other = AGENTS.get(named)
    return other is not None and other is not agent and place in other.settings_files


def _named(command):
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[words.index("hook") + 1] if "hook" in words[:-1] else None


# -- the switches that turn every hook off ------------------------------------------------

def _switch(agent, settings, where, problems, warnings):
    """[(where, the key, hooks on)] for each setting of `settings` that switches the
    agent's hooks on or off (the files are read in the order they take precedence, the
    last one winning); shape problems and warnings are added to theirs."""
    if agent.switch == "claude" and "disableAllHooks" in settings:
        value = settings["disableAllHooks"]
        if isinstance(value, bool):
            return [(where, "disableAllHooks", not value)]
        problems.append(f"{where}: 'disableAllHooks' must be true or false")
    if agent.switch == "gemini":
        return _gemini_switch(settings, where, problems, warnings)
    return []


def _gemini_switch(settings, where, problems, warnings):
    config, tools = settings.get("hooksConfig"), settings.get("tools")
    for key, value in (("hooksConfig", config), ("tools", tools)):
        if value is not None and not isinstance(value, dict):
            problems.append(f"{where}: '{key}' must be an object")
    config = config if isinstance(config, dict) else {}
    tools = tools if isinstance(tools, dict) else {}
    if "enableHooks" in tools and "enabled" not in config:
        warnings.append(f"warning: {where} sets tools.enableHooks, which Gemini CLI no "
                        "longer reads: hooks are on unless hooksConfig.enabled is false")
    if "enabled" in config:
        if isinstance(config["enabled"], bool):
            return [(where, "hooksConfig.enabled", config["enabled"])]
        problems.append(f"{where}: 'hooksConfig.enabled' must be true or false")
    return []


def _switched_off(agent, switched):
    """The problem when the setting that takes precedence (the last file to set it)
    switches the agent's hooks off."""
    if not switched or switched[-1][2]:
        return []
    where, key, _ = switched[-1]
    value = "true" if key == "disableAllHooks" else "false"
    return [f"{where} sets {key}: {value}, so {agent.label} runs no hook at all (remove it "
            "to let hooks run)"]


def _codex_config(agent, machine, problems, warnings):
    """Codex's config.toml, only read: its [features] hooks switch, and hooks kept there
    (Codex loads them beside hooks.json; install and doctor read hooks.json only)."""
    for place in agent.settings_files:
        toml = os.path.join(os.path.dirname(place), "config.toml")
        for path in expand(toml, machine.home, machine.project):
            where = shown(path, machine.home)
            try:
                tables = toml_tables(read_text(path, where))
            except ReceiptPairError as exc:
                warnings.append(f"warning: {exc}")
                continue
            for header, _, keys in tables:
                if header == "features":
                    for key in ("hooks", "codex_hooks"):
                        if keys.get(key) is False:
                            problems.append(f"{where} sets [features] {key} = false, so "
                                            "Codex runs no hook (remove it)")
                    if "codex_hooks" in keys:
                        warnings.append(f"warning: {where} uses [features] codex_hooks, "
                                        "the old name of [features] hooks")
                elif header.startswith("hooks") and not header.startswith("hooks.state"):
                    _add(warnings, f"warning: {where} keeps hooks in [{header}] too (Codex "
                                   "runs them beside hooks.json's; doctor reads only "
                                   "hooks.json)")


# -- the command and its handler ------------------------------------------------------------

def _command_problem(agent, event, command, machine):
    """Why `command`, found at `event` in the agent's settings, would not check its
    claims, or None."""
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
    at = words.index("hook")
    named = words[at + 1] if at + 1 < len(words) else ""
    if named != agent.name:
        return f"`{command}` runs the hook of {named or 'no agent'}, not of {agent.name}"
    program = words[0]
    if not (os.access(program, os.X_OK) if os.sep in program else shutil.which(program)):
        return f"its program {program} is not there"
    clone = env.get("PYTHONPATH")
    if clone and not os.path.isdir(os.path.join(clone, "receipt_pair")):
        return f"its PYTHONPATH {clone} holds no receipt_pair"
    return _options_problem(words[at:], machine)


def _options_problem(words, machine):
    """Why the hook's own options would not check a claim: options the command line
    refuses, a reader that cannot ask, a server off this machine, a server or model that
    does not answer; or None."""
    if machine.read_command is None:  # no command line to read them with: the reader only
        if "--reader" in words[:-1]:
            try:
                get_reader(words[words.index("--reader") + 1])
            except ReceiptPairError as exc:
                return f"its reader cannot ask: {exc}"
        return None
    try:
        options = machine.read_command(words).checked()
    except ReceiptPairError as exc:
        return f"its options are refused: {exc}"
    settings = options.settings
    try:
        check_base_url(settings.base_url, settings.allow_remote)
    except ReceiptPairError as exc:
        return f"its server is refused: {exc}"
    problem, _, _ = machine.servers.server(settings)
    if problem:
        return f"its server does not answer: {problem[0]}"
    for arm in ("A", "B"):
        ok, said, _ = machine.servers.model(settings, arm)
        if ok is False:
            return f"its model {arm} does not answer: {said}"
    return None


def _timeout_problem(agent, handler, command, machine):
    """Why the handler's time limit would stop the hook before it answers, or None."""
    value = handler.get(agent.timeout_key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"its {agent.timeout_key} must be a number"
    seconds = value / 1000 if agent.timeout_ms else value
    budget = _budget(command, machine)
    if seconds >= budget:
        return None
    unit = "milliseconds" if agent.timeout_ms else "seconds"
    said = (f"its {agent.timeout_key} {value:g} is {seconds:g} s ({agent.label} counts it in "
            f"{unit}), less than the hook's --budget of {budget:g} s, so the agent stops "
            "waiting before the hook answers")
    if agent.timeout_ms and value < 1000:
        said += f": write {int(budget + 60) * 1000} (milliseconds), not seconds"
    return said


def _budget(command, machine):
    if machine.read_command is not None:
        try:
            words = shlex.split(command)
            return machine.read_command(words[words.index("hook"):]).budget
        except (ReceiptPairError, ValueError):
            pass
    return DEFAULT_BUDGET
