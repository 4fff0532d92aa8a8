"""Table t7's reading of a log: t6's reading (reading_t6.py), and a fact t6 did not read (set
8, development data since run 8).

- A package manager's own options that choose where a script runs: `pnpm --filter
  @app/worker test`, `pnpm -C packages/worker test`, `npm --prefix web test`,
  `npm test -w api`, `yarn workspace web test`, `yarn --cwd web test`. t6 took the option's
  value for the script's name, so such a run ran no tests at all and its result was
  nobody's. t7 reads it as a run of the project's test script in that package: a part of
  the tests, named by the package or folder. Such a run that printed no runner's summary
  and failed, or whose package manager said the package or its script is not there ("No
  projects matched the filters", "Missing script"), shows no result either way.
- An image push a CI step made without a `docker push` command line of its own is NOT read
  from docker's digest line, though a first version of t7 did: two attack passes found 66
  ways a log shows that line without a push (a log read back by `kubectl logs`, `zcat`,
  `gh run view`, a job's file, an echo) or for another image, and no allow-list of steps
  closed them for sure. Such a claim stays with the models.
"""

import re
import shlex
from dataclasses import dataclass, replace

from . import reading_t4, reading_t6, shell
from .events import ECHO, FAILED, NOTHING, TESTS, UNKNOWN
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


# A package manager's word that the package or script it was told to run is not there.
_NO_SUCH = lazy(r"No projects matched the filters|Missing script|ERR_PNPM_NO_IMPORTER_MANIFEST|"
                r"None of the selected packages has a|No workspaces found|"
                r"Couldn't find a script named|Command \"?\w+\"? not found|"
                r"No package\.json (?:\(or [^)]*\) )?was found|Unknown workspace|"
                r"No (?:matching )?(?:workspaces|projects|packages) (?:found|matched)|"
                r"No packages matched|ENOENT|no test specified|No test files found", re.I)


def _run_through(step):
    """The step a package manager runs through `exec`/`dlx` after its package options
    (`pnpm --filter web exec echo ...`), or None. The shell's reading looks through
    `pnpm exec` only where it comes first."""
    args, named = selection(step)
    if not named or len(args) < 2 or args[0] not in ("exec", "dlx", "x"):
        return None
    runs = shell.parse(shlex.join(args[1:])).runs
    return runs[0] if runs else None


def _read_tests(read, taken):
    """t4's test runs of a turn by t7's reading of a step, a run that chose a package marked
    so (read_events weighs it), and marked too where its package manager said the package
    or script is not there. A summary only echoed through the package manager is an echo."""
    for step, event in reading_t4.read_tests(read, taken, runs_tests):
        inner = _run_through(step) if step is not None else None
        if inner is not None and inner.echoes:
            event = replace(event, outcome=ECHO)
        if step is not None and selection(step)[1]:
            missing = any(_NO_SUCH.search(line) for line in read.lines)
            event = replace(event, detail=event.detail + (("selected", "missing" if missing
                                                           else "yes"),))
        yield step, event


def unsure(event):
    """A run that chose a package and printed no runner's summary shows no result where it
    failed, ran nothing (a script that only echoes), or its package manager said the
    package or script is not there: how it ended is UNKNOWN. It is never dropped: a failure
    left out could only turn a later answer into `shown`."""
    if event.family != TESTS or not event.get("selected") or event.counts is not None:
        return event
    if event.outcome in (FAILED, NOTHING) or event.get("selected") == "missing":
        return replace(event, outcome=UNKNOWN, line="", line_index=-1)
    return event


READERS = (_read_tests,) + reading_t4.READERS[1:]


@dataclass
class LogT7(reading_t6.LogT6):
    """A Log read by table t7."""


LOG = LogT7  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT7 of `turns` (Turns, oldest first)."""
    log = reading_t6.read_events(turns, READERS, LogT7)
    log.events = [unsure(event) for event in log.events]
    return log
