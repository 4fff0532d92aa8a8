"""`install` and `uninstall`: receipt-pair's hook merged into (or taken out of) an agent's
own settings file, with every other key and hook kept.

The entry written is the agent's snippet (agents.py) around the one command `hook_command`
builds from a HookOptions. What is receipt-pair's is any handler, at the agent's stop
events, whose command runs `receipt-pair hook` (or `python -m receipt_pair hook`) in the
shape hook_command writes (one that only names it among its arguments is the user's):
install puts its entry where the first of them stood, or appends it, and drops the others; a
second install with the same options changes nothing, one with other options changes that
entry only. Before any change a copy of the file goes beside it
(`<name>.receipt-pair-<UTC time>.bak`), and the file is replaced through a temporary file
and a rename (store.jsonl.write_atomic). A file that is not a JSON object, or whose hooks
at the agent's stop events are not of the agent's shape (down to each group and handler),
is refused (an InputError naming it) and left as it is. Nothing here prints;
cli/install.py does.
"""

import copy
import difflib
import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import List, Optional

from ..errors import InputError, UsageError
from ..store.files import display_name
from ..store.jsonl import write_atomic
from . import text_settings
from .agents import SNIPPET_NAME, get_agent
from .options import hook_command
from .settings_files import (command_of, place_path, read_json_settings, read_text,
                             kind_of, runs_hook, shown, toml_tables)


@dataclass
class Change:
    """What install or uninstall did to a settings file (or, in a dry run, would do):
    its text before and after (None: no file), the backup kept, and lines for the
    person."""

    agent: str
    path: str
    before: Optional[str]
    after: Optional[str]
    backup: Optional[str] = None
    written: bool = False
    notes: List[str] = field(default_factory=list)

    @property
    def changed(self):
        return self.before != self.after

    def diff(self):
        """The change as a unified diff of the file's lines."""
        return "".join(difflib.unified_diff(
            (self.before or "").splitlines(True), (self.after or "").splitlines(True),
            f"{self.path} (before)", f"{self.path} (after)"))


def settings_path(agent, home=None):
    """Where `install` writes for `agent` (a row) with no --settings: the first of its
    user-level settings files that is there, else the one its row names (a file of its
    own where the agent reads a folder of them)."""
    home = home or os.path.expanduser("~")
    places = [p for p in agent.settings_files if p.startswith("~/")]
    for place in places:
        if "*" not in place and os.path.isfile(place_path(place, home, home)):
            return place_path(place, home, home)
    place = agent.install_file or places[0]
    return place_path(place.replace("*", SNIPPET_NAME), home, home)


def install(options, path=None, dry_run=False, home=None):
    """Merge the hook that runs with `options` (a HookOptions) into the settings file at
    `path` (None: `settings_path`), unless `dry_run`; return the Change."""
    agent = get_agent(options.agent)
    path = path or settings_path(agent, home)
    command = hook_command(options)
    before, settings = _read(agent, path)
    snippet = agent.snippet(command, options.max_blocks)
    try:
        after = _merged_text(agent, before, snippet, path) if agent.text_settings else \
            _text(merged(settings, snippet, agent), before)
    except InputError as exc:
        raise InputError(f"{display_name(path)}: {exc}; nothing was written") from None
    change = Change(agent.label, path, before, after)
    change.notes += _notes(agent, settings, path, home)
    return _apply(change, dry_run)


def uninstall(name, path=None, dry_run=False, home=None):
    """Take receipt-pair's hook for the agent `name` out of the settings file at `path`
    (None: `settings_path`), unless `dry_run`; return the Change. A file of receipt-pair's
    own that is left with nothing is removed (its backup kept)."""
    agent = get_agent(name)
    path = path or settings_path(agent, home)
    before, settings = _read(agent, path)
    if before is None:
        return Change(agent.label, path, None, None)
    if agent.text_settings:
        return _apply(Change(agent.label, path, before, _without_text(agent, before, path)),
                      dry_run)
    try:
        left = without(settings, agent)
    except InputError as exc:
        raise InputError(f"{display_name(path)}: {exc}; nothing was written") from None
    name = os.path.basename(path)
    own = name.startswith(SNIPPET_NAME) and name.endswith(".json") and \
        left in ({}, {"version": 1})
    change = Change(agent.label, path, before, None if own else _text(left, before))
    if left == settings:
        change.after = before
    return _apply(change, dry_run)


