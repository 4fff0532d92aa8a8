"""A turn: one step of the agent, the command it ran and what the command printed.

It imports only the errors, so that every log reader (logs.py, transcripts/) can make
turns without importing another reader.
"""

from dataclasses import dataclass
from typing import Any, Dict, Optional

from .errors import InputError

# What a turn's tool did, where the log says so: it changed files (an edit, a write: its
# output reports the change, not that anything ran), or it only showed something (a file
# read, a listing, a search). None: a command, or not known.
EDIT = "edit"
VIEW = "view"
KINDS = (EDIT, VIEW)


@dataclass(frozen=True)
class Turn:
    """One step of the agent: the command it ran and what the command printed."""

    cmd: str = ""
    output: str = ""
    exit_status: Optional[int] = None  # when the log records it (a witness, a transcript)
    # False when the log was written while the command still ran (a background job, a
    # session still open): what it printed so far shows nothing about how it ended.
    finished: bool = True
    kind: Optional[str] = None  # EDIT, VIEW, or None

    def to_json(self) -> Dict[str, Any]:
        """The turn as a JSON object; the fields a plain turn does not need are left out,
        so a turn of an older record serialises as it always did."""
        value = {"cmd": self.cmd, "output": self.output, "exit_status": self.exit_status}
        if not self.finished:
            value["finished"] = False
        if self.kind is not None:
            value["kind"] = self.kind
        return value


def kind_of(value):
    return {dict: "an object", list: "a list", bool: "true/false", int: "a number", str: "a string",
            float: "a number"}.get(type(value), type(value).__name__)


def turn_from_json(value, where):
    """A `Turn` from one decoded JSON value; `where` names it in errors.

    A record with neither "cmd" nor "output" is not a turn: read as one, a file of other
    records (an agent's session in a format not recognised) would become empty turns.
    """
    if not isinstance(value, dict):
        raise InputError(f"{where}: a turn must be an object with 'cmd' and 'output', "
                         f"not {kind_of(value)}")
    if "cmd" not in value and "output" not in value:
        raise InputError(f"{where}: not a turn (it has neither 'cmd' nor 'output'); if this "
                         "is an agent's session file, name its format")
    fields = {}
    for key in ("cmd", "output"):
        text = value.get(key)
        if text is None:  # missing or null: an empty field
            text = ""
        if not isinstance(text, str):
            raise InputError(f"{where}: '{key}' must be a string, not {kind_of(text)}")
        fields[key] = text
    status = value.get("exit_status")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
        raise InputError(f"{where}: 'exit_status' must be a whole number, not {kind_of(status)}")
    finished = value.get("finished", True)
    if not isinstance(finished, bool):
        raise InputError(f"{where}: 'finished' must be true or false, not {kind_of(finished)}")
    kind = value.get("kind")
    if kind is not None and kind not in KINDS:
        raise InputError(f"{where}: 'kind' must be one of {', '.join(KINDS)} or null, not "
                         f"{kind!r}"[:200])
    return Turn(cmd=fields["cmd"], output=fields["output"], exit_status=status,
                finished=finished, kind=kind)
