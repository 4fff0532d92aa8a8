"""Output as a person watching the terminal was left with it: colours and other escape
sequences removed, a line redrawn in place (carriage return) counted as it was left, and
the timestamps a CI log puts in front of every line taken off. Facts are read from these
lines, and a fact's line is quoted as one of them.
"""

import re
from ..patterns import lazy

_ANSI = lazy(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]")
# "2025-10-30T12:39:36.7689609Z " in front of each line of a GitHub Actions log.
_CI_TIME = lazy(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?")


def screen_lines(text):
    """The lines of `text` as they were left on screen, CI timestamps removed."""
    out = []
    for line in _ANSI.sub("", text or "").split("\n"):
        line = line.rstrip("\r").rsplit("\r", 1)[-1]
        out.append(_CI_TIME.sub("", line).rstrip())
    return out


# Actions whose inputs name the command they run (`with: command: test`).
_ACTIONS = {"actions-rs/cargo": "cargo {command} {args}"}
_CI_SETTING = lazy(r"^(?:##\[|\s+[\w.-]+: |[\w.-]+:$|shell: )")
_CI_ENV = lazy(r"^  [A-Za-z_][A-Za-z0-9_]*: ")


def command_text(cmd):
    """A command line as written, with what a CI log prints around a step's script taken
    off (timestamps, the `##[group]Run` header, the step's `env:` lines); the step's
    `shell: bash -e {0}` becomes the `set -e` (and `set -o pipefail`) it means."""
    lines = screen_lines(cmd)
    if not any(_CI_TIME.match(l) for l in (cmd or "").split("\n")):
        return cmd or ""
    if not any(line.startswith("##[group]Run ") for line in lines):
        # a step cut before its header: its settings are no commands
        return "\n".join(line for line in lines if not _CI_SETTING.match(line))
    out, script, settings = [], False, []
    uses = {}
    for line in lines:
        action = re.match(r"^##\[group\]Run ([\w.-]+/[\w.-]+)@\S+$", line)
        if action:
            uses["action"] = action.group(1)
        elif uses and re.match(r"^  (command|args|toolchain): ", line):
            key, _, value = line.strip().partition(": ")
            uses[key] = value
        if line.startswith("##[group]Run "):
            script = True
            header = line[len("##[group]Run "):]
            out.append(("header", header))
        elif line.startswith("shell: "):
            script = False
            if re.search(r"\s-\w*e", line):
                settings.append("set -e")
            if "pipefail" in line:
                settings.append("set -o pipefail")
        elif line.startswith("##[") or line == "env:" or (not script and _CI_ENV.match(line)):
            continue
        elif script:
            out.append(("line", line))
    if uses.get("action") in _ACTIONS and uses.get("command"):
        return _ACTIONS[uses["action"]].format(**{"args": "", **uses}).strip()
    body = [text for kind, text in out if kind == "line"]
    if not body:
        body = [text for kind, text in out if kind == "header"]
    return "\n".join(settings + body)
