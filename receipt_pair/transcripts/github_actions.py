"""GitHub Actions job logs, as downloaded or as `gh run view --log` prints them.

Every line starts with a UTC timestamp (`2024-01-01T00:00:00.0000000Z `); `gh` adds
`<job>\\t<step>\\t` before it. A step opens with `##[group]Run <command>`, repeats its
script, `shell:` and `env:` lines, closes the group with `##[endgroup]` and prints its
output; a failing step ends with `##[error]Process completed with exit code N.`
See docs/formats.md.
"""

import re

from ._common import finish, turn

LABEL = "GitHub Actions"

# Taken off only as a whole: a tab inside a command's output is not a `gh` prefix.
_PREFIX = re.compile(r"\A(?:[^\t\n]*\t[^\t\n]*\t)?\ufeff?"
                     r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z ?")
_STEP_START = re.compile(r"^(?:[^\t\n]*\t[^\t\n]*\t)?\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
                         r"(?:\.\d{1,9})?Z ##\[group\]Run ", re.M)
_EXIT = re.compile(r"\A##\[error\]Process completed with exit code (-?\d{1,9})\.\s*\Z")
_RUN = "##[group]Run "
# After the script, the runner lists the step's settings; none of it was run.
_SETTINGS = ("shell:", "with:", "env:")
_JOB_END = ("Post job cleanup.", "Cleaning up orphan processes")


def looks_like(text):
    return _STEP_START.search(text) is not None


def read(text, name):
    """Turns from a GitHub Actions job log: one per `Run` step, in order."""
    steps = []
    step = None
    for raw in text.split("\n"):
        line = _PREFIX.sub("", raw.rstrip("\r"), count=1)
        if line.startswith(_RUN):
            step = {"header": line[len(_RUN):].strip(), "script": [], "in_group": True,
                    "settings": False, "output": [], "status": None}
            steps.append(step)
        elif step is None:
            continue  # job setup before the first step
        elif step["in_group"]:
            if line.startswith("##[endgroup]"):
                step["in_group"] = False
            elif line.startswith(_SETTINGS) or step["settings"]:
                step["settings"] = True
            else:
                step["script"].append(line)
        elif line.strip() in _JOB_END:
            step = None  # the job's own cleanup is not a step's output
        elif not line.startswith("##[endgroup]"):
            match = _EXIT.match(line)
            if match:  # the runner's status line: the number is kept, not the line
                step["status"] = int(match.group(1))
                continue
            if line.startswith("##[group]"):
                line = line[len("##[group]"):]
            step["output"].append(line)
    turns = [turn("\n".join(s["script"]).strip() or s["header"],
                  "\n".join(s["output"]).strip("\n"), s["status"]) for s in steps]
    return finish(turns, name, LABEL)