def _merged_text(agent, before, snippet, path):
    """The text of a settings file of text (Kimi's TOML, OpenCode's plugin) with the hook
    in it."""
    if agent.snippet_shape == "kimi":
        after = text_settings.merged_toml(before, snippet)
        text_settings.check_toml(after, display_name(path))
        return after
    if before is not None and not _ours_plugin(before):
        raise InputError("it is not a plugin receipt-pair wrote, so it is left as it is")
    return snippet


def _without_text(agent, before, path):
    """The text of a settings file of text with the hook taken out (None: the file, a
    plugin receipt-pair wrote, goes)."""
    if agent.snippet_shape == "kimi":
        return text_settings.without_toml(before)
    if not _ours_plugin(before):
        raise InputError(f"{display_name(path)} is not a plugin receipt-pair wrote, so it is "
                         "left as it is")
    return None


def _ours_plugin(text):
    return "written by `receipt-pair install opencode`" in text


# -- the JSON merge -----------------------------------------------------------------------

def ours(handler):
    """Whether a handler runs receipt-pair's hook: its command has the shape hook_command
    writes (settings_files.runs_hook), not merely its words among another's arguments."""
    return isinstance(handler, dict) and runs_hook(command_of(handler))


def merged(settings, snippet, agent):
    """`settings` with the snippet's entry at each of the agent's stop events in place of
    receipt-pair's own, every other key and hook kept (a copy; `settings` is unchanged)."""
    result = copy.deepcopy(settings)
    for key, value in snippet.items():
        if key != "hooks":
            result.setdefault(key, value)  # Cursor's and Copilot CLI's "version": 1
    hooks = _hooks(result, create=True)
    grouped = _grouped(agent)
    for event, entries in snippet["hooks"].items():
        current = _entries(hooks, event)
        hooks[event] = _replace(current, entries[0], grouped, event)
    return result


def without(settings, agent):
    """`settings` with receipt-pair's handlers at the agent's stop events taken out, and
    any group, event list or `hooks` object that held nothing else with them."""
    result = copy.deepcopy(settings)
    hooks = _hooks(result, create=False)
    if hooks is None:
        return result
    grouped = _grouped(agent)
    for event in agent.events:
        if event not in hooks:
            continue
        kept = _replace(_entries(hooks, event), None, grouped, event)
        if kept:
            hooks[event] = kept
        elif hooks[event]:  # it held only receipt-pair's
            del hooks[event]
    if not hooks and settings.get("hooks"):
        del result["hooks"]
    return result


def _grouped(agent):
    return agent.snippet_shape in ("grouped", "gemini")


def _hooks(settings, create):
    hooks = settings.setdefault("hooks", {}) if create else settings.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InputError("its 'hooks' is not an object of events, so the hook cannot be "
                         "merged in: correct it by hand first")
    return hooks


def _entries(hooks, event):
    entries = hooks.get(event, [])
    if not isinstance(entries, list):
        raise InputError(f"its 'hooks.{event}' is not a list, so the hook cannot be merged "
                         "in: correct it by hand first")
    return entries


def _replace(entries, new, grouped, event):
    """`entries` with receipt-pair's handlers replaced by `new` (an entry of the snippet;
    None: taken out) where the first of them stood, or `new` appended. An entry that is
    not of the agent's shape is refused (InputError): what the agent would make of the
    file is not known, so the file is left as it is."""
    _check_shape(entries, grouped, event)
    handler = (new["hooks"][0] if grouped else new) if new is not None else None
    result, placed = [], False
    for entry in entries:
        if grouped:
            inner = []
            for item in entry["hooks"]:
                if not ours(item):
                    inner.append(item)
                elif not placed and handler is not None:
                    inner.append(handler)
                    placed = True
            if inner or not entry["hooks"]:
                result.append({**entry, "hooks": inner})
        elif ours(entry):
            if not placed and handler is not None:
                result.append(handler)
                placed = True
        else:
            result.append(entry)
    if not placed and new is not None:
        result.append(new)
    return result


def _check_shape(entries, grouped, event):
    """Refuse entries of `hooks.<event>` that are not of the agent's shape: a group that is
    not an object or holds no list of handlers, a handler that is not an object."""
    where = f"'hooks.{event}'"
    for entry in entries:
        if not isinstance(entry, dict):
            raise InputError(f"its {where} holds {kind_of(entry)} where an object belongs, so "
                             "the hook cannot be merged in: correct it by hand first")
        if not grouped:
            continue
        inner = entry.get("hooks")
        if not isinstance(inner, list):
            raise InputError(f"a group of its {where} has {kind_of(inner)} for 'hooks', not a "
                             "list of handlers, so the hook cannot be merged in: correct it "
                             "by hand first")
        if any(not isinstance(item, dict) for item in inner):
            raise InputError(f"a group of its {where} holds a handler that is not an "
                             "object, so the hook cannot be merged in: correct it by hand "
                             "first")


