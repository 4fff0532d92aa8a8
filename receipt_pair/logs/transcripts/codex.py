"""Codex CLI rollouts: ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl.

Each line is `{"timestamp", "type", "payload"}`. `response_item` payloads hold the calls
(`function_call`, `custom_tool_call`, `local_shell_call`) and their outputs
(`function_call_output`, `custom_tool_call_output`), joined by `call_id`; an `event_msg`
of type `exec_command_end` carries a command's exit code. See docs/formats.md.
"""

import re

from ...errors import InputError
from ._common import (EDIT, VIEW, Said, finish, get, json_lines, need, shell_command, status,
                      text_of, tool_summary, try_loads, turn)
from ...patterns import lazy

LABEL = "Codex"
LINE_TYPES = ("session_meta", "turn_context", "response_item", "event_msg", "compacted")
_CALLS = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output")

# Newer shell tools put a header before the command's output: "Chunk ID: ...",
# "Wall time: ...", "Process exited with code N", ..., then "Output:".
_HEADER_LINE = lazy(r"(Chunk ID|Wall time|Process exited with code|Exit code|"
                          r"Original token count|Total output lines|Process running)\b")
_HEADER_STATUS = lazy(r"^(?:Process exited with code|Exit code:) (-?\d{1,9})$", re.M)
# exec_command (and write_stdin to its session) returns after `yield_time_ms` whether or not
# the command ended; one that had not says so instead of an exit code.
_HEADER_RUNNING = lazy(r"^Process running with session ID (\S+)$", re.M)
# The collaboration tools answer with another agent's state and final message: a model's
# words, not what a program printed.
MODEL_TEXT_TOOLS = frozenset({"spawn_agent", "send_input", "wait", "wait_agent",
                              "close_agent", "resume_agent", "list_agents"})
KINDS = {"apply_patch": EDIT, "read_file": VIEW, "list_dir": VIEW, "grep_files": VIEW,
         "view_image": VIEW}
# Codex runs a shell command that calls apply_patch as the patch tool itself.
_SHELL_PATCH = lazy(r"\A\s*apply_patch\b")
_PATCH_FILE = lazy(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.M)


def looks_like(record):
    """Whether one decoded JSON Lines record is a Codex rollout line."""
    return record.get("type") in LINE_TYPES and isinstance(record.get("payload"), dict)


def read(text, name):
    """Turns from the text of a Codex rollout, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The rollout read once (a Session): its turns, in the order of the tool calls, and
    the agent's own messages and calls."""
    calls = []  # (call_id, command, tool name)
    seen = set()
    outputs = {}  # call_id -> (output, exit status or None, still running)
    ends = {}  # call_id -> (aggregated output, exit status) from exec_command_end
    said = Said()
    for number, record in json_lines(text, name):
        where = f"{name} line {number}"
        line_type = need(record, "type", str, where)
        if line_type not in ("response_item", "event_msg"):
            continue
        payload = need(record, "payload", dict, where)
        item = get(payload, "type", str, where)
        _say(line_type, item, payload, said, where)
        if line_type == "event_msg":
            if item == "exec_command_end":
                call_id = need(payload, "call_id", str, where)
                ends.setdefault(call_id, _end_event(payload, where))
        elif item in _CALLS:
            call_id = _call_id(payload, where)
            if call_id not in seen:
                seen.add(call_id)
                tool = "shell" if item == "local_shell_call" else need(payload, "name", str, where)
                calls.append((call_id, _command(item, payload, where), tool))
        elif item in _OUTPUTS:
            call_id = need(payload, "call_id", str, where)
            if call_id not in outputs:
                outputs[call_id] = _output(payload.get("output"), where)
    turns = []
    sessions = {}  # session id -> (its command, what it printed so far), while it runs
    for call_id, cmd, tool in calls:
        running = False
        if call_id in outputs:
            output, exit_status, running = outputs[call_id]
            if running and tool != "write_stdin" and call_id not in ends:
                # The command that announced a session ID last owns it: an earlier one
                # with that ID ended unseen (its turn stays unfinished).
                sessions[running] = (cmd, [])
            if running and call_id in ends:
                # the command ended later in the session: its end event has all it printed
                (output, exit_status), running = ends[call_id], False
            elif exit_status is None and call_id in ends:
                exit_status = ends[call_id][1]
        elif call_id in ends:
            output, exit_status = ends[call_id]
        else:
            continue  # still running: no output to judge yet
        if tool == "write_stdin":
            cmd, output = _in_session(cmd, output, exit_status, sessions)
        elif running:
            sessions[running][1].append(output)
        kind = EDIT if _SHELL_PATCH.match(cmd) else KINDS.get(tool)
        turns.append(turn(cmd, output, exit_status, finished=not running, kind=kind,
                          model_text=tool in MODEL_TEXT_TOOLS))
    return said.session(turns)


