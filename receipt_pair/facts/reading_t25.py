"""Table t25's reading of a log: t24's, with whose exit status a step's is under `set -e`
read step by step.

Every earlier reading took a `set -e` anywhere in a command line for the whole line, so a
step followed by `;` or a line break owned the line's status wherever the `set -e` stood.
t25 reads what a shell does:
- `set -e` (or `-o errexit`) counts only for the steps after it, until a `set +e`;
- it ends the line at a failing step only where that step begins its list (not after `&&`
  or `||`: `cd app && npx jest` that fails at `cd` runs no tests and goes on), ends its
  list (not before `&&`), and stands outside any `if`, loop, `case`, `{ }`, `( )`, function
  or `sh -c` string; a line with a `trap` is read as without `set -e` (a trap may end it
  with any status);
- such a step owns a failing status, or shares it with the commands after it, and what
  those commands do (`git add . || true`) says nothing of it: the shell stopped at the
  step if it failed, so a zero status means it passed.
Where those conditions do not all hold, a step's share is read as if the line had no
`set -e` (a `;` or line break after it masks it), and a step that closes brackets with more
after them is masked (every earlier reading lost what followed the bracket: `(go build
./...); echo ok` owned the line's status). Only a test run's, a build's, a lint
run's and a type check's outcome is read again; an event whose share does not change is
t24's.

An edit of `.gitignore` or `.gitattributes` is no edit a run could use: it leaves the runs
before it as fresh as a README's does.

And a step that only asks a tool its version or its usage (`rustc +stable --version`,
`cargo build --help`) is no run of that tool: any other command.
"""

from dataclasses import dataclass, replace

from . import reading_t24, shell
from ..patterns import lazy
from .events import BUILD, COMMAND, FAILED, LINT, MASKED, PASSED, TESTS, TYPECHECK, UNKNOWN
from .text import command_text

_FAMILIES = (TESTS, BUILD, LINT, TYPECHECK)
_OPENS = frozenset(("if", "while", "until", "for", "case", "select", "{", "function"))
_CLOSES = frozenset(("fi", "done", "esac", "}"))
_ERREXIT_ON = frozenset(("-o errexit",))
_ASKS = frozenset(("--version", "--help"))
_NOT_USED = lazy(r"(?:^|/)\.git(?:ignore|attributes)$")


@dataclass
class LogT25(reading_t24.LogT24):
    """A Log read by table t25."""

    @staticmethod
    def matters(path):
        """True if an edit of `path` can change what a run shows (t6's reading, and not git's
        own files)."""
        return reading_t24.LogT24.matters(path) and not _NOT_USED.search(
            path.strip().strip("'\""))


LOG = LogT25  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT25 of `turns` (Turns, oldest first)."""
    log = reading_t24.read_events(turns, LogT25)
    lines = {}
    events = []
    for event in log.events:
        if event.family in _FAMILIES and _ASKS & set(event.command.split()):
            event = replace(event, family=COMMAND)
        command = log.commands[event.turn] or ""
        if event.family in _FAMILIES and event.command and ("set" in command or
                                                            ")" in command):
            text = command_text(turns[event.turn].cmd)
            line = lines.setdefault(event.turn, shell.parse(text))
            event = _read_again(event, line, turns[event.turn].finished)
        events.append(event)
    log.events = events
    return log


def _read_again(event, line, finished):
    """The event with its step's share of the status read as t25 reads it."""
    steps = [s for s in line.steps if " ".join(s.words)[:300] == event.command]
    if len(steps) != 1 or not finished or event.status_is not in ("own", "shared", "masked"):
        return event
    share = status_of(line, steps[0])
    if share == event.status_is:
        return event
    status = event.status
    if share == "masked":
        if event.outcome == PASSED or (event.outcome == FAILED and not event.line):
            return replace(event, outcome=MASKED, status_is=share)
        return replace(event, status_is=share)
    if event.outcome == FAILED and share == "shared" and not event.line:
        return replace(event, outcome=UNKNOWN, status_is=share)  # perhaps a later step's
    if event.outcome != MASKED or status is None or status < 0:
        return replace(event, status_is=share) if event.outcome != MASKED else event
    if status == 0 and (event.line or share == "own"):
        return replace(event, outcome=PASSED, status_is=share)
    if status and share == "own" and not event.line:
        return replace(event, outcome=FAILED, status_is=share)
    return replace(event, outcome=UNKNOWN, status_is=share)


def status_of(line, step):
    """The step's share of the line's recorded status ("own", "shared", "masked",
    "background"), `set -e` read for the steps after it."""
    plain = replace(line, errexit=False)
    if not _stops_at(line, step):
        if step.after == ")" and step is not line.steps[-1]:
            return "masked"  # what follows the brackets is not read: `(pytest); echo done`
        return plain.status_of(step)
    steps = line.steps
    index = steps.index(step)
    shared = False
    for joined, later in zip((s.after for s in steps[index:]), steps[index + 1:]):
        if joined in ("&&", "||", "|", "|&", "&", "(", ")", ";;"):
            return plain.status_of(step)  # its list goes on: read as without set -e
        if joined in (";", "\n"):
            shared = any(not s.prepares and not s.echoes and s.words
                         for s in steps[steps.index(later):])
            break
    return "shared" if shared else "own"


def _stops_at(line, step):
    """True if a `set -e` before `step` ends the line when `step` fails: the step begins
    its list, stands outside every compound command, and no `trap` or `set +e` is in the
    way."""
    on = False
    depth = 0
    for current in line.steps:
        first = (current.text.split() or [""])[0]
        if current.inner or first == "trap" or first.endswith("()") or current.before == "(":
            return False
        if first in _OPENS:
            depth += 1
        if current is step:
            return on and depth == 0 and first != "!" and current.before in ("", ";", "\n") and \
                current.after != "&"
        if first in _CLOSES:
            depth -= 1
        if first == "set" and depth == 0:
            options = current.text.split()[1:]
            if any(o.startswith("-") and "e" in o[1:] and not o.startswith("--")
                   for o in options) or " ".join(options[:2]) in _ERREXIT_ON:
                on = True
            if any(o.startswith("+") and "e" in o[1:] for o in options) or \
                    " ".join(options[:2]) == "+o errexit":
                on = False
    return False
