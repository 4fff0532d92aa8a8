"""Render an item (a claim and its turns) as a Claude Code session file, for a peer that reads
only Claude Code sessions (proof-of-done). Each turn becomes one tool call and its result:
a shell turn a `Bash` call (a failing exit status as Claude Code writes it: an error result
whose text starts "Exit code N"; a turn that had not finished as a background start), an
edit tool's turn an `Edit`/`Write` call on its file, a read a `Read`; the claim is the
agent's final message. Nothing else is invented."""

import json
import re

_EDITS = {"edit", "multiedit", "write", "write_to_file", "apply_diff", "replace_in_file",
          "str_replace_editor", "str_replace_based_edit_tool", "create_file", "edit_file",
          "write_file", "replace", "apply_patch", "insert_content", "search_and_replace",
          "notebookedit", "search_replace", "fs_write"}
_READS = {"read", "read_file", "view", "open", "view_file", "readfile"}
_PATH_KEYS = ("file_path", "path", "filePath", "target_file", "absolute_path", "filename")


def _tool(cmd):
    """(tool name, input) of a turn's command."""
    head, _, rest = (cmd or "").strip().partition(" ")
    name = head.lower()
    data = None
    if rest.strip().startswith("{"):
        try:
            data = json.loads(rest)
        except ValueError:
            data = None
    path = None
    if isinstance(data, dict):
        path = next((data[k] for k in _PATH_KEYS if isinstance(data.get(k), str)), None)
    elif rest and re.match(r"^[\w./~-]+$", rest.strip()):
        path = rest.strip()
    if name in _EDITS:
        return ("Write" if name.startswith(("write", "create")) else "Edit"), {
            "file_path": path or "unknown", "old_string": "", "new_string": ""}
    if name in _READS and path:
        return "Read", {"file_path": path}
    return "Bash", {"command": cmd or ""}


def session_lines(item, session_id="00000000-0000-0000-0000-000000000006"):
    """The JSON Lines records of a Claude Code session for `item`."""
    records, parent = [], None

    def add(kind, message, extra=None):
        nonlocal parent
        uuid = f"u{len(records):05d}-0000-0000-0000-000000000000"
        record = {"type": kind, "message": message, "uuid": uuid, "parentUuid": parent,
                  "sessionId": session_id, "isSidechain": False}
        record.update(extra or {})
        records.append(record)
        parent = uuid

    add("user", {"role": "user", "content": "Please do the task."})
    for number, turn in enumerate(item["turns"], 1):
        name, data = _tool(turn.get("cmd"))
        call = f"toolu_{number:04d}"
        add("assistant", {"id": f"msg_{number:04d}", "role": "assistant", "content": [
            {"type": "tool_use", "id": call, "name": name, "input": data}]})
        output = turn.get("output") or ""
        status = turn.get("exit_status")
        result = {"type": "tool_result", "tool_use_id": call, "content": output}
        extra = {"toolUseResult": {"stdout": output, "stderr": "", "interrupted": False}}
        if turn.get("finished") is False:
            result["content"] = f"Command running in background with ID: bg{number}"
            extra = {"toolUseResult": {"backgroundTaskId": f"bg{number}"}}
        elif status:
            result.update(content=f"Exit code {status}\n{output}", is_error=True)
            extra = {}
        add("user", {"role": "user", "content": [result]}, extra)
    add("assistant", {"id": "msg_final", "role": "assistant",
                      "content": [{"type": "text", "text": item["claim"]}]})
    return [json.dumps(r, ensure_ascii=False) for r in records]
