"""Table t11's reading of a log: t10's, with what set 12 (development data since run 12)
showed it read wrongly or not at all.

- A container image build that recorded no exit status (a CI job's log, one turn for the
  whole job) ends as BuildKit says in its own last steps: the image written or named
  (`#8 naming to docker.io/library/app:latest done`, `#8 writing image sha256:... done`)
  and that step's `#8 DONE`, with no step of the build in error (`#5 ERROR`, `ERROR: failed
  to solve`). t10 read such a build as ending unknown. Only where the turn's one step is
  that build, printing its steps where they were seen (no `-q`, no redirection): two
  builds' steps in one output cannot be told apart, and another step (`printf`, `cat` of an
  old log, `gh run view --log`) may have printed the lines.
- Text echoed into a CI step's own report (`echo "## Published" >> $GITHUB_STEP_SUMMARY`,
  `$GITHUB_OUTPUT`) or into a device (`/dev/null`) edits no file a build or a test could
  use: t10 read the build before it as stale. Only `echo` and `printf`: a script or a
  generator whose output goes to the report may write files of its own.
- A build, lint, type check, push, deploy or install whose status says it was stopped
  (130, 137, 143) and that printed no failure of its own was cut off, not failed: t10 read
  `npm run build` killed mid-way as a failed build, a `git push` interrupted while writing
  objects as a failed push.
- A step that copies, moves or downloads a file into place (`cp`, `mv`, `rsync`,
  `install`, `ln -f`, `curl -o`, `wget -O`) is an edit of the file it writes: t10 read none,
  so a file copied over the code after a run left the run fresh.
"""

import re
from dataclasses import dataclass, replace

from . import reading_t10, shell
from .endings import CUT_STATUSES
from .events import BUILD, CUT, DEPLOY, EDIT, FAILED, INSTALL, LINT, PASSED, PUSH, TYPECHECK, \
    UNKNOWN, Event
from ..patterns import lazy

# BuildKit's own last steps of a build that ended well, and a step of it in error.
_IMAGE_DONE = lazy(r"^#(\d+) (?:naming to \S+|writing image sha256:[0-9a-f]+)(?: [\d.]+s)? done$")
_STEP_DONE = lazy(r"^#(\d+) DONE(?: [\d.]+s)?$")
_ERROR = lazy(r"^#\d+ (?:ERROR|CANCELED)\b|^ERROR\b|failed to solve|^error:|Error response from "
              r"daemon|^Error: ")
# A line that says an error or a failure (a build's own words t10 does not read).
_SAYS_FAILED = lazy(r"\berror\b|\bfail(?:ed|ure|s)?\b", re.I)
# A command substitution: an echo of `$(npm version patch)` runs a command.
_SUBSTITUTION = lazy(r"\$\(|`")
# Where a copy writes outside the project: a device, a temporary or system folder, the
# home folder, the runner's temp folder, another machine (`host:path`), a backup.
_OUTSIDE = lazy(r"^(?:/dev/|/tmp/|/var/|/usr/|/opt/|/etc/|/srv/|/mnt/|~|\$HOME\b|\$\{?HOME\b|"
                r"\$\{?RUNNER_TEMP\b|\$\{\{\s*runner\.temp|\$\{?TMPDIR\b|[\w.-]+@?[\w.-]*:(?!/)|"
                r"[\w.-]+@[\w.-]+:)|\.(?:bak|orig|old)$|~$")
# The steps that only print text they were given.
_ECHOES = ("echo", "printf")
# What a command may write to that is no file of the project: a CI step's own report or
# outputs, a device.
_NO_FILE = lazy(r"^(?:\$\{?(?:GITHUB_STEP_SUMMARY|GITHUB_OUTPUT)\}?|/dev/(?:null|stdout|stderr|tty))$")
# The operations a signal may stop.
_STOPPABLE = (BUILD, LINT, TYPECHECK, PUSH, DEPLOY, INSTALL)
# A build that prints no steps, and a redirection of what a step prints.
_QUIET = {"-q", "--quiet", "--progress=quiet"}
_REDIRECT = lazy(r"(?:^|\s)(?:\d?>>?|&>>?)")
# The image builds BuildKit prints for.
IMAGE_BUILDS = ("docker build", "docker buildx build", "docker compose build",
                 "podman build")
_BUILD_WORDS = lazy(r"\b(?:docker|podman)(?:\s+buildx)?(?:\s+compose)?\s+build\b")


@dataclass
class LogT11(reading_t10.LogT10):
    """A Log read by table t11."""


LOG = LogT11  # the class of the logs this module reads (table.py)


def read_events(turns, log_class=LogT11):
    """The LogT11 (or `log_class`, a later table's) of `turns` (Turns, oldest first)."""
    log = reading_t10.read_events(turns, log_class)
    events = [_cut(_image_built(event, log), log.lines[event.turn]) for event in log.events
              if not _report_written(event)]
    copies = [event for turn, command in enumerate(log.commands)
              for event in _copies(turn, command, log, turns[turn].exit_status)]
    log.events = sorted(events + copies, key=lambda event: event.turn)  # stable: in order
    return log


