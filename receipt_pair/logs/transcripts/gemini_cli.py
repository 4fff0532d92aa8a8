"""Gemini CLI saved sessions and checkpoints (~/.gemini/tmp/<project hash>/...).

Three shapes: a session JSON document `{"sessionId", "projectHash", "messages": [...]}`;
a session JSON Lines file (a metadata line, one line per message where the last copy of an
id wins, `$set` and `$rewindTo` lines); and a checkpoint, the raw API history as a list of
`{"role", "parts"}`. Tool calls sit in `gemini` messages' `toolCalls`. See docs/formats.md.
"""


from ...errors import InputError
from ._common import (EDIT, VIEW, Said, Session, finish, get, is_missing, json_lines, need,
                      text_of, tool_summary, try_loads, turn)
from ...patterns import lazy

LABEL = "Gemini CLI"
SHELL_TOOL = "run_shell_command"

# The shell tool's result is a labelled block; these trail the output, in this order.
_TRAILERS = ("Process Group PGID", "Background PIDs", "Signal", "Exit Code", "Error")
_EXIT = lazy(r"\A-?\d{1,9}\Z")
# A shell call stopped before it exited records no exit code. A signal gives 128 + its
# number, what a shell reports for a command killed by it (1 for a name not listed here);
# a call cancelled for want of output gives 124 (`timeout`'s status), one the person
# cancelled 130 (128 + SIGINT). Gemini CLI writes the abort as a sentence, not a block.
_SIGNALS = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6,
            "SIGBUS": 7, "SIGFPE": 8, "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11,
            "SIGUSR2": 12, "SIGPIPE": 13, "SIGALRM": 14, "SIGTERM": 15}
_SIGNAL_NUMBER = lazy(r"\A\d{1,3}\Z")
UNKNOWN_SIGNAL_STATUS = 1
_ABORTS = (("Command was automatically cancelled because it exceeded the timeout", 124),
           ("Command was cancelled by user", 130))
# A call Gemini CLI recorded as failed ("status": "error", or a response holding "error")
# or cancelled, with no failed exit code of its own, must not read as one that passed.
ERROR_STATUS = 1
_CALL_STATUS = {"error": ERROR_STATUS, "cancelled": 130}
# Tools whose result is text a model wrote: web_fetch and google_web_search answer with
# Gemini's own reply about the pages; write_todos and save_memory echo the agent's own words
# back. A sub-agent (codebase_investigator, or any agent a user defines) is called as a tool
# of its own name, and its result is its final report.
MODEL_TEXT_TOOLS = frozenset({"web_fetch", "google_web_search", "write_todos", "save_memory",
                              "codebase_investigator", "cli_help"})
_SUBAGENT_REPORT = lazy(r"\ASubagent '([^'\n]{1,200})' (?:finished|failed)")
KINDS = {"replace": EDIT, "write_file": EDIT, "read_file": VIEW, "read_many_files": VIEW,
         "list_directory": VIEW, "glob": VIEW, "search_file_content": VIEW,
         "grep_search": VIEW}
# A shell command sent to the background (`is_background`, or moved there while it ran)
# reports only that; a foreground command that left processes running names their PIDs.
_BACKGROUNDED = "Command moved to background (PID:"
# The newest versions wrap a tool's text in these lines (wrapUntrusted), escaping a closing
# tag inside it; the wrapper is Gemini CLI's, not the tool's output.
_WRAP_OPEN, _WRAP_CLOSE = "<untrusted_context>", "</untrusted_context>"
_WRAP_ESCAPED = "&lt;/untrusted_context&gt;"
# A signal of 0 (what node-pty reports for a command that exited) or none is no signal.
_NO_SIGNAL = ("(none)", "0", "")


def looks_like_document(value):
    if isinstance(value, dict):
        return isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str)
    if isinstance(value, list) and value and isinstance(value[0], dict):
        first = value[0]
        return first.get("role") in ("user", "model") and isinstance(first.get("parts"), list)
    return False


def read(text, name):
    """Turns from a Gemini CLI session (JSON or JSON Lines) or checkpoint file."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The file read once (a Session): its turns, in the order of the tool calls, and the
    agent's own messages and calls (a checkpoint, the raw API history, gives its turns
    only)."""
    document = try_loads(text)
    if isinstance(document, list):
        return Session(_checkpoint(document, name))
    said = Said()
    if isinstance(document, dict) and "messages" in document:
        messages = need(document, "messages", list, name)
        return said.session(_session(enumerate(messages, 1), name, "message", said))
    if not is_missing(document) and not isinstance(document, dict):
        raise InputError(f"{name}: not a Gemini CLI session: the file holds {type(document).__name__}")
    return said.session(_session(_replay(json_lines(text, name), name), name, "line", said))


