"""A receipt kept: built from a pair's answer and the log it read, written to a file and/or
appended to a ledger. `check --save`, `gate` and the Python API keep receipts here; the
Stop hook keeps its own records (hooks/records.py) in the same receipt format."""

from ..server.request import SETTINGS
from ..store.ledger import append_receipt
from ..store.jsonl import write_json_atomic
from ..store.records import build_receipt


def keep_receipt(result, log_name, log, max_turns, *, save=None, ledger=None, redact=True,
                 witness=None, made_by="check", gate=None, note=None):
    """(the receipt, the ledger entry or None): the receipt of `result` for `log` (a
    logs.LogRead), written to `save` and/or appended to `ledger`. Nothing is built when
    neither is given: (None, None). `note` gets a line for anything the ledger mended."""
    if not save and not ledger:
        return None, None
    redaction = {"on": bool(redact), "count": getattr(log, "redactions", 0)}
    receipt = build_receipt(result, log_name, log.sha256, max_turns, dict(SETTINGS), witness,
                            made_by, gate, redaction)
    if save:
        write_json_atomic(save, receipt, "the receipt")
    entry = append_receipt(ledger, receipt, note=note) if ledger else None
    return receipt, entry
