"""Readers for agent session files as they lie on disk, one module per agent.

`detect(text)` names the format of a file from its content alone (never its name), and
`read_transcript(text, name, fmt)` turns it into `Turn`s: one per tool call that has a
result, in the order of the calls, with the command, what the tool returned and the exit
status when the file records one. The agent's own words never become output. Anything
malformed is an `InputError` naming the file and the line, record or event.
docs/formats.md describes every format and the sources it was established from.

`read_session(text, name, fmt)` reads the file of an agent whose stop a hook checks once,
into a `Session`: its turns, and what the agent itself did (its final message, whether
anything came after it, how many tool calls it made). Everything that knows a format's
records is its module here.
"""

from dataclasses import replace

from ...errors import InputError
from . import (claude_code, codex, copilot, droid, gemini_cli, github_actions, kimi_cli,
               mini_swe_agent, opencode, openhands, qwen_code, swe_agent)
from ._common import Session, is_missing, no_commands, try_loads  # noqa: F401 (read from here)

FORMATS = ("claude-code", "codex", "gemini-cli", "copilot", "droid", "qwen-code", "kimi-cli",
           "opencode", "openhands", "mini-swe-agent", "swe-agent", "github-actions")

_READERS = {
    "claude-code": claude_code.read,
    "codex": codex.read,
    "gemini-cli": gemini_cli.read,
    "copilot": copilot.read,
    "droid": droid.read,
    "qwen-code": qwen_code.read,
    "kimi-cli": kimi_cli.read,
    "opencode": opencode.read,
    "openhands": openhands.read,
    "mini-swe-agent": mini_swe_agent.read,
    "swe-agent": swe_agent.read,
    "github-actions": github_actions.read,
}

# The formats whose session files are read whole: the agent's own words and calls too.
_SESSIONS = {"claude-code": claude_code, "codex": codex, "gemini-cli": gemini_cli,
             "copilot": copilot, "droid": droid, "qwen-code": qwen_code, "kimi-cli": kimi_cli,
             "opencode": opencode}
SESSION_FORMATS = tuple(_SESSIONS)
# Where an agent whose stop names no session file keeps it: found from its working
# folder and session id (Kimi Code CLI), or its storage database (OpenCode).
FINDERS = {"kimi-cli": lambda cwd, session_id: kimi_cli.session_path(cwd, session_id),
           "opencode": lambda cwd, session_id: opencode.database_path()}

# Detection reads at most this many leading JSON Lines records: enough to pass a few
# metadata lines, few enough to stay cheap on a long session.
_SNIFF_RECORDS = 8


def detect(text):
    """The format of a session file from its content, or None when it is none of them.

    Conservative: a plain turns log (`[{"cmd", "output"}]`, `{"turns": [...]}`, or one turn
    object per line) is never taken for an agent format, and neither is anything unsure.
    """
    body = text.lstrip("\ufeff \t\r\n")
    if not body:
        return None
    if body[0] not in "[{":
        return "github-actions" if github_actions.looks_like(text) else None
    document = try_loads(body)
    if not is_missing(document):
        return _detect_document(document)
    return _detect_records(_leading_records(body))


def find_session(fmt, cwd, session_id):
    """Where the session of an agent whose stop names no file is, from its working folder
    and session id, or None (FINDERS)."""
    finder = FINDERS.get(fmt)
    return finder(cwd, session_id) if finder else None


def exported(fmt, path, session_id):
    """The bytes a session's reader reads when the file at `path` is not itself a session
    file: an OpenCode database, read for `session_id`; else None (read the file)."""
    if fmt != "opencode":
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(opencode.SQLITE_MAGIC))
    except OSError:
        return None  # reading the file says why
    if head != opencode.SQLITE_MAGIC:
        return None
    return opencode.export(path, session_id).encode("utf-8")


def read_transcript(text, name, fmt):
    """The turns of the session file `text` in format `fmt`; `name` names it in errors."""
    reader = _READERS.get(fmt)
    if reader is None:
        raise InputError(f"{name}: unknown transcript format {fmt!r} "
                         f"(known: {', '.join(FORMATS)})")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise InputError(f"{name}: the file is empty")
    return reader(text, name)


def read_session(text, name, fmt):
    """The session file `text` in format `fmt` read once, as a Session.

    For the formats of SESSION_FORMATS: its turns, the agent's final message and tool
    calls, and, where it gives no turn and the agent did not simply make no tool call at
    all (`holds_no_command`: in a file that reads as its session, with or without a
    message of its own), the `problem` saying so. For another format: its turns alone
    (an InputError when it holds none, as read_transcript says). For a format no reader
    knows: nothing at all. Anything malformed is an InputError.
    """
    if fmt not in FORMATS:
        return Session()
    if fmt not in _SESSIONS:
        return Session(read_transcript(text, name, fmt))
    module = _SESSIONS[fmt]
    text = text[1:] if text.startswith("\ufeff") else text
    session = module.read_session(text, name)
    if session.turns or session.holds_no_command:
        return session
    if session.tool_calls == 0 and detect(text) == fmt:
        # This agent's session with no tool call and no message of its own yet: the last
        # message is only in a hook's input, and nothing here can show what it claims.
        return replace(session, of_agent=True)
    return replace(session, problem=no_commands(name, module.LABEL))


def _detect_document(document):
    if isinstance(document, list):
        if openhands.looks_like_events(document):
            return "openhands"
        if gemini_cli.looks_like_document(document):
            return "gemini-cli"
        if opencode.looks_like_document(document):
            return "opencode"
        return None
    if not isinstance(document, dict):
        return None
    if mini_swe_agent.looks_like(document):
        return "mini-swe-agent"
    if swe_agent.looks_like(document):
        return "swe-agent"
    for key in ("trajectory", "history", "events"):
        events = document.get(key)
        if isinstance(events, list) and openhands.looks_like_events(events):
            return "openhands"
    if gemini_cli.looks_like_document(document):
        return "gemini-cli"
    if opencode.looks_like_document(document):
        return "opencode"
    return _detect_records([document])  # a JSON Lines file of a single record


def _leading_records(body):
    records = []
    for line in body.split("\n"):
        if len(records) >= _SNIFF_RECORDS:
            break
        if not line.strip():
            continue
        value = try_loads(line)
        if not isinstance(value, dict):
            break  # not JSON Lines of objects, or a half-written line: decide on what we have
        records.append(value)
    return records


def _detect_records(records):
    # Each format's test of one record, in the order they are tried.
    tests = (("codex", codex.looks_like), ("claude-code", claude_code.looks_like),
             ("gemini-cli", gemini_cli.looks_like_document), ("copilot", copilot.looks_like),
             ("droid", droid.looks_like), ("qwen-code", qwen_code.looks_like),
             ("kimi-cli", kimi_cli.looks_like), ("openhands", openhands.is_v1_event))
    for record in records:
        for name, looks_like in tests:
            if looks_like(record):
                return name
    return None
