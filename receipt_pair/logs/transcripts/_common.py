"""Shared pieces of the transcript readers: strict JSON, typed field access, bounded walks.

Every helper either returns a plain value or raises `InputError` whose message names the
file and the line, record or event; nothing here lets a KeyError, TypeError or
RecursionError through, because a session file is input the user did not write by hand.
"""

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import List, Optional

from ...errors import InputError
from ...store.files import loads_strict
from ...store.jsonl import whole_lines
from ...turn import EDIT, VIEW, Turn  # noqa: F401 (EDIT and VIEW are read from here)

# Content nested deeper than this is refused rather than walked: real session files nest a
# few levels, and a bound keeps a hostile file from exhausting the stack.
MAX_DEPTH = 24

_MISSING = object()


def kind(value):
    """How a JSON value is named in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)


class _BadJSON(Exception):
    def __init__(self, message, line=None, column=None):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _decode(text):
    try:
        return loads_strict(text)
    except json.JSONDecodeError as exc:
        raise _BadJSON(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except ValueError as exc:  # NaN, Infinity, nesting, a lone surrogate, a huge integer
        raise _BadJSON(f"not valid JSON: {exc}") from None


def loads(text, where):
    """One JSON value; NaN/Infinity, bad syntax and runaway nesting are all `InputError`."""
    try:
        return _decode(text)
    except _BadJSON as bad:
        place = f" line {bad.line} column {bad.column}" if bad.line else ""
        raise InputError(f"{where}{place}: {bad.message}") from None


def try_loads(text):
    """The decoded value, or `_MISSING` when `text` is not one JSON value."""
    try:
        return _decode(text)
    except _BadJSON:
        return _MISSING


def is_missing(value):
    return value is _MISSING


def json_lines(text, name):
    """[(line number, object)] of a JSON Lines file.

    A last line with no newline after it that does not parse is a line still being written,
    and is left out; any other bad line, or a line that is not an object, is an error.
    """
    records = []
    # A last line still being written (the agent is appending) is left out: jsonl.py's rule.
    def whole(last):
        return not is_missing(try_loads(last.rstrip("\r")))

    for number, line in whole_lines(text, whole):
        line = line.rstrip("\r")
        where = f"{name} line {number}"
        try:
            value = _decode(line)
        except _BadJSON as bad:
            place = f" column {bad.column}" if bad.column else ""
            raise InputError(f"{where}{place}: {bad.message}") from None
        if not isinstance(value, dict):
            raise InputError(f"{where}: a record must be a JSON object, not {kind(value)}")
        records.append((number, value))
    return records


def get(obj, key, types, where, default=None):
    """`obj[key]` when it has one of `types`; `default` when absent or null; else an error."""
    value = obj.get(key, None)
    if value is None:
        return default
    if isinstance(value, bool) and bool not in _as_tuple(types):
        raise InputError(f"{where}: '{key}' must be {_names(types)}, not {kind(value)}")
    if not isinstance(value, types):
        raise InputError(f"{where}: '{key}' must be {_names(types)}, not {kind(value)}")
    return value


def need(obj, key, types, where):
    """Like `get`, but the field must be there."""
    value = get(obj, key, types, where)
    if value is None:
        raise InputError(f"{where}: '{key}' is missing")
    return value


def _as_tuple(types):
    return types if isinstance(types, tuple) else (types,)


def _names(types):
    words = {str: "a string", dict: "an object", list: "a list", int: "a whole number",
             bool: "true/false", float: "a number"}
    return " or ".join(words.get(t, t.__name__) for t in _as_tuple(types))


def status(value, where, unknown=()):
    """An exit status: a whole number, or None; the values in `unknown` also mean None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{where}: the exit status must be a whole number, not {kind(value)}")
    return None if value in unknown else value


def text_of(content, where, depth=0):
    """The text a tool returned: a string, or the text parts of a list of content blocks."""
    if depth > MAX_DEPTH:
        raise InputError(f"{where}: content nested too deeply")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        text = content.get("text")
        if isinstance(text, str):
            return text
        if text is not None:  # a text part that holds no text is a broken record
            raise InputError(f"{where}: a block's 'text' must be a string, not {kind(text)}")
        if content.get("type") in ("image", "input_image", "image_url"):
            return "[image]"
        if "content" in content:
            return text_of(content["content"], where, depth + 1)
        return ""
    if isinstance(content, list):
        parts = [text_of(item, where, depth + 1) for item in content]
        return "\n".join(part for part in parts if part)
    raise InputError(f"{where}: tool output must be text or a list of blocks, not {kind(content)}")


