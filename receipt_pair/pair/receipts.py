"""A receipt kept: built from a pair's answer (which holds the settings it was asked with)
and the log it read, written to a file and/or appended to a ledger. `check --save`, `gate`
and the Python API keep receipts here; the Stop hook builds its own records with
`receipt_of` (hooks/records.py) and keeps them in its folder."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Tuple

from ..server.defaults import SETTINGS
from ..store.jsonl import write_json_atomic
from ..store.ledger import append_receipt
from ..store.records import build_receipt

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from ..logs import LogRead
    from .claim import ClaimResult


def receipt_of(result, log, made_by="check", **blocks):
    """The receipt of `result` (a ClaimResult) for `log` (a logs.LogRead, which names its
    file), made by `made_by`; `blocks` are what else it holds (store.records.BLOCKS: a
    `witness`, the `gate`'s decision, the `hook`'s stop), each sealed with the rest."""
    return build_receipt(result, log, dict(SETTINGS), made_by, blocks)


@dataclass(frozen=True)
class Keeper:
    """Where receipts are kept: the file each is written to (`save`) and the ledger each
    is appended to (`ledger`), either or both; `note` is told a line for anything the
    ledger mended."""

    save: Optional[str] = None
    ledger: Optional[str] = None
    note: Optional[Callable[[str], None]] = None

    def __bool__(self) -> bool:
        return bool(self.save or self.ledger)

    def keep(self, result: "ClaimResult", log: "LogRead", made_by: str = "check",
             **blocks: Any) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
        """(the receipt of `result` for `log`, the ledger entry or None), written and
        appended where this keeper says. Nothing is built when it keeps nothing: (None,
        None)."""
        if not self:
            return None, None
        receipt = receipt_of(result, log, made_by, **blocks)
        if self.save:
            write_json_atomic(self.save, receipt, "the receipt")
        entry = append_receipt(self.ledger, receipt, note=self.note) if self.ledger else None
        return receipt, entry
