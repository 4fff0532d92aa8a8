"""SWE-agent trajectories (`*.traj`): `{"trajectory": [...], "history": [...], "info": ...}`.

Each trajectory step has `action` (what the agent ran) and `observation` (what came back),
beside the model's `response` and `thought`, which are its own words. SWE-agent records
no exit status. See docs/formats.md.
"""


from ...errors import InputError
from ._common import EDIT, VIEW, finish, get, loads, text_of, turn
from ...patterns import lazy

LABEL = "SWE-agent"
# The tools of SWE-agent's bundles, by the first word of the action: the windowed viewer
# and the search tools only show; create and the edit tools change files. The
# str_replace_editor's first argument says which it is (view only shows).
_KINDS = {"open": VIEW, "goto": VIEW, "scroll_up": VIEW, "scroll_down": VIEW,
          "find_file": VIEW, "search_dir": VIEW, "search_file": VIEW,
          "create": EDIT, "edit": EDIT, "str_replace_editor": EDIT}
_FIRST_WORDS = lazy(r"\A\s*(\S+)(?:[ \t]+(\S+))?")


def is_step(value):
    return isinstance(value, dict) and isinstance(value.get("action"), str) and \
        isinstance(value.get("observation"), str)


def looks_like(document):
    if not isinstance(document, dict):
        return False
    steps = document.get("trajectory")
    if isinstance(steps, list) and steps:
        return any(is_step(step) for step in steps[:50])
    history = document.get("history")
    return isinstance(steps, list) and isinstance(history, list) and "info" in document


def read(text, name):
    """Turns from the text of a SWE-agent trajectory file."""
    document = loads(text, name)
    if not isinstance(document, dict):
        raise InputError(f"{name}: a SWE-agent trajectory must be one JSON object "
                         "with a 'trajectory' list")
    steps = get(document, "trajectory", list, name)
    if steps:
        return finish(_from_steps(steps, name), name, LABEL)
    history = get(document, "history", list, name, default=[])
    return finish(_from_history(history, name), name, LABEL)


def _from_steps(steps, name):
    turns = []
    for number, step in enumerate(steps, 1):
        where = f"{name} step {number}"
        if not isinstance(step, dict):
            raise InputError(f"{where}: a trajectory step must be an object")
        action = get(step, "action", str, where, default="").strip()
        if not action:
            continue  # the model's reply held no command (a format error, or the end)
        if step.get("observation") is None:
            continue  # the step was cut off before the command returned
        turns.append(turn(action, text_of(step.get("observation"), where),
                          kind=kind_of_action(action)))
    return turns


def kind_of_action(action):
    """EDIT or VIEW for an action of SWE-agent's own tools, else None (a shell command)."""
    match = _FIRST_WORDS.match(action)
    kind = _KINDS.get(match.group(1)) if match else None
    if kind == EDIT and match.group(1) == "str_replace_editor" and match.group(2) == "view":
        return VIEW
    return kind


def _from_history(history, name):
    turns = []
    pending = None
    for number, item in enumerate(history, 1):
        where = f"{name} history item {number}"
        if not isinstance(item, dict):
            raise InputError(f"{where}: a history item must be an object")
        if item.get("is_demo") is True:
            continue  # demonstrations shown to the model, not this run
        kind = get(item, "message_type", str, where)
        if kind == "action":
            action = get(item, "action", str, where, default="").strip()
            pending = action or None
        elif kind == "observation" and pending is not None:
            turns.append(turn(pending, text_of(item.get("content"), where),
                              kind=kind_of_action(pending)))
            pending = None
    return turns
