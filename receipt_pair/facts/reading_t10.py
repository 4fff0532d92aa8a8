"""Table t10's reading of a log: t8's, with what set 11 (development data since run 11)
showed it read wrongly.

- A Windows program's own suffix is read away: `npm.cmd run build`, `python.exe -m pytest`,
  `gradlew.bat test` run npm, Python and Gradle as their plain names do (t8 read them as
  programs it did not know). Only the names of programs below, and only where the name
  stands alone (`C:\\nodejs\\npm.cmd` and `./build.bat` are left as they are).
- The files a patch tool names in its own headers are the files it changed, where t8 read
  none: `*** Add File: notes.md`, `*** Update File: src/app.py` (OpenCode's and Codex's
  `apply_patch`, as JSON or as text), and the `M /path` lines Codex writes before a patch.
  So an edit of a document after a run no longer makes the run stale as an edit of
  unknown files did.
"""

import re
from dataclasses import dataclass, replace

from . import files, reading_t8
from .events import EDIT
from ..patterns import lazy

_PROGRAMS = ("npm|npx|pnpm|yarn|node|python3?|py|pip3?|git|go|cargo|dotnet|mvnw?|gradlew?|"
             "vitest|jest|tsc|eslint|bun|deno|uv|poetry|pytest|ruff|mypy|flake8|prettier|"
             "docker|make|php|composer|ruby|bundle|rake|rspec")
_WINDOWS = lazy(rf"(?<![\w.\\/:-])({_PROGRAMS})\.(?:cmd|exe|bat)(?=[\s\"';|&)]|$)", re.I)
# A patch tool's own header naming a file (the patch format of OpenCode's and Codex's
# apply_patch), and the lines Codex's rendering writes before a patch (`M /path`).
_PATCH_HEADER = lazy(r"^\*\*\* (?:Add|Update|Delete) File:\s*(\S.*?)\s*$|^\*\*\* Move to:\s*"
                     r"(\S.*?)\s*$", re.M)
_CODEX_FILE = lazy(r"^[MAD] (/\S.*?)\s*$", re.M)


@dataclass
class LogT10(reading_t8.LogT8):
    """A Log read by table t10."""


LOG = LogT10  # the class of the logs this module reads (table.py)


def plain_programs(text):
    """`text` with the Windows suffix of a program's name read away (`npm.cmd` -> `npm`)."""
    return _WINDOWS.sub(r"\1", text or "")


def read_events(turns):
    """The LogT10 of `turns` (Turns, oldest first)."""
    turns = [replace(t, cmd=plain_programs(t.cmd)) if _WINDOWS.search(t.cmd or "") else t
             for t in turns]
    log = reading_t8.read_events(turns, LogT10)
    log.events = [_patched(event, log) if event.family == EDIT else event
                  for event in log.events]
    return log


def _patched(event, log):
    """An edit tool's event with the files its patch's headers name, where t8 read none."""
    if not event.objects or not all(o.startswith("{") or o == "*" for o in event.objects):
        return event
    command = log.commands[event.turn]
    value = files.tool_input(command)
    if value is not None:
        text = "\n".join(v for v in value.values() if isinstance(v, str))
        paths = [a or b for a, b in _PATCH_HEADER.findall(text)]
    else:
        paths = [a or b for a, b in _PATCH_HEADER.findall(command)]
        if command.split(None, 1)[:1] == ["apply_patch"]:
            paths += _CODEX_FILE.findall(command)
    paths = list(dict.fromkeys(p for p in paths if p))
    return replace(event, objects=tuple(paths)) if paths else event
