"""Edits: the files the agent changed, by its own edit tools (Edit, Write, write_to_file,
apply_diff, str_replace_editor, apply_patch, ...) or by shell commands that write (`> file`,
`sed -i`, `tee`, `cp`, `mv`, `git checkout -- file`, a script writing with `open(..., "w")`).

An edit matters to the facts for one reason: a run of the tests or a build that came before
an edit of a file it could use shows the code as it was, not as the agent left it. An edit
whose files cannot be named (`git stash pop`, `git reset --hard`, a patch) is an edit of
"*": of anything.
"""

import json
import re

from . import shell
from .events import EDIT, FAILED, PASSED, Event
from ..patterns import lazy

_EDIT_TOOLS = {"edit", "multiedit", "write", "notebookedit", "write_to_file", "apply_diff",
               "replace_in_file", "insert_content", "search_and_replace", "str_replace_editor",
               "str_replace_based_edit_tool", "create_file", "edit_file", "write_file",
               "replace", "apply_patch", "create", "insert", "edit_notebook", "fs_write",
               "search_replace", "file_editor", "str_replace", "patch_file", "append_file",
               "writefile", "editfile", "strreplace", "multi_edit", "applypatch"}
_PATH_KEYS = ("path", "file_path", "filePath", "target_file", "absolute_path", "notebook_path",
              "filename", "file", "target")
_TOOL_FAILED = lazy(r"^(?:Error\b|error:|ERROR\b|No changes (?:to make|were made)|"
                          r"String to replace not found|old_string not found|Failed to|"
                          r"<tool_use_error>|Tool \S+ failed|The file .* does not exist|"
                          r"Invalid |No replacement was performed|\[ERROR\])", re.I)
_PATCH_FILE = lazy(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$|^patching file '?([^'\s]+)",
                         re.M)
_WRITE_CALL = lazy(r"""open\(\s*(?:f?['"])([^'"]+)['"]\s*,\s*['"][wax]b?\+?['"]|"""
                         r"""Path\(\s*['"]([^'"]+)['"]\s*\)\.write_(?:text|bytes)""")


def is_edit_tool(name):
    """True if `name` is an agent's tool that writes or edits files (its result reports the
    edit, not an operation's result)."""
    return (name or "").lower() in _EDIT_TOOLS


def tool_input(command):
    """The JSON object a tool call's command carries after its name (`Edit {"path": ...}`),
    or None: none there, not JSON, or nested past reason (a log may hold anything)."""
    brace = (command or "").find("{")
    if brace == -1:
        return None
    try:
        value = json.loads(command[brace:])
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def edit_paths(step, turn):
    """The files an edit tool call changed (["*"] when it cannot be told), or None when the
    step is no edit tool."""
    name = step.program.lower()
    if name not in _EDIT_TOOLS and turn.kind != "edit":
        return None
    if name in ("str_replace_editor", "str_replace_based_edit_tool", "file_editor") and \
            step.args[:1] and step.args[0] in ("view",):
        return None
    text = turn.cmd or ""
    value = tool_input(text)
    if value is not None:
        for key in _PATH_KEYS:
            if isinstance(value.get(key), str) and value[key].strip():
                return [value[key].strip()]
        if isinstance(value.get("patch"), str) or isinstance(value.get("input"), str):
            found = _PATCH_FILE.findall(value.get("patch") or value.get("input"))
            return [a or b for a, b in found] or ["*"]
    found = _PATCH_FILE.findall(text)
    if found:
        return [a or b for a, b in found]
    files = [a for a in shell.positional(step.args) if "/" in a or "." in a]
    if name in ("str_replace_editor", "str_replace_based_edit_tool") and len(files) >= 1:
        return [files[0]]
    return files[:1] or ["*"]


def shell_writes(step):
    """The files a shell step writes (["*"] when it cannot be told), or []."""
    program, args = step.program, list(step.args)
    paths = [w for w in step.writes if not re.search(r"\.(?:log|out|err)$", w)]
    files = shell.positional(args)
    if program in ("sed", "perl", "gsed") and any(a.startswith("-i") or a == "-pi" or
                                                  a.startswith("-pi") for a in args):
        paths += files[1:] if files else []
    elif program == "tee":
        paths += files
    elif program in ("patch", "truncate", "dos2unix"):
        paths += files or ["*"]
    elif program == "git":
        sub = shell.subcommand(step, ("-C", "-c")).lower()
        rest = args[args.index(next(a for a in args if a.lower() == sub)) + 1:] if sub else []
        if sub in ("checkout", "restore") and "--" in rest:
            paths += rest[rest.index("--") + 1:]
        elif sub == "restore":
            paths += [a for a in rest if not a.startswith("-")] or ["*"]
        elif sub in ("apply", "am", "stash", "reset", "revert", "cherry-pick") and not (
                sub == "stash" and rest[:1] in (["list"], ["show"])) and not (
                sub == "reset" and "--hard" not in rest):
            paths.append("*")
    elif program in ("python -c", "python -"):
        code = (args[0] if args else "") + "\n" + step.heredoc
        paths += [a or b for a, b in _WRITE_CALL.findall(code)]
    return paths


def read(read, taken):
    """(step, Event) of every edit of one turn."""
    for step in read.line.runs:
        if id(step) in taken:
            continue
        paths = edit_paths(step, read.turn)
        if paths is not None:
            failed = next(((l.strip(), i) for i, l in enumerate(read.lines[:3])
                           if _TOOL_FAILED.match(l.strip())), None)
            outcome = FAILED if failed or read.turn.exit_status else PASSED
            line, index = failed or ("", -1)
            yield step, Event(read.index, EDIT, step.program, "edit", outcome,
                              read.turn.exit_status, "own", line, index, tuple(paths),
                              detail=(("by", "tool"),), command=" ".join(step.words)[:300])
            continue
    for step in read.line.steps:
        written = shell_writes(step)
        if written:
            yield step, Event(read.index, EDIT, step.program, "edit",
                              FAILED if read.turn.exit_status and read.status_of(step) == "own"
                              else PASSED, read.turn.exit_status, read.status_of(step),
                              objects=tuple(dict.fromkeys(written)), detail=(("by", "shell"),),
                              command=" ".join(step.words)[:300])


def tool_edit(read):
    """The edit of a turn whose tool is an edit (its kind says so) and whose command no
    step names."""
    return [Event(read.index, EDIT, "edit", "edit", PASSED, read.turn.exit_status, "own",
                  objects=("*",), detail=(("by", "tool"),))]
