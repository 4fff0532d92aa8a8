"""Table t24's reading of a log: t21's, narrowed as t23 narrows it and further, with what an
attack pass on t23 found (tests/data/facts/attack-t23.json), and three of t23's costs
given back.

Narrowed further (a run read whole by t23 is a part):
- words handed to a runner that t23 did not follow: after `yarn run`, `npm x --`, `npm exec
  --`, `pnpm --filter web exec`, `coverage run -m`, a runner named by its file
  (`node node_modules/jest/bin/jest.js`), cargo's toolchain (`cargo +nightly test cart`);
  and a package manager's own option that chooses a package (`--filter`, `-C`, `-w`,
  `--prefix`, `--cwd`) before the runner;
- words handed to a project's script by any runner of scripts (`./run_tests.sh FILE`,
  `hatch run test FILE`, `make test ARGS='-k auth'`, `nox -s tests -- FILE`), and npm's
  aliases of its test script (`npm t`, `npm tst`); a word any JavaScript runner reads as
  choosing (`-u`: rewrite the snapshots) chooses, whatever another reads it as;
- a variable that gives a runner its options exported in an earlier turn (`export
  GOFLAGS=-tags=unit`), and RSpec's and Rake's own (`SPEC=`, `TESTOPTS=`, `TEST=`).
Given back (t23 read a part): `NODE_OPTIONS=` (it sets node's options, not the tests),
pytest-cov's `--cov-branch`, and jest's and vitest's `--watchAll=false`/`--watch=false`.
"""

import re
from dataclasses import dataclass

from . import reading_t20, reading_t21, reading_t23, shell
from .events import NOTHING, TESTS
from ..patterns import lazy

_ENVIRONMENT = lazy(r"(?<![\w-])(?:PYTEST_ADDOPTS|SPEC_OPTS|SPEC|TESTOPTS|TEST|GOFLAGS|"
                    r"MOCHA_OPTIONS|CARGO_TEST_\w+|JEST_\w+|VITEST_\w+)=")
_EXPORTED = lazy(r"(?:^|[;&|\n]\s*)export\s+(?:PYTEST_ADDOPTS|SPEC_OPTS|SPEC|TESTOPTS|GOFLAGS|"
                 r"MOCHA_OPTIONS|CARGO_TEST_\w+|JEST_\w+|VITEST_\w+)=")
# Words t23 did not know that choose no tests.
_GIVEN_BACK = {"pytest": frozenset(("--cov-branch",)),
               "jest": frozenset(("--watchAll=false", "--watch=false")),
               "vitest": frozenset(("--watch=false",))}
# Words before a runner that only hand it on, and a package manager's options that choose a
# package.
_HANDERS = frozenset(("npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "corepack", "exec",
                      "x", "dlx", "run", "-y", "--yes", "--", "coverage", "-m", "node"))
_PACKAGE_OPTIONS = frozenset(("--filter", "-F", "-C", "--dir", "--cwd", "-w", "--workspace",
                              "--prefix"))
# The runners a run read from its output is named by, and the grammar that reads it.
_OUTPUT_RUNNERS = {"cargo": "cargo test", "dotnet": "dotnet test", "go": "go test"}
_NPM_TEST = ("test", "t", "tst")
# Runners of a project's named scripts or targets.
_SCRIPT_RUNNERS = frozenset(("make", "just", "task", "hatch", "invoke", "poe"))
_JS = ("jest", "vitest", "mocha")


@dataclass
class LogT24(reading_t21.LogT21):
    """A Log read by table t24."""


LOG = LogT24  # the class of the logs this module reads (table.py)


def read_events(turns, log_class=LogT24):
    """The LogT24 (or `log_class`, a later table's) of `turns` (Turns, oldest first)."""
    log = reading_t21.read_events(turns, log_class)
    log.events = [_narrowed(event, log) for event in log.events]
    return log


def _narrowed(event, log):
    """A test run made a part where words of its command, its environment or an earlier
    export chose tests that t21 did not read."""
    if event.family != TESTS or event.objects or event.outcome == NOTHING:
        return event
    command = log.commands[event.turn] or ""
    chosen = (_from_environment(command, log, event.turn) or
              reading_t23.by_grammar(event, _GIVEN_BACK.get(event.key, frozenset())) or
              _handed_on(event, command) or _script_words(event, command))
    return reading_t20.with_part(event, (chosen,)) if chosen else event


