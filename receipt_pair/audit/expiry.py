"""Whether a saved receipt still describes its log: VALID, EXPIRED or INVALID.

A receipt is an answer about one log, read by one reader, at one moment. It stays VALID
while it re-derives offline, the log it names is still the same bytes (for a witness
receipt: the witness record is still a line of the log file, which later records may
follow), and its reader is the installed, current one. It is EXPIRED when the log changed,
the witness record is gone, or the reader is retired, unknown or changed: a verdict about a
past log says nothing about the present one. It is INVALID when it does not re-derive (it
was edited). A gate never reuses a receipt: it always asks again; expiry is for a person
deciding whether an old receipt still speaks for a log.
"""

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

from .. import __version__
from ..store.files import sha256_bytes
from ..readers import READERS
from ..store.records import RECEIPT_SCHEMAS
from .replay import replay_receipt

VALID, EXPIRED, INVALID = "VALID", "EXPIRED", "INVALID"


@dataclass
class Expiry:
    """A receipt's standing: `status`, the `reasons` it expired, the `differences` that make
    it invalid (each one line)."""

    status: str
    reasons: List[str] = field(default_factory=list)
    differences: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def _short(value):
    return f"{str(value)[:12]}..."


def reader_reasons(receipt):
    """(reasons the receipt's reader makes it expire, whether it can still be re-derived)."""
    reader = receipt.get("reader") if isinstance(receipt.get("reader"), dict) else {}
    version, fingerprint = reader.get("version"), reader.get("fingerprint")
    installed = READERS.get(version) if isinstance(version, str) else None
    if installed is None:
        return [f"reader {version!r} is not known to receipt-pair {__version__} (removed, or "
                "from another version): it cannot be re-derived here"], False
    if installed.fingerprint != fingerprint:
        return [f"reader {version}'s fingerprint differs from the installed one (recorded "
                f"{_short(fingerprint)}, installed {_short(installed.fingerprint)}): its "
                "instructions changed, so it cannot be re-derived here"], False
    reasons = []
    if installed.retired:
        reasons.append(f"reader {version} is retired ({installed.retired})")
    # Schema 1 receipts recorded no check, schema 1 and 2 no menu: they had the sealed ones.
    recorded = {"check": reader.get("check") or installed.sealed_check,
                "menu": reader.get("menu") or (installed.sealed_menu if installed.menu
                                               else None)}
    for what, now in installed.versions.items():
        if recorded[what] != now:
            reasons.append(f"it was judged by {what} {recorded[what]!r}; reader {version} is "
                           f"judged by {now!r} now")
    return reasons, True


def log_reasons(receipt, log_data):
    """Reasons the log (its bytes, as read now) no longer backs the receipt."""
    log = receipt.get("log") if isinstance(receipt.get("log"), dict) else {}
    witness = receipt.get("witness")
    if isinstance(witness, dict):
        # A witness receipt pins one record of an append-only log: later records may follow.
        record_sha = witness.get("record_sha256")
        lines = {sha256_bytes(line) for line in log_data.split(b"\n") if line}
        if not isinstance(record_sha, str) or record_sha not in lines:
            return [f"the witness command's record is gone from the log (no line of it has "
                    f"sha256 {_short(record_sha)})"]
        return []
    now = sha256_bytes(log_data)
    if now != log.get("sha256"):
        return [f"the log changed since the receipt was made (its sha256 was "
                f"{_short(log.get('sha256'))}, it is now {_short(now)})"]
    return []


def judge_receipt(receipt: Dict[str, Any], log_data: Optional[bytes],
                  log_problem: Optional[str] = None) -> Expiry:
    """The Expiry of `receipt` against `log_data`, the bytes of the log it names as they are
    now; when that log cannot be read, `log_problem` (one line saying why) stands for it."""
    if not isinstance(receipt, dict) or receipt.get("schema") not in RECEIPT_SCHEMAS:
        return Expiry(INVALID, differences=["not a receipt-pair receipt"])
    reasons, rederivable = reader_reasons(receipt)
    differences = replay_receipt(receipt) if rederivable else []
    if log_problem:
        reasons.append(log_problem)
    elif log_data is not None:
        reasons += log_reasons(receipt, log_data)
    status = INVALID if differences else EXPIRED if reasons else VALID
    return Expiry(status, reasons, differences)