# -- the file ------------------------------------------------------------------------------

def _read(agent, path):
    """(the file's text or None, its settings object: {} for a settings file of text)."""
    name = display_name(path)
    if not os.path.lexists(path):
        return None, {}
    if not os.path.isfile(path):
        raise InputError(f"{name} is not a regular file, so it is no settings file")
    text = read_text(path, name)
    if agent.text_settings:
        return text, {}
    try:
        return text, read_json_settings(path, name)
    except InputError as exc:
        raise InputError(f"{exc}; nothing was written") from None


def _text(settings, before):
    """The settings as the file's text, indented as the file was (two spaces for a new
    one)."""
    found = re.search(r"\n([ \t]+)\S", before or "")
    indent = found.group(1) if found else 2
    return json.dumps(settings, indent=indent, ensure_ascii=False) + "\n"


def _apply(change, dry_run):
    """Write the change (a backup first) unless nothing changes or it is a dry run."""
    if dry_run or not change.changed:
        return change
    path = change.path
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        if not os.path.isdir(os.path.dirname(folder)):
            raise UsageError(f"{os.path.dirname(folder)} does not exist: is {change.agent} "
                             "installed? Name the settings file to write with --settings")
        os.mkdir(folder)  # the file's own folder, and no other
    if change.before is not None:
        change.backup = backup(path)
    target = os.path.realpath(path)  # a settings file kept elsewhere and linked stays so
    if change.after is None:
        os.unlink(target)
    else:
        mode = os.stat(target).st_mode & 0o777 if os.path.exists(target) else None
        write_atomic(target, change.after.encode("utf-8"), display_name(path))
        if mode is not None:
            os.chmod(target, mode)
    change.written = True
    return change


def backup(path):
    """Copy the file at `path` beside it, under a name of its own; return that name."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    with open(path, "rb") as handle:
        data = handle.read()
    for number in range(100):
        name = f"{path}.{SNIPPET_NAME}-{stamp}{f'-{number}' if number else ''}.bak"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return name
    raise InputError(f"no name is left for a backup of {path}")


# -- what the person should know ----------------------------------------------------------

def _notes(agent, settings, path, home):
    """Lines for the person: what would keep the hook from running or checking."""
    notes = []
    home = home or os.path.expanduser("~")
    if agent.why_unchecked:
        notes.append(f"{agent.why_unchecked}: the hook lets {agent.label} stop with a notice "
                     "and checks no claim")
    if agent.switch == "claude" and settings.get("disableAllHooks") is True:
        notes.append(f"{shown(path, home)} sets disableAllHooks: true, so no hook runs "
                     "until it is removed")
    config = settings.get("hooksConfig")
    if agent.switch == "gemini" and isinstance(config, dict) and config.get("enabled") is False:
        notes.append(f"{shown(path, home)} sets hooksConfig.enabled: false, so no hook runs "
                     "until it is removed")
    if agent.switch == "codex":
        notes.append("Codex runs a new or changed hook only once you trust it: open /hooks "
                     "in Codex and trust it")
        notes += _codex_notes(os.path.join(os.path.dirname(path), "config.toml"), home)
    if agent.snippet_shape == "kimi":
        notes.append("Kimi Code CLI runs its Stop hook again at most once after a block, so "
                     "the agent is sent back at most once a turn; start a new session for "
                     "the hook to run")
    if agent.snippet_shape == "opencode":
        notes.append("OpenCode loads plugins when it starts: restart it for the hook to run")
    return notes


def _codex_notes(config, home):
    """What Codex's config.toml (read, never written) says of its hooks."""
    if not os.path.isfile(config):
        return []
    try:
        tables = toml_tables(read_text(config))
    except InputError:
        return []
    notes = []
    for header, _, keys in tables:
        if header == "features" and (keys.get("hooks") is False
                                     or keys.get("codex_hooks") is False):
            notes.append(f"{shown(config, home)} switches Codex's hooks off ([features] hooks "
                         "= false): remove it, or no hook runs")
        elif header.startswith("hooks") and not header.startswith("hooks.state"):
            notes.append(f"{shown(config, home)} keeps hooks of its own in [{header}] (Codex "
                         "runs them too); install writes hooks.json and leaves config.toml "
                         "as it is")
            break
    return notes
