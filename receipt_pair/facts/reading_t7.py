"""Table t7's reading of a log: t6's reading (reading_t6.py), and two facts t6 did not read
(set 8, development data since run 8).

- A package manager's own options that choose where a script runs: `pnpm --filter
  @app/worker test`, `pnpm -C packages/worker test`, `npm --prefix web test`,
  `npm test -w api`, `yarn workspace web test`, `yarn --cwd web test`. t6 took the option's
  value for the script's name, so such a run ran no tests at all and its result was
  nobody's. t7 reads it as a run of the project's test script in that package: a part of
  the tests, named by the package or folder.
- An image push that a CI step made without a `docker push` command of its own (a Jenkins
  stage, a GitHub Actions step): docker's own last line of a push, `TAG: digest:
  sha256:<64 hex> size: N`, is printed by nothing else. t6 read an image push only from a
  `docker push` command line. The line counts only where the step shows it as output (not
  an `echo` or a file shown), and its tag is the push's object.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t4, reading_t6, shell, tests
from .events import DEPLOY, PASSED, UNKNOWN, Event
from ..patterns import lazy

# Options of npm, pnpm, yarn and bun that choose the package or folder a script runs in,
# with a value: (program, option).
_SELECT = {("pnpm", "--filter"), ("pnpm", "-F"), ("pnpm", "-C"), ("pnpm", "--dir"),
           ("npm", "--prefix"), ("npm", "-w"), ("npm", "--workspace"), ("npm", "-C"),
           ("yarn", "--cwd"), ("bun", "--cwd"), ("bun", "--filter")}
# The same programs' options without a value that choose every package, or the root.
_EVERY = {("pnpm", "-r"), ("pnpm", "--recursive"), ("pnpm", "-w"),
          ("pnpm", "--workspace-root"), ("npm", "-ws"), ("npm", "--workspaces"),
          ("npm", "--include-workspace-root")}


def selection(step):
    """(the step's words without a package manager's package options, the packages or
    folders they name) of an npm, pnpm, yarn or bun step; (its args, ()) of any other."""
    program, args = step.program, list(step.args)
    if program not in ("npm", "pnpm", "yarn", "bun"):
        return args, ()
    kept, named, index = [], [], 0
    while index < len(args):
        word = args[index]
        name, equals, value = word.partition("=")
        if word == "--":
            kept.extend(args[index:])
            break
        if (program, name) in _SELECT and equals:
            named.append(value)
        elif (program, word) in _SELECT and index + 1 < len(args):
            named.append(args[index + 1])
            index += 1
        elif (program, word) not in _EVERY:
            kept.append(word)
        index += 1
    if program == "yarn" and kept[:1] == ["workspace"] and len(kept) > 2:
        named.append(kept[1])  # yarn workspace NAME SCRIPT
        kept = kept[2:]
    return kept, tuple(named)


def runs_tests(step):
    """t6's reading of which tests a step runs (reading_t6.runs_tests), with a package
    manager's package options read as a part of the tests (the package or folder)."""
    args, named = selection(step)
    if not named and list(step.args) == args:
        return reading_t6.runs_tests(step)
    run = reading_t6.runs_tests(replace(step, args=tuple(args)))
    if run is None or not named:
        return run
    return replace(run, part=tuple(dict.fromkeys(named + run.part)))


def _read_tests(read, taken):
    return reading_t4.read_tests(read, taken, runs_tests)


# Docker's own last line of a push: `latest: digest: sha256:<64 hex> size: 1788`.
_DIGEST = lazy(r"^(\S+): digest: sha256:[0-9a-f]{64} size: \d+$")
_REFERS = lazy(r"^The push refers to repository \[([^\]\s]+)\]$")
_DENIED = lazy(r"^(?:denied|unauthorized|error|Error response from daemon)\b", re.I)


def image_pushes(read, taken):
    """(None, Event) of an image push a step's output shows by docker's own digest line,
    where no step of the turn is a `docker push` (installs.read reads those): the last
    digest line shows it, unless a refusal follows it or the step failed (then how the
    push ended is not sure)."""
    steps = read.line.runs
    if any(step.program in ("docker", "podman") and shell.subcommand(step) == "push"
           for step in steps):
        return
    lines = [line.strip() for line in read.lines]
    found = [(index, line) for index, line in enumerate(lines) if _DIGEST.match(line)]
    if not found:
        return
    step = tests.output_step(read)
    if steps and (step is None or step.echoes):
        return  # a file shown, or text echoed: no push ran here
    index, line = found[-1]
    status = read.turn.exit_status
    refused = any(_DENIED.match(text) for text in lines[index + 1:])
    outcome = UNKNOWN if refused or status else PASSED  # how the step ended is not the push's
    repositories = [m.group(1) for m in map(_REFERS.match, lines[:index + 1]) if m]
    tag = _DIGEST.match(line).group(1)
    objects = ((repositories[-1] + ":" + tag) if repositories else tag,)
    yield None, Event(read.index, DEPLOY, "docker push", "deploy:docker push", outcome,
                      status, "own" if status is not None else "none", line, index, objects,
                      detail=(("read", "digest"),),
                      command=" ".join(objects + (read.turn.cmd or "",))[:300])


READERS = (_read_tests,) + reading_t4.READERS[1:] + (image_pushes,)


@dataclass
class LogT7(reading_t6.LogT6):
    """A Log read by table t7."""


LOG = LogT7  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT7 of `turns` (Turns, oldest first)."""
    return reading_t6.read_events(turns, READERS, LogT7)
