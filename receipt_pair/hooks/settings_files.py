"""The agents' settings files as `doctor` and `install` read them: where each documented
place is on this machine, a JSON settings file read as the object it must be, the hook
handlers in it with their events (and where its shape is not an agent's), and the little
of TOML that Codex's and Kimi Code CLI's config.toml hold for hooks. Nothing here prints
and nothing here writes (install.py writes).
"""

import glob
import json
import os
import re
import shlex

from ..errors import InputError, ReceiptPairError
from ..store.files import decode, loads_strict, read_bytes
from ..patterns import lazy

PROGRAM_NAMES = ("receipt-pair", "receipt_pair")
COMMAND_KEYS = ("command", "bash", "powershell")  # where a handler names its command


def expand(place, home, project):
    """The files a documented place names that are there: "~" is `home`, a relative path
    is under `project`, a "*" is a pattern."""
    path = place_path(place, home, project)
    return sorted(glob.glob(path)) if "*" in place else \
        ([path] if os.path.isfile(path) else [])


def place_path(place, home, project):
    """The path of a documented place on this machine ("~" is `home`, a relative path is
    under `project`)."""
    if place.startswith("~/"):
        return os.path.join(home, place[2:])
    return place if os.path.isabs(place) else os.path.join(project, place)


def shown(path, home):
    """A path as the person knows it: under their home folder as ~/..."""
    home = os.path.join(home, "")
    return "~/" + path[len(home):] if path.startswith(home) else path


def read_json_settings(path, name=None):
    """The JSON object of a settings file; an InputError naming the file says why it is
    not one (not UTF-8, not JSON, JSON that is not an object)."""
    name = name or path
    try:
        value = loads_strict(decode(read_bytes(path), name))
    except ValueError as exc:
        raise InputError(f"{name} is not JSON ({exc}); a settings file with comments or "
                         "trailing commas must be corrected by hand first") from None
    if not isinstance(value, dict):
        raise InputError(f"{name} is not a JSON object (it holds {kind_of(value)}), so it is "
                         "no settings file of an agent")
    return value


def kind_of(value):
    """What a JSON value is, in words ("an object", "a list", ...)."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            type(None): "null"}.get(type(value), "a number")


def handlers(settings):
    """([(event, handler)], [shape problems]) of a settings object's `hooks`: each handler
    (an object that names a command) under each event, whether the event lists handlers
    (Cursor, Copilot CLI) or groups of them (`{"matcher", "hooks": [...]}`, Claude Code's).
    What is not of any agent's shape is a problem, never an exception."""
    hooks = settings.get("hooks")
    if hooks is None:
        return [], []
    if not isinstance(hooks, dict):
        return [], [f"'hooks' is {kind_of(hooks)}, not an object of events"]
    found, problems = [], []
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            problems.append(f"'hooks.{event}' is {kind_of(entries)}, not a list")
            continue
        for entry in entries:
            if not isinstance(entry, dict):
                problems.append(f"'hooks.{event}' holds {kind_of(entry)}, not an object")
            elif isinstance(entry.get("hooks"), list):
                for handler in entry["hooks"]:
                    if isinstance(handler, dict):
                        found.append((event, handler))
                    else:
                        problems.append(f"a group of 'hooks.{event}' holds "
                                        f"{kind_of(handler)}, not an object")
            else:
                found.append((event, entry))
    return found, problems


def command_of(handler):
    """The command a handler runs (its `command`, else `bash`, else `powershell`), or
    None."""
    for key in COMMAND_KEYS:
        if isinstance(handler.get(key), str):
            return handler[key]
    return None


def runs_receipt_pair(command):
    """Whether a command names receipt-pair anywhere (doctor looks closer at those)."""
    return isinstance(command, str) and any(name in command for name in PROGRAM_NAMES)


_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = lazy(r"python(?:\d+(?:\.\d+)*)?(?:\.exe)?")


def runs_hook(command):
    """Whether `command` runs receipt-pair's hook in the shape options.hook_command writes:
    any `NAME=value` words, then the program (`receipt-pair`, or a Python with `-m
    receipt_pair`), then `hook`. A user's own command that only names it among its
    arguments (`notify --title "receipt-pair hook claude-code"`, `echo receipt-pair hook`)
    runs something else, and is never taken for receipt-pair's entry; nor is one that goes
    on after it (`&&`, `;`, `|`, a redirection), which hook_command never writes."""
    if not runs_receipt_pair(command):
        return False
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return False
    if any(word and not word.strip("();<>|&") for word in words):
        return False  # `... && rm -rf x`, `| tee`: a command of the user's own around it
    while words and _ASSIGNMENT.match(words[0]):
        words.pop(0)
    if not words:
        return False
    program = os.path.basename(words[0])
    if program in ("receipt-pair", "receipt-pair.exe"):
        rest = words[1:]
    elif _PYTHON.fullmatch(program) and words[1:3] == ["-m", "receipt_pair"]:
        rest = words[3:]
    else:
        return False
    return rest[:1] == ["hook"]


# -- TOML, read only: the tables and plain keys of a config.toml --------------------------

_HEADER = lazy(r"^\s*(\[\[?)\s*([^\]]+?)\s*(\]\]?)\s*(?:#.*)?$")
_KEY = lazy(r"^\s*([A-Za-z0-9_.\"'-]+)\s*=\s*(.+?)\s*$")


def toml_tables(text):
    """[(header, is an array table, {key: value})] of a TOML file's top level and tables,
    in order (the top level's header is ""). Only what hooks need is read: strings,
    booleans and whole numbers; any other value is kept as its text, and a line this
    reader does not follow (a value over several lines) is passed over."""
    tables = [("", False, {})]
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header and header[1] in ("[", "[[") and len(header[1]) == len(header[3]):
            tables.append((header[2].replace(" ", ""), header[1] == "[[", {}))
            continue
        key = _KEY.match(line)
        if key:
            tables[-1][2][key[1].strip("\"'")] = _toml_value(key[2])
    return tables


def _toml_value(text):
    if text.startswith('"') and not text.startswith('"""'):
        end = _string_end(text)
        try:
            return json.loads(text[:end + 1])
        except ValueError:
            return text[1:end]
    if text.startswith("'") and not text.startswith("'''"):
        return text[1:text.find("'", 1)] if text.find("'", 1) > 0 else text
    text = text.split("#", 1)[0].strip()
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"[+-]?\d[\d_]*", text):
        return int(text.replace("_", ""))
    return text


def _string_end(text):
    """The index of the quote that closes a basic string starting at 0."""
    index = 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == '"':
            return index
        index += 1
    return len(text) - 1


def read_text(path, name=None):
    """A settings file's text; an InputError says why it cannot be read."""
    try:
        return decode(read_bytes(path), name or path)
    except ReceiptPairError:
        raise
    except ValueError as exc:
        raise InputError(f"{name or path} cannot be read: {exc}") from None
