"""The two agents whose settings are text of their own, not JSON: Kimi Code CLI's
config.toml, where the hook is a `[[hooks]]` table, and OpenCode, where it is a plugin
file. The standard library cannot write TOML, so install writes only a block of its own,
between two marked comment lines, and never rewrites the rest of the file; the plugin
file is receipt-pair's own (opencode-plugin.js beside this module, with the command
filled in). Each has its snippet, its merge and removal for install, and the handlers
doctor reads back. Nothing here prints or writes.
"""

import json
import os
import re
import sys

from ..errors import InputError
from ..patterns import lazy

BEGIN = "# receipt-pair: begin (receipt-pair install kimi-cli; uninstall takes it out)"
END = "# receipt-pair: end"
_BLOCK = lazy(r"(?:\n)?^" + re.escape(BEGIN) + r"$.*?^" + re.escape(END) + r"$\n?",
                    re.M | re.S)
_INLINE_HOOKS = lazy(r"^\s*hooks\s*=", re.M)
PLUGIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opencode-plugin.js")
_PLUGIN_COMMAND = lazy(r"^const COMMAND = (\".*\");$", re.M)


def kimi_block(command, event, seconds):
    """The marked `[[hooks]]` table that runs `command` at `event`."""
    return "\n".join((BEGIN, "[[hooks]]", f"event = {_toml_string(event)}",
                      f"command = {_toml_string(command)}", f"timeout = {seconds}", END, ""))


def _toml_string(text):
    """A TOML basic string: JSON's escapes are TOML's (\\", \\\\, \\n, \\uXXXX)."""
    return json.dumps(text, ensure_ascii=False)


def merged_toml(before, block):
    """config.toml's text with receipt-pair's marked block in place of its old one, or
    appended; every other line as it was."""
    text = before or ""
    if _BLOCK.search(text):
        return _BLOCK.sub(lambda _: "\n" + block if _.group(0).startswith("\n") else block,
                          text, count=1)
    if _INLINE_HOOKS.search(text):
        raise InputError("it sets hooks = [...] inline, which a [[hooks]] table cannot join: "
                         "add the table by hand, or write those hooks as [[hooks]] tables")
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if text.strip() else "") + block


def without_toml(before):
    """config.toml's text with receipt-pair's marked block taken out."""
    return _BLOCK.sub("", before or "", count=1)


def check_toml(text, name):
    """Refuse text Python's own TOML reader (3.11 and later) cannot read: nothing is
    written that the agent could not load."""
    # Before 3.11 there is no tomllib, and the block is written as it always is (the check
    # is on the version, not an ImportError, so that mypy reads it for 3.9 too).
    if sys.version_info >= (3, 11):
        import tomllib
        try:
            tomllib.loads(text)
        except ValueError as exc:
            raise InputError(f"{name} would not be valid TOML after the change ({exc}), so "
                             "nothing was written") from None


def kimi_handlers(tables):
    """[(event, handler)] of config.toml's `[[hooks]]` tables (settings_files.toml_tables)."""
    return [(keys.get("event"), keys) for header, array, keys in tables
            if header == "hooks" and array and isinstance(keys.get("event"), str)]


def opencode_plugin(command, max_blocks, seconds):
    """The plugin file's text, running `command` at each idle."""
    with open(PLUGIN, encoding="utf-8") as handle:
        template = handle.read()
    return (template.replace("__COMMAND__", json.dumps(command))
            .replace("__MAX_BLOCKS__", str(int(max_blocks)))
            .replace("__TIMEOUT_MS__", str(int(seconds * 1000))))


def plugin_handlers(text):
    """[(event, handler)] of a plugin file install wrote: the command it runs at an idle."""
    found = _PLUGIN_COMMAND.search(text or "")
    if not found:
        return []
    try:
        command = json.loads(found.group(1))
    except ValueError:
        return []
    return [("session.idle", {"command": command})] if isinstance(command, str) else []
