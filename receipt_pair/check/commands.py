"""What a command line runs, read in plain code: the operation it performs and its targets.

"The latest attempt decides" needs to know when two turns ran the same operation:
`pytest -q` and `python -m pytest tests/` both run the test suite, `git push origin main`
and `git push` both push, `./deploy.sh staging` and `./deploy.sh production` deploy to two
different places. A command line is split at `&&`, `||`, `;`, `|` and line breaks; each
piece loses what only prepares it (`cd`, `export`, variable assignments, `sudo`, `time`,
`timeout 60`, `env`), and wrappers that run another program (`python -m`, `npx`, `uv run`,
`poetry run`, `bash script.sh`) are looked through. An operation is the program and, for
tools with subcommands, the subcommand (`git push`, `npm test`, `npm run build`, `cargo
test`, `manage.py migrate`); its targets are the other words that are not options.
"""

import re
import shlex
from dataclasses import dataclass
from typing import Tuple
from ..patterns import lazy

# Pieces that only prepare the next one.
_PREPARE = {"cd", "pushd", "popd", "export", "set", "source", ".", "unset", "alias", "true",
            "false", ":", "sleep", "wait", "clear", "ulimit", "umask", "shopt"}
# Words in front of the program that do not change what it does.
_PREFIX = {"sudo", "time", "nohup", "exec", "env", "command", "nice", "stdbuf", "xargs"}
# Programs that only filter or show what another piece printed: they are not the operation.
_FILTERS = {"tail", "head", "grep", "egrep", "fgrep", "tee", "sort", "uniq", "wc", "cut", "tr",
            "sed", "awk", "less", "more", "cat", "column", "jq", "yq", "rg", "nl", "fold",
            "echo", "printf", "xxd", "od", "true"}
# Tools whose first word that is not an option names what they do.
_SUBCOMMANDS = {"git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "make", "gmake", "docker",
                "podman", "kubectl", "helm", "gh", "terraform", "tofu", "dotnet", "mvn",
                "gradle", "gradlew", "poetry", "pip", "pip3", "uv", "deno", "flutter", "dart",
                "rails", "rake", "bundle", "composer", "artisan", "manage.py", "tox", "nox",
                "ansible-playbook", "aws", "gcloud", "az", "fly", "flyctl", "heroku", "vercel",
                "netlify", "wrangler", "firebase", "serverless", "sls", "cdk", "pulumi",
                "alembic", "rustup", "conda", "mamba", "brew", "apt", "apt-get", "systemctl",
                "swift", "mix", "stack", "cabal", "sbt", "lein", "zig", "nx", "turbo", "lerna",
                "vitest", "jest", "hatch", "pdm", "rye", "pixi", "just", "task", "meson",
                "ninja", "cmake", "ctest", "php", "node", "django-admin"}
# Runners whose subcommand is itself followed by a name: `npm run build`, `yarn workspace x`.
_RUN_NAMED = {("npm", "run"), ("pnpm", "run"), ("yarn", "run"), ("bun", "run"),
              ("npm", "run-script"), ("deno", "task"), ("poetry", "run"), ("uv", "run"),
              ("pdm", "run"), ("hatch", "run"), ("rye", "run"), ("pixi", "run")}
# Wrappers that run the program named after them.
_WRAPPERS = {"npx", "pnpx", "bunx", "pipx"}
_INTERPRETERS = lazy(r"^(?:python[\d.]*|pypy[\d.]*|node|bash|sh|zsh|dash|ruby|perl|php|"
                           r"deno|bun|tsx|ts-node)$")

# Operations that run tests: a failing run of any part of the suite fails "the tests".
_TEST_PROGRAMS = {"pytest", "py.test", "tox", "nox", "unittest", "jest", "vitest", "mocha",
                  "karma", "ava", "tap", "rspec", "phpunit", "pest", "ctest", "bats", "nose2",
                  "nosetests", "behave", "cucumber", "playwright", "cypress", "trial", "ward"}
_TEST_WORDS = lazy(r"(?:^|[:_\-])(?:test|tests|check|spec|specs|verify|e2e|ci)(?:$|[:_\-])")


@dataclass(frozen=True)
class Operation:
    """What one piece of a command line does: e.g. ("git", "push") with targets
    ("origin", "main")."""

    name: Tuple[str, ...]
    targets: Tuple[str, ...] = ()

    @property
    def runs_tests(self):
        if not self.name:
            return False
        if self.name[0] in _TEST_PROGRAMS:
            return True
        return len(self.name) > 1 and bool(_TEST_WORDS.search(self.name[-1]))


def _words(piece):
    try:
        return shlex.split(piece, comments=False, posix=True)
    except ValueError:  # an unclosed quote: plain words will do
        return piece.split()


