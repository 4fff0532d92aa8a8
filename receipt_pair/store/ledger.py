"""A ledger: every receipt, one JSON line each, chained by sha256.

Each entry is one whole line,

    {"schema": "receipt-pair/ledger/1", "entry": N, "prev_sha256": "...", "time": "...",
     "receipt": {...}}

where `entry` is its line number (from 1) and `prev_sha256` is the sha256 of the line
before it, as bytes without its line break (GENESIS, 64 zeros, for the first). Editing,
removing, inserting or moving any entry therefore breaks the chain at that entry or the
next, and `audit.ledger.verify_ledger` names it (the format is here; re-deriving the
receipts it holds is the audit's, so that this module never imports the checker). What a chain does not show: that nothing was removed
from the end (keep the head, the last entry's sha256, somewhere else and pass it back), when
an entry was made (its time is what the writer's clock said), or who made it (it is not a
signature: anyone who rewrites the whole file can make a new valid chain).

Other modules append with `append_receipt(path, receipt)`, which takes an exclusive lock
(waiting for it), reads the last line, and writes the new entry with one system call, so
two processes appending at once (two hooks) neither interleave nor lose an entry.
`ledger_path(given)` is the ledger to use: the one given, else $RECEIPT_PAIR_LEDGER.
"""

import hashlib
import os
import stat
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from ..errors import InputError, UsageError
from .files import loads_strict, path_problem
from .jsonl import cannot_write, is_record, locked, open_append, record_bytes, split_lines
from .records import RECEIPT_SCHEMAS, utc_now

LEDGER_SCHEMA = "receipt-pair/ledger/1"
GENESIS = "0" * 64  # the prev_sha256 of the first entry
ENV_LEDGER = "RECEIPT_PAIR_LEDGER"
_CHUNK = 1 << 20


def ledger_path(given=None):
    """The ledger to append to: `given`, else $RECEIPT_PAIR_LEDGER, else None (no ledger)."""
    return given or os.environ.get(ENV_LEDGER) or None


