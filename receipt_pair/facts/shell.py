"""What a command line runs, read as a shell would: its steps, what each step runs through
its wrappers, and whose exit status the log's recorded status is.

A command line is split into steps at `&&`, `||`, `;`, `|`, `&`, line breaks and brackets,
outside quotes, with comments and here-document bodies kept apart (a here-document is a
step's input, not commands). Each step loses what only prepares it (`VAR=1`, `sudo`,
`time`, `timeout 60`, `env`, `nohup`), and wrappers that run another program are looked
through (`uv run`, `poetry run`, `python -m`, `npx`, `bundle exec`, `docker compose run
web`, `sh -c '...'`), so `uv run pytest`, `python -m pytest` and `py.test` are one program.

Whose status: the status a log records for a command line is its last pipeline's. A step
followed by `| tail` or `| tee`, by `|| true`, or by `;` and more commands does not own it
(masked); a step followed only by `&& ...` owns a failing status, and a zero status means
every step passed. A step sent to the background with `&` has no status at all.
"""

import ast
import functools
import re
from dataclasses import dataclass
from typing import Tuple

from .words import split_words
from .wrappers import _is_redirect, positional, resolve, strip_prefixes  # noqa: F401
from ..patterns import lazy

# Steps that only prepare the next one: they run nothing a claim can be about.
_PREPARE = {"cd", "pushd", "popd", "export", "set", "source", ".", "unset", "alias",
            "true", "false", ":", "sleep", "wait", "clear", "ulimit", "umask", "shopt",
            "trap", "eval", "local", "declare", "typeset", "readonly", "return", "exit",
            "break", "continue", "shift", "[", "[[", "test", "let", "hash", "activate",
            "deactivate", "nvm", "pyenv", "conda-activate"}
# Shell words that open or close a compound command: dropped from the front of a step.
_KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!",
             "{", "}", "esac", "time"}
# Programs that only filter or show what a step before them printed, in a pipeline.
FILTERS = {"tail", "head", "grep", "egrep", "fgrep", "rg", "tee", "sort", "uniq", "wc",
           "cut", "tr", "sed", "awk", "less", "more", "cat", "column", "jq", "yq", "nl",
           "fold", "xxd", "od", "ts", "ansi2txt", "col", "strings", "python3", "python"}
_ECHOES = {"echo", "printf", "true", ":"}
# `set -o pipefail` (or `set -euo pipefail`) makes a pipeline's status its worst step's.
_PIPEFAIL = lazy(r"(?:^|[\s;&|])set\s+(?:-[a-zA-Z]*o\s+pipefail|-o\s+pipefail|"
                       r"-[a-zA-Z]*\s+-o\s+pipefail)")


@dataclass(frozen=True)
class Step:
    """One simple command of a command line, as its program sees it."""

    text: str  # its words as written
    words: Tuple[str, ...]  # as the shell splits them, what only prepares it removed
    before: str = ""  # the operator before it: "", "&&", "||", ";", "|", "&", "\n", "("
    after: str = ""  # the operator after it
    heredoc: str = ""  # a here-document fed to it
    program: str = ""  # the program run, looked through wrappers, lower case, no folder
    args: Tuple[str, ...] = ()  # the words after the program
    via: Tuple[str, ...] = ()  # the wrappers looked through ("uv run", "python -m")
    inner: bool = False  # it came from a `sh -c '...'` string
    writes: Tuple[str, ...] = ()  # files its output is sent to (> file, >> file)

    @property
    def prepares(self):
        """True if the step only prepares the next one (cd, export, source ...)."""
        return not self.program or self.program in _PREPARE

    @property
    def echoes(self):
        """True if the step only prints text it was given (echo, printf, print() of
        literals through an interpreter, `cat` of a here-document)."""
        if self.program in _ECHOES:
            return True
        if self.program == "cat" and self.heredoc and not positional(self.args):
            return True
        if self.program in ("python -c", "python -") :
            return _prints_only_literals(self.args[0] if self.args else self.heredoc)
        if self.program == "node -e":
            return _logs_only_literals(self.args[0] if self.args else "")
        return False


