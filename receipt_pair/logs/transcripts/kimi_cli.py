"""Kimi Code CLI contexts: <share>/sessions/<md5 of the work folder>/<session id>/context.jsonl,
where <share> is $KIMI_SHARE_DIR or ~/.kimi. Its Stop hook names no file, only the session
id and the working folder, so `session_path` finds it from them.

One message per line, as the chat API holds it: `{"role": "user"|"assistant"|"tool",
"content": text or [parts], "tool_calls"?: [{"type": "function", "id", "function": {"name",
"arguments": JSON text}}], "tool_call_id"?}`, with lines of its own (`_system_prompt`,
`_checkpoint`, `_usage`). A tool's message opens with a part the harness wrote,
`<system>Command executed successfully.</system>` or `<system>ERROR: Command failed with
exit code: N.</system>` (a timeout: `Command killed by timeout (Ns)`), then what the command
printed. The shell tool is `Shell`. See docs/formats.md.
"""

import hashlib
import json
import os
import re

from ...errors import InputError
from ._common import EDIT, VIEW, Said, finish, get, json_lines, need, text_of, tool_summary, turn
from ...patterns import lazy

LABEL = "Kimi Code CLI"
SHELL_TOOL = "Shell"
ERROR_STATUS = 1
TIMEOUT_STATUS = 124  # `timeout`'s own status for a command it killed
_OWN_ROLES = ("_system_prompt", "_checkpoint", "_usage")
_HARNESS = lazy(r"\A<system>(ERROR: )?(.*?)</system>\n?", re.S)
_FAILED = lazy(r"Command failed with exit code: (-?\d{1,9})\.")
_KILLED = lazy(r"Command killed by timeout")
KINDS = {"WriteFile": EDIT, "StrReplaceFile": EDIT, "ReadFile": VIEW, "ReadMediaFile": VIEW,
         "Glob": VIEW, "Grep": VIEW}
# A sub-agent's report, the agent's own thoughts and to-do list: a model's words.
MODEL_TEXT_TOOLS = frozenset({"Agent", "Think", "SetTodoList", "SearchWeb", "TaskOutput"})


def session_path(cwd, session_id, environ=None, home=None):
    """Where Kimi Code CLI keeps the context of `session_id` run in the folder `cwd`, or
    None when either is missing."""
    if not cwd or not session_id or "/" in session_id or session_id in (".", ".."):
        return None
    environ = os.environ if environ is None else environ
    share = environ.get("KIMI_SHARE_DIR") or os.path.join(home or os.path.expanduser("~"),
                                                          ".kimi")
    folder = hashlib.md5(cwd.encode("utf-8")).hexdigest()  # noqa: S324 - Kimi's own name
    return os.path.join(share, "sessions", folder, session_id, "context.jsonl")


def looks_like(record):
    """Whether one decoded JSON Lines record is a line of Kimi Code CLI's context."""
    return record.get("role") in _OWN_ROLES and "type" not in record


def read(text, name):
    """Turns from a Kimi Code CLI context, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The context read once (a Session): its turns and the agent's own words and calls."""
    calls, results, said = [], {}, Said()
    for number, record in json_lines(text, name):
        where = f"{name} line {number}"
        role = get(record, "role", str, where)  # a line of a later version: passed over
        if role == "user":
            said.activity()
        elif role == "assistant":
            words = _words(record.get("content"), where)
            if words.strip():
                said.message(words)
            for index, call in enumerate(get(record, "tool_calls", list, where, default=[]), 1):
                call_where = f"{where} tool call {index}"
                if not isinstance(call, dict):
                    raise InputError(f"{call_where}: must be an object")
                function = need(call, "function", dict, call_where)
                calls.append((need(call, "id", str, call_where),
                              need(function, "name", str, call_where),
                              _arguments(function.get("arguments"), call_where)))
                said.call()
        elif role == "tool":
            said.activity()
            call_id = need(record, "tool_call_id", str, where)
            results.setdefault(call_id, text_of(record.get("content"), where))
    turns = [_turn(tool, args, results[call_id]) for call_id, tool, args in calls
             if call_id in results]
    return said.session(turns)


def _words(content, where):
    """The agent's text: a string, or its `text` parts (its `think` parts are not words
    it said)."""
    if isinstance(content, str) or content is None:
        return content or ""
    if not isinstance(content, list):
        raise InputError(f"{where}: 'content' must be text or a list of parts")
    return "".join(part["text"] for part in content if isinstance(part, dict)
                   and part.get("type") == "text" and isinstance(part.get("text"), str))


def _arguments(value, where):
    """A call's arguments: a JSON text of an object (as the chat API keeps them)."""
    if isinstance(value, dict):
        return value
    if value in (None, ""):
        return {}
    if not isinstance(value, str):
        raise InputError(f"{where}: 'arguments' must be JSON text")
    try:
        decoded = json.loads(value)
    except ValueError:
        return {}
    return decoded if isinstance(decoded, dict) else {}


def _turn(tool, args, text):
    """A call as a turn: the harness's opening part taken off, its status kept."""
    status, output = None, text
    harness = _HARNESS.match(text)
    if harness:
        output = text[harness.end():]
        failed = _FAILED.search(harness.group(2))
        if failed:
            status = int(failed.group(1)) or ERROR_STATUS
        elif _KILLED.search(harness.group(2)):
            status = TIMEOUT_STATUS
        elif harness.group(1):
            status = ERROR_STATUS
        elif tool == SHELL_TOOL and "executed successfully" in harness.group(2):
            status = 0
    command = args.get("command") if tool == SHELL_TOOL else None
    if not isinstance(command, str):
        return turn(tool_summary(tool, args), output, status if status else None,
                    kind=KINDS.get(tool), model_text=tool in MODEL_TEXT_TOOLS)
    running = args.get("run_in_background") is True and status is None
    return turn(command, output, status, finished=not running)
