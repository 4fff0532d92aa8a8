"""Factory Droid session files: ~/.factory/sessions/<project>/<session id>.jsonl (the Stop
hook's `transcript_path` names it).

A first `{"type": "session_start", "id", "title", "cwd", ...}` line, then
`{"type": "message", "id", "timestamp", "message": {"role", "content": [blocks]}}` lines
whose blocks are Claude-style (`text`, `thinking`, `tool_use` with `id`, `name`, `input`,
`tool_result` with `tool_use_id`, `content`, `is_error`), and other lines (`todo_state`,
`compaction_state`, `session_end`) that hold no call. The blocks are read by the Claude
Code reader (claude_code.read_records) in Droid's dialect: its shell tool is `Execute`, and
a result without the error mark says nothing of the exit status (Droid documents no
numeric status). See docs/formats.md.
"""

from ._common import EDIT, VIEW, finish, json_lines
from .claude_code import Dialect, read_records

LABEL = "Factory Droid"
KINDS = {"Create": EDIT, "Edit": EDIT, "MultiEdit": EDIT, "ApplyPatch": EDIT,
         "Read": VIEW, "LS": VIEW, "Grep": VIEW, "Glob": VIEW}
# A sub-agent's report (Task) and the agent's own to-do list echoed back are a model's
# words, not a program's output.
DROID = Dialect(frozenset({"Execute"}), False, KINDS, frozenset({"Task", "TodoWrite"}))


def looks_like(record):
    """Whether one decoded JSON Lines record is from a Droid session file."""
    if record.get("type") == "session_start":
        return isinstance(record.get("id"), str) and "cwd" in record
    message = record.get("message")
    return record.get("type") == "message" and isinstance(message, dict) and \
        message.get("role") in ("user", "assistant") and "content" in message


def read(text, name):
    """Turns from a Droid session file, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The session file read once (a Session), its message lines set in Claude Code's
    record shape and read by its reader in Droid's dialect."""
    return read_records(_as_claude(json_lines(text, name)), name, DROID)


def _as_claude(records):
    for number, record in records:
        message = record.get("message")
        if record.get("type") == "message" and isinstance(message, dict) and \
                message.get("role") in ("user", "assistant"):
            yield number, {"type": message["role"], "message": message}