@dataclass(frozen=True)
class CommandLine:
    """A command line's steps in order, and how its exit status is shared among them."""

    text: str
    steps: Tuple[Step, ...] = ()
    pipefail: bool = False
    errexit: bool = False  # `set -e`: a failing step ends the line with its own status

    @property
    def runs(self):
        """The steps that run something (not the ones that only prepare)."""
        return tuple(s for s in self.steps if not s.prepares)

    @property
    def echoes_only(self):
        """True if every step that runs something only prints given text."""
        runs = self.runs
        return bool(runs) and all(s.echoes for s in runs)

    def pipeline_end(self, index):
        """The index of the last step of the pipeline the step at `index` begins or is in:
        a pipeline's status is its last step's, unless pipefail."""
        end = index
        while end + 1 < len(self.steps) and self.steps[end].after in ("|", "|&"):
            end += 1
        return end

    def status_of(self, step):
        """Whose is the recorded exit status, for `step`: "own" (a failing status is the
        step's, and a zero status means it passed), "shared" (zero means it passed; a
        failing status may be another step's), "masked" (it says nothing of the step), or
        "background" (the step has no status)."""
        index = self.steps.index(step)
        if step.after == "&":
            return "background"
        end = self.pipeline_end(index)
        if end != index and not self.pipefail:
            return "masked"
        shared = any(not s.prepares and s.after == "&&" for s in self.steps[:index])
        for joined, later in zip((s.after for s in self.steps[end:]), self.steps[end + 1:]):
            if joined == "||":
                return "masked"  # what runs when it fails decides the status
            if joined in (";", "\n", "&") and not self.errexit:
                if later.program == "exit" and later.args[:1] in ([], ["$?"]):
                    continue
                return "masked"  # the last command's status is the line's
            if not later.echoes and not later.prepares:
                shared = True
        return "shared" if shared else "own"


def _prints_only_literals(code):
    """True if Python source only prints literal text: print("done"), print(f"ok")."""
    try:
        tree = ast.parse(code or "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not tree.body:
        return False
    for node in tree.body:
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "print"
                and all(_literal(a) for a in node.value.args)
                and all(_literal(k.value) for k in node.value.keywords)):
            return False
    return True


def _literal(node):
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(v, ast.Constant) for v in node.values)
    if isinstance(node, ast.BinOp):
        return _literal(node.left) and _literal(node.right)
    return False


_CONSOLE_LITERAL = lazy(
    r"""^\s*(?:console\.log\(\s*(?:'[^'\\]*'|"[^"\\]*"|`[^`$\\]*`)\s*\)\s*;?\s*)+$""")


def _logs_only_literals(code):
    return bool(_CONSOLE_LITERAL.match(code or ""))


# -- splitting a command line into steps ------------------------------------------------

_OPERATORS = ("&&", "||", "|&", ";;", "|", ";", "&", "\n", "(", ")")
_HEREDOC = lazy(r"<<(-?)\s*(['\"]?)([A-Za-z_][\w.-]*)\2")


