"""Decision table t25: table t24 on t25's reading of the log (reading_t25.py: whose exit
status a step's is under `set -e`, read step by step), with what set 19 showed once its run
was sealed, taking answers away only:
- "builds clean" ending a clause is a build claim, as "builds cleanly" was: a commit claim
  that also says it builds clean is shown only where the build is;
- a commit claim that names a file is shown by a commit only where git's own lines of that
  commit (`create mode ...`, a `--stat` line) or a `git add` that did not fail, since the
  commit before it, name that file as a path: "I committed `notes/ledger.md`" is not shown
  by a commit of some file the log does not name, nor by a commit message naming it, nor
  by `webapp.py` or `tests/ledger.md`;
- "builds cleanly" (and a lint or type check "cleanly") is not shown by a run that printed
  a warning, as "clean" was not.
"""

import re
from dataclasses import replace

from . import decide_runs, decide_t16, decide_t23, decide_t24, events as ev, shell
from .decision import SHOWN
from ..patterns import lazy

VERSION = "t25"

_CLEAN_BUILD = lazy(r"\b(?:builds?|compiles?)\s+clean\s*(?:[.,;:!)\u2014-]|$)", re.I)
_CLEANLY = lazy(r"\bcleanly\b", re.I)
_CHECKS = ("build.passed", "lint.passed", "typecheck.passed")
_GIT_FILE_LINE = lazy(r"^\s*(?:(?:create|delete) mode \d+ |rename |copy )?(\S+)\s*(?:\||$)")


def read_frame_t25(plain, frame=None):
    """Table t25's frame of a claim with plain quotes: t23's, with "builds clean" a build."""
    frame = decide_t23.read_frame_t23(plain, frame)
    if ev.BUILD not in frame.kinds and _CLEAN_BUILD.search(plain):
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
            _CLEANLY.search(claim) and decision.event is not None and \
            decide_runs._warnings(log, decision.event):
        return None  # "builds cleanly" with a warning printed: as "clean" was read
    return decision


def _files_committed(frame, log, turns, turn):
    """True if every file the claim names is named, as a path, by git's lines of the
    commit made in `turn` or by a `git add` that did not fail since the commit before."""
    since = max((e.turn for e in log.of(ev.COMMIT) if e.turn < turn), default=-1)
    named = [token for line in log.lines[turn] for found in [_GIT_FILE_LINE.match(line)]
             if found and ("mode" in line or "|" in line) for token in [found.group(1)]]
    for index in range(since + 1, turn + 1):
        for step in shell.parse(log.commands[index] or "").runs:
            if step.program == "git" and step.args[:1] == ("add",) and (
                    index == turn or not turns[index].exit_status):
                named.extend(step.args[1:])
    return all(any(_same_path(path, token) for token in named) for path in frame.paths)


def _same_path(claimed, token):
    """True if `token` (a path git or a command names) is the claimed path: the same, or
    one ends the other at a folder."""
    claimed, token = claimed.strip("./"), token.strip("'\"").lstrip("./")
    return bool(claimed and token) and (claimed == token or token.endswith("/" + claimed) or
                                        claimed.endswith("/" + token))
