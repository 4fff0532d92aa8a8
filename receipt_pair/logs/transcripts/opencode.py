"""OpenCode sessions: its storage database ($OPENCODE_DB, else
$XDG_DATA_HOME/opencode/opencode.db, else ~/.local/share/opencode/opencode.db; OpenCode 1.2
and later), read for one session into the shape its SDK gives (`client.session.messages`):
a JSON list of `{"info": message, "parts": [part]}`, which is also what this reader reads
from a file (an object `{"info", "messages": [...]}`, as `opencode export` writes, too).

A message's `info.role` is `user` or `assistant`; a tool call is a part `{"type": "tool",
"callID", "tool", "state": {"status", "input", "output", "metadata": {"exit"}, "error"}}`:
`completed` with the command's output and its exit status in `metadata.exit` (a non-zero
exit is still `completed`), `error` with the message in `error`, `running` or `pending`
before it ends. The agent's words are its `text` parts. See docs/formats.md.
"""

import json
import os

from ...errors import InputError
from ._common import (EDIT, VIEW, Said, finish, get, is_missing, need, status, text_of,
                      tool_summary, try_loads, turn)

LABEL = "OpenCode"
SHELL_TOOL = "bash"
ERROR_STATUS = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
KINDS = {"edit": EDIT, "write": EDIT, "patch": EDIT, "multiedit": EDIT, "read": VIEW,
         "list": VIEW, "glob": VIEW, "grep": VIEW}
# A sub-agent's report and the agent's own to-do list: a model's words.
MODEL_TEXT_TOOLS = frozenset({"task", "todowrite", "todoread"})


def database_path(environ=None, home=None):
    """Where OpenCode keeps its storage database on this machine."""
    environ = os.environ if environ is None else environ
    if environ.get("OPENCODE_DB"):
        return environ["OPENCODE_DB"]
    data = environ.get("XDG_DATA_HOME") or os.path.join(home or os.path.expanduser("~"),
                                                        ".local", "share")
    return os.path.join(data, "opencode", "opencode.db")


def export(path, session_id):
    """The session `session_id` of the database at `path`, read only, as JSON text in the
    SDK's shape (ordered by the ids, which OpenCode makes in the order of time)."""
    import sqlite3  # only OpenCode keeps its sessions in a database
    import urllib.parse  # loaded only here: a hook's start pays for what it uses

    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=2)
    except sqlite3.Error as exc:
        raise InputError(f"{path}: OpenCode's database cannot be opened: {exc}") from None
    try:
        messages = connection.execute(
            "SELECT id, data FROM message WHERE session_id = ? ORDER BY id",
            (session_id,)).fetchall()
        parts = connection.execute(
            "SELECT message_id, id, data FROM part WHERE session_id = ? ORDER BY id",
            (session_id,)).fetchall()
    except sqlite3.Error as exc:
        raise InputError(f"{path}: not OpenCode's database ({exc})") from None
    finally:
        connection.close()
    by_message = {}
    for message_id, part_id, data in parts:
        by_message.setdefault(message_id, []).append({"id": part_id, **_object(data)})
    document = [{"info": {"id": message_id, **_object(data)},
                 "parts": by_message.get(message_id, [])} for message_id, data in messages]
    return json.dumps(document, sort_keys=True, ensure_ascii=False)


def _object(data):
    value = try_loads(data) if isinstance(data, str) else None
    return value if isinstance(value, dict) else {"unreadable": True}


def looks_like_document(value):
    """Whether a decoded JSON document is an OpenCode session (the SDK's list of messages,
    or an export's object holding it)."""
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]
    return isinstance(value, list) and bool(value) and all(
        isinstance(item, dict) and isinstance(item.get("info"), dict)
        and isinstance(item.get("parts"), list) for item in value[:8])


def read(text, name):
    """Turns from an OpenCode session, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The session read once (a Session): its turns and the agent's own words and calls."""
    document = try_loads(text)
    if isinstance(document, dict) and "messages" in document:
        document = document["messages"]
    if is_missing(document) or not isinstance(document, list):
        raise InputError(f"{name}: not an OpenCode session (a list of messages)")
    said, turns = Said(), []
    for number, message in enumerate(document, 1):
        where = f"{name} message {number}"
        if not isinstance(message, dict):
            raise InputError(f"{where}: must be an object")
        role = get(need(message, "info", dict, where), "role", str, where)
        parts = get(message, "parts", list, where, default=[])
        if role == "user":
            said.activity()
            continue
        if role != "assistant":
            continue
        for index, part in enumerate(parts, 1):
            part_where = f"{where} part {index}"
            if not isinstance(part, dict):
                raise InputError(f"{part_where}: must be an object")
            if part.get("type") == "text" and isinstance(part.get("text"), str) \
                    and part.get("synthetic") is not True and part["text"].strip():
                said.message(part["text"], part_of=message["info"].get("id"))
            elif part.get("type") == "tool":
                said.call()
                called = _call(part, part_where)
                if called is not None:
                    turns.append(called)
    return said.session(turns)


def _call(part, where):
    """A tool part as a turn, or None for one that has not started."""
    tool = need(part, "tool", str, where)
    state = get(part, "state", dict, where, default={})
    progress = get(state, "status", str, where, default="pending")
    args = get(state, "input", dict, where, default={})
    metadata = get(state, "metadata", dict, where, default={})
    if progress == "pending":
        return None
    if progress == "error":
        output, code = text_of(state.get("error"), where), ERROR_STATUS
    elif progress == "running":
        output, code = text_of(metadata.get("output"), where), None
    else:
        output = text_of(state.get("output"), where)
        code = status(metadata.get("exit"), where) if tool == SHELL_TOOL else None
    command = args.get("command") if tool == SHELL_TOOL else None
    if not isinstance(command, str):
        return turn(tool_summary(tool, args), output, code, kind=KINDS.get(tool),
                    model_text=tool in MODEL_TEXT_TOOLS)
    return turn(command, output, code, finished=progress != "running")
