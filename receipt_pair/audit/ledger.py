"""Verifying a ledger offline: its chain (store/ledger.py reads it) and every receipt in it
re-derived (replay.py)."""

from ..store.ledger import read_ledger
from .replay import replay_receipt


def verify_ledger(data, rederive=True, head=None):
    """(entries, differences) of a ledger's bytes: the chain checked, and with `rederive`
    every receipt re-derived offline (`replay.replay_receipt`). `head`: a sha256 noted
    earlier from this ledger, which must still be one of its entries (else entries were
    removed from the end, or it is another ledger). Each difference names its entry.
    """
    entries = read_ledger(data)
    if rederive:
        for entry in entries:
            if entry.receipt is not None:
                entry.problems += [f"its receipt: {d}" for d in replay_receipt(entry.receipt)]
    differences = [f"entry {e.number}: {p}" for e in entries for p in e.problems]
    if not entries:
        differences.append("the ledger has no entries")
    if head is not None and head not in {e.sha256 for e in entries}:
        differences.append(f"no entry has the head sha256 {head}: entries were removed from "
                           "the end, or the entry was changed, or this is another ledger")
    return entries, differences
