"""Claude Code session files: ~/.claude/projects/<project>/<session id>.jsonl.

Each line is one record with a `type`. An `assistant` record's `message.content` holds
`tool_use` blocks (`id`, `name`, `input`); a later `user` record answers each with a
`tool_result` block (`tool_use_id`, `content`, `is_error`). Every other record type
(summary, system, file-history-snapshot, progress, ...) is skipped. See docs/formats.md.
"""

from dataclasses import dataclass
from typing import FrozenSet, Mapping

from ...errors import InputError
from ._common import EDIT, VIEW, Said, finish, get, json_lines, need, text_of, tool_summary, turn
from ...patterns import lazy

LABEL = "Claude Code"

# A failed Bash call's result starts with this line; a passing one records no status.
_EXIT_LINE = lazy(r"\AExit code (-?\d{1,9})(?:\n|\Z)")
# The status of an error result that names no exit code of its own (an MCP tool that
# failed, a timeout, a refused edit): an error must never read as a command that passed.
ERROR_STATUS = 1
# Tools whose result is a model's prose, not what a program printed: a sub-agent's final
# report (Task, Agent; TaskOutput and AgentOutputTool fetch a background agent's report,
# and TaskOutput's cannot be told from a background shell's), WebFetch, whose result is
# a small model's answer about the page, and WebSearch, whose links come with a model's
# summary. Such a call stays a turn, with no output.
MODEL_TEXT_TOOLS = frozenset({"Task", "Agent", "TaskOutput", "AgentOutputTool", "WebFetch",
                              "WebSearch"})
# What a tool did, by its name: changed files, or only showed them (a read, a search).
KINDS = {"Edit": EDIT, "MultiEdit": EDIT, "Write": EDIT, "NotebookEdit": EDIT,
         "Read": VIEW, "Grep": VIEW, "Glob": VIEW, "LS": VIEW, "NotebookRead": VIEW}
# A Bash call still running when the log was written: started with run_in_background, or
# moved to the background (it outlived its timeout or a blocking budget, or the person
# sent it there). Its result says only that; how it ended comes later, as a notice.
_BACKGROUND = lazy(r"\ACommand (?:running in background with ID: |[^\n]{0,200}?(?:was "
                         r"moved to the background|was manually backgrounded by user))")
_BACKGROUND_ID = lazy(r"\ACommand [^\n]{0,300}?(?:with ID: |\(ID: )([\w-]{1,100})")
# How a background command ended comes back later as a notice in a record of the harness
# (a queued command, an attachment, or a user line of its own), never in a tool result:
# "(exit code N)" at the end of its summary (the description before it is the model's).
_NOTICES = ("<task-notification>", "<bash-notification>")
_NOTICE_IDS = lazy(r"<(tool-use-id|task-id|shell-id)>([^<\s]{1,200})</\1>")
_NOTICE_STATUS = lazy(r"<status>([^<\s]{1,40})</status>")
_NOTICE_EXIT = lazy(r"\(exit code (-?\d{1,9})\)")


@dataclass(frozen=True)
class Dialect:
    """What differs between agents that write Claude-style content blocks: their shell
    tool, whether a finished shell result without the error mark is known to have exited
    0, their tools' kinds and the tools whose result is a model's words."""

    shell: FrozenSet[str]
    silent_success: bool
    kinds: Mapping[str, str]
    model_text: FrozenSet[str]


CLAUDE = Dialect(frozenset({"Bash"}), True, KINDS, MODEL_TEXT_TOOLS)


def looks_like(record):
    """Whether one decoded JSON Lines record is from a Claude Code session file."""
    kind = record.get("type")
    if kind in ("user", "assistant"):
        message = record.get("message")
        return isinstance(message, dict) and "content" in message
    if kind == "summary":
        return "leafUuid" in record
    return kind == "file-history-snapshot" and "snapshot" in record


def read(text, name):
    """Turns from the text of a Claude Code session file, in the order of the tool calls."""
    return finish(read_session(text, name).turns, name, LABEL)


def read_session(text, name):
    """The session file read once (a Session): its turns, in the order of the tool calls,
    and the main agent's own messages and calls (a sub-agent's, in the same file, are not
    its own: their tool calls are turns all the same)."""
    return read_records(json_lines(text, name), name, CLAUDE)


