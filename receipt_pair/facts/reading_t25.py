"""Table t25's reading of a log: t24's, with whose exit status a step's is read again, `set
-e` among it.

Every earlier reading took a `set -e` anywhere in a command line for the whole line, so a
step followed by `;` or a line break owned the line's status wherever the `set -e` stood.
t25 reads it only where a shell surely stops at the failing step:
- an unconditional `set -e` (`set -euo pipefail`, `set -o errexit`; not `[ ... ] && set
  -e`, not `set --`) stands before the step, and no `set +e` between;
- nothing before the step could turn it off or hide a failure unread: no compound command
  (`if`, a loop, `case`, braces), function, brackets, `eval`, `source`, `trap`, `exec`,
  `command`, `sh -c` string, ANSI-C quote or here-document with a backslash delimiter;
- the step is a list of its own (not `cd app && npx jest`, whose `cd` may fail and go on,
  nor `npx jest && echo ok`).
Such a step owns a failing status, or shares it with any later command that may fail (a
`cd`, a `test` or `[` may), and what those commands do (`git add . || true`) says nothing
of it: the shell stopped at the step if it failed, so a zero status means it passed.
Elsewhere a step's share is read as if the line had no `set -e` (a `;` or line break after
it masks it), with two holes of every earlier reading closed: a `cd`, `test` or `[` after
`&&` shares the status (`npm run build && cd dist` that fails failed at `cd`), and a step
that closes brackets with more after them is masked (`(go build ./...); echo ok` owned
the line's status). Only a test run's, a build's, a lint run's and a type check's outcome
is read again; an event whose share does not change is t24's.

And a step that only asks a tool its version or its usage (`rustc +stable --version`,
`cargo build --help`, `npx tsc -v`) is no run of that tool: any other command.
"""

import itertools
import re
from dataclasses import dataclass, replace

from . import reading_t24, shell
from ..patterns import lazy
from .events import BUILD, COMMAND, FAILED, LINT, MASKED, PASSED, TESTS, TYPECHECK, UNKNOWN
from .text import command_text

_FAMILIES = (TESTS, BUILD, LINT, TYPECHECK)
_OPENS = frozenset(("if", "while", "until", "for", "{"))
_KEYWORDS = frozenset(("if", "then", "else", "elif", "fi", "do", "done", "while", "until",
                       "for", "{", "}", "!", "time"))
_CLOSES = frozenset(("fi", "done", "esac", "}"))
_ERREXIT_ON = frozenset(("-o errexit", "-o errexit -o nounset", "-o nounset -o errexit",
                         "-o errexit -o pipefail", "-o pipefail -o errexit"))
_OPTION_NAMES = frozenset(("pipefail", "errexit", "nounset", "xtrace"))
# First words before a step that could turn `set -e` off, or hide a failure, unread.
_HIDES = frozenset(("eval", "source", ".", "trap", "exec", "command", "builtin", "function",
                    "!"))
