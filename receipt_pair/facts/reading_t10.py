"""Table t10's reading of a log: t8's, with what set 11 (development data since run 11)
showed it read wrongly.

- A Windows program's own suffix is read away: `npm.cmd run build`, `python.exe -m pytest`,
  `gradlew.bat test` run npm, Python and Gradle as their plain names do (t8 read them as
  programs it did not know). Only the suffix each program installs with (`go.bat` is a
  project's script), and only where the name stands alone (`C:\\nodejs\\npm.cmd` and
  `./build.bat` are left as they are).
- A patch tool's edit whose own headers name only documents is an edit of those documents,
  where t8 read no file (an edit of anything): `*** Add File: report.md`, `*** Update File:
  README.md` (OpenCode's and Codex's `apply_patch`, as JSON or as text, headers indented or
  not) and the `M path` lines Codex writes before a patch. A document here is a Markdown,
  reStructuredText or AsciiDoc file (not a changelog) in no folder a build or a test may read
  it from (`docs/`, `content/`, `tests/`, `fixtures/`, `prompts/`, ...), named by no other
  turn's command or output, in a log where nothing builds a site or docs or runs documents
  as tests (`sphinx-build`, `mkdocs`, `doctest`, `cargo test`). Any other file named, a patch in another shape
  (`--- a/`, `diff --git`), or no header read, leaves the edit as t8 read it.
"""

import re
from dataclasses import dataclass, replace

from . import files, reading_t8
from .decision import mentions
from .events import EDIT
from ..patterns import lazy

# The suffix each program's own Windows install gives it: npm's shims are `.cmd`, Gradle's
# and Maven's wrappers `.bat` and `.cmd`, native programs `.exe`. A suffix a program does
# not install with (`go.bat`) is a project's own script of that name.
_SHIMS = "npm|npx|pnpm|yarn|vitest|jest|tsc|eslint|prettier|mvnw|mvn"
_NATIVE = ("node|python3?|py|pip3?|git|go|cargo|dotnet|bun|deno|uv|poetry|pytest|ruff|mypy|"
           "flake8|docker|make|php")
_WINDOWS = lazy(rf"(?<![\w.\\/:-])(?:({_SHIMS})\.cmd|(gradlew)\.bat|({_NATIVE})\.exe)"
                r"(?=[\s\"';|&)]|$)", re.I)
# A patch tool's own header naming a file (the patch format of OpenCode's and Codex's
# apply_patch), and the lines Codex's rendering writes before a patch (`M /path`).
_PATCH_HEADER = lazy(r"^\s*\*\*\* (?:Add|Update|Delete) File:\s*(\S.*?)\s*$|^\s*\*\*\* Move "
                     r"to:\s*(\S.*?)\s*$", re.M)
_CODEX_FILE = lazy(r"^\s*[MAD] (\S.*?)\s*$", re.M)
# A patch of another shape inside the input: its files are not all in headers t10 reads.
_OTHER_PATCH = lazy(r"^\s*(?:\+\+\+ |--- |diff --git |Index: )", re.M)
# A document no build or test reads: Markdown, reStructuredText, AsciiDoc, in no folder of
# a site, of docs, of tests or of their data.
_DOCUMENT = lazy(r"^[\w./\\:@ -]+\.(?:md|markdown|rst|adoc)$", re.I)
_READ_FOLDER = lazy(r"(?:^|[/\\])(?:[\w-]*docs?|content|site|pages|posts|blog|templates?|tests?|"
                    r"spec|fixtures?|golden|testdata|snapshots|__snapshots__|locales?|i18n|src|"
                    r"lib|app|packages|prompts?|data|assets|public|static|resources)[/\\]", re.I)
# Documents a release or a test may check (a changelog), and programs that build a site or
# docs from documents anywhere in the project.
_CHECKED_NAME = lazy(r"(?:^|[/\\])(?:CHANGELOG|CHANGES|HISTORY|RELEASE|NEWS)[^/\\]*$", re.I)
_SITE_BUILDERS = lazy(r"\b(?:sphinx-build|sphinx|mkdocs|docusaurus|hugo|jekyll|mdbook|vitepress|"
                      r"astro|eleventy|gatsby|doctest|rustdoc|cargo\s+(?:test|doc)|"
                      r"markdownlint|remark|mdx)\b", re.I)


@dataclass
class LogT10(reading_t8.LogT8):
    """A Log read by table t10."""


LOG = LogT10  # the class of the logs this module reads (table.py)


def plain_programs(text):
    """`text` with the Windows suffix of a program's name read away (`npm.cmd` -> `npm`)."""
    return _WINDOWS.sub(lambda found: next(g for g in found.groups() if g), text or "")


def read_events(turns, log_class=LogT10):
    """The LogT10 of `turns` (Turns, oldest first); a later table's reading may give its own
    `log_class` (a LogT10)."""
    turns = [replace(t, cmd=plain_programs(t.cmd)) if _WINDOWS.search(t.cmd or "") else t
             for t in turns]
    log = reading_t8.read_events(turns, log_class)
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
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a bare CR ends a line too
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
    """True if `path` is a document no build or test of the log may read: none names it in
    its command or its output, and none builds a site or docs or runs documents as tests."""
    if not _DOCUMENT.search(path) or _READ_FOLDER.search(path) or _CHECKED_NAME.search(path):
        return False
    name = re.split(r"[/\\]", path)[-1]
    return not mentions(log, re.compile(re.escape(name), re.I)) and \
        not mentions(log, _SITE_BUILDERS)
