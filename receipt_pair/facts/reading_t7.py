"""Table t7's reading of a log: t6's reading (reading_t6.py), and two facts t6 did not read
(set 8, development data since run 8).

- A package manager's own options that choose where a script runs: `pnpm --filter
  @app/worker test`, `pnpm -C packages/worker test`, `npm --prefix web test`,
  `npm test -w api`, `yarn workspace web test`, `yarn --cwd web test`. t6 took the option's
  value for the script's name, so such a run ran no tests at all and its result was
  nobody's. t7 reads it as a run of the project's test script in that package: a part of
  the tests, named by the package or folder. Where the package manager says the package
  or its script is not there ("No projects matched the filters", "Missing script"), it ran
  no test: no test run at all, neither a pass nor a failure.
- An image push that a CI step made without a `docker push` command of its own (a Jenkins
  stage "Push image", a GitHub Actions step, `make push`): docker's own lines of a push,
  the repository line, a line per layer and last `TAG: digest: sha256:<64 hex> size: N`.
  t6 read an image push only from a `docker push` command line. The lines count only as
  the output of a step that names a push and does not show a file, fetch a page, print
  text or run dry (an attack pass on the first version of this reading passed all of
  those), and the pushed image (repository and tag) is the push's object.
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


# A package manager's word that the package or script it was told to run is not there.
_NO_SUCH = lazy(r"No projects matched the filters|Missing script|ERR_PNPM_NO_IMPORTER_MANIFEST|"
                r"None of the selected packages has a|No workspaces found|"
                r"Couldn't find a script named|Command \"?\w+\"? not found|"
                r"No package\.json (?:\(or [^)]*\) )?was found|"
                r"No matching (?:workspaces|projects)", re.I)


def _read_tests(read, taken):
    """t4's test runs of a turn by t7's reading of a step; a run that chose a package and
    was told there is no such package or script ran no test at all: it is no test run
    (nor a failed one)."""
    for step, event in reading_t4.read_tests(read, taken, runs_tests):
        if step is not None and selection(step)[1] and any(_NO_SUCH.search(line)
                                                          for line in read.lines):
            continue
        yield step, event


# Docker's own lines of a push: `The push refers to repository [docker.io/acme/app]`, a
# line per layer, and last `latest: digest: sha256:<64 hex> size: 1788`.
_DIGEST = lazy(r"^(\S+): digest: sha256:[0-9a-f]{64} size: \d+$")
_REFERS = lazy(r"^The push refers to repository \[([^\]\s]+)\]$")
_LAYER = lazy(r"^[0-9a-f]{12}: (?:Pushed|Layer already exists|Mounted from \S+|Preparing|"
              r"Waiting|Pushing)")
_REFUSED = lazy(r"^(?:denied|unauthorized|toomanyrequests|error|failed|received unexpected)\b",
               re.I)
_DRY = lazy(r"\bdry[-_ ]?run\b", re.I)
# Programs whose output is something else's, read back or made up: a file shown, a page
# fetched, text printed.
_NOT_A_PUSH = {"echo", "printf", "cat", "tail", "head", "less", "more", "grep", "rg", "jq",
               "curl", "wget", "ssh", "git", "awk", "sed", "type", "bat", "print", "printenv",
               "env"}
_INLINE = {"python", "python3", "node", "ruby", "perl", "bash", "sh", "deno", "bun"}
# A CI's or make's trace of the push command it ran: `+ docker push acme/app:4`.
_PUSH_TRACE = lazy(r"(?:^|[\s/])docker push\s")


def _shows_or_prints(step):
    """True if the step shows a file, fetches a page, or runs inline code (`python -c`)."""
    return step.program in _NOT_A_PUSH or step.program in _INLINE and any(
        a in ("-c", "-e", "--eval", "-p", "--print") for a in step.args[:2])


def image_pushes(read, taken):
    """(None, Event) of an image push a step showed by docker's own lines, where no step of
    the turn is a `docker push` (installs.read reads those) and the step names a push (a CI
    stage "Push image", `make push`): the repository line, a layer's line, and the digest
    line last. Nothing that shows a file, fetches a page, prints text or runs dry counts;
    a refusal after the digest line, or a failed step, leaves how it ended unsure."""
    text = read.turn.cmd or ""
    if read.turn.kind in ("view", "edit") or _DRY.search(text):
        return
    steps = read.line.runs
    if any(step.echoes or _shows_or_prints(step) or step.program in ("docker", "podman")
           and shell.subcommand(step) == "push" for step in steps):
        return
    lines = [line.strip() for line in read.lines]
    found = [index for index, line in enumerate(lines) if _DIGEST.match(line)]
    if not found or any("digest: sha256:" in line and not _DIGEST.match(line) for line in lines) \
            or any(_DRY.search(line) for line in lines):
        return
    index = found[-1]
    if not re.search(r"(?<![a-z])push(?![a-z])", text, re.I) and not any(
            _PUSH_TRACE.search(line) for line in lines[:index]):
        return  # the step names no push, and its trace shows none
    refers = [i for i in range(index) if _REFERS.match(lines[i])]
    if not refers or not any(_LAYER.match(line) for line in lines[refers[-1]:index]):
        return
    status = read.turn.exit_status
    refused = any(_REFUSED.search(line) for line in lines[index + 1:])
    outcome = UNKNOWN if refused or status else PASSED  # how the step ended is not the push's
    image = _REFERS.match(lines[refers[-1]]).group(1) + ":" + _DIGEST.match(lines[index]).group(1)
    yield None, Event(read.index, DEPLOY, "docker push", "deploy:docker push", outcome,
                      status, "own" if status is not None else "none", lines[index], index,
                      (image,), detail=(("read", "digest"),), command=image)


READERS = (_read_tests,) + reading_t4.READERS[1:] + (image_pushes,)


@dataclass
class LogT7(reading_t6.LogT6):
    """A Log read by table t7."""


LOG = LogT7  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT7 of `turns` (Turns, oldest first)."""
    return reading_t6.read_events(turns, READERS, LogT7)