def _from_environment(command, log, turn):
    found = _ENVIRONMENT.search(command) or next(
        (hit for text in log.commands[:turn] if text
         for hit in [_EXPORTED.search(text)] if hit), None)
    return found.group(0).strip(";&| \n") if found else ""


def _handed_on(event, command):
    """For a run read from its output alone, the first word handed to its runner (or a
    package manager's option before it) that chooses tests or is not known to choose none;
    "" where the runner is not in the command or every word is known."""
    runner = event.key.partition("output:")[2]
    suite = _OUTPUT_RUNNERS.get(runner, runner)
    if suite not in reading_t21.GRAMMARS:
        return ""
    name = suite.split()[0]
    for step in shell.parse(command).runs:
        words = list(step.words)  # as written: a wrapper's options are its own words
        at = next((i for i, w in enumerate(words) if _names(w, name)), None)
        if at is None:
            continue
        package = _package_chosen(words[:at])
        if package:
            return package
        if any(w not in _HANDERS and not w.startswith(("-", "+")) and not
               _names(w, name) for w in words[:at]):
            return ""  # some other program: not a runner it hands words on to
        after = [w for w in words[at + 1:] if not w.startswith("+")]
        if suite in reading_t21.TWO_WORDS:
            after = ["test"] + after[after.index("test") + 1:] if "test" in after else []
            if not after:
                return ""
        scope, word = reading_t21.scope_of(suite, after)
        if scope != "whole":
            return word or (after[0] if after else "?")
        return reading_t23._chosen(suite, after)
    return ""


def _package_chosen(words):
    """The package or folder a package manager's option among `words` chooses (`--filter
    web`: web), or ""."""
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in _PACKAGE_OPTIONS:
            return value if equals else (words[index + 1] if index + 1 < len(words) else name)
    return ""


def _names(word, runner):
    """True if `word` names the runner: itself, pinned (`vitest@1.6.0`), or its file
    (`node_modules/jest/bin/jest.js`)."""
    base = word.partition("@")[0] if not word.startswith("@") else word
    return base == runner or (
        "/" in word and runner in re.split(r"[/.]", word) and "node_modules" in word)


def _script_words(event, command):
    """For a run of a project's script (or a run read from its output whose command runs
    one), the first word handed to the script that is not known to choose no tests, or
    ""."""
    script = event.key.partition(":")[2]
    steps = [s for s in shell.parse(event.command or command).steps if s.words and (
        event.key.startswith("output:") or event.key in ("tox", "nox") or
        any(w.rsplit("/", 1)[-1] in (script, event.key) or w in _NPM_TEST for w in s.words))]
    if not steps:
        return ""
    step = steps[-1]  # the step that runs the script (not a filter after it)
    program, words = step.words[0].rsplit("/", 1)[-1], list(step.words[1:])
    if event.key in ("tox", "nox"):
        return "--" if "--" in words and words[words.index("--") + 1:] else ""
    if not event.key.startswith(("script:", "make:", "output:")):
        return ""
    if program in ("npm", "pnpm", "yarn", "bun") and event.key.startswith("script:"):
        found = script if script in words else next(
            (w for w in words if w in _NPM_TEST and script == "test"), None)
        if found is None:
            return ""
        return _js_handed([w for w in words[words.index(found) + 1:] if w != "--"])
    if program in _SCRIPT_RUNNERS:
        names = [w for w in words if not w.startswith("-")]
        if program == "hatch" and names[:1] == ["run"]:
            names = names[1:]
        return names[1] if len(names) > 1 else ""  # (names[0]: the script or target)
    if event.key.startswith("script:"):
        every = list(step.words)
        at = max((i for i, w in enumerate(every) if w.rsplit("/", 1)[-1] == script),
                 default=None)
        handed = every[at + 1:] if at is not None else []
        return handed[0] if handed else ""
    return ""


def _js_handed(handed):
    """The first word handed to a JavaScript test script that some JavaScript runner
    reads as choosing tests, or that none knows to choose none; "" if every word is
    known."""
    index = 0
    while index < len(handed):
        word = handed[index]
        name, equals, _ = word.partition("=")
        grammars = [reading_t21.GRAMMARS[js] for js in _JS]
        if any(name in g.choosing for g in grammars):
            return word
        if name in reading_t23._SWITCHES or any(name in g.flags and not equals
                                                for g in grammars):
            index += 1
            continue
        if any(name in g.values for g in grammars):
            index += 1 if equals else 2
            continue
        return word
    return ""