def shell_command(argv, where):
    """The command line of an argv: the script of `bash -lc SCRIPT`, else the argv quoted."""
    if not argv or not all(isinstance(arg, str) for arg in argv):
        raise InputError(f"{where}: a command must be a non-empty list of strings")
    if len(argv) == 3 and argv[1] in ("-c", "-lc", "-ic") and re.search(r"(^|/)(ba|z|)sh$", argv[0]):
        return argv[2]
    return " ".join(shlex.quote(arg) for arg in argv)


# Arguments that name what a non-shell tool acted on, most telling first.
_TARGET_KEYS = ("file_path", "absolute_path", "path", "notebook_path", "dir_path", "url",
                "pattern", "query", "description", "command", "prompt", "filePath")


def tool_summary(name, args):
    """A short readable stand-in for a non-shell tool call: `Edit src/app.py`."""
    if isinstance(args, dict):
        for key in _TARGET_KEYS:
            value = args.get(key)
            if isinstance(value, str) and value.strip():
                first = value.strip().splitlines()[0]
                return f"{name} {first[:200]}"
    return name


@dataclass(frozen=True)
class Session:
    """An agent's session file read once: its turns (none when it holds no finished tool
    call), and what the agent itself did: its final message, whether anything came after
    that message (a tool call, a tool's result, the person's next prompt), and how many
    tool calls it made. A format whose messages are not read knows none of these."""

    turns: List = field(default_factory=list)
    final_message: Optional[str] = None
    final_is_last: bool = False
    tool_calls: Optional[int] = None
    # Why the file gives no turn to check a claim against, where it gives none and the
    # agent did not simply make no tool call (a call still waiting for its result).
    problem: Optional[str] = None
    # The file reads as this agent's session by its content (transcripts.detect), even
    # where it holds no message of the agent's yet (a hook's input may carry the last one).
    of_agent: bool = False

    @property
    def holds_no_command(self):
        """The agent made no tool call at all, in a file that is its session (it wrote a
        message there, or the file reads as its session): nothing in the file can show
        any claim it makes."""
        return self.tool_calls == 0 and (self.final_message is not None or self.of_agent)


_ALONE = object()  # a message written in one record


class Said:
    """What the agent said and did, gathered in the order a session file records it."""

    def __init__(self):
        self.last, self.after, self.calls, self._of = None, False, 0, _ALONE

    def message(self, text, part_of=_ALONE):
        """The agent wrote `text`. `part_of`: the id of the message it is a part of, where
        an agent writes one message over several records (Claude Code): its parts with
        nothing between them are one message."""
        if part_of is not _ALONE and part_of == self._of and self.last is not None \
                and not self.after:
            self.last += "\n" + text
        else:
            self.last = text
        self._of, self.after = part_of, False

    def call(self):
        """The agent called a tool."""
        self.calls += 1
        self.after = True

    def activity(self):
        """Anything else after a message: a tool's result, the person's next prompt."""
        self.after = True

    def session(self, turns):
        return Session(list(turns), self.last, self.last is not None and not self.after,
                       self.calls)


def no_commands(name, label):
    """Why a file that holds no finished tool call at all gives no turns."""
    return f"{name}: the {label} transcript holds no commands (no tool call with a result)"


def finish(turns, name, label):
    """The turns, or an error when the file held no finished tool call at all."""
    if not turns:
        raise InputError(no_commands(name, label))
    return turns


def turn(cmd, output, exit_status=None, finished=True, kind=None, model_text=False):
    """A turn of a reader.

    `model_text`: the tool's result is text a model wrote (a sub-agent's report, a web
    page summarised by a model, the agent's own message echoed back): the call stays a
    turn, with its command and status, but that text never becomes output, since a model
    can write "deployed" whatever happened. `finished=False`: the command still ran when
    the log was written, so what it printed so far has no exit status to go with it;
    unless the call recorded a failure, which stands: whatever still runs, it ended badly.
    """
    finished = finished or bool(exit_status)
    return Turn(cmd=cmd, output="" if model_text else output,
                exit_status=exit_status if finished else None, finished=finished, kind=kind)
