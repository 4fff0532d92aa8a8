"""Events: what every turn of a log did, read once, in plain code.

`reading.read_events(turns)` gives, for each step of each turn's command line that runs something,
one Event: its family (a test run, a push, a commit, a build, an install, an edit, a read
of state, or any other command), the operation and what it was done to, and how it ended
as far as the log settles it. The family modules (tests.py, git.py, builds.py,
installs.py, files.py, state.py) each read their own operations; this module reads what
every command shares: whose the exit status is, whether it finished, whether it only
echoed text.

An outcome is one of:
- PASSED / FAILED: the log settles it (an own exit status, a runner's own count, a ref
  line of git);
- NOTHING: it ran nothing (0 tests collected, a list of tests, a dry run);
- CUT: it was stopped before it ended (an interrupt, a kill, a timeout);
- BACKGROUND: it was still running (sent to the background, or the log was written first);
- MASKED: its status was not its own (`| tail`, `|| true`) and nothing it printed settles it;
- ECHO: it only printed text it was given;
- UNKNOWN: nothing above settles it.
"""

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from . import shell

# Families of event.
TESTS, PUSH, COMMIT, MERGE, TAG = "tests", "push", "commit", "merge", "tag"
BUILD, LINT, TYPECHECK = "build", "lint", "typecheck"
INSTALL, MIGRATE, DEPLOY, HTTP = "install", "migrate", "deploy", "http"
EDIT, STATE, COMMAND = "edit", "state", "command"
FAMILIES = (TESTS, PUSH, COMMIT, MERGE, TAG, BUILD, LINT, TYPECHECK, INSTALL, MIGRATE, DEPLOY,
            HTTP, EDIT, STATE, COMMAND)

# Outcomes.
PASSED, FAILED, NOTHING, CUT, BACKGROUND, MASKED, ECHO, UNKNOWN = (
    "passed", "failed", "nothing", "cut", "background", "masked", "echo", "unknown")
# Outcomes that show neither success nor failure of the operation.
SHOWS_NEITHER = (NOTHING, CUT, BACKGROUND, MASKED, ECHO, UNKNOWN)


@dataclass(frozen=True)
class Event:
    """One operation a turn ran, as plain code reads it."""

    turn: int  # the turn's index in the log
    family: str
    operation: str  # "pytest", "git push", "npm run build"
    key: str  # what "the same operation" is: a suite, a tool, a remote's branch
    outcome: str
    status: Optional[int] = None  # the exit status the log recorded for the turn
    status_is: str = "none"  # own, shared, masked, background, none (shell.status_of)
    line: str = ""  # the output line that shows the outcome ("" where none does)
    line_index: int = -1  # its place among the turn's screen lines
    objects: Tuple[str, ...] = ()  # what it acted on: branches, paths, packages, a part
    counts: Optional[Tuple[int, int, int]] = None  # tests: (passed, failed, skipped)
    detail: Tuple[Tuple[str, str], ...] = ()  # a family's own facts, as (name, value)
    command: str = ""  # the step's words, for a receipt
    # Per object, how it ended: a push's refs, an install's packages, a listing's names,
    # as (name, state, line).
    parts: Tuple[Tuple[str, str, str], ...] = ()

    def get(self, name, default=""):
        for key, value in self.detail:
            if key == name:
                return value
        return default

    def to_dict(self):
        value = {"turn": self.turn, "family": self.family, "operation": self.operation,
                 "key": self.key, "outcome": self.outcome, "status": self.status,
                 "status_is": self.status_is, "line": self.line,
                 "objects": list(self.objects), "command": self.command}
        if self.counts is not None:
            value["counts"] = dict(zip(("passed", "failed", "skipped"), self.counts))
        if self.detail:
            value["detail"] = dict(self.detail)
        if self.parts:
            value["parts"] = [list(p) for p in self.parts]
        return value


@dataclass(frozen=True)
class Read:
    """What one turn gives a family reader."""

    index: int
    turn: object  # a Turn
    line: shell.CommandLine
    lines: Tuple[str, ...]  # the output's screen lines

    def status_of(self, step):
        """The step's share of the recorded exit status (shell.CommandLine.status_of), or
        "background" when the log says the turn had not finished."""
        if not self.turn.finished:
            return "background"
        return self.line.status_of(step)


@dataclass
class Log:
    """Every event of a log, in order, with a turn's events reachable by its index."""

    events: List[Event] = field(default_factory=list)
    turns: int = 0
    lines: List[Tuple[str, ...]] = field(default_factory=list)  # each turn's screen lines
    texts: List[str] = field(default_factory=list)  # each turn's command and output

    def of(self, *families):
        return [e for e in self.events if e.family in families]

    def at(self, turn):
        return [e for e in self.events if e.turn == turn]


def step_outcome(read, step, passed_line=None, failed_line=None):
    """(outcome, line, index) of a step from its share of the status and the lines its
    family found: `failed_line` and `passed_line` are (line, index) or None."""
    share = read.status_of(step)
    status = read.turn.exit_status
    if share == "background":
        return BACKGROUND, "", -1
    if failed_line is not None:
        return FAILED, failed_line[0], failed_line[1]
    if share in ("own", "shared") and status is not None and status < 0:
        return UNKNOWN, "", -1  # -1: the harness did not learn how it ended
    if share == "own" and status:
        return FAILED, "", -1
    if share in ("own", "shared") and status == 0:
        return (PASSED,) + (passed_line or ("", -1))
    if passed_line is not None and share in ("own", "shared"):
        return PASSED, passed_line[0], passed_line[1]
    if share == "masked":
        return MASKED, "", -1
    return UNKNOWN, "", -1
