"""GitHub Copilot's session event stream: Copilot CLI's
~/.copilot/session-state/<session id>/events.jsonl, and VS Code's agent transcripts
(<workspace storage>/GitHub.copilot-chat/transcripts/<session id>.jsonl), which are the same
events (`session.start` with `producer: "copilot-agent"`).

One event per line, `{"type", "data", "id", "timestamp", "parentId", "agentId"?}`. A tool
call is `tool.execution_start` (`toolCallId`, `toolName`, `arguments`) answered by
`tool.execution_complete` (`toolCallId`, `success`, `result.content` (what the model read),
`error.message`). The shell tools (`bash`, `powershell`, VS Code's `run_in_terminal`) end
their result with `<exited with exit code N>` (or `<shellId: ID completed with exit code
N>`). The agent's words are `assistant.message`'s `content`; an event with an `agentId` is a
sub-agent's. See docs/formats.md.
"""

import json

from ...errors import InputError
from ._common import (EDIT, VIEW, Said, finish, get, json_lines, need, text_of, tool_summary,
                      turn)
from ...patterns import lazy

LABEL = "Copilot"
SHELL_TOOLS = frozenset({"bash", "powershell", "run_in_terminal"})
_EXIT = lazy(r"(?:\A|\n)<(?:exited with exit code (-?\d{1,9})|shellId:[^>\n]{1,200}? "
                   r"completed with exit code (-?\d{1,9}))>[ \t\r\n]*\Z")
# A call recorded as failed (success false) with no exit status of its own.
ERROR_STATUS = 1
# Tools whose result is a model's words, not a program's output: a sub-agent's report,
# the agent's own intent or to-do list echoed back.
MODEL_TEXT_TOOLS = frozenset({"task", "read_agent", "report_intent", "update_todo",
                              "runSubagent", "manage_todo_list", "think"})
KINDS = {"create": EDIT, "edit": EDIT, "str_replace_editor": EDIT, "apply_patch": EDIT,
         "create_file": EDIT, "replace_string_in_file": EDIT,
         "multi_replace_string_in_file": EDIT, "insert_edit_into_file": EDIT,
         "view": VIEW, "grep": VIEW, "glob": VIEW, "read_file": VIEW, "list_dir": VIEW,
         "file_search": VIEW, "grep_search": VIEW, "semantic_search": VIEW}
_EVENTS = ("session.start", "user.message", "assistant.message", "tool.execution_start",
           "tool.execution_complete", "assistant.turn_start", "assistant.turn_end")


def looks_like(record):
    """Whether one decoded JSON Lines record is an event of Copilot's stream."""
    data = record.get("data")
    if record.get("type") == "session.start" and isinstance(data, dict):
        return data.get("producer") == "copilot-agent" or "copilotVersion" in data
    return record.get("type") in _EVENTS and isinstance(data, dict) and \
        isinstance(record.get("id"), str)


def read(text, name):
    """Turns from a Copilot event stream, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The stream read once (a Session): its turns, in the order the calls started, and
    the main agent's own messages and calls. A call whose completion records no result at
    all (VS Code's transcripts may keep none) gives no turn."""
    calls, results, said, requested = [], {}, Said(), set()
    for number, record in json_lines(text, name):
        where = f"{name} line {number}"
        kind = need(record, "type", str, where)
        data = get(record, "data", dict, where, default={})
        own = record.get("agentId") is None and data.get("parentToolCallId") is None
        if kind == "user.message" and own:
            said.activity()
        elif kind == "assistant.message":
            content = get(data, "content", str, where, default="")
            requests = get(data, "toolRequests", list, where, default=[])
            if own and content.strip():
                said.message(content)
            for request in requests:
                if isinstance(request, dict) and isinstance(request.get("toolCallId"), str):
                    requested.add(request["toolCallId"])
                if own:
                    said.call()
        elif kind == "tool.execution_start":
            call_id = need(data, "toolCallId", str, where)
            tool = need(data, "toolName", str, where)
            calls.append((call_id, tool, _arguments(data.get("arguments"), where)))
            if own and call_id not in requested:
                said.call()
        elif kind == "tool.execution_complete":
            call_id = need(data, "toolCallId", str, where)
            if own:
                said.activity()
            if call_id not in results:
                results[call_id] = _result(data, where)
    turns = [_turn(tool, args, *results[call_id]) for call_id, tool, args in calls
             if results.get(call_id) is not None]
    return said.session(turns)


def _arguments(value, where):
    """A call's arguments: an object, or a JSON text of one (as some versions keep it)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{where}: 'arguments' must be an object")
    return value


def _result(data, where):
    """(output, failed) of a completion, or None when it records no result at all."""
    success = get(data, "success", bool, where)
    result = get(data, "result", dict, where)
    error = get(data, "error", (dict, str), where)
    if result is None and error is None:
        return None
    output = text_of(result.get("content"), where) if result else ""
    if isinstance(error, dict):
        message = get(error, "message", str, where, default="")
        output = "\n".join(part for part in (output, message) if part)
    elif isinstance(error, str):
        output = "\n".join(part for part in (output, error) if part)
    return output, success is False or error is not None


def _turn(tool, args, output, failed):
    """A call as a turn: a shell command with the exit status its result ends with."""
    command = args.get("command") if tool in SHELL_TOOLS else None
    if not isinstance(command, str):
        status = ERROR_STATUS if failed else None
        return turn(tool_summary(tool, args), output, status, kind=KINDS.get(tool),
                    model_text=tool in MODEL_TEXT_TOOLS)
    match = _EXIT.search(output)
    if match:
        code = int(match.group(1) or match.group(2))
        return turn(command, output[:match.start()], code or (ERROR_STATUS if failed else 0))
    # No exit line: a command sent to the background (mode "async"), still running when
    # the file was written, unless the call itself failed.
    running = args.get("mode") == "async" or args.get("isBackground") is True
    return turn(command, output, ERROR_STATUS if failed else None, finished=not running)
