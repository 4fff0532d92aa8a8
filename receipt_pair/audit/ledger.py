"""Verifying a ledger offline: its chain (store/ledger.py reads it) and every receipt in it
re-derived (replay.py); and, as `ledger verify --expiry` does, each receipt judged against
the log it names as that file is now (expiry.py)."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ..errors import InputError, UsageError
from ..store.files import path_problem, read_bytes
from ..store.ledger import read_ledger
from .expiry import VALID, judge_receipt
from .replay import replay_receipt

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from ..store.ledger import Entry


def verify_ledger(data: bytes, rederive: bool = True,
                  head: Optional[str] = None) -> Tuple[List["Entry"], List[str]]:
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


@dataclass
class LedgerCheck:
    """A ledger verified: its entries, the differences (a line each), its `head` to note
    (the last whole entry's number and sha256, or None), and with expiry asked for, each
    receipt's standing against its log ({"entry", **Expiry.to_dict()}; None: not asked)."""

    entries: list
    differences: List[str]
    head: Optional[dict] = None
    expiry: Optional[list] = None

    @property
    def ok(self) -> bool:
        return not self.differences and all(e["status"] == VALID for e in self.expiry or ())

    def to_dict(self) -> Dict[str, Any]:
        return {"entries": len(self.entries), "differences": self.differences,
                "head": self.head, "expiry": self.expiry, "ok": self.ok}


def check_ledger(data: bytes, head: Optional[str] = None,
                 expiry: bool = False) -> LedgerCheck:
    """The LedgerCheck of a ledger's bytes: `verify_ledger` (the chain, every receipt
    re-derived, `head` still an entry), and with `expiry` each receipt judged VALID,
    EXPIRED or INVALID against the log it names, read as it is now (each file once)."""
    entries, differences = verify_ledger(data, head=head)
    whole = [e for e in entries if e.record is not None]
    check = LedgerCheck(entries, differences,
                        {"entry": whole[-1].number, "sha256": whole[-1].sha256} if whole
                        else None)
    if expiry:
        read = log_reader()
        check.expiry = [{"entry": entry.number,
                         **judge_receipt(entry.receipt, *read(entry.receipt,
                                                              entry.number)).to_dict()}
                        for entry in whole if entry.receipt is not None]
    return check


def log_reader():
    """A function that reads the log a receipt names, each file once: (its bytes or None,
    the problem or None), as `judge_receipt` takes them."""
    cache = {}

    def read(receipt, number=None):
        log = receipt.get("log") if isinstance(receipt.get("log"), dict) else {}
        name = log.get("file")
        if not isinstance(name, str) or not name or name in ("-", "standard input"):
            return None, "its log was standard input (or is not named): it cannot be read again"
        problem = path_problem(name)
        if problem:  # no log can be read there, now or ever: the question itself is wrong
            where = f"entry {number}: its receipt" if number is not None else "the receipt"
            raise UsageError(f"{where} names the log {name!r}, "
                             f"which is not a file's name ({problem}): no log can be read "
                             "there to judge the receipt against")
        if name not in cache:
            try:
                cache[name] = (read_bytes(name), None)
            except InputError as exc:
                cache[name] = (None, f"its log cannot be read now: {exc}")
        return cache[name]

    return read