def read_records(records, name, dialect):
    """A Session from numbered Claude Code records (`(line, record)`), or another agent's
    records set in their shape, read as `dialect` (a Dialect) says."""
    calls = []  # (tool_use id, command, tool, started in the background), in order
    seen = set()
    results = {}  # tool_use id -> (output, exit status)
    ids = {}  # tool_use id -> the background task id its result names
    ends = {}  # tool_use id or task id -> the exit status the harness's notice gave it
    said = Said()
    for number, record in records:
        where = f"{name} line {number}"
        kind = need(record, "type", str, where)
        if kind in ("queue-operation", "attachment"):
            _notice(_queued_text(kind, record, where), ends)
        if kind not in ("assistant", "user"):
            continue
        message = need(record, "message", dict, where)
        content = get(message, "content", (str, list), where, default=[])
        part_of = get(message, "id", str, where)  # one message written over records
        own = get(record, "isSidechain", bool, where, default=False) is not True
        if own and kind == "user":
            said.activity()  # a tool's result, or the person's next prompt
        if isinstance(content, str):
            if kind == "user":  # words the person typed, or the harness's own notice
                _notice(content, ends)
            elif own and content.strip():
                said.message(content, part_of)
            continue
        task = record.get("toolUseResult")  # a string, a list or an object, by tool
        task = get(task, "backgroundTaskId", str, where) if isinstance(task, dict) else None
        for index, block in enumerate(content, 1):
            block_where = f"{where} content block {index}"
            if not isinstance(block, dict):
                raise InputError(f"{block_where}: must be an object")
            block_type = get(block, "type", str, block_where)
            if kind == "assistant" and block_type == "tool_use":
                call_id = need(block, "id", str, block_where)
                tool = need(block, "name", str, block_where)
                args = get(block, "input", dict, block_where, default={})
                if call_id not in seen:  # a resumed session may repeat a record
                    seen.add(call_id)
                    calls.append((call_id, _command(tool, args, block_where, dialect), tool,
                                  get(args, "run_in_background", bool, block_where) is True))
                if own:
                    said.call()
            elif kind == "assistant" and block_type == "text" and own:
                words = get(block, "text", str, block_where, default="")
                if words.strip():
                    said.message(words, part_of)
            elif kind == "user" and block_type == "tool_result":
                call_id = need(block, "tool_use_id", str, block_where)
                if call_id not in results:
                    results[call_id] = _result(block, block_where)
                    named = _BACKGROUND_ID.match(results[call_id][0])
                    task_id = named.group(1) if named else task
                    if isinstance(task_id, str):
                        ids[call_id] = task_id
    turns = [_turn(cmd, tool, background, results[call_id],
                   ends.get(call_id, ends.get(ids.get(call_id))), dialect)
             for call_id, cmd, tool, background in calls if call_id in results]
    return said.session(turns)


def _turn(cmd, tool, background, result, end, dialect):
    """A call as a turn: a model's words dropped, a background command unfinished until a
    notice of the harness says how it ended (its result said only that it started)."""
    output, exit_status = result
    shell = tool in dialect.shell
    running = shell and (background or _BACKGROUND.match(output) is not None)
    if running and end is not None and exit_status is None:
        running, exit_status, output = False, end, ""
    if shell and not running and exit_status is None and dialect.silent_success:
        # Claude Code marks every non-zero exit as an error result: a finished Bash call's
        # result without the mark exited 0, so a silent success is a fact too.
        exit_status = 0
    return turn(cmd, output, exit_status, finished=not running, kind=dialect.kinds.get(tool),
                model_text=tool in dialect.model_text)


def _queued_text(kind, record, where):
    """The text of a queued command (`queue-operation` enqueue, `queued_command`
    attachment), where the harness hands back a notice while the agent is busy; "" for
    any other record of these types, which the reader otherwise skips."""
    if kind == "queue-operation" and get(record, "operation", str, where) == "enqueue":
        return text_of(record.get("content"), where)
    attachment = get(record, "attachment", dict, where, default={}) \
        if kind == "attachment" else {}
    if get(attachment, "type", str, where) == "queued_command":
        return text_of(attachment.get("prompt"), where)
    return ""


def _notice(text, ends):
    """Record how a background command ended, by its tool_use id and task id, when `text`
    is a notice that says so: the last "(exit code N)" of it, or a failed status (1)."""
    if not text.lstrip().startswith(_NOTICES):
        return
    codes = _NOTICE_EXIT.findall(text)
    status = _NOTICE_STATUS.search(text)
    if codes:
        end = int(codes[-1])
    elif status and status.group(1) == "failed":
        end = ERROR_STATUS
    else:
        return  # stopped, or ended without saying how: the command stays unfinished
    for _, key in _NOTICE_IDS.findall(text):
        ends.setdefault(key, end)


def _command(tool, args, where, dialect=CLAUDE):
    if tool in dialect.shell:
        command = get(args, "command", str, where)
        if command is None:
            command = get(args, "cmd", str, where)
        if command is not None:
            return command
    if tool in ("Edit", "MultiEdit", "Write", "Read", "NotebookEdit"):
        target = args.get("file_path") or args.get("notebook_path")
        if isinstance(target, str):
            return f"{tool} {target}"
    return tool_summary(tool, args)


def _result(block, where):
    """(output, exit status) of a tool_result: an error result always has a failed status."""
    output = text_of(block.get("content"), where)
    if not get(block, "is_error", bool, where, default=False):
        return output, None
    match = _EXIT_LINE.match(output)
    if match:
        output, code = output[match.end():], int(match.group(1))
        return output, code or ERROR_STATUS  # "Exit code 0" on an error is still an error
    return output, ERROR_STATUS