_EXIT_PIPESTATUS = lazy(r"\bexit\s+\"?\$\{?PIPESTATUS")
_BRACKET = lazy(r"(?<!\$)\(")  # a subshell, a function, arithmetic: not `$(...)`
_QUOTED = lazy(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_COMMENT = lazy(r"(?m)(?:^|(?<=\s))#.*$")
_COMMENT_LINE = lazy(r"(?m)^\s*#.*$")
_CANNOT_FAIL = frozenset(("true", ":", "export", "set", "unset", "alias", "sleep", "shopt",
                          "umask", "echo", "printf"))
_ASKS = frozenset(("--version", "--help"))
# Tools whose lone -v, -V or -h asks the version or the usage (a test runner's -v is verbose).
# Tools whose lone flag asks the version or the usage (a test runner's -v is verbose, and so
# is ninja's): -v, -V, and -h for any of them.
_ASKED_V = frozenset(("tsc", "eslint", "make", "prettier", "npm", "yarn", "pnpm", "node",
                      "gradle", "mvn", "gcc", "clang", "webpack", "vite", "next", "biome",
                      "swift"))
_ASKED_UPPER_V = frozenset(("ruff", "mypy", "cargo", "rustc", "tsc", "mvn", "gradle"))
_WRAPPERS = frozenset(("npx", "pnpx", "bunx", "yarn", "pnpm", "exec", "dlx", "run", "uv",
                       "poetry"))


@dataclass
class LogT25(reading_t24.LogT24):
    """A Log read by table t25."""


LOG = LogT25  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT25 of `turns` (Turns, oldest first)."""
    log = reading_t24.read_events(turns, LogT25)
    events = []
    for event in log.events:
        if event.family in _FAMILIES and _asks(event.command):
            event = replace(event, family=COMMAND, key=event.key + " (asked)")
        if event.family in _FAMILIES and event.command:  # (shell.parse reads a text once)
            line = shell.parse(command_text(turns[event.turn].cmd))
            event = _read_again(event, line, turns[event.turn].finished)
        events.append(event)
    log.events = events
    return log


def _asks(command):
    """True if a step only asks its tool the version or the usage: `--version` or `--help`
    anywhere, or a tool's lone `-v`, `-V` or `-h` that asks it so (`npx tsc -v`, `make
    -v`; not `pytest tests/node -v`)."""
    words = command.split()
    if _ASKS & set(words):
        return True
    if len(words) < 2 or any(w not in _WRAPPERS for w in words[:-2]):
        return False
    tool = words[-2].rsplit("/", 1)[-1]
    return (words[-1] == "-v" and tool in _ASKED_V) or (
        words[-1] == "-V" and tool in _ASKED_UPPER_V) or (
        words[-1] == "-h" and tool in _ASKED_V | _ASKED_UPPER_V)


def _read_again(event, line, finished):
    """The event with its step's share of the status read as t25 reads it."""
    steps = [s for s in line.steps if " ".join(s.words)[:300] == event.command]
    if not steps or not finished or event.status_is not in ("own", "shared", "masked"):
        return event
    if _EXIT_PIPESTATUS.search(line.text):
        return event  # `exit ${PIPESTATUS[0]}`: the share t2's guard reads
    shares = {status_of(line, s) for s in steps}  # the same words twice: the least sure
    share = "masked" if "masked" in shares else shares.pop() if len(shares) == 1 else \
        event.status_is
    if share != "masked" and any(line.status_of(s) != event.status_is for s in steps):
        return event  # a share an earlier table's guard read (a trap) stands, unless t25
        # takes it away
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
    steps = line.steps
    index = steps.index(step)
    if step.after == "&":
        return "background"
    end = line.pipeline_end(index)
    if end != index and not line.pipefail:
        return "masked"
    if step.after == ")" and end + 1 < len(steps):
        return "masked"  # what follows the brackets is not read: `(pytest); echo done`
    later = steps[end + 1:]
    if _stops_at(line, step):
        return "shared" if any(_may_fail(s) for s in later) else "own"
    shared = any(not s.prepares and s.after == "&&" for s in steps[:index])
    for joined, after in zip((s.after for s in steps[end:]), later):
        if joined == "||":
            return "masked"  # what runs when it fails decides the status
        if joined in (";", "\n", "&"):
            if after.program == "exit" and after.args[:1] in ([], ["$?"]):
                continue
            return "masked"  # the last command's status is the line's
        if _may_fail(after):
            shared = True
    return "shared" if shared else "own"


def _may_fail(step):
    """True if a step may end with a failing status of its own: anything but a word that
    cannot fail, or an echo that writes nowhere and names no variable (`cd`, `test`, `[`
    can fail; so can `echo x > dist/VERSION` and, under `set -u`, `echo "$X"`)."""
    first = (step.text.split() or [""])[0]
    if not step.words:
        return False
    if step.echoes or first in ("echo", "printf"):
        return bool(step.writes) or "$" in step.text
    return first not in _CANNOT_FAIL


def _bare(line):
    """The line's text without its here-document bodies, quoted strings and comments."""
    text = line.text
    for body in {s.heredoc for s in line.steps if s.heredoc}:
        text = text.replace(body, "")
    text = _COMMENT_LINE.sub("", text)  # first: a comment's apostrophe opens no quote
    return _COMMENT.sub("", _QUOTED.sub("", text))


def _stops_at(line, step):
    """True if an unconditional `set -e` before `step` ends the line when `step` fails:
    nothing before the step could turn it off or hide the failure (no function, brackets,
    `case`, `eval`, `source`, `trap`, `exec`, `command`, `sh -c` string, ANSI-C quote,
    here-document with a backslash delimiter, nor a `set` inside a compound command; an
    `if` or a loop closed before the step may stand), the `set -e` and the step each stand
    as a list of their own outside any compound command, and no `set +e` comes between."""
    if "$'" in line.text or "<<\\" in line.text or _BRACKET.search(_bare(line)):
        return False  # quotes, bodies and brackets the splitter may not read as a shell does
    on = False
    depth = 0
    for current in line.steps:
        words = current.text.split() or [""]
        leading = list(itertools.takewhile(lambda w: w in _KEYWORDS, words))
        first = words[len(leading)] if len(leading) < len(words) else ""
        if current is step:
            return on and depth == 0 and not leading and first not in _HIDES and \
                not current.inner and \
                current.before in ("", ";", "\n") and current.after in ("", ";", "\n")
        if current.inner or first in _HIDES or first in ("case", "select", "function") or \
                first.endswith("()") or "(" in (current.before, current.after) or \
                ")" in (current.before, current.after):
            return False
        depth += sum(w in _OPENS for w in leading) - sum(w in _CLOSES for w in leading)
        if depth < 0:
            return False
        if first == "set":
            options = words[len(leading) + 1:]
            if depth:
                return False  # a `set` inside a compound command: not read
            if any(o.startswith("+") or o == "--" for o in options):
                on = False  # `set +e`, `set +o errexit`, `set --` (and what follows)
            elif options and not leading and current.before in ("", ";", "\n") and \
                    current.after in (";", "\n") and (
                        " ".join(options) in _ERREXIT_ON or all(
                            re.fullmatch(r"-[A-Za-z]+", o) or o == "-o" or o in _OPTION_NAMES
                            for o in options) and any(
                            re.fullmatch(r"-[A-Za-z]*e[A-Za-z]*", o) for o in options)):
                on = True
    return False
