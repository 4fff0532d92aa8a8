"""OpenHands trajectories (V0) and event streams (V1).

V0: a list of events; actions carry `action` and `args`, observations carry
`observation`, `content`, `extras` and `cause` (the id of the action they answer).
V1 (software agent SDK): events tagged by `kind`; an `ActionEvent` and the
`ObservationEvent` answering it share a `tool_call_id`. See docs/formats.md.
"""

from ...errors import InputError
from ._common import (EDIT, VIEW, finish, get, is_missing, json_lines, need, status,
                      text_of, tool_summary, try_loads, turn)

LABEL = "OpenHands"
# -1 is OpenHands' exit code for a command that hit its timeout and is not yet finished (it
# keeps running in the terminal): not a status the command returned, and what it printed so
# far shows nothing about how it ends. V1 marks the same with "timeout": true.
RUNNING = -1
# An observation OpenHands marked as an error (or an error event, a rejected action) with no
# failed exit code of its own gets 1: a call the harness saw fail must never read as one
# that passed.
ERROR_STATUS = 1
# V1 tools whose observation is text a model wrote: finish and think echo the agent's own
# message or thought; task, task_output and delegate return a sub-agent's report.
MODEL_TEXT_TOOLS = frozenset({"finish", "think", "task", "task_output", "delegate"})
MODEL_TEXT_OBSERVATIONS = frozenset({"FinishObservation", "ThinkObservation",
                                     "TaskObservation", "TaskOutputObservation",
                                     "DelegateObservation"})
# What a tool did, by name: file editors name it in their `command` (view only shows).
_EDITORS = ("str_replace_editor", "file_editor", "planning_file_editor")
_V1_KINDS = {"glob": VIEW, "grep": VIEW, "read_file": VIEW, "list_directory": VIEW,
             "write_file": EDIT, "edit": EDIT, "apply_patch": EDIT}
_V0_KINDS = {"read": VIEW, "edit": EDIT, "write": EDIT}
_V0_ACTIONS = {"run": "command", "run_ipython": "code", "read": "path", "edit": "path",
               "write": "path", "browse": "url", "browse_interactive": "browser_actions"}
_V1_ANSWERS = ("ObservationEvent", "AgentErrorEvent", "UserRejectObservation")


def is_v0_event(value):
    return isinstance(value, dict) and (
        (isinstance(value.get("action"), str) and isinstance(value.get("args"), dict)) or
        (isinstance(value.get("observation"), str) and ("extras" in value or "cause" in value)))


def is_v1_event(value):
    return isinstance(value, dict) and isinstance(value.get("kind"), str) and \
        value["kind"].endswith(("Event", "Observation")) and "source" in value


def looks_like_events(events):
    """Whether a decoded list holds OpenHands events (V0 or V1)."""
    sample = events[:50]
    return any(is_v0_event(e) or is_v1_event(e) for e in sample)


def read(text, name):
    """Turns from an OpenHands trajectory: a JSON list of events or V1 events per line."""
    document = try_loads(text)
    if isinstance(document, dict):
        for key in ("trajectory", "history", "events"):
            if isinstance(document.get(key), list):
                document = document[key]
                break
    if isinstance(document, list):
        numbered = [(f"{name} event {i}", e) for i, e in enumerate(document, 1)]
    elif is_missing(document) or isinstance(document, dict):
        numbered = [(f"{name} line {n}", e) for n, e in json_lines(text, name)]
    else:
        raise InputError(f"{name}: an OpenHands trajectory must be a list of events")
    return read_events(numbered, name)


def read_events(numbered, name):
    """Turns from (where, event) pairs in the order of the events: a JSON list's items, a
    file's lines, or the files of a session's events folder (logs/folders.py)."""
    for where, event in numbered:
        if not isinstance(event, dict):
            raise InputError(f"{where}: an event must be an object")
    if any(is_v1_event(event) for _, event in numbered):
        return finish(_read_v1(numbered), name, LABEL)
    return finish(_read_v0(numbered), name, LABEL)


