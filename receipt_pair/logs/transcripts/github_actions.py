"""GitHub Actions job logs, as downloaded or as `gh run view --log` prints them, and the
step files of a downloaded log archive (`<job>/<n>_<step>.txt`, one step each).

Every line starts with a UTC timestamp (`2024-01-01T00:00:00.0000000Z `); `gh` adds
`<job>\\t<step>\\t` before it. A step opens with `##[group]Run <command>`, repeats its
script (each line coloured bright cyan), `shell:` and `env:` lines, closes the group with
`##[endgroup]` and prints its output; a failing step ends with
`##[error]Process completed with exit code N.`, which the runner writes into the step that
failed before the next one starts. See docs/formats.md.

A program run in a step can print every one of these lines itself (`::group::Run x` is
logged as `##[group]Run x`), so a step header may be forged: a header opens a step only
where the runner's hand shows (below), else it is output of the step that printed it, and
each step ends where its own lines say. In a plain job log the hand is the header's whole
shape as the runner writes it (ScriptHandler.cs, Handler.cs): its own timestamp, then for a
`run:` step the script, whose first line is the header's text, then `shell: `, then
`env:` or nothing; for a `uses:` step an action's reference (`owner/repo@ref`, `./path`,
`docker://image`) and `with:` or `env:`.
"""

import re

from ._common import finish, turn
from ...patterns import lazy

LABEL = "GitHub Actions"

_TIMESTAMP = r"\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z ?"
# The form is told once, from the file's first line that is not blank (the runner's, never
# a program's): per line, a tab inside a command's output could pass for a `gh` prefix.
_GH_LINE = lazy(r"\A([^\t\n]*\t([^\t\n]*))\t" + _TIMESTAMP)
_PLAIN_LINE = lazy(r"\A" + _TIMESTAMP)
_STEP_START = lazy(r"^(?:[^\t\n]*\t[^\t\n]*\t)?\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
                         r"(?:\.\d{1,9})?Z ##\[group\]Run ", re.M)
_RUN = "##[group]Run "
# After the script, the runner lists the step's settings; none of it was run.
_SETTINGS = ("shell:", "with:", "env:")
# What Handler.cs names a `uses:` step by: `docker://image`, a path in the repository
# (`./...`), or `owner/repo[/path]@ref`; never a space. A job hook is `Run '<path>'`.
_ACTION = re.compile(r"\A(?:docker://\S+|\./\S*|[^\s@/]+/[^\s@]+@\S+)\Z")
_JOB_HOOK = re.compile(r"\A'[^']+'\Z")
# The runner writes each script line as ESC[36;1m<line>ESC[0m (ScriptHandler.cs); the
# colour is the runner's, not the command's.
_SCRIPT_COLOUR = lazy(r"\A\x1b?\[36;1m(.*?)\x1b?\[0m\Z")
# gh's step column when the archive lacks the step files: it tells no step from another.
_UNKNOWN_STEP = "UNKNOWN STEP"
# The runner's lines that end a step in failure, and the status each gives it. A step that
# was cancelled or timed out prints no exit code: 130 is a shell's status for a command
# stopped by Ctrl-C (128 + SIGINT), 124 is `timeout`'s. Any other `##[error]` line (an
# action's `core.setFailed`, an `::error::` annotation) gives 1.
_EXIT = lazy(r"\A##\[error\]Process completed with exit code (-?\d{1,9})\.\s*\Z")
_CANCELLED = lazy(r"\A##\[error\]The operation was cancell?ed\b", re.I)
_TIMED_OUT = lazy(r"\A##\[error\].*(?:exceeded the maximum execution time|"
                        r"has timed out|timed out after)", re.I)
CANCELLED_STATUS = 130
TIMED_OUT_STATUS = 124
ERROR_STATUS = 1


def looks_like(text):
    return _STEP_START.search(text) is not None


def read(text, name):
    """Turns from a GitHub Actions job log: one per `Run` step, in order."""
    lines = [raw.rstrip("\r") for raw in text.split("\n")]
    first = next((line for line in lines if line.strip()), "")
    match = _GH_LINE.match(first)
    gh = match is not None and match.group(2) != _UNKNOWN_STEP
    steps = _steps(lines, "gh" if gh else "plain" if match is None else "unknown")
    return finish([_turn(step) for step in steps], name, LABEL)


def read_step(text, name):
    """The turn of one step's own file, or None for a step of the runner's own (set up,
    post steps, complete job), which has no `Run` header. Every line of the file is that
    step's: a `Run` header after the first is something the step printed."""
    steps = _steps([raw.rstrip("\r") for raw in text.split("\n")], "step")
    return _turn(steps[0]) if steps else None


def _turn(step):
    return turn("\n".join(step["script"]).strip() or step["header"],
                "\n".join(step["output"]).strip("\n"), step["status"])