def _pieces(cmd):
    """[(text, operator after it, here-document body)] of a command line, split at its
    operators outside quotes, comments dropped; a here-document's body goes with the piece
    that opened it."""
    pieces, current, pending = [], [], []  # pending: (word, strip tabs, piece index)
    i, n = 0, len(cmd)
    quote = None
    depth = 0  # inside $( ... ): one word
    while i < n:
        ch = cmd[i]
        if quote:
            current.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < n:
                current.append(cmd[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = None
            i += 1
            continue
        if ch in ("'", '"'):
            quote = ch
            current.append(ch)
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            if cmd[i + 1] == "\n":  # a continued line
                i += 2
                continue
            current.extend(cmd[i:i + 2])
            i += 2
            continue
        if cmd.startswith("$(", i) and not cmd.startswith("$((", i):
            depth += 1
            current.append("$(")
            i += 2
            continue
        if ch == ")" and depth:
            depth -= 1
            current.append(ch)
            i += 1
            continue
        if ch == "`":
            end = cmd.find("`", i + 1)
            end = n - 1 if end == -1 else end
            current.append(cmd[i:end + 1])
            i = end + 1
            continue
        if depth:
            current.append(ch)
            i += 1
            continue
        if ch == "#" and (not current or current[-1] in " \t\n;&|("):
            end = cmd.find("\n", i)
            i = n if end == -1 else end
            continue
        if cmd.startswith("<<", i) and not cmd.startswith("<<<", i):
            found = _HEREDOC.match(cmd, i)
            if found:
                pending.append((found.group(3), found.group(1) == "-", len(pieces)))
                current.append(found.group(0))
                i = found.end()
                continue
        operator = next((op for op in _OPERATORS if cmd.startswith(op, i)), None)
        if operator in ("&", "&&") and current and current[-1] in (">", "<"):
            operator = None  # a redirection: 2>&1, <&3
        if operator == "&" and cmd.startswith("&>", i):
            operator = None  # &>file
        if operator == "|" and current and current[-1] == ">":
            operator = None  # >| file
        if operator:
            i += len(operator)
            pieces.append(["".join(current), operator, ""])
            current = []
            if operator == "\n" and pending:
                i = _read_heredocs(cmd, i, pending, pieces)
                pending = []
            continue
        current.append(ch)
        i += 1
    pieces.append(["".join(current), "", ""])
    return [tuple(p) for p in pieces]


def _read_heredocs(cmd, i, pending, pieces):
    """Read the bodies of the here-documents opened on the line that just ended into the
    pieces that opened them; return where the command line goes on after them."""
    for word, strip_tabs, index in pending:
        lines = []
        while i < len(cmd):
            end = cmd.find("\n", i)
            line = cmd[i:] if end == -1 else cmd[i:end]
            i = len(cmd) if end == -1 else end + 1
            if (line.lstrip("\t") if strip_tabs else line).strip() == word:
                break
            lines.append(line)
        body = "\n".join(lines)
        pieces[index][2] = (pieces[index][2] + "\n" + body) if pieces[index][2] else body
    return i


def _split_words(text):
    try:
        return split_words(text)
    except ValueError:  # an unclosed quote: plain words will do
        return text.split()


_ERREXIT = lazy(r"(?:^|[\s;&|])set\s+-[a-zA-Z]*e")


@functools.lru_cache(maxsize=4096)
def parse(cmd, _depth=0):
    """The CommandLine of `cmd` (read once per text: a CommandLine and its steps are frozen,
    and every reader and table parses the same command lines again)."""
    cmd = cmd or ""
    steps = []
    before = ""
    for text, after, heredoc in _pieces(cmd):
        words = _split_words(text)
        if not words:
            before = after or before
            continue
        steps.extend(_steps(text, words, before, after, heredoc, _depth))
        before = after
    return CommandLine(cmd, tuple(steps), bool(_PIPEFAIL.search(cmd)),
                       bool(_ERREXIT.search(cmd)) and "set +e" not in cmd)


def _steps(text, words, before, after, heredoc, depth):
    words = _drop_keywords(words)
    if not words or words[0] in ("for", "case", "select", "function") or \
            re.match(r"^[A-Za-z_][\w-]*\(\)$", words[0]):
        return [Step(text, tuple(words), before, after, heredoc)]
    words, writes = without_redirects(words)
    words = strip_prefixes(words)
    if not words:
        return [Step(text, (), before, after, heredoc, writes=writes)]
    program, args, via, script = resolve(words)
    if heredoc and program in ("python", "node", "python <<"):
        program = "python -" if program == "python" else program
    if script is not None and depth < 3:
        inner = parse(script, depth + 1)
        if inner.steps:
            steps = list(inner.steps)
            steps[0] = _replace(steps[0], before=before)
            steps[-1] = _replace(steps[-1], after=after)
            return [_replace(s, inner=True, via=tuple(via) + s.via) for s in steps]
    return [Step(text, tuple(words), before, after, heredoc, program, tuple(args), tuple(via),
                 writes=writes)]


_REDIRECT = lazy(r"^(?P<fd>\d*|&)(?P<op>>>|>\||>&|>|<<-|<<<|<<|<&|<>|<)(?P<target>.*)$")


def without_redirects(words):
    """(the words without redirections, the files written by `>`/`>>`)."""
    out, writes = [], []
    skip_next = None
    for word in words:
        if skip_next is not None:
            if skip_next.startswith(">") and skip_next not in (">&",) and word != "/dev/null":
                writes.append(word)
            skip_next = None
            continue
        found = _REDIRECT.match(word)
        if found and (found.group("fd") or found.group("op")):
            target = found.group("target")
            op = found.group("op")
            if not target:
                skip_next = op
            elif op in (">", ">>", ">|") and not target.startswith("&") \
                    and target != "/dev/null":
                writes.append(target)
            continue
        out.append(word)
    return out, tuple(writes)


def _replace(step, **changes):
    values = {f: getattr(step, f) for f in step.__dataclass_fields__}
    values.update(changes)
    return Step(**values)


def _drop_keywords(words):
    words = list(words)
    while words and words[0] in _KEYWORDS:
        words.pop(0)
    return words


def subcommand(step, skip_values=()):
    """The first positional argument of a step (a tool's subcommand): `git push` -> push."""
    args = list(step.args)
    while args:
        word = args.pop(0)
        if word in skip_values and args:
            args.pop(0)
            continue
        if word.startswith("-") or _is_redirect(word):
            continue
        return word
    return ""
