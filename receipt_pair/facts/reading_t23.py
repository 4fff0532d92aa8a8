"""Table t23's reading of a log: t21's, with what an attack pass on t21 and t22 found
(tests/data/facts/attack-t22.json) where a test run was read whole though words of its
command chose tests. Every case below only makes a run a part; none makes one whole.

- A run a package manager hands to a runner by name (`pnpm vitest run src/auth`, `yarn jest
  src/auth`, `npx -y vitest@1.6.0 run --project=unit`) was read from its output alone, as a
  whole run: t23 reads the runner's words by the runner's grammar (reading_t21), and a run
  read only from its output is a part where any of them is not known to choose no tests.
- A project's test script handed words of its own (`npm test -- src/cart.test.js`, `yarn
  test src/a.test.js`, `tox -e py311 -- tests/test_retry.py`) ran what those words chose:
  every table read such a run as the whole suite. A word any JavaScript runner's grammar
  knows to choose no tests (`--coverage`, `--ci`, `--watchAll=false`) keeps it whole.
- A run of a known runner with an option its grammar does not know (Jest 30's
  `--testPathPatterns=`, `pytest --testmon`) is a part (t21 read it as t15 did: whole).
- An environment variable that gives a runner its options (`PYTEST_ADDOPTS=--lf`,
  `SPEC_OPTS="--tag ~slow"`, `GOFLAGS=-tags=unit`) may choose tests: every run in that
  command is a part.
- pytest's short options joined to their value (`-munit`, `-kauth`) choose as their spaced
  forms do; cargo's `--all-targets` leaves the doc tests out and dotnet's `--framework`
  runs one target of several: both choose.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t20, reading_t21, shell
from .events import NOTHING, TESTS
from ..patterns import lazy

# The JavaScript runners' options known to choose no tests, as a project's test script may
# be handed them (`npm test -- --coverage`): jest's, vitest's and mocha's, each a flag, a
# switch with `=true`/`=false`, or an option with a value.
_JS = ("jest", "vitest", "mocha")
_SWITCHES = frozenset(("--watchAll", "--watch", "--coverage", "--ci", "--run", "--silent",
                       "--colors", "--verbose"))
# A package manager's words that hand a runner its own words: `pnpm vitest`, `yarn jest`.
_HANDS_ON = frozenset(("npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx"))
# Environment variables that give a runner its options.
_OPTIONS_FROM_ENVIRONMENT = lazy(r"(?<![\w-])(?:PYTEST_ADDOPTS|SPEC_OPTS|GOFLAGS|"
                                 r"MOCHA_OPTIONS|NODE_OPTIONS|CARGO_TEST_\w+|JEST_\w+|"
                                 r"VITEST_\w+)=")
_JOINED = lazy(r"^-[kmco]\S")
_NOT_WHOLE = {"cargo test": frozenset(("--all-targets",)),
              "dotnet test": frozenset(("-f", "--framework"))}


@dataclass
class LogT23(reading_t21.LogT21):
    """A Log read by table t23."""


LOG = LogT23  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT23 of `turns` (Turns, oldest first)."""
    log = reading_t21.read_events(turns, LogT23)
    log.events = [_narrowed(event, log) for event in log.events]
    return log


def _narrowed(event, log):
    """A test run made a part where words of its command chose tests that t21 did not
    read."""
    if event.family != TESTS or event.objects or event.outcome == NOTHING:
        return event  # (a run of nothing shows nothing, whatever part it chose)
    command = log.commands[event.turn] or ""
    chosen = (_from_environment(command) or by_grammar(event) or _handed_on(event, command)
              or _script_words(event))
    return reading_t20.with_part(event, (chosen,)) if chosen else event


def _from_environment(command):
    found = _OPTIONS_FROM_ENVIRONMENT.search(command)
    return found.group(0) if found else ""


def by_grammar(event, known=frozenset()):
    """The word of a known runner's run that chooses tests or is not known (t21's grammar,
    and t23's joined short options and narrowing options), or "". `known`: words a later
    table knows to choose none."""
    if event.key not in reading_t21.GRAMMARS:
        return ""
    runs = [s for s in shell.parse(event.command).runs
            if s.program == reading_t21.TWO_WORDS.get(event.key, event.key)]
    return _chosen(event.key, [w for w in runs[-1].args if w not in known]) if runs else ""


def _chosen(suite, args):
    """The first word of `args` (a run of `suite`'s) that chooses tests or is not known
    to choose none, or ""."""
    scope, word = reading_t21.scope_of(suite, args)
    if scope == "part":
        return word
    words = list(args)
    narrowing = _NOT_WHOLE.get(suite, frozenset())
    for word in words:
        if word.partition("=")[0] in narrowing or (suite == "pytest" and _JOINED.match(word)
                                                    and not word.startswith("-p")):
            return word
    if scope == "unknown":
        return next((w for w in words if w.startswith("-") and not _known(suite, w)),
                    words[0] if words else "?")
    return ""


def _known(suite, word):
    grammar = reading_t21.GRAMMARS[suite]
    name = word.partition("=")[0]
    return name in grammar.flags or name in grammar.values or name in grammar.whole or (
        bool(grammar.short_flags) and re.fullmatch(rf"-[{grammar.short_flags}]+", word)
        is not None)


def _handed_on(event, command):
    """For a run read from its output alone, the runner's word a package manager handed it
    that chooses tests or is not known to choose none, or ""."""
    runner = event.key.partition("output:")[2]
    if not runner or runner not in reading_t21.GRAMMARS:
        return ""
    for step in shell.parse(command).runs:
        words = [step.program] + list(step.args)
        while words and (words[0] in _HANDS_ON or words[0] in ("exec", "dlx", "x", "-y",
                                                                "--yes")):
            words = words[1:]
        if words and words[0].partition("@")[0] == runner.split()[0]:
            scope, word = reading_t21.scope_of(runner, words[1:])
            if scope != "whole":
                return word or (words[1] if len(words) > 1 else "?")
            return _chosen(runner, words[1:])
    return ""


def _script_words(event):
    """For a run of a project's test script, the first word handed to it that no
    JavaScript runner knows to choose no tests (a path, a name, `-t`), or ""."""
    if not (event.key.startswith("script:") or event.key == "tox"):
        return ""
    runs = shell.parse(event.command).runs
    if not runs:
        return ""
    step = runs[-1]
    words = list(step.args)
    if event.key == "tox":
        return "--" if "--" in words and words[words.index("--") + 1:] else ""
    if step.program not in _HANDS_ON:
        return ""
    script = event.key.partition(":")[2]
    if script not in words:
        return ""
    handed = [w for w in words[words.index(script) + 1:] if w != "--"]
    index = 0
    while index < len(handed):
        word = handed[index]
        name, equals, _ = word.partition("=")
        if name in _SWITCHES or any(name in reading_t21.GRAMMARS[js].flags and not equals
                                    for js in _JS):
            index += 1
            continue
        if any(name in reading_t21.GRAMMARS[js].values for js in _JS):
            index += 1 if equals else 2
            continue
        return word
    return ""
