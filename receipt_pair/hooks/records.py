"""What a hook leaves on disk: one receipt per claim it checked, and a session's state.

Receipts go to a directory (by default `receipt-pair/` beside the session file), one JSON
file per check, named so that a listing reads in time order within a session:
`<UTC time>-<session>-<run>-<claim number>.json`. A claim the models were asked about gets
a full receipt (`records.build_receipt`, `made_by: "hook"`) with a `hook` block saying
where it came from and what the hook decided; `verify --receipt` re-derives it offline. A
claim no model could be asked about (the server is down) gets a note of the same name with
the claim, the error and the decision, so a person can see later why nothing was blocked;
a claim plain code answered without a model (a session with no tool call) gets one too.

`keep` is the one place every record goes through: a ledger, when there is one, is fed there.
"""

import os
import re
import secrets
import time

from ..errors import InputError, ReceiptPairError
from ..store.files import decode, loads_strict, read_bytes
from ..store.jsonl import write_json_atomic
from ..store.records import build_receipt, canonical_sha256, utc_now
from ..server.request import SETTINGS

NOTE_SCHEMA = "receipt-pair/hook-note/1"
STATE_SCHEMA = "receipt-pair/hook-state/1"
RECEIPTS_FOLDER = "receipt-pair"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def default_directory(session_path):
    """Where receipts go when no directory is named: beside the session file."""
    return os.path.join(os.path.dirname(os.path.abspath(session_path)), RECEIPTS_FOLDER)


def new_run_id():
    return secrets.token_hex(3)


def hook_block(hook, agent, claim, index, count, run, split, decision, caught_up, policy,
               error=None):
    """The `hook` block of a record: which stop, which claim, what was decided."""
    return {
        "agent": agent,
        "event": hook.event,
        "session_id": hook.session_id,
        "agent_id": hook.agent_id,
        "session_file": hook.session_path,
        "stop_hook_active": hook.stop_hook_active,
        "caught_up": caught_up,
        "run": run,
        "claim": {"number": index, "of": count, **claim.to_dict()},
        "split": split,
        "not_shown_policy": policy,
        "error": error,
        **decision.to_dict(),
    }


def hook_receipt(result, block, log_name, log, max_turns):
    """A full receipt of one claim's check, with the hook block, sealed by its sha256.
    `log`: the session file as read (logs.LogRead: turns, sha256, redactions)."""
    receipt = build_receipt(result, log_name, log.sha256, max_turns, dict(SETTINGS),
                            made_by="hook", redaction={"on": True, "count": log.redactions})
    receipt.pop("receipt_sha256")
    receipt["hook"] = block
    receipt["receipt_sha256"] = canonical_sha256(receipt, "receipt_sha256")
    return receipt


def hook_note(claim_text, block, log_name, log_sha256, answer=None, code=None):
    """The record of a claim no model was asked about: what, why, and what was done. Its
    `answer` is None when it could not be checked, or the one plain code gave, with `code`
    saying why (a session with no tool call is `not shown`, "no_commands")."""
    note = {"schema": NOTE_SCHEMA, "time": utc_now(), "made_by": "hook", "claim": claim_text,
            "log": {"file": log_name, "sha256": log_sha256}, "answer": answer, "code": code,
            "hook": block}
    note["record_sha256"] = canonical_sha256(note, "record_sha256")
    return note


def record_path(directory, hook, run, index):
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return os.path.join(directory, f"{stamp}-{_safe(hook.key)}-{run}-{index}.json")


def keep(directory, path, record, ledger=None):
    """Write one record (a receipt or a note) to `path` under `directory`; return the path.

    This is where every hook record goes. `ledger`, when given, is a callable taking the
    record: wiring `--ledger FILE` is `ledger=lambda r: ledger.append_receipt(FILE, r)` at
    the one call in cli_hook.py (notes, which are not receipts, pass through here too).
    """
    try:
        os.makedirs(directory, exist_ok=True)
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
    told = value.get("not_shown_blocked")
    return state_type(blocks_in_a_row=blocks if isinstance(blocks, int) and blocks >= 0 else 0,
                      not_shown_blocked=told is True)


def save_state(directory, hook, state):
    os.makedirs(directory, exist_ok=True)
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