def _read_v0(numbered):
    actions = []  # (id, command, kind)
    answers = {}  # action id -> (output, exit status, finished)
    for where, event in numbered:
        if isinstance(event.get("action"), str):
            key = _V0_ACTIONS.get(event["action"])
            if key is None:
                continue  # message, think, finish, delegate, state changes: not tool output
            args = need(event, "args", dict, where)
            event_id = _event_id(event, where)
            actions.append((event_id, _v0_command(event["action"], key, args, where),
                            _kind(_V0_KINDS.get(event["action"]), args)))
        elif isinstance(event.get("observation"), str) and event.get("cause") is not None:
            cause = _event_id(event, where, key="cause")
            if cause not in answers:
                extras = get(event, "extras", dict, where, default={})
                metadata = get(extras, "metadata", dict, where, default={})
                code = metadata.get("exit_code", extras.get("exit_code"))
                output = _framed(text_of(event.get("content"), where), metadata, where)
                answers[cause] = _ended(output, status(code, where),
                                        failed=event["observation"] == "error")
    return [turn(cmd, *answers[i], kind=kind) for i, cmd, kind in actions if i in answers]


def _ended(output, code, failed=False, timed_out=False):
    """(output, exit status, finished): a failure the harness saw gets a failed status; a
    command still running (-1, or a timeout with no exit code) is unfinished."""
    if failed and code in (None, 0, RUNNING):
        code = ERROR_STATUS
    running = code == RUNNING or (timed_out and code is None)
    return output, None if running else code, not running


def _kind(kind, args):
    """EDIT or VIEW from a tool's own kind, or from an editor's `command` (view only shows)."""
    command = args.get("command")
    if kind == EDIT and command == "view":
        return VIEW
    return kind


def _v0_command(action, key, args, where):
    value = args.get(key)
    if action in ("run", "run_ipython"):
        return need(args, key, str, where)
    return f"{action} {value}" if isinstance(value, str) else action


def _event_id(event, where, key="id"):
    value = event.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{where}: '{key}' must be an event id, not {type(value).__name__}")
    return value


def _read_v1(numbered):
    actions = []  # (keys, command, tool, kind)
    answers = {}  # tool_call_id or action id -> (output, exit status, finished, model text)
    for where, event in numbered:
        kind = event.get("kind")
        if kind == "ActionEvent":
            action = get(event, "action", dict, where)
            if action is None:
                continue  # the model asked for a tool that could not run
            keys = (get(event, "tool_call_id", str, where), get(event, "id", str, where))
            tool = get(event, "tool_name", str, where)
            kind = _V1_KINDS.get(tool, EDIT if tool in _EDITORS else None)
            actions.append((keys, _v1_command(tool, action, where), tool, _kind(kind, action)))
        elif kind in _V1_ANSWERS:
            answer = _v1_answer(kind, event, where)
            for key in (get(event, "tool_call_id", str, where), get(event, "action_id", str, where)):
                if key is not None:
                    answers.setdefault(key, answer)
    turns = []
    for keys, cmd, tool, kind in actions:
        key = next((k for k in keys if k is not None and k in answers), None)
        if key is not None:
            output, code, finished, model_text = answers[key]
            turns.append(turn(cmd, output, code, finished, kind,
                              model_text=model_text or tool in MODEL_TEXT_TOOLS))
    return turns


def _v1_command(tool, action, where):
    command = get(action, "command", str, where)
    if tool in ("terminal", "execute_bash", "bash") or \
            str(action.get("kind", "")).endswith(("TerminalAction", "BashAction")):
        if command is not None:
            return command
    words = [tool or str(action.get("kind") or "tool")]
    words += [action[k] for k in ("command", "path") if isinstance(action.get(k), str)]
    return " ".join(words) if len(words) > 1 else tool_summary(words[0], action)


def _v1_answer(kind, event, where):
    """(output, exit status, finished, whether the output is a model's text)."""
    if kind == "AgentErrorEvent":
        return get(event, "error", str, where, default=""), ERROR_STATUS, True, False
    if kind == "UserRejectObservation":
        reason = get(event, "rejection_reason", str, where, default="")
        return f"Action rejected: {reason}", ERROR_STATUS, True, False
    observation = need(event, "observation", dict, where)
    if "content" in observation:
        output = text_of(observation["content"], where)
    else:
        output = get(observation, "output", str, where, default="")
    metadata = get(observation, "metadata", dict, where, default={})
    code = observation.get("exit_code")
    if code is None:
        code = metadata.get("exit_code")
    answer = _ended(_framed(output, metadata, where), status(code, where),
                    failed=get(observation, "is_error", bool, where) is True,
                    timed_out=get(observation, "timeout", bool, where) is True)
    return answer + (get(observation, "kind", str, where) in MODEL_TEXT_OBSERVATIONS,)


def _framed(output, metadata, where):
    """The output as the agent saw it: the runtime's prefix and suffix notes around it."""
    prefix = get(metadata, "prefix", str, where, default="")
    suffix = get(metadata, "suffix", str, where, default="")
    return f"{prefix}{output}{suffix}"
