"""The session file as a Stop hook reads it: whether a path can be one, the agent's final
message in it (plain code per format), and the bounded wait for the file to catch up.

The agents write their session files on their own schedule, so the hook can start before
the final message (and the commands just before it) are on disk. Nothing here prints.
"""

import json
import os
import stat
import time

from ..errors import InputError
from ..store.files import decode, read_bytes

DEFAULT_WAIT = 5.0  # seconds the session file may lag the hook
POLL = 0.1


def session_file_problem(path):
    """Why the session file at `path` cannot be read as one (a folder, a device, a pipe, a
    name too long, ...), or None: a file that is there, or one not written yet (the agent
    may still create it). Checked before waiting, so that nothing waits on a device or a
    pipe, and nothing is written beside a path that is not a session file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return getattr(exc, "strerror", None) or str(exc)
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if not stat.S_ISREG(mode):
        return "it is not a regular file (a device, a pipe or a socket)"
    return None


def final_message(text, fmt):
    """(the agent's last message in a session file, whether nothing came after it).

    Plain code per format; a line that does not parse (one still being written) is
    skipped. (None, False) when the file holds no message of the agent yet, or is in a
    format this module cannot walk.
    """
    last, after = None, False
    for kind, value in _walk(text, fmt):
        if kind == "text":
            if isinstance(value, tuple):  # (message id, text): one message, many lines
                if last is not None and last[0] == value[0] and not after:
                    last = (last[0], last[1] + "\n" + value[1])
                else:
                    last = value
            else:
                last = (None, value)
            after = False
        else:
            after = True
    return (last[1], not after) if last else (None, False)


def tool_calls(text, fmt):
    """How many tool calls the session file records, by the same walk; None when this
    module cannot walk the format. Counted apart from the log readers: a session with no
    tool call at all is one whose claims nothing in it can show (plain code decides it)."""
    if fmt not in _WALKS:
        return None
    return sum(1 for kind, _ in _walk(text, fmt) if kind == "tool")


def _walk(text, fmt):
    """(kind, value) in the session's order: ("text", the agent's words), ("tool", None)
    for a tool call, ("activity", None) for anything else that follows a message."""
    walk = _WALKS.get(fmt)
    if walk is None:
        return
    records = _gemini_messages(text) if fmt == "gemini-cli" else _records(text)
    for record in records:
        yield from walk(record)


def _records(text):
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _claude_code_walk(record):
    kind = record.get("type")
    message = record.get("message")
    if kind not in ("assistant", "user") or not isinstance(message, dict):
        return
    if record.get("isSidechain") is True:
        return  # a sub-agent's words in the main file: not the main agent's message
    content = message.get("content")
    if kind == "user":
        yield ("activity", None)  # a tool's result, or the person's next prompt
        return
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str) \
                and block["text"].strip():
            yield ("text", (message.get("id"), block["text"]))
        elif block.get("type") == "tool_use":
            yield ("tool", None)


_CODEX_CALLS = ("function_call", "custom_tool_call", "local_shell_call")


def _codex_walk(record):
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return
    item = payload.get("type")
    if record.get("type") == "response_item":
        if item == "message" and payload.get("role") == "assistant":
            parts = [c.get("text") for c in payload.get("content") or ()
                     if isinstance(c, dict) and c.get("type") in ("output_text", "text")
                     and isinstance(c.get("text"), str)]
            if "".join(parts).strip():
                yield ("text", "".join(parts))
        elif item in _CODEX_CALLS:
            yield ("tool", None)
        elif item in ("message", "function_call_output", "custom_tool_call_output"):
            yield ("activity", None)
    elif record.get("type") == "event_msg":
        if item == "agent_message" and isinstance(payload.get("message"), str) \
                and payload["message"].strip():
            yield ("text", payload["message"])
        elif item == "user_message":
            yield ("activity", None)


def _gemini_messages(text):
    """The messages of a Gemini CLI session: a JSON document's `messages`, or a JSON Lines
    file's message lines, the last copy of an id winning in the place of its first, and
    `$rewindTo` dropping that message and all after it (docs/formats.md, "Gemini CLI")."""
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if isinstance(document, dict):
        messages = document.get("messages")
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) \
            else []
    kept = {}
    for record in _records(text):
        target = record.get("$rewindTo")
        if isinstance(target, str):
            ids = list(kept)
            for dropped in ids[ids.index(target):] if target in ids else ():
                del kept[dropped]
        elif isinstance(record.get("id"), str) and isinstance(record.get("type"), str):
            kept[record["id"]] = record
    return list(kept.values())


def _gemini_walk(message):
    kind = message.get("type")
    if kind == "user":
        yield ("activity", None)
    if kind != "gemini":
        return
    content = message.get("content")
    if isinstance(content, list):
        content = "".join(part if isinstance(part, str) else part.get("text") or ""
                          for part in content if isinstance(part, (str, dict)))
    if isinstance(content, str) and content.strip():
        yield ("text", content)
    calls = message.get("toolCalls")
    for _ in calls if isinstance(calls, list) else ():
        yield ("tool", None)


_WALKS = {"claude-code": _claude_code_walk, "codex": _codex_walk,
          "gemini-cli": _gemini_walk}


def same_message(expected, found):
    """Whether the session file's last message is the one the hook was told about."""
    if found is None:
        return False
    expected, found = " ".join(expected.split()), " ".join(found.split())
    return expected == found or (bool(expected) and expected in found)


# With the final message in the hook's input, a file that has not changed for this long
# is taken as written: a sub-agent's file may never show that message at all.
SETTLE = 0.5


def wait_for_session(path, fmt, expected, wait, poll=POLL, clock=time.monotonic,
                     sleep=time.sleep, settle=SETTLE):
    """(the session file's text, whether it caught up) after at most `wait` seconds.

    The agent writes its session file on its own schedule, so the hook can start before
    the final message (and the commands just before it) are on disk. Caught up means: the
    file's last message is `expected`, or, with no expected message, the file ends with a
    message of the agent. When `expected` is given (the hook's input carries the final
    message), a file that stays the same for `settle` seconds is not waited for further.
    The text is None when the file could not be read at all.
    """
    deadline = clock() + max(0.0, wait)
    text, since = None, clock()
    while True:
        try:
            now = decode(read_bytes(path), path)
        except InputError:
            now = None
        if now != text:
            text, since = now, clock()
        if text is not None:
            found, last = final_message(text, fmt)
            if (same_message(expected, found) if expected is not None else
                    (found is not None and last)):
                return text, True
            if expected is not None and clock() - since >= settle:
                return text, False
        if clock() >= deadline:
            return text, False
        sleep(min(poll, max(0.0, deadline - clock())))