def _report_written(event):
    """True if the event is text echoed into a CI step's own report or outputs, or into a
    device (`echo "## Published" >> $GITHUB_STEP_SUMMARY`, `printf ... > /dev/null`): no
    edit of a file a build or a test could use. A step that runs anything else (a script,
    `make`, `tee` of a generator's output) may write files of its own, so it stays an edit."""
    return event.family == EDIT and event.get("by") == "shell" and \
        event.operation in _ECHOES and bool(event.objects) and \
        not _SUBSTITUTION.search(event.command) and \
        all(_NO_FILE.match(path.strip().strip("'\"")) for path in event.objects)


def _cut(event, lines):
    """A build, lint, type check, push, deploy or install that failed by its status alone,
    where that status says it was stopped (130, 137, 143: interrupted, killed, terminated)
    and no line it printed says an error or a failure, was cut off, not failed: t10 read
    `npm run build` killed mid-way as a failed build."""
    if event.family in _STOPPABLE and event.outcome == FAILED and not event.line and \
            event.status in CUT_STATUSES and event.status_is in ("own", "shared") and \
            not any(_SAYS_FAILED.search(line) for line in lines):
        return replace(event, outcome=CUT)
    return event


def _copies(turn, command, log, status):
    """Edit events of the steps of a turn that copy, move or download files into place
    (`cp`, `mv`, `rsync`, `install`, `curl -o`, `wget -O`): t10 read none of them, so a
    file copied over the code after a run left the run fresh. A copy out of the project
    (into `/tmp`, a device, the runner's temp folder, another machine, a backup beside the
    file) edits nothing a run could use, nor does a report an earlier command wrote, moved
    elsewhere (`mv junit.xml reports/`)."""
    found = []
    before = "\n".join(log.commands[:turn])
    for step in shell.parse(command).steps:
        if _moves_an_output(step, before):
            continue
        paths = _copied_to(step)
        if paths:
            found.append(Event(turn, EDIT, step.program, "edit", FAILED if status else PASSED,
                               status, "own", objects=tuple(paths), detail=(("by", "shell"),),
                               command=" ".join(step.words)[:300]))
    return found


def _moves_an_output(step, before):
    """True if a copy or move only carries files an earlier command wrote as its output
    (`pytest --junitxml=junit.xml`, `make > build.log`) to another place: a report moved."""
    files = shell.positional(list(step.args))
    if step.program not in ("cp", "mv") or len(files) < 2:
        return False
    return all(re.search(r"(?:=|>>?\s*)" + re.escape(f) + r"(?=$|[\s;&|)])", before)
               for f in files[:-1])


def _copied_to(step):
    """The paths in the project a copying step writes (["*"] where it cannot be told), or
    []."""
    return [path for path in _written_by(step) if not _OUTSIDE.search(path)]


def _written_by(step):
    """The paths a copying step writes (["*"] where it cannot be told), or []."""
    args = list(step.args)
    files = shell.positional(args)
    if step.program in ("cp", "mv", "rsync", "install", "ln") and len(files) >= 2:
        if step.program == "ln" and not any(a.startswith("-") and "f" in a for a in args):
            return []
        target = files[-1]
        if target in (".", "./") or target.endswith("/"):  # into a folder: under its name
            return [target.rstrip("/") + "/" + f.rstrip("/").rsplit("/", 1)[-1]
                    for f in files[:-1]]
        return [target]
    if step.program in ("curl", "wget"):
        for flag in ("-o", "--output", "-O", "--output-document"):
            if flag in args[:-1]:
                value = args[args.index(flag) + 1]
                if step.program == "curl" and flag == "-O":
                    return ["*"]
                return [value]
    return []


def _image_built(event, log):
    """An image build with no status of its own that t10 read as ending unknown, passed
    where BuildKit's own last steps say the image was written and none of its steps
    failed."""
    if event.family != BUILD or event.operation not in IMAGE_BUILDS or \
            event.outcome != UNKNOWN or event.status is not None or event.status_is != "own":
        return event
    command = log.commands[event.turn]
    if len(_BUILD_WORDS.findall(command)) != 1:
        return event  # two builds in one turn: whose steps are whose is not sure
    runs = shell.parse(command).runs
    if len(runs) != 1 or _QUIET & set(runs[0].args) or _REDIRECT.search(runs[0].text):
        return event  # another step may have printed the lines, or the build printed none
    lines = [line.strip() for line in log.lines[event.turn]]
    if any(_ERROR.search(line) for line in lines):
        return event
    named = [(index, found.group(1)) for index, found in
             ((i, _IMAGE_DONE.match(line)) for i, line in enumerate(lines)) if found]
    if not named:
        return event
    index, step = named[-1]
    if not any((_STEP_DONE.match(line) or [None, None])[1] == step for line in lines[index:]):
        return event
    return replace(event, outcome=PASSED, line=lines[index], line_index=index)
