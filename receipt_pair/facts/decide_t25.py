"""Decision table t25: table t24 on t25's reading of the log (reading_t25.py: whose exit
status a step's is under `set -e`, read step by step), with what set 19 showed once its run
was sealed, taking answers away only:
- "builds clean" (and "a clean build") is a build claim, as "builds cleanly" was: a commit
  claim that also says it builds clean is shown only where the build is;
- a commit claim that names a file is shown by a commit only where the commit's own turn,
  or a `git add` before it, names that file: "I committed `notes/ledger.md`" is not shown
  by a commit line of some file the log does not name.
"""

import os
import re
from dataclasses import replace

from . import decide_t16, decide_t23, decide_t24, events as ev
from .decision import SHOWN
from ..patterns import lazy

VERSION = "t25"

_CLEAN_BUILD = lazy(r"\bbuilds?\s+clean\b|\bclean\s+build\b|\bcompiles?\s+clean(?:ly)?\b",
                    re.I)


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
            decision.rule == "commit.made" and not _files_committed(frame, log, decision.turn):
        return None
    return decision


def _files_committed(frame, log, turn):
    """True if every file the claim names is named by the commit's turn or by a `git add`
    in a turn before it."""
    texts = [log.texts[turn]] + [text for text in log.commands[:turn]
                                 if text and re.search(r"\bgit\s+add\b", text)]
    return all(any(os.path.basename(path) in text for text in texts) for path in frame.paths)