def _replay(records, name):
    """The messages of a JSON Lines session after updates and rewinds, as (line, message),
    as Gemini CLI itself reads the file back: a rewind to an id it does not hold drops
    every message."""
    messages = {}  # id -> (line, message); dicts keep the order of first insertion
    for number, record in records:
        where = f"{name} line {number}"
        if "$rewindTo" in record:
            target = need(record, "$rewindTo", str, where)
            ids = list(messages)
            cut = ids.index(target) if target in messages else 0
            for message_id in ids[cut:]:
                del messages[message_id]
        elif isinstance(record.get("id"), str):
            message_id = record["id"]
            first = messages[message_id][0] if message_id in messages else number
            messages[message_id] = (first, record)
    return list(messages.values())


def _session(numbered, name, unit, said):
    """The turns of a session's messages; `said` (a Said) is told the agent's own."""
    turns = []
    for number, message in numbered:
        where = f"{name} {unit} {number}"
        if not isinstance(message, dict):
            raise InputError(f"{where}: a message must be an object")
        sender = get(message, "type", str, where)
        if sender == "user":
            said.activity()
        if sender != "gemini":
            continue
        words = _words(message.get("content"), where)
        if words.strip():
            said.message(words)
        for index, call in enumerate(get(message, "toolCalls", list, where, default=[]), 1):
            said.call()
            call_where = f"{where} tool call {index}"
            if not isinstance(call, dict):
                raise InputError(f"{call_where}: must be an object")
            tool = need(call, "name", str, call_where)
            args = get(call, "args", dict, call_where, default={})
            if call.get("result") is None:
                continue  # not finished, or cancelled before any output
            output, errored = _result_text(call["result"], call_where)
            failed = _CALL_STATUS.get(get(call, "status", str, call_where)) or \
                (ERROR_STATUS if errored else None)
            turns.append(_turn(tool, args, output, call_where, failed))
    return turns


def _words(content, where):
    """The text of a gemini message's content: a string, or its parts' text (a part
    without text, a function call, is none)."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list) or not all(isinstance(p, (str, dict)) for p in content):
        raise InputError(f"{where}: 'content' must be text or a list of parts")
    return "".join(p if isinstance(p, str) else text_of(p, where) if "text" in p else ""
                   for p in content)


def _checkpoint(contents, name):
    pending = []  # (call id or None, tool, args), in order
    answers = {}  # index into pending -> (output, whether the response is an error)
    for number, content in enumerate(contents, 1):
        where = f"{name} content {number}"
        if not isinstance(content, dict):
            raise InputError(f"{where}: must be an object with 'role' and 'parts'")
        for index, part in enumerate(get(content, "parts", list, where, default=[]), 1):
            if not isinstance(part, dict):
                raise InputError(f"{where} part {index}: must be an object")
            part_where = f"{where} part {index}"
            if "functionCall" in part:
                call = need(part, "functionCall", dict, part_where)
                pending.append((get(call, "id", str, part_where), need(call, "name", str, part_where),
                                get(call, "args", dict, part_where, default={})))
            elif "functionResponse" in part:
                response = need(part, "functionResponse", dict, part_where)
                slot = _match(pending, answers, get(response, "id", str, part_where),
                              get(response, "name", str, part_where))
                if slot is not None:
                    answers[slot] = _result_text([part], part_where)
    turns = [_turn(tool, args, answers[i][0], f"{name} call {i + 1}",
                   ERROR_STATUS if answers[i][1] else None)
             for i, (_, tool, args) in enumerate(pending) if i in answers]
    return turns


def _match(pending, answers, call_id, tool):
    """The first unanswered call with this id, or else with this tool name."""
    for index, (pending_id, pending_tool, _) in enumerate(pending):
        if index in answers:
            continue
        if (call_id is not None and pending_id == call_id) or \
                (call_id is None or pending_id is None) and pending_tool == tool:
            return index
    return None


def _result_text(result, where):
    """(text, errored) of a tool result: function response outputs, errors, or plain text
    parts; `errored` when a function response reports an error."""
    parts = result if isinstance(result, list) else [result]
    texts = []
    errored = False
    for part in parts:
        if isinstance(part, dict) and "functionResponse" in part:
            response = need(part, "functionResponse", dict, where)
            body = get(response, "response", dict, where, default={})
            errored = errored or body.get("error") not in (None, "", [], {})
            for key in ("output", "error", "content"):
                if key in body:
                    texts.append(text_of(body[key], where))
                    break
        else:
            texts.append(text_of(part, where))
    return "\n".join(_unwrap(text) for text in texts if text), errored


def _unwrap(text):
    """The text inside Gemini CLI's <untrusted_context> wrapper, as the tool wrote it."""
    if not text.startswith(_WRAP_OPEN):
        return text
    inner = text[len(_WRAP_OPEN):]
    inner = inner[1:] if inner.startswith("\n") else inner
    if inner.endswith(_WRAP_CLOSE):
        inner = inner[:-len(_WRAP_CLOSE)]
        inner = inner[:-1] if inner.endswith("\n") else inner
    return inner.replace(_WRAP_ESCAPED, _WRAP_CLOSE)


