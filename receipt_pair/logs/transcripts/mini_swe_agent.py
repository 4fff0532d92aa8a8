"""mini-swe-agent trajectories (`*.traj.json`): `{"info", "messages", "trajectory_format"}`.

The assistant's reply holds one fenced shell block; the next user message is the
observation, by default `<returncode>N</returncode>` then `<output>...</output>`.
Tool-calling configurations send the command as a tool call and answer with a `tool`
message holding `{"returncode", "output"}` as JSON. See docs/formats.md.
"""

import re

from ...errors import InputError
from ._common import finish, get, loads, need, status, text_of, try_loads, turn

LABEL = "mini-swe-agent"

_BLOCK = re.compile(r"```(?:bash|mswea_bash_command)[ \t]*\n(.*?)\n```", re.S)
_RETURNCODE = re.compile(r"<returncode>\s*(-?\d{1,9})\s*</returncode>")
# A command killed on its timeout records no return code; 124 is `timeout`'s status.
TIMED_OUT_STATUS = 124


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


def _timed_out_at(content):
    """Where the timeout message's <command> starts, or -1 when it is not one. Plain finds,
    not a regular expression: a message of many "<command>" stays linear."""
    start = content.find("<command>")
    if start == -1 or content.find("</command> timed out", start) == -1:
        return -1
    return start


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
    pending = None  # the command of the last assistant message, until its observation
    calls = {}  # tool call id -> command, for tool-calling trajectories
    for number, message in enumerate(messages, 1):
        where = f"{name} message {number}"
        if not isinstance(message, dict):
            raise InputError(f"{where}: a message must be an object")
        role = get(message, "role", str, where)
        content = text_of(message.get("content"), where)
        if role == "assistant":
            pending = _assistant(message, content, calls, where)
        elif role == "tool":
            call_id = get(message, "tool_call_id", str, where)
            if call_id in calls:
                turns.append(turn(calls.pop(call_id), *_tool_observation(content, where)))
        elif role == "user" and pending is not None:
            observation = _observation(content)
            if observation is not None:
                turns.append(turn(pending, *observation))
            pending = None
    return finish(turns, name, LABEL)


def _assistant(message, content, calls, where):
    """The command this reply asks to run, or None (tool calls are kept in `calls`)."""
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
    blocks = _BLOCK.findall(content)
    # Anything but exactly one block is a format error: nothing ran.
    return blocks[0].strip() if len(blocks) == 1 else None


def _observation(content):
    """(output, exit status) from an observation message, or None if it is not one."""
    match = _RETURNCODE.search(content)
    timed_out = _timed_out_at(content)
    # Whichever comes first is the template's: the partial output of a command that timed
    # out may print "<returncode>0</returncode>", and the other way round.
    if timed_out != -1 and (match is None or timed_out < match.start()):
        return content, TIMED_OUT_STATUS
    if match is None:
        return None
    body = content[match.end():]
    # Which template wrote the observation is told by its first tag: a command that prints
    # "<output>" inside a long output's head must not stand in for the head and tail.
    whole, split = body.find("<output>"), body.find("<output_head>")
    if whole != -1 and (split == -1 or whole < split):
        output = _tag("output", body)
    elif split != -1 or "<output_tail>" in body:
        head, tail = _tag("output_head", body), _tag("output_tail", body)
        elided = _tag("elided_chars", body)
        middle = f"[... {elided.strip()} ...]" if elided else "[...]"
        output = "\n".join(part for part in (head, middle, tail) if part is not None)
    else:  # a template without these tags: everything after the return code is output
        output = body.lstrip("\n")
    return output, int(match.group(1))


def _tool_observation(content, where):
    decoded = try_loads(content)
    if not isinstance(decoded, dict):
        return content, None
    code = status(decoded.get("returncode"), where)
    if isinstance(decoded.get("output"), str):
        return decoded["output"], code
    head, tail = decoded.get("output_head"), decoded.get("output_tail")
    if isinstance(head, str) and isinstance(tail, str):
        return f"{head}\n[... {decoded.get('elided_chars', '')} characters elided ...]\n{tail}", code
    return content, code