def line_sha256(line):
    """The sha256 of one ledger line (bytes or text), without its line break."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogatepass")
    return hashlib.sha256(line.rstrip(b"\n")).hexdigest()


def _scan(fd):
    """(number of line breaks, last whole line, bytes after the last line break)."""
    breaks, last, rest = 0, b"", b""
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return breaks, last, rest
        parts = chunk.split(b"\n")
        if len(parts) > 1:
            breaks += len(parts) - 1
            last = rest + parts[0] if len(parts) == 2 else parts[-2]
            rest = parts[-1]
        else:
            rest += chunk


def _is_entry(line):
    try:
        value = loads_strict(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(value, dict) and value.get("schema") == LEDGER_SCHEMA


def append_receipt(path: str, receipt: Dict[str, Any],
                   note: Optional[Callable[[str], None]] = None) -> Dict[str, Any]:
    """Append `receipt` (a receipt dict, as `records.build_receipt` makes it) to the ledger
    at `path` (created if missing) and return the entry written (a dict).

    Waits for the ledger's lock, so concurrent appends from several processes each get a
    whole line of their own and a chain link to the entry before. A file whose last whole
    line is not a ledger entry is refused (an InputError), never appended to. A last line
    left unfinished by a killed writer is kept (the ledger is only ever appended to): it is
    ended with a line break, the new entry chains to its bytes, `note` (a callable taking
    one line) is told, and `verify_ledger` keeps reporting it as an entry that cannot be
    verified.
    """
    if not isinstance(receipt, dict) or receipt.get("schema") not in RECEIPT_SCHEMAS:
        raise UsageError("only a receipt-pair receipt can be appended to a ledger")
    if str(path) == "-":
        raise UsageError("a ledger is a file that is appended to, not standard output")
    record_bytes(receipt, path, "the receipt")  # one that cannot be written stops here
    note = note or (lambda message: None)
    fd = open_append(path)
    try:
        with locked(fd, path, wait=True):
            read_fd = os.open(path, os.O_RDONLY)
            try:
                breaks, last, torn = _scan(read_fd)
            finally:
                os.close(read_fd)
            if breaks and not _is_entry(last):
                raise InputError(f"{path} {_not_a_ledger(breaks)}",
                                 cli_hint="give a new --ledger file")
            if torn:
                prev, number = line_sha256(torn), breaks + 2
                note(f"{path}: its last line (entry {breaks + 1}) was unfinished, a write cut "
                     "short; it is kept and ended, and ledger verify reports it")
            else:
                prev, number = (line_sha256(last) if breaks else GENESIS), breaks + 1
            entry = {"schema": LEDGER_SCHEMA, "entry": number, "prev_sha256": prev,
                     "time": utc_now(), "receipt": receipt}
            line = record_bytes(entry, path, "the receipt")
            data = (b"\n" if torn else b"") + line + b"\n"
            try:
                written = os.write(fd, data)
            except OSError as exc:
                raise cannot_write(path, exc, "the receipt") from None
            if written != len(data):
                raise InputError(f"{path}: cannot append the receipt: a short write "
                                 f"({written} of {len(data)} bytes; a full disk?)")
    finally:
        os.close(fd)
    return entry


def _not_a_ledger(breaks):
    return (f"line {breaks}: not a receipt-pair ledger entry; a receipt is appended only to "
            "a ledger")


def not_appendable(path):
    """Why a receipt could not be appended to the ledger at `path`, found without writing
    (a folder that is not there or not writable, a file that is not a regular one, not
    writable, or not a ledger: what `append_receipt` would refuse), or None."""
    if str(path) == "-":
        return "standard output is no ledger: a ledger is a file that is appended to"
    if path_problem(path):
        return path_problem(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            return f"its folder {folder} does not exist"
        return None if os.access(folder, os.W_OK | os.X_OK) else \
            f"its folder {folder} cannot be written"
    except (OSError, ValueError) as exc:
        return getattr(exc, "strerror", None) or str(exc)
    if not stat.S_ISREG(mode):
        return "it is not a regular file (a folder, a device or a pipe)"
    if not os.access(path, os.R_OK | os.W_OK):
        return "it cannot be read and written"
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        breaks, last, _ = _scan(fd)
    finally:
        os.close(fd)
    return _not_a_ledger(breaks) if breaks and not _is_entry(last) else None


@dataclass
class Entry:
    """One line of a ledger as read back: its number, its sha256, what it holds, and
    everything wrong with it (one line each, without the "entry N: " prefix)."""

    number: int
    sha256: str
    record: Optional[dict]
    problems: List[str] = field(default_factory=list)

    @property
    def receipt(self) -> Optional[Dict[str, Any]]:
        receipt = self.record.get("receipt") if self.record else None
        return receipt if isinstance(receipt, dict) else None


def _follow_problem(number, prev, expected):
    if prev == expected:
        return None
    if number == 1:
        return ("it does not start the chain (its prev_sha256 is not the genesis value): "
                "entries before it were removed")
    return (f"it does not follow entry {number - 1} (its prev_sha256 is not that line's "
            f"sha256): entry {number - 1} was edited, or an entry was removed, inserted or "
            "moved here")


def _number_problem(number, recorded):
    if recorded == number:
        return None
    if isinstance(recorded, int) and not isinstance(recorded, bool) and recorded > number:
        missing = (f"entry {number} is" if recorded == number + 1 else
                   f"entries {number} to {recorded - 1} are")
        return f"it says it is entry {recorded}: {missing} missing (removed or moved)"
    return (f"it says it is entry {recorded!r}: an entry was inserted before it, or entries "
            "were moved")


def read_ledger(data: bytes) -> List[Entry]:
    """The entries of a ledger's bytes, each with its chain and shape problems.

    A last line without a line break that is not a whole record (a write cut short, or a
    file cut) is an entry whose only problem says it cannot be verified; it is never read
    as a receipt (jsonl.py's rule). A blank line is no entry, but keeps its line number,
    so the entries after it say they are out of place.
    """
    lines, last = split_lines(data)
    torn = None
    if last is not None:
        if is_record(last[1]):
            lines.append(last)
        else:
            torn = last
    entries, expected = [], GENESIS
    for number, raw in lines:
        entry = Entry(number, line_sha256(raw), None)
        entries.append(entry)
        try:
            value = loads_strict(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            entry.problems.append(f"not a JSON line ({exc}): it was edited, or is not a "
                                  "ledger entry")
            expected = entry.sha256
            continue
        if not isinstance(value, dict) or value.get("schema") != LEDGER_SCHEMA:
            entry.problems.append(f"not a ledger entry (schema must be {LEDGER_SCHEMA!r})")
            expected = entry.sha256
            continue
        entry.record = value
        for problem in (_number_problem(number, value.get("entry")),
                        _follow_problem(number, value.get("prev_sha256"), expected)):
            if problem:
                entry.problems.append(problem)
        if entry.receipt is None:
            entry.problems.append("it holds no receipt")
        expected = entry.sha256
    if torn:
        entries.append(Entry(torn[0], line_sha256(torn[1]), None, [
            "an unfinished last line (a write cut short by a kill, or the file cut): it "
            "cannot be verified, so it is skipped and reported"]))
    return entries


def entry_summary(entry):
    """One entry as `ledger show` lists it: number, times, claim, answer, command gated."""
    receipt = entry.receipt or {}
    gate = receipt.get("gate") if isinstance(receipt.get("gate"), dict) else None
    record = entry.record or {}
    return {
        "entry": entry.number,
        "time": receipt.get("time"),
        "appended": record.get("time"),
        "claim": receipt.get("claim"),
        "answer": receipt.get("answer"),
        # Schema 1 receipts did not say what made them (null); a gate block says it.
        "made_by": receipt.get("made_by") or ("gate" if gate else None),
        "gate": gate and {key: gate.get(key) for key in ("program", "runs", "status",
                                                         "dry_run")},
        "log": (receipt.get("log") or {}).get("file") if isinstance(receipt.get("log"),
                                                                     dict) else None,
        "sha256": entry.sha256,
        "prev_sha256": record.get("prev_sha256"),
        "problems": list(entry.problems),
    }
