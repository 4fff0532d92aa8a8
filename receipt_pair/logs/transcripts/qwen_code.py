"""Qwen Code chat recordings: ~/.qwen/projects/<project>/chats/<session id>.jsonl (the Stop
hook's `transcript_path` names it). Qwen Code is a fork of Gemini CLI.

One `ChatRecord` per line: `{"uuid", "parentUuid", "sessionId", "timestamp", "type":
"user"|"assistant"|"tool_result"|"system", "message": {"role", "parts": [...]},
"toolCallResult"?, "isSidechain"?, "agentId"?}`. The parts are Gemini's: an assistant
record's `functionCall` (`id`, `name`, `args`) is answered by a `tool_result` record's
`functionResponse` (`id`, `name`, `response.output` or `response.error`), with
`toolCallResult.status` `success`, `error` or `cancelled`. The shell tool,
`run_shell_command`, answers with Gemini CLI's labelled block (`Command:`, `Output:`,
`Exit Code:`, ...), read by the Gemini CLI reader's own splitter. See docs/formats.md.
"""

from ...errors import InputError
from ._common import EDIT, VIEW, Said, finish, get, json_lines, need, text_of, tool_summary, turn
from .gemini_cli import SHELL_TOOL, split_shell_block

LABEL = "Qwen Code"
ERROR_STATUS = 1
_CALL_STATUS = {"error": ERROR_STATUS, "cancelled": 130}
KINDS = {"edit": EDIT, "write_file": EDIT, "replace": EDIT, "read_file": VIEW,
         "read_many_files": VIEW, "list_directory": VIEW, "glob": VIEW, "grep_search": VIEW,
         "search_file_content": VIEW}
# A sub-agent's report, a web answer written by a model, the agent's own to-do list or
# memory echoed back: a model's words, not a program's output.
MODEL_TEXT_TOOLS = frozenset({"task", "agent", "web_fetch", "web_search", "todo_write",
                              "save_memory", "exit_plan_mode"})


def looks_like(record):
    """Whether one decoded JSON Lines record is a Qwen Code chat record."""
    message = record.get("message")
    return record.get("type") in ("user", "assistant", "tool_result", "system") and \
        isinstance(record.get("uuid"), str) and "parentUuid" in record and \
        (message is None or isinstance(message, dict) and "parts" in message)


def read(text, name):
    """Turns from a Qwen Code chat recording, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The recording read once (a Session): its turns and the main agent's own words and
    calls (a sub-agent's records, `isSidechain`, are turns all the same)."""
    calls, results, said = [], {}, Said()
    for number, record in json_lines(text, name):
        where = f"{name} line {number}"
        kind = need(record, "type", str, where)
        own = record.get("isSidechain") is not True and record.get("agentId") is None
        message = get(record, "message", dict, where, default={})
        parts = get(message, "parts", list, where, default=[])
        if kind == "user" and own:
            said.activity()
        elif kind == "assistant":
            _assistant(parts, where, calls, said if own else None)
        elif kind == "tool_result":
            if own:
                said.activity()
            status = get(record, "toolCallResult", dict, where, default={}).get("status")
            for index, part in enumerate(parts, 1):
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if isinstance(response, dict):
                    call_id = get(response, "id", str, f"{where} part {index}")
                    results.setdefault(call_id, _response(response, status, where))
    turns = [_turn(tool, args, *results[call_id]) for call_id, tool, args in calls
             if call_id in results]
    return said.session(turns)


def _assistant(parts, where, calls, said):
    """The agent's words and calls in an assistant record's parts; `said` is None for a
    sub-agent's."""
    words = []
    for index, part in enumerate(parts, 1):
        part_where = f"{where} part {index}"
        if not isinstance(part, dict):
            raise InputError(f"{part_where}: must be an object")
        if "functionCall" in part:
            call = need(part, "functionCall", dict, part_where)
            calls.append((need(call, "id", str, part_where), need(call, "name", str, part_where),
                          get(call, "args", dict, part_where, default={})))
            if said is not None:
                said.call()
        elif isinstance(part.get("text"), str) and part.get("thought") is not True:
            words.append(part["text"])
    if said is not None and "".join(words).strip():
        said.message("".join(words))


def _response(response, status, where):
    """(output, the failed status of a call Qwen Code recorded as failed, or None)."""
    body = get(response, "response", dict, where, default={})
    for key in ("output", "error", "content"):
        if key in body:
            output = text_of(body[key], where)
            break
    else:
        output = ""
    failed = _CALL_STATUS.get(status) if isinstance(status, str) else None
    if failed is None and body.get("error") not in (None, "", [], {}):
        failed = ERROR_STATUS
    return output, failed


def _turn(tool, args, output, failed):
    """A call as a turn: a shell command's labelled block split into its output and exit
    status (text of another shape is kept as it is, its status what Qwen Code recorded)."""
    command = args.get("command") if tool == SHELL_TOOL else None
    if not isinstance(command, str):
        return turn(tool_summary(tool, args), output, failed, kind=KINDS.get(tool),
                    model_text=tool in MODEL_TEXT_TOOLS)
    running = args.get("is_background") is True
    split = split_shell_block(output)
    code = None
    if split is not None:
        output, code, background = split
        running = running or background
    return turn(command, output, failed if failed and not code else code,
                finished=not running)
