"""GitHub Actions job logs, as downloaded or as `gh run view --log` prints them.

Every line starts with a UTC timestamp (`2024-01-01T00:00:00.0000000Z `); `gh` adds
`<job>\\t<step>\\t` before it. A step opens with `##[group]Run <command>`, repeats its
script, `shell:` and `env:` lines, closes the group with `##[endgroup]` and prints its
output; a failing step ends with `##[error]Process completed with exit code N.`
See docs/formats.md.

A program run in a step can print every one of these lines itself (`::group::Run x`
is logged as `##[group]Run x`), so a step header may be forged. The reader fails closed:
a failure is never dropped, and it counts for every step it may belong to (below).
"""

import re

from ._common import finish, turn

LABEL = "GitHub Actions"

_TIMESTAMP = r"\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z ?"
# The form is told once, from the file's first line that is not blank (the runner's, never
# a program's): per line, a tab inside a command's output could pass for a `gh` prefix.
_GH_LINE = re.compile(r"\A([^\t\n]*\t[^\t\n]*)\t" + _TIMESTAMP)
_PLAIN_LINE = re.compile(r"\A" + _TIMESTAMP)
_STEP_START = re.compile(r"^(?:[^\t\n]*\t[^\t\n]*\t)?\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
                         r"(?:\.\d{1,9})?Z ##\[group\]Run ", re.M)
_RUN = "##[group]Run "
# After the script, the runner lists the step's settings; none of it was run.
_SETTINGS = ("shell:", "with:", "env:")
# The runner's lines that end a step in failure, and the status each gives it. A step that
# was cancelled or timed out prints no exit code: 130 is a shell's status for a command
# stopped by Ctrl-C (128 + SIGINT), 124 is `timeout`'s. Any other `##[error]` line (an
# action's `core.setFailed`, an `::error::` annotation) gives 1.
_EXIT = re.compile(r"\A##\[error\]Process completed with exit code (-?\d{1,9})\.\s*\Z")
_CANCELLED = re.compile(r"\A##\[error\]The operation was cancell?ed\b", re.I)
_TIMED_OUT = re.compile(r"\A##\[error\].*(?:exceeded the maximum execution time|"
                        r"has timed out|timed out after)", re.I)
CANCELLED_STATUS = 130
TIMED_OUT_STATUS = 124
ERROR_STATUS = 1


def looks_like(text):
    return _STEP_START.search(text) is not None


def read(text, name):
    """Turns from a GitHub Actions job log: one per `Run` step, in order.

    A failing status goes to the step it lands in and to the steps before it that may be
    the same runner step: in `gh run view --log` output, those with the same step column;
    in a plain job log, which marks no step's end, every step since the previous failure.
    """
    lines = [raw.rstrip("\r") for raw in text.split("\n")]
    first = next((line for line in lines if line.strip()), "")
    gh = _GH_LINE.match(first) is not None
    steps = []
    step = None
    failures = 0  # failure lines so far: in a plain log, the only boundary a program cannot forge
    for raw in lines:
        column, line = _split(raw, gh)
        status = _status(line)
        if status is not None:
            if step is not None:
                _record(steps, status)
            failures += 1 if status else 0
            continue
        if line.startswith(_RUN):
            _close_group(step, closed=False)
            step = {"header": line[len(_RUN):].strip(), "column": column,
                    "segment": column if gh else failures, "group": [], "settings": None,
                    "script": [], "output": [], "status": None}
            steps.append(step)
        elif step is None:
            continue  # job setup before the first step
        elif gh and column is not None and column != step["column"]:
            continue  # another of the runner's steps (post steps, "Complete job"): no turn
        elif step["group"] is not None:
            if line.startswith("##[endgroup]"):
                _close_group(step, closed=True)
            else:
                if step["settings"] is None and line.startswith(_SETTINGS):
                    step["settings"] = len(step["group"])
                step["group"].append(line)
        elif not line.startswith("##[endgroup]"):
            if line.startswith("##[group]"):
                line = line[len("##[group]"):]
            step["output"].append(line)
    _close_group(step, closed=False)
    turns = [turn("\n".join(s["script"]).strip() or s["header"],
                  "\n".join(s["output"]).strip("\n"), s["status"]) for s in steps]
    return finish(turns, name, LABEL)


def _split(raw, gh):
    """(gh step column or None, the line without its prefix)."""
    match = (_GH_LINE if gh else _PLAIN_LINE).match(raw)
    if match is None:
        return None, raw
    return (match.group(1) if gh else None), raw[match.end():]


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


def _record(steps, status):
    """Give `status` to the current (last) step, and a failure to every step before it that
    may really be the same runner step."""
    step = steps[-1]
    if not status:
        if step["status"] is None:  # a zero never hides a failure already seen
            step["status"] = status
        return
    step["status"] = status
    for index in range(len(steps) - 2, -1, -1):
        earlier = steps[index]
        # A step already failed had the ones before it covered then: stop, and stay linear.
        if earlier["segment"] != step["segment"] or earlier["status"]:
            break
        earlier["status"] = status

def _close_group(step, closed):
    """End a step's opening group: its script, if the runner's settings closed it."""
    if step is None or step["group"] is None:
        return
    group, settings = step["group"], step["settings"]
    step["group"] = None
    if closed and settings is not None:
        step["script"] = group[:settings]
    else:  # no settings block, or never closed: not the runner's header, so it is output
        step["output"].extend(group)
