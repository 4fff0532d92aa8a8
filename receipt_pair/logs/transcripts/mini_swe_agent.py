"""mini-swe-agent trajectories (`*.traj.json`): `{"info", "messages", "trajectory_format"}`.

1.x: the assistant's reply holds one fenced shell block; the next user message is the
observation, by default `<returncode>N</returncode>` then `<output>...</output>`.
2.x adds `extra` to every message: the actions a reply asked for, and on each observation
the raw output and return code. Tool-calling runs answer each tool call with a `tool`
message (the same template, or `{"returncode", "output"}` as JSON); a run ends with an
`exit` message. See docs/formats.md.
"""

import re

from ...errors import InputError
from ._common import finish, get, loads, need, status, text_of, try_loads, turn
from ...patterns import lazy

LABEL = "mini-swe-agent"

_BLOCK = lazy(r"```(?:bash|mswea_bash_command)[ \t]*\n(.*?)\n```", re.S)
_RETURNCODE = lazy(r"<returncode>\s*(-?\d{1,9})\s*</returncode>")
# What 2.x records for a command that raised in the harness (a timeout, or an action of a
# reply that was never run): -1 with the exception's text beside it.
HARNESS_ERROR = -1
# The command that submits ends the run; what follows it is the agent's final output.
_SUBMIT = ("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "MINI_SWE_AGENT_FINAL_OUTPUT")


def _tag(name, text):
    """The text from the first <name> to the LAST </name> (to the end, when none follows),
    or None when there is no <name>.

    A command can print "</output>" itself: cut at the first one, every later line (the
    failure) would vanish. The template writes its own closing tag after the output, so the
    last one is the template's; what lies between is all output, printed tags and all.
    """
    opening, closing = f"<{name}>", f"</{name}>"
    start = text.find(opening)
    if start == -1:
        return None
    start += len(opening)
    end = text.rfind(closing)
    inner = text[start:end] if end >= start else text[start:]
    if inner.startswith("\n"):
        inner = inner[1:]
    # The template puts a line break after each opening tag, and one before the closing
    # tag of every part but <output>, whose closing tag follows the command's output.
    if name != "output" and inner.endswith("\n"):
        inner = inner[:-1]
    return inner


def _timed_out_after(content):
    """Where the text after a 1.x timeout message's `</command> timed out` starts, or -1.
    Plain finds, not a regular expression: a message of many "<command>" stays linear."""
    start = content.find("<command>")
    end = content.find("</command> timed out", start) if start != -1 else -1
    return -1 if end == -1 else end + len("</command> timed out")


def looks_like(document):
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        return False
    fmt = document.get("trajectory_format")
    info = document.get("info")
    return (isinstance(fmt, str) and fmt.startswith("mini-swe-agent")) or \
        (isinstance(info, dict) and "mini_version" in info)


def read(text, name):
    """Turns from the text of a mini-swe-agent trajectory file."""
    document = loads(text, name)
    if not isinstance(document, dict):
        raise InputError(f"{name}: a mini-swe-agent trajectory must be one JSON object "
                         "with a 'messages' list")
    messages = need(document, "messages", list, name)
    turns = []
    pending = []  # commands of the last reply, answered by the next user message(s)
    calls = {}  # tool call id -> command, for tool-calling trajectories
    for number, message in enumerate(messages, 1):
        where = f"{name} message {number}"
        if not isinstance(message, dict):
            raise InputError(f"{where}: a message must be an object")
        role = get(message, "role", str, where)
        content = text_of(message.get("content"), where)
        extra = get(message, "extra", dict, where, default={})
        if role == "assistant":
            pending = _assistant(message, content, extra, calls, where)
        elif role == "tool":
            call_id = get(message, "tool_call_id", str, where)
            if call_id in calls:
                observed = _observed(content, extra, where)
                turns.append(turn(calls.pop(call_id), *(observed or (content, None))))
        elif role == "user" and pending:
            command = pending.pop(0)
            observed = _observed(content, extra, where)
            # 1.x hands the submission (the agent's final output) back as the run's last
            # user message: the agent's words, even where they print a return code.
            if observed is None or (number == len(messages) and _submits(command)):
                pending = []  # a format error, or the submission: nothing ran
            else:
                turns.append(turn(command, *observed))
    return finish(turns, name, LABEL)


def _submits(command):
    return any(marker in command for marker in _SUBMIT)


def _assistant(message, content, extra, calls, where):
    """The commands this reply asks to run and a user message answers (tool calls, which
    a `tool` message answers by id, are kept in `calls`)."""
    for index, call in enumerate(get(message, "tool_calls", list, where, default=[]), 1):
        call_where = f"{where} tool call {index}"
        if not isinstance(call, dict):
            raise InputError(f"{call_where}: must be an object")
        function = get(call, "function", dict, call_where, default={})
        arguments = get(function, "arguments", (str, dict), call_where, default={})
        args = try_loads(arguments) if isinstance(arguments, str) else arguments
        command = args.get("command") if isinstance(args, dict) else None
        call_id = get(call, "id", str, call_where)
        if isinstance(command, str) and call_id is not None:
            calls[call_id] = command
    actions = get(extra, "actions", list, where, default=[])
    if actions:  # 2.x: the actions the model's reply held
        commands = []
        for index, action in enumerate(actions, 1):
            action_where = f"{where} action {index}"
            if not isinstance(action, dict):
                raise InputError(f"{action_where}: must be an object")
            command = get(action, "command", str, action_where)
            if command is None:
                continue
            call_id = get(action, "tool_call_id", str, action_where)
            if call_id is not None:
                calls.setdefault(call_id, command)
            else:
                commands.append(command)
        return commands
    blocks = _BLOCK.findall(content)
    # Anything but exactly one block is a format error: nothing ran.
    return [blocks[0].strip()] if len(blocks) == 1 else []


def _observed(content, extra, where):
    """(output, exit status, finished) of an observation message, or None if it is not one.

    2.x records the return code and the raw output beside the rendered text, whatever the
    template: those are read first. A return code of -1 with an exception beside it is the
    harness's (a timeout, or an action never run), not the command's: unfinished.
    """
    code = status(extra.get("returncode"), where)
    rendered = _observation(content, where)
    if code is None:
        return rendered
    raw = get(extra, "raw_output", str, where)
    output = raw if raw is not None else rendered[0] if rendered else content
    return _ended(output, code, extra.get("exception_info"))


def _ended(output, code, exception):
    if code == HARNESS_ERROR and exception:
        return output, None, False
    return output, code, True


def _observation(content, where):
    """(output, exit status, finished) from an observation's text, or None."""
    decoded = try_loads(content) if content.lstrip().startswith("{") else None
    if isinstance(decoded, dict) and "returncode" in decoded:
        return _json_observation(decoded, content, where)
    match = _RETURNCODE.search(content)
    timed_out = _timed_out_after(content)
    # Whichever comes first is the template's: the partial output of a command that timed
    # out may print "<returncode>0</returncode>", and the other way round. A 1.x timeout is
    # unfinished: docker environments kill only the `docker exec` client, not the command.
    if timed_out != -1 and (match is None or timed_out < match.start()):
        return _output_of(content[timed_out:]), None, False
    if match is None:
        return None
    return _output_of(content[match.end():]), int(match.group(1)), True


def _output_of(body):
    """The output a template wrote after its return code: the <output> part, or the head,
    a marker and the tail of a long one; everything when it has neither."""
    # Which template wrote the observation is told by its first tag: a command that prints
    # "<output>" inside a long output's head must not stand in for the head and tail.
    whole, split = body.find("<output>"), body.find("<output_head>")
    if whole != -1 and (split == -1 or whole < split):
        return _tag("output", body)
    if split != -1 or "<output_tail>" in body:
        head, tail = _tag("output_head", body), _tag("output_tail", body)
        elided = _tag("elided_chars", body)
        middle = f"[... {elided.strip()} ...]" if elided else "[...]"
        return "\n".join(part for part in (head, middle, tail) if part is not None)
    return body.lstrip("\n")  # a template without these tags: everything after the code


def _json_observation(decoded, content, where):
    code = status(decoded.get("returncode"), where)
    exception = decoded.get("exception_info")
    if isinstance(decoded.get("output"), str):
        return _ended(decoded["output"], code, exception)
    head, tail = decoded.get("output_head"), decoded.get("output_tail")
    if isinstance(head, str) and isinstance(tail, str):
        elided = f"[... {decoded.get('elided_chars', '')} characters elided ...]"
        return _ended(f"{head}\n{elided}\n{tail}", code, exception)
    return _ended(content, code, exception)