def _say(line_type, item, payload, said, where):
    """What one rollout line tells of the agent: its message (as a response item, and again
    as an `agent_message` event), a call, or anything else after a message."""
    if line_type == "event_msg":
        if item == "agent_message":
            message = get(payload, "message", str, where, default="")
            if message.strip():
                said.message(message)
        elif item == "user_message":
            said.activity()
    elif item == "message" and get(payload, "role", str, where) == "assistant":
        text = "".join(_said_parts(get(payload, "content", list, where, default=[]), where))
        if text.strip():
            said.message(text)
    elif item in _CALLS:
        said.call()
    elif item in ("message",) + _OUTPUTS:
        said.activity()


def _said_parts(content, where):
    """The text parts of an assistant message's content; a part that is not an object, or
    a text part whose text is not a string, is a broken record."""
    for index, part in enumerate(content, 1):
        part_where = f"{where} content part {index}"
        if not isinstance(part, dict):
            raise InputError(f"{part_where}: must be an object")
        if get(part, "type", str, part_where) in ("output_text", "text"):
            yield get(part, "text", str, part_where, default="")


def _in_session(cmd, output, exit_status, sessions):
    """(command, output) of a write_stdin turn. While the session runs, its command names
    the session's; the call that reports the exit is the session's command itself, with
    everything the session printed, chunk after chunk, so its status goes with all of it."""
    match = re.match(r"write_stdin session (\S+)", cmd)
    session = sessions.get(match.group(1)) if match else None
    if session is None:
        return cmd, output
    started, printed = session
    printed.append(output)
    if exit_status is None:
        return f"{cmd} ({started.splitlines()[0][:200]})", output
    del sessions[match.group(1)]
    return started, "\n".join(chunk for chunk in printed if chunk)


def _call_id(payload, where):
    call_id = get(payload, "call_id", str, where) or get(payload, "id", str, where)
    if call_id is None:
        raise InputError(f"{where}: 'call_id' is missing")
    return call_id


def _command(item, payload, where):
    if item == "local_shell_call":
        action = need(payload, "action", dict, where)
        return shell_command(need(action, "command", list, where), where)
    tool = need(payload, "name", str, where)
    if item == "custom_tool_call":
        body = get(payload, "input", str, where, default="")
        files = _PATCH_FILE.findall(body) if tool == "apply_patch" else []
        return f"{tool} {', '.join(files)}" if files else tool
    arguments = get(payload, "arguments", (str, dict), where, default="")
    args = try_loads(arguments) if isinstance(arguments, str) else arguments
    if not isinstance(args, dict):
        # The model sent arguments that are not a JSON object; Codex answered with an
        # error, which is still the output of this call.
        return f"{tool} {arguments}".strip()
    if tool == "write_stdin":
        chars = args.get("chars")
        typed = f" {chars!r}"[:200] if isinstance(chars, str) and chars else ""
        return f"write_stdin session {args.get('session_id')}{typed}"
    command = args.get("command")
    if isinstance(command, list):
        return shell_command(command, where)
    if isinstance(command, str) and tool in ("shell", "shell_command", "container.exec"):
        return command
    if isinstance(args.get("cmd"), str):
        return args["cmd"]
    return tool_summary(tool, args)


def _output(raw, where):
    """(output, exit status) of a function_call_output's `output`."""
    text = text_of(raw, where)
    decoded = try_loads(text) if text.startswith("{") else None
    if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
        metadata = decoded.get("metadata")
        code = metadata.get("exit_code") if isinstance(metadata, dict) else None
        return decoded["output"], status(code, where), False
    return _split_header(text)


def _split_header(text):
    """(output, exit status, the session id of a command still running, or False)."""
    lines = text.split("\n")
    if not lines or not _HEADER_LINE.match(lines[0]):
        return text, None, False
    for index, line in enumerate(lines[:12]):
        if line == "Output:":
            header = "\n".join(lines[:index])
            match = _HEADER_STATUS.search(header)
            code = int(match.group(1)) if match else None
            running = _HEADER_RUNNING.search(header) if code is None else None
            return "\n".join(lines[index + 1:]), code, running.group(1) if running else False
    return text, None, False


def _end_event(payload, where):
    output = get(payload, "aggregated_output", str, where)
    if output is None:
        stdout = get(payload, "stdout", str, where, default="")
        stderr = get(payload, "stderr", str, where, default="")
        output = stdout + stderr
    return output, status(payload.get("exit_code"), where)