def _steps(lines, form):
    """The steps of a log's lines. `form`: "gh" (a step column on every line), "unknown"
    (gh's prefix, but no step told apart), "plain", or "step" (one step's own file).

    A `Run` header after the first opens a step of its own only where the runner's hand
    shows: in the gh form a step column of its own (gh writes it, not the program); in a
    plain log a stamped line whose group has the runner's whole shape (`_settings_at`: the
    script the header names, `shell:`, `env:`; an action, `with:`). Any other is
    something the step printed, and stays its output, so its failure stays with it.
    """
    steps = []
    step = None
    header = None  # a Run header whose group is still open: the runner's, or printed?
    stamped = _split(next((line for line in lines if line.strip()), ""), form)[2]
    for raw in lines:
        column, line, own_stamp = _split(raw, form)
        status = _status(line)
        if status is not None:
            if step is not None:
                _record(step, status)
            continue
        if header is not None:
            if line.startswith(_RUN):
                step = _settle(steps, step, header, closed=False)
                header = None
            elif line.startswith("##[endgroup]"):
                step, header = _settle(steps, step, header, closed=True), None
                continue
            else:
                header["group"].append(line)
                continue
        if line.startswith(_RUN) and (step is None or _may_open(form, column, step)) \
                and (own_stamp or not stamped):  # the runner stamps every line it writes
            header = {"header": line[len(_RUN):].strip(), "column": column, "group": [],
                      "own": step is None or form == "gh"}
        elif step is None:
            continue  # job setup before the first step
        elif form == "gh" and column is not None and column != step["column"]:
            continue  # another of the runner's steps (post steps, "Complete job"): no turn
        elif not line.startswith("##[endgroup]"):
            if line.startswith("##[group]"):
                line = line[len("##[group]"):]
            step["output"].append(line)
    if header is not None:
        _settle(steps, step, header, closed=False)
    return steps


def _may_open(form, column, step):
    """Whether a Run header may open a new step after `step`."""
    if form == "step":
        return False  # a step's own file: every later header is the step's output
    return form != "gh" or column != step["column"]


def _settle(steps, step, header, closed):
    """The step after a Run header's group ends: a new step where the header is the
    runner's (its own gh column, the first of the log, or a group of the runner's whole
    shape), else the same step with the header and its group as output. Returns the
    current step."""
    group = header["group"]
    settings = _settings_at(header["header"], group) if closed else None
    if settings is None and closed and header["own"]:  # the runner's, whatever its shape
        settings = next((i for i, line in enumerate(group) if line.startswith(_SETTINGS)),
                        None)
    script = settings is not None
    if header["own"] or script:
        new = {"header": header["header"], "column": header["column"], "status": None,
               "script": [_uncoloured(line) for line in group[:settings]] if script else [],
               "output": [] if script else list(group)}
        steps.append(new)
        return new
    step["output"].extend(["Run " + header["header"], *group])
    return step


def _settings_at(text, group):
    """Where the settings start in a closed Run group that has the whole shape the runner
    writes for the header `Run <text>`, or None when it has not. A `run:` step: the script,
    whose first line (leading blank lines and indentation taken off, as the runner takes
    them off for the header) is the header's text, then one `shell: ` line, then `env:` or
    nothing (an env value may run over lines). A `uses:` step: an action's reference, then
    `with:` or `env:`. A job hook: `'<path>'`, then `shell: `. A printed header whose group
    has another shape stays the output of the step that printed it."""
    if _ACTION.match(text) and group[:1] in (["with:"], ["env:"]):
        return 0
    shell = next((i for i, line in enumerate(group) if line.startswith("shell: ") and
                  group[i + 1:i + 2] in ([], ["env:"])), None)
    if shell == 0:
        return 0 if _JOB_HOOK.match(text) else None
    if shell is None:
        return None
    script = "\n".join(_uncoloured(line) for line in group[:shell])
    first = script.lstrip(" \t\r\n").split("\n", 1)[0].split("\r", 1)[0]
    return shell if first.rstrip() == text.rstrip() else None


def _split(raw, form):
    """(gh step column or None, the line without its prefix, whether it had its stamp)."""
    prefixed = form in ("gh", "unknown")
    match = (_GH_LINE if prefixed else _PLAIN_LINE).match(raw)
    if match is None:
        return None, raw, False
    return (match.group(1) if prefixed else None), raw[match.end():], True


def _status(line):
    """The status a runner line gives its step, or None when it is not such a line."""
    match = _EXIT.match(line)
    if match:
        return int(match.group(1))
    if _CANCELLED.match(line):
        return CANCELLED_STATUS
    if _TIMED_OUT.match(line):
        return TIMED_OUT_STATUS
    if line.startswith("##[error]"):
        return ERROR_STATUS
    return None


def _record(step, status):
    """Give `status` to the step it lands in; a zero never hides a failure already seen."""
    if status or step["status"] is None:
        step["status"] = status


def _uncoloured(line):
    match = _SCRIPT_COLOUR.match(line)
    return match.group(1) if match else line