def _turn(tool, args, output, where, failed=None):
    """A call as a turn; `failed`, the status of a call recorded as failed, is its exit
    status when it records no failed one of its own."""
    code, running, summary = None, False, False
    command = get(args, "command", str, where) if tool == SHELL_TOOL else None
    if command is not None:
        running = args.get("is_background") is True or output.startswith(_BACKGROUNDED)
        split = _split_shell_block(output)
        # Every version answers with its labelled block or one of its own sentences; any
        # other text is a model's summary of the output (summarizeToolOutput), not output.
        summary = split is None and not running
        output, code, background = split or (output, None, False)
        running = running or background
    status = failed if failed and not code else code
    subagent = _SUBAGENT_REPORT.match(output)
    return turn(tool_summary(tool, args) if command is None else command, output, status,
                finished=not running, kind=KINDS.get(tool),
                model_text=summary or tool in MODEL_TEXT_TOOLS or
                bool(subagent and subagent[1] == tool))


def _split_shell_block(text):
    """(output, exit status, whether processes it started still ran) of run_shell_command's
    labelled block, or of a sentence it writes when a command was stopped; None for text
    that is neither.

    Versions: `Command:`/`Directory:` first (older ones), then `Output:` (or, earliest,
    `Stdout:` and `Stderr:`), then `Error:`, `Exit Code:`, `Signal:`, `Background PIDs:`,
    `Process Group PGID:`, read from the end (older versions write all of them, newer ones
    only those that apply)."""
    lines = text.split("\n")
    while lines and lines[0].startswith(("Command: ", "Directory: ")):
        lines.pop(0)  # older versions repeat the command and directory first
    if not lines or not lines[0].startswith(("Output: ", "Stdout: ")):
        for sentence, code in _ABORTS:
            if text.startswith(sentence):
                return text, code, False
        return None
    trailers = {}
    for key in _TRAILERS:
        if len(lines) > 1 and lines[-1].startswith(key + ": ") and key not in trailers:
            trailers[key] = lines.pop()[len(key) + 2:]
    lines = _streams(lines)
    for key, nothing in (("Error", ("(none)", "")), ("Signal", _NO_SIGNAL)):
        if trailers.get(key, "(none)").strip() not in nothing:  # real failures stay visible
            lines.append(f"{key}: {trailers[key]}")
    code = trailers.get("Exit Code", "")
    code = int(code) if _EXIT.match(code) else None
    if not code and trailers.get("Signal", "(none)").strip() not in _NO_SIGNAL:
        code = _signal_status(trailers["Signal"].strip())
    background = trailers.get("Background PIDs", "(none)").strip() not in ("(none)", "")
    return "\n".join(lines), code, background


# Qwen Code, a fork, answers with the same block.
split_shell_block = _split_shell_block


def _streams(lines):
    """The output lines of `Output: ...`, or of `Stdout: ...` then `Stderr: ...` (the
    last `Stderr:` line is the label; a stream that is `(empty)` is nothing)."""
    label = "Output: " if lines[0].startswith("Output: ") else "Stdout: "
    lines = [lines[0][len(label):]] + lines[1:]
    parts = [lines]
    if label == "Stdout: ":
        cut = max((i for i, line in enumerate(lines) if i and line.startswith("Stderr: ")),
                  default=None)
        if cut is not None:
            parts = [lines[:cut], [lines[cut][len("Stderr: "):]] + lines[cut + 1:]]
    return [line for part in parts if part != ["(empty)"] for line in part]


def _signal_status(signal):
    """The status of a command killed by `signal` (a number or a name such as SIGKILL)."""
    if _SIGNAL_NUMBER.match(signal) and int(signal) > 0:
        return 128 + int(signal)
    number = _SIGNALS.get(signal.upper() if signal.upper().startswith("SIG")
                          else "SIG" + signal.upper())
    return 128 + number if number else UNKNOWN_SIGNAL_STATUS
