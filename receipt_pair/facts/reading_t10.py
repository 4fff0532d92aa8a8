"""Table t10's reading of a log: t8's, with what set 11 (development data since run 11)
showed it read wrongly.

- A Windows program's own suffix is read away: `npm.cmd run build`, `python.exe -m pytest`,
  `gradlew.bat test` run npm, Python and Gradle as their plain names do (t8 read them as
  programs it did not know). Only the names of programs below, and only where the name
  stands alone (`C:\\nodejs\\npm.cmd` and `./build.bat` are left as they are).
- A patch tool's edit whose own headers name only documents is an edit of those documents,
  where t8 read no file (an edit of anything): `*** Add File: report.md`, `*** Update File:
  README.md` (OpenCode's and Codex's `apply_patch`, as JSON or as text, headers indented or
  not) and the `M path` lines Codex writes before a patch. A document here is a Markdown,
  reStructuredText or AsciiDoc file in no folder a build or a test may read it from (`docs/`,
  `content/`, `tests/`, `fixtures/`, ...), named by no run of the log, in a log where no run
  reads documents as tests (`doctest`). Any other file named, a patch in another shape
  (`--- a/`, `diff --git`), or no header read, leaves the edit as t8 read it.
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
_PATCH_HEADER = lazy(r"^\s*\*\*\* (?:Add|Update|Delete) File:\s*(\S.*?)\s*$|^\s*\*\*\* Move "
                     r"to:\s*(\S.*?)\s*$", re.M)
_CODEX_FILE = lazy(r"^\s*[MAD] (\S.*?)\s*$", re.M)
# A patch of another shape inside the input: its files are not all in headers t10 reads.
_OTHER_PATCH = lazy(r"^\s*(?:\+\+\+ |--- |diff --git |Index: )", re.M)
# A document no build or test reads: Markdown, reStructuredText, AsciiDoc, in no folder of
# a site, of docs, of tests or of their data.
_DOCUMENT = lazy(r"\.(?:md|markdown|rst|adoc)$", re.I)
_READ_FOLDER = lazy(r"(?:^|[/\\])(?:docs?|content|site|pages|posts|blog|templates?|tests?|spec|"
                    r"fixtures?|golden|testdata|snapshots|__snapshots__|locales?|i18n|src|lib|"
                    r"app|packages)[/\\]", re.I)


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
    """An edit tool's event with the documents its patch's headers name, where t8 read no
    file and they are all the patch names."""
    if not event.objects or not all(o.startswith("{") or o == "*" for o in event.objects):
        return event
    command = log.commands[event.turn]
    value = files.tool_input(command)
    text = "\n".join(v for v in value.values() if isinstance(v, str)) if value else command
    if _OTHER_PATCH.search(text):
        return event
    paths = [a or b for a, b in _PATCH_HEADER.findall(text)]
    if value is None and command.split(None, 1)[:1] == ["apply_patch"]:
        paths += _CODEX_FILE.findall(text)
    paths = list(dict.fromkeys(p.strip("'\"") for p in paths if p))
    if not paths or not all(_read_by_nothing(p, log) for p in paths):
        return event
    return replace(event, objects=tuple(paths))


def _read_by_nothing(path, log):
    """True if `path` is a document no build or test of the log may read."""
    if not _DOCUMENT.search(path) or _READ_FOLDER.search(path):
        return False
    name = re.split(r"[/\\]", path)[-1].lower()
    edits = {e.turn for e in log.events if e.family == EDIT}
    return not any(name in c.lower() or "doctest" in c.lower()
                   for turn, c in enumerate(log.commands) if turn not in edits)
