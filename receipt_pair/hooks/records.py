"""What a hook leaves on disk: one receipt per claim it checked, and a session's state.

Receipts go to a directory (by default `receipt-pair/` beside the session file, when the
hook read it as the agent's session; only that folder is created, never one above it), one
JSON file per check, named so that a listing reads in time order within a session:
`<UTC time>-<session>-<run>-<claim number>.json`. A claim the models were asked about gets
a full receipt (`pair.receipts.receipt_of`, `made_by: "hook"`) whose `hook` block, sealed
with the rest, says where it came from and what the hook decided; `verify --receipt`
re-derives it offline. A claim no model could be asked about (the server is down) gets a
note of the same name with the claim, the error and the decision, so a person can see
later why nothing was blocked; a claim plain code answered without a model (a session with
no tool call) gets one too.

`keep` is the one place every record goes through: a ledger, when there is one, is fed there.
"""

import os
import re
import secrets
import time
from dataclasses import dataclass, field

from ..errors import InputError, ReceiptPairError
from ..store.files import decode, loads_strict, read_bytes
from ..store.jsonl import make_folder, write_json_atomic
from ..store.records import canonical_sha256, utc_now
from ..patterns import lazy

NOTE_SCHEMA = "receipt-pair/hook-note/1"
STATE_SCHEMA = "receipt-pair/hook-state/1"
RECEIPTS_FOLDER = "receipt-pair"
_UNSAFE = lazy(r"[^A-Za-z0-9._-]+")


def default_directory(session_path):
    """Where receipts go when no directory is named: beside the session file."""
    return os.path.join(os.path.dirname(os.path.abspath(session_path)), RECEIPTS_FOLDER)


@dataclass(frozen=True)
class Stop:
    """The stop a hook's records are of: the hook's input (stop.HookInput), the agent's row
    (agents.Agent), how the claims were found ("rules", "model" or "given"), whether the
    session file caught up, the not-shown policy, the folder the records go to (None: none
    can), and this run of the hook."""

    hook: object
    agent: object
    split: str
    caught_up: bool
    policy: str
    directory: object = None
    run: str = field(default_factory=lambda: secrets.token_hex(3))


def hook_block(stop, claim, index, count, decision, error=None):
    """The `hook` block of a record: which stop (a Stop), which claim (number `index` of
    `count`), what was decided."""
    hook = stop.hook
    return {
        "agent": stop.agent.name,
        "event": hook.event,
        "session_id": hook.session_id,
        "agent_id": hook.agent_id,
        "session_file": hook.session_path,
        "stop_hook_active": hook.stop_hook_active,
        "caught_up": stop.caught_up,
        "run": stop.run,
        "claim": {"number": index, "of": count, **claim.to_dict()},
        "split": stop.split,
        "not_shown_policy": stop.policy,
        "error": error,
        **decision.to_dict(),
    }


def hook_note(outcome, block, log_name, log_sha256):
    """The record of a claim no model was asked about (a stop.Outcome): what, why, and
    what was done. Its `answer` is None when it could not be checked, or the one plain code
    gave, with `code` saying why (a session with no tool call is `not shown`,
    "no_commands")."""
    note = {"schema": NOTE_SCHEMA, "time": utc_now(), "made_by": "hook",
            "claim": outcome.claim.text, "log": {"file": log_name, "sha256": log_sha256},
            "answer": outcome.decided, "code": outcome.why, "hook": block}
    note["record_sha256"] = canonical_sha256(note, "record_sha256")
    return note


def record_path(stop, index):
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return os.path.join(stop.directory, f"{stamp}-{_safe(stop.hook.key)}-{stop.run}-{index}.json")


def keep(directory, path, record, ledger=None):
    """Write one record (a receipt or a note) to `path` under `directory`; return the path.

    This is where every hook record goes. `ledger`, when given, is a callable taking the
    record: wiring `--ledger FILE` is `ledger=lambda r: ledger.append_receipt(FILE, r)` at
    the one call in run.py (notes, which are not receipts, pass through here too).
    """
    try:
        make_folder(directory, "the receipts folder")
        write_json_atomic(path, record)
    except OSError as exc:
        raise InputError(f"{directory}: cannot save the hook's receipt: "
                         f"{exc.strerror or exc}") from None
    if ledger is not None:
        ledger(record)
    return path


def state_path(directory, hook):
    return os.path.join(directory, f"{_safe(hook.key)}.state.json")


def load_state(directory, hook, state_type):
    """The session's state from earlier stops, or a fresh one (also when it is unreadable:
    a lost state can only make the hook block once more, never trap the agent, since a
    block is made only after `record_state` has read its count back)."""
    path = state_path(directory, hook)
    try:
        if not os.path.isfile(path):
            return state_type()
        value = loads_strict(decode(read_bytes(path), path))
    except (InputError, OSError, ValueError):
        return state_type()
    if not isinstance(value, dict) or value.get("schema") != STATE_SCHEMA:
        return state_type()
    blocks = value.get("blocks_in_a_row")
    blocks = blocks if isinstance(blocks, int) and not isinstance(blocks, bool) and \
        blocks >= 0 else 0
    told = value.get("not_shown_blocked")
    last = value.get("last_blocked")
    # A state written before `last_blocked` was kept: a count is taken as a run of blocks
    # still going, which can only let the agent go sooner.
    return state_type(blocks_in_a_row=blocks, not_shown_blocked=told is True,
                      last_blocked=last if isinstance(last, bool) else blocks > 0)


def save_state(directory, hook, state):
    make_folder(directory, "the receipts folder")
    write_json_atomic(state_path(directory, hook),
                      {"schema": STATE_SCHEMA, "session_id": hook.session_id,
                       "agent_id": hook.agent_id, "time": utc_now(), **state.to_dict()})


def record_state(directory, hook, state):
    """Save the session's state and read it back: None when the next stop will find it,
    else why not. The caller must not block when this gives a reason: the count of blocks
    in a row is what lets the agent go after `--max-blocks`, and a count that is not kept
    would let the hook block at every stop."""
    try:
        save_state(directory, hook, state)
    except (OSError, ValueError, ReceiptPairError) as exc:  # InputError: a folder, a device
        return f"{state_path(directory, hook)}: {why_not_saved(exc)}"
    if load_state(directory, hook, type(state)) != state:
        return f"{state_path(directory, hook)} does not read back what was written"
    return None


def why_not_saved(exc):
    """A short reason from an error of writing a record."""
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def _safe(text):
    return _UNSAFE.sub("_", text)[:80] or "session"