_HEREDOC = lazy(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def _without_heredocs(cmd):
    """The command line without the bodies of its here-documents (a file's text, not
    commands)."""
    lines, out, ending = (cmd or "").split("\n"), [], None
    for line in lines:
        if ending is not None:
            if line.strip() == ending:
                ending = None
            continue
        out.append(line)
        found = _HEREDOC.search(line)
        if found:
            ending = found.group(2)
    return "\n".join(out)


# A CI log's line prefix: "2025-10-30T12:39:36.7689609Z " and "##[group]Run ".
# The settings a CI log prints under a step's command: "shell: /usr/bin/bash -e {0}".
_CI_SETTING = lazy(r"^(?:##\[|(?:shell|env|with|working-directory|[A-Z][A-Z0-9_]*):(?:\s|$))")
_CI_PREFIX = lazy(r"^\d{4}-\d\d-\d\dT[\d:.]+Z\s?(?:##\[group\]Run\s+)?", re.M)


def _pieces(cmd):
    text = _CI_PREFIX.sub("", _without_heredocs(cmd or "")).replace("##[group]Run ", "")
    return [p.strip() for p in re.split(r"&&|\|\||;|\||\n", text)
            if p.strip() and not _CI_SETTING.match(p.strip())]


def _strip_front(words):
    while words:
        first = words[0]
        if "=" in first and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", first):
            words = words[1:]
        elif first in _PREFIX:
            words = words[1:]
            while words and words[0].startswith("-"):
                words = words[1:]
        elif first == "timeout":
            words = words[1:]
            while words and (words[0].startswith("-") or re.match(r"^\d", words[0])):
                words = words[1:]
        else:
            break
    return words


def _positional(words):
    """The words that are not options, nor the values of `-x value` options (guessed: a word
    after a short option is taken as its value only when it does not look like a path)."""
    out = []
    for word in words:
        if word.startswith("-") or word.startswith(">") or word.startswith("<") or word in (
                "2>&1", "&"):
            continue
        out.append(word)
    return out


def operation_of(piece):
    """The Operation of one piece of a command line, or None for a piece that only prepares
    or filters."""
    words = _strip_front(_words(piece))
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    if program in _PREPARE:
        return None
    if program in _WRAPPERS and rest:
        rest = [w for w in rest if not w.startswith("-")]
        if not rest:
            return None
        program, rest = rest[0].rsplit("/", 1)[-1], rest[1:]
    if _INTERPRETERS.match(program):
        while rest and rest[0].startswith("-") and rest[0] not in ("-m", "-c", "-e"):
            rest = rest[1:]
        if rest[:1] == ["-m"] and len(rest) > 1:
            program, rest = rest[1], rest[2:]
        elif rest[:1] in (["-c"], ["-e"]):
            return Operation((program, "-c"), tuple(rest[1:2]))
        elif rest:
            program, rest = rest[0].rsplit("/", 1)[-1], rest[1:]
    if program in _FILTERS:
        return None
    name = [program]
    positional = _positional(rest)
    if program in _SUBCOMMANDS and positional:
        name.append(positional.pop(0))
        if tuple(name) in _RUN_NAMED and positional:
            name.append(positional.pop(0))
    return Operation(tuple(name), tuple(positional))


def operations(cmd):
    """Every operation a command line runs, in order."""
    return [op for op in (operation_of(p) for p in _pieces(cmd)) if op is not None]


def same_run(earlier, later):
    """True if `later` runs an operation of `earlier` again (for "a later run of it failed").

    Tests: any later run of the same test runner counts, whatever part of the suite it ran
    (a failing part fails "the tests"). Anything else: the same operation on the same
    targets, or either with none named."""
    for a in earlier:
        for b in later:
            if a.name != b.name:
                continue
            if a.runs_tests or a.targets == b.targets or not a.targets or not b.targets:
                return True
    return False


def reruns(earlier, later):
    """True if `later` ran again all that `earlier` ran (for "a later run of it passed"):
    for every operation of `earlier`, the same operation on the same targets, or on none
    (the whole suite, the default target)."""
    if not earlier:
        return False
    return all(any(a.name == b.name and (b.targets == a.targets or not b.targets)
                   for b in later) for a in earlier)


# Commands that only show something (a file, a listing, a search): their output is what a
# file says, not what an operation did.
_VIEWERS = {"cat", "head", "tail", "less", "more", "sed", "nl", "grep", "rg", "ag", "ls",
            "find", "tree", "wc", "diff", "echo", "printf", "pwd", "which", "file", "stat",
            "awk", "jq", "yq", "view", "read_file", "read", "str_replace_editor", "open",
            "glob", "search", "type"}
_VIEWING_GIT = {"diff", "status", "log", "show", "blame", "branch", "remote"}


def program_of(cmd):
    """The program a command runs (after env assignments, sudo, cd ... &&)."""
    last = re.split(r"&&|;|\|\|", cmd.strip().splitlines()[0] if cmd.strip() else "")
    for segment in last:
        words = [w for w in segment.split() if "=" not in w.split("/")[0]]
        while words and words[0] in ("sudo", "time", "env", "nohup", "exec"):
            words = words[1:]
        if words and words[0] != "cd":
            return words[0].rsplit("/", 1)[-1], words[1:2]
    return "", []


def is_viewer(cmd, fold_case=False):
    """True if the command only shows something (a file, a listing, a search, a diff).

    `fold_case`: read the program's name in any case (Claude Code's tools are `Read`,
    `Grep`, `Glob`, `LS`); menu m1, which sealed answers were asked with, read it as
    written."""
    program, rest = program_of(cmd)
    if fold_case:
        program = program.lower()
    if program == "git":
        return bool(rest) and rest[0] in _VIEWING_GIT
    return program in _VIEWERS


# A command that prints an HTTP status and nothing else: curl -s -o /dev/null -w "%{http_code}".
_PRINTS_STATUS = lazy(r"%\{(?:http_code|response_code)\}|\bstatus_code\b")
_ERROR_STATUS = lazy(r"\s*[45]\d\d\s*")


def prints_error_status(cmd, line):
    """True if `line` is a bare 4xx or 5xx that `cmd` prints as the status of a request: a
    "500" alone means a failed request only where the command asked for the status."""
    return bool(_PRINTS_STATUS.search(cmd or "")) and bool(_ERROR_STATUS.fullmatch(line))
