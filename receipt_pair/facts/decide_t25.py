"""Decision table t25: table t24 on t25's reading of the log (reading_t25.py: whose exit
status a step's is under `set -e`, read step by step), with what set 19 showed once its run
was sealed, taking answers away only:
- "builds clean" ending a clause, and not denied ("no longer builds clean"), is a build
  claim, as "builds cleanly" was: a commit claim that also says it builds clean is shown
  only where the build is;
- a commit claim that names a file is shown by a commit only where git's own lines of that
  commit (`create mode ...`, a `--stat` line no other command printed), the commit's own
  pathspec, or a `git add` that surely staged it since the commit before name that file as
  a path: "I committed `notes/ledger.md`" is not shown by a commit of some file the log
  does not name, nor by a commit message naming it, nor by `webapp.py`, `tests/ledger.md`
  or a root `ledger.md`;
- "builds cleanly" (and a lint or type check "cleanly", "clean" or "without warnings") is
  not shown by a run that printed a warning, as "clean" was not, Create React App's and
  webpack's "Compiled with warnings" and clang's "N warnings generated." read as warnings.
"""

import re
from dataclasses import replace

from . import decide_runs, decide_t16, decide_t23, decide_t24, events as ev, shell
from .decision import SHOWN
from ..patterns import lazy

VERSION = "t25"

_CLEAN_BUILD = lazy(r"\b(?:builds?|compiles?)\s+clean\s*(?:[.,;:!)\u2014-]|$)", re.I)
_OTHER_STATS = lazy(r"\bgit\s+(?:diff|log|show)\b[^\n;&|]*--(?:stat|numstat|summary)")
_NEGATED = lazy(r"\b(?:no\s+longer|not|never|nor|no)\b|n't\b", re.I)
_CLEANLY = lazy(r"\bclean(?:ly)?\b|\b(?:without|no|zero)\s+(?:\w+\s+)?warnings?\b", re.I)
# A build's own word that it warned, in the forms the earlier tables' warning lines miss.
_WARNED = lazy(r"^\s*Compiled with warnings\b|^\s*\S+ compiled with \d+ warnings?\b|"
               r"\bwarnings? generated\.?\s*$", re.I)
_CHECKS = ("build.passed", "lint.passed", "typecheck.passed")
_GIT_FILE_LINE = lazy(r"^\s*(?:(?:create|delete) mode \d+ |rename |copy )?(\S+)\s*(?:\||$)")


def read_frame_t25(plain, frame=None):
    """Table t25's frame of a claim with plain quotes: t23's, with "builds clean" a build."""
    frame = decide_t23.read_frame_t23(plain, frame)
    found = _CLEAN_BUILD.search(plain)
    before = re.split(r"[.;!?]\s", plain[:found.start()])[-1] if found else ""
    if ev.BUILD not in frame.kinds and found and not _NEGATED.search(before):
        frame = decide_t16.read_frame_t16(plain, replace(frame, kinds=frame.kinds + (ev.BUILD,)))
    return frame


def decide(claim, turns, log, frame):
    """The Decision table t25 gives for `claim` (with plain quotes; `frame`: t25's frame of
    it), or None. `log` is t25's reading of the turns."""
    decision = decide_t24.decide(claim, turns, log, frame)
    if decision is not None and decision.answer == SHOWN and \
            decision.rule == "commit.made" and not _files_committed(frame, log, turns,
                                                                    decision.turn):
        return None
    if decision is not None and decision.answer == SHOWN and decision.rule in _CHECKS and \
            _CLEANLY.search(claim) and decision.event is not None and (
                decide_runs._warnings(log, decision.event) or any(
                    _WARNED.search(line) for line in log.lines[decision.event.turn])):
        return None  # "builds cleanly" with a warning printed: as "clean" was read
    return decision


def _files_committed(frame, log, turns, turn):
    """True if every file the claim names is named, as a path, by git's own lines of the
    commit made in `turn` (`create mode`, or a `--stat` line where no other command of the
    turn prints stats), by the commit's own pathspec, or, where it has none, by a `git add`
    that staged it since the commit before (not a dry run, not one that failed or was
    joined by `;`, none undone by `git restore --staged`, `git reset` or `git rm --cached`
    before the commit)."""
    command = log.commands[turn] or ""
    stats = not _OTHER_STATS.search(command)
    named = [found.group(1) for line in log.lines[turn]
             for found in [_GIT_FILE_LINE.match(line)]
             if found and ("mode" in line or ("|" in line and stats))]
    commits = [s for s in shell.parse(command).runs
               if s.program == "git" and s.args[:1] == ("commit",)]
    pathspec = _pathspec(commits[-1]) if commits else []
    if pathspec:
        named.extend(pathspec)
    elif not commits or not _undone(log, range(_since(log, turn) + 1, turn + 1), commits[-1]):
        named.extend(_added(log, turns, turn, commits[-1] if commits else None))
    return all(any(_same_path(path, token) for token in named) for path in frame.paths)


def _since(log, turn):
    return max((e.turn for e in log.of(ev.COMMIT) if e.turn < turn), default=-1)


def _added(log, turns, turn, commit):
    """The paths `git add` staged since the commit before `turn`, up to its commit step."""
    added = []
    for index in range(_since(log, turn) + 1, turn + 1):
        for step in shell.parse(log.commands[index] or "").runs:
            if index == turn and step is commit:
                break
            if step.program == "git" and step.args[:1] == ("add",) and not (
                    {"-n", "--dry-run"} & set(step.args)) and (
                    (index == turn and step.after == "&&") or
                    (index != turn and turns is not None and not turns[index].exit_status)):
                added.extend(a for a in step.args[1:] if not a.startswith("-"))
    return added


def _undone(log, turns_between, commit):
    """True if a command between the adds and the commit unstaged something."""
    for index in turns_between:
        for step in shell.parse(log.commands[index] or "").runs:
            if step is commit:
                return False
            words = " ".join(step.args)
            if step.program == "git" and (words.startswith(("reset", "restore --staged",
                                                             "rm --cached"))):
                return True
    return False


def _pathspec(commit):
    """The paths a `git commit` names after its options (only they are committed)."""
    args, paths, skip = list(commit.args[1:]), [], False
    for word in args:
        if skip:
            skip = False
        elif word in ("-m", "--message", "-F", "--file", "-C", "-c", "--author", "--date",
                      "--fixup", "--squash", "-t", "--template", "--cleanup"):
            skip = True
        elif word == "--":
            continue
        elif not word.startswith("-"):
            paths.append(word)
    return paths


def _same_path(claimed, token):
    """True if `token` (a path git or a command names) is the claimed path: the same, or
    the claimed path ends it at a folder (`ledger.md` is `notes/ledger.md`; `docs/ledger.md`
    is not `ledger.md`)."""
    claimed, token = claimed.strip("./"), token.strip("'\"").lstrip("./")
    return bool(claimed and token) and (claimed == token or token.endswith("/" + claimed))
