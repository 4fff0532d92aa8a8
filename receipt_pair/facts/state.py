"""Reads of state: what a command showed of how things stand, not what it did. `pwd` (the
folder), a listing (`ls`, `find`, `tree`, a Glob or list_files tool: the names it showed,
or that a path does not exist), `git status` (the branch, a clean tree or changes),
`git log` and `git rev-parse` (the commits, HEAD first), `git branch` (the current
branch), and a file shown (`cat`, a Read tool: its path).
"""

import re

from . import shell
from .events import FAILED, PASSED, STATE, UNKNOWN, Event
from .git import git_subcommand
from ..patterns import lazy

_LISTERS = {"ls", "dir", "find", "tree", "glob", "list_files", "list_dir", "ls_files", "fd",
            "exa", "eza", "list_directory", "listdir"}
_SHOWERS = {"cat", "read", "read_file", "view", "bat", "head", "tail", "less", "more", "type",
            "open", "nl", "view_file", "readfile"}
_MISSING = lazy(r"(?:No such file or directory|cannot access|does not exist|not found|"
                      r"cannot find the path)", re.I)
_ON_BRANCH = lazy(r"^On branch (\S+)")
_CLEAN = lazy(r"^nothing to commit,? (?:\(?working (?:tree|directory) clean\)?)")
_DIRTY = lazy(r"^(?:Changes not staged for commit|Changes to be committed|"
                    r"Untracked files|Unmerged paths|You have unmerged paths)")
_LOG_LINE = lazy(r"^(?:commit )?([0-9a-f]{7,40})\b(?:\s+(?:\([^)]*\)\s+)?(.*))?$")
_BRANCH_LINE = lazy(r"^\*\s+(\S+)")
_SHA = lazy(r"^[0-9a-f]{7,40}$")


def read(read, taken):
    """(step, Event) of every read of state of one turn."""
    for step in read.line.runs:
        if id(step) in taken:
            continue
        event = _state(read, step)
        if event is not None:
            yield step, event


def _event(read, step, kind, outcome, **found):
    """The event of a read of state; `found` may hold its `objects`, `parts`, `detail`, and
    `shown`: (the line that shows it, its index)."""
    line, index = found.get("shown", ("", -1))
    objects, parts, detail = (found.get(k, ()) for k in ("objects", "parts", "detail"))
    return Event(read.index, STATE, kind, f"state:{kind}", outcome, read.turn.exit_status,
                 read.status_of(step), line, index, tuple(objects),
                 detail=(("read", kind),) + tuple(detail), command=" ".join(step.words)[:300],
                 parts=tuple(parts))


def _state(read, step):
    program = step.program
    lines = [l for l in read.lines]
    status = read.turn.exit_status
    share = read.status_of(step)
    settled = share in ("own", "shared") or status is None
    if program == "pwd":
        folder = next(((l.strip(), i) for i, l in enumerate(lines) if l.strip().startswith("/")
                       or re.match(r"^[A-Z]:\\", l.strip())), None)
        if folder is None:
            return _event(read, step, "pwd", UNKNOWN)
        return _event(read, step, "pwd", PASSED, objects=(folder[0],), shown=folder)
    if program in _LISTERS:
        named = [a for a in shell.positional(step.args)] or ["."]
        missing = [(l.strip(), i) for i, l in enumerate(lines) if _MISSING.search(l)]
        parts = []
        for index, line in enumerate(lines):
            text = line.strip()
            if not text or _MISSING.search(text) or text.startswith("total "):
                continue
            name = text.split()[-1] if program in ("ls", "dir", "exa", "eza") else text
            parts.append((name.rstrip("/*@"), "listed", text))
        for line, index in missing:
            parts.append((line, "missing", line))
        outcome = FAILED if (missing and status) else PASSED if settled or parts else UNKNOWN
        return _event(read, step, "listing", outcome, objects=named, parts=parts[:400])
    sub = git_subcommand(step)
    if sub == "status":
        branch = next(((m.group(1), l.strip(), i) for i, l in enumerate(lines)
                       for m in [_ON_BRANCH.match(l.strip())] if m), None)
        clean = next(((l.strip(), i) for i, l in enumerate(lines) if _CLEAN.match(l.strip())),
                     None)
        dirty = next(((l.strip(), i) for i, l in enumerate(lines) if _DIRTY.match(l.strip())),
                     None)
        detail = []
        if branch:
            detail.append(("branch", branch[0]))
        if clean:
            detail.append(("tree", "clean"))
        elif dirty:
            detail.append(("tree", "changed"))
        line, index = clean or dirty or (branch[1:] if branch else ("", -1))
        return _event(read, step, "git status", PASSED if detail else UNKNOWN,
                      objects=[branch[0]] if branch else [], detail=detail,
                      shown=(line, index))
    if sub in ("log", "rev-parse", "show"):
        commits = []
        for index, line in enumerate(lines):
            match = _LOG_LINE.match(line.strip())
            if match and (sub != "show" or not commits):
                commits.append((match.group(1), "commit", line.strip()))
        if not commits:
            return _event(read, step, f"git {sub}", UNKNOWN)
        return _event(read, step, f"git {sub}", PASSED, objects=[commits[0][0]], parts=commits[:200],
                      shown=(commits[0][2], next(i for i, l in enumerate(lines)
                                                 if l.strip() == commits[0][2])))
    if sub == "branch":
        current = next(((m.group(1), l.strip(), i) for i, l in enumerate(lines)
                        for m in [_BRANCH_LINE.match(l.strip())] if m), None)
        if current is None:
            return None
        return _event(read, step, "git branch", PASSED, objects=[current[0]],
                      detail=(("branch", current[0]),), shown=current[1:])
    if program in _SHOWERS or read.turn.kind == "view":
        files = shell.positional(step.args)
        missing = next(((l.strip(), i) for i, l in enumerate(lines[:3]) if _MISSING.search(l)),
                       None)
        outcome = FAILED if missing and (status or status is None) else PASSED
        return _event(read, step, "file", outcome, objects=files[:3], shown=missing or ("", -1))
    return None
