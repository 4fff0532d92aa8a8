"""Versioned records on disk: the answers file of a batch, and the receipt of a check.

Appends are whole lines written by one system call, so an interrupted run leaves at most
one partial last line, which readers report and skip and a resumed batch cuts off. Files
that are replaced are written to a temporary file and renamed; only a regular file is ever
replaced (a device such as /dev/full, a pipe or a folder is refused, never swapped for a
file). Every record is strict JSON that the readers here read back: a value JSON text
cannot hold (NaN, Infinity, a lone surrogate) is an error before anything is written, and
so is every write the system refuses (a full disk, a folder), each one line.
"""

import contextlib
import datetime
import hashlib
import json
import os
import stat
import tempfile

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

from .. import __version__
from ..errors import InputError
from ..answers import ANSWERS
from .files import decode, loads_strict, read_bytes

ANSWERS_SCHEMA = "receipt-pair/answers/2"
# Schema 1 rows had no server, schema_sent or unapplied: their "constrained" said whether
# the schema was sent. They are still read (the sealed runs in receipts/ are schema 1).
ANSWERS_SCHEMAS = ("receipt-pair/answers/1", ANSWERS_SCHEMA)
RECEIPT_SCHEMA = "receipt-pair/receipt/3"
# Receipts of schema 1 kept each model's checked answer nested under "checked" (the gate
# demo's two in receipts/gate-demo-1); schema 2 kept only the last max_turns turns, which
# is all a classic reader reads but not all a menu reader does. Both are still read.
RECEIPT_SCHEMAS = ("receipt-pair/receipt/1", "receipt-pair/receipt/2", RECEIPT_SCHEMA)

# The keys of one answer row, in order. A test pins them: scripts rely on them.
ROW_KEYS = (
    "schema", "kind", "id", "arm", "model", "reader", "reader_fingerprint", "max_turns",
    "constrained", "extra", "request_sha256", "reply", "reply_sha256", "verdict", "turn",
    "quote", "reason", "answer", "code", "usage", "timings", "wall_s", "error", "time",
    "server", "schema_sent", "unapplied", "verdict_probabilities", "confidence",
)


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_config(reader, max_turns, model_a, model_b, extra_a, extra_b):
    """What must stay the same for two runs to share an answers file. (Answers files made
    before the check and the menu were recorded were made with the reader's sealed ones.)"""
    return {
        "reader": reader.version,
        "reader_fingerprint": reader.fingerprint,
        **reader.versions,
        "max_turns": max_turns,
        "models": {"A": model_a, "B": model_b},
        "extra": {"A": extra_a or {}, "B": extra_b or {}},
    }


def header_record(items_sha256, items_count, items_name, config):
    return {
        "schema": ANSWERS_SCHEMA,
        "kind": "items",
        "items_sha256": items_sha256,
        "items_count": items_count,
        "items_file": items_name,
        **config,
        "package_version": __version__,
        "time": utc_now(),
    }


def answer_row(item_id, answer, reader, max_turns):
    """One model's answer to one item, as a line of the answers file (keys in ROW_KEYS order)."""
    fields = dict(answer.to_dict(), schema=ANSWERS_SCHEMA, kind="answer", id=item_id,
                  reader=reader.version, reader_fingerprint=reader.fingerprint,
                  max_turns=max_turns, time=utc_now())
    return {key: fields[key] for key in ROW_KEYS}


def cannot_write(path, exc, what="", kept=""):
    """The one-line InputError for a write to `path` the system refused: `what` was being
    written, `kept` what is kept all the same."""
    reason = "it is a directory, not a file" if isinstance(exc, IsADirectoryError) else \
        exc.strerror or str(exc)
    return InputError(f"{path}: cannot write{' ' + what if what else ''}: {reason}"
                      + (f"; {kept}" if kept else ""))


def record_bytes(value, path, what="the record", indent=None):
    """`value` as the UTF-8 JSON text of a record, which `files.loads_strict` reads back; an
    InputError naming `path` and `what` for a value JSON text cannot hold."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False,
                          indent=indent).encode("utf-8")
    except UnicodeEncodeError:
        problem = "a lone surrogate, which is not text"
    except ValueError:  # allow_nan=False: NaN or Infinity
        problem = "a number that is not finite (NaN or Infinity), which is not JSON"
    except RecursionError:
        problem = "values nested too deeply"
    raise InputError(f"{path}: nothing was written: {what} holds {problem}")


def append_record(fd, record, path="the file"):
    """Append one record as one whole line with a single write; return the line's bytes.

    A record that cannot be written as JSON is an InputError before anything is written; a
    write the system refuses (a full disk) is an OSError for the caller to name."""
    line = record_bytes(record, path) + b"\n"
    written = os.write(fd, line)
    if written != len(line):  # a regular file takes it all; anything else is an error
        raise OSError(f"short write ({written} of {len(line)} bytes)")
    return line


def _not_a_file(path, what=""):
    """The InputError for a `path` that exists and is not a regular file, else None: a
    record is never written to a folder, a device (/dev/full, /dev/zero) or a pipe, which
    could not be read back, and never replaces one."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return cannot_write(path, exc, what)
    if stat.S_ISREG(mode):
        return None
    return cannot_write(path, IsADirectoryError() if stat.S_ISDIR(mode) else OSError(
        "it is not a regular file (a device or a pipe); give a file name"), what)


def open_append(path):
    """A file descriptor appending to `path` (created if missing); an InputError saying why
    not (a directory, a device, a folder that does not exist, no permission)."""
    problem = _not_a_file(path)
    if problem:
        raise problem
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise cannot_write(path, exc) from None


@contextlib.contextmanager
def locked(fd, path, wait=False):
    """Hold an exclusive lock on the open file `fd` (two writers never interleave).

    With `wait`, block until the lock is free (two hooks appending to one ledger); without,
    a file another process holds is an InputError at once (two batch runs on one file would
    ask every question twice).
    """
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise InputError(f"{path}: another receipt-pair process is writing to it; let it "
                             "finish (or stop it), then run this again") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    else:  # Windows: lock the first byte, the same for every writer
        mode = msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK
        position = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, mode, 1)
        except OSError:
            raise InputError(f"{path}: another receipt-pair process is writing to it") from None
        finally:
            os.lseek(fd, position, os.SEEK_SET)
        try:
            yield
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def mend_last_line(path):
    """Make a file of records end in a whole line: a complete last record written without its
    newline gets one; an unfinished one (a write cut by a kill) is cut off. Return what was
    done ("", "ended", "cut"). A path that cannot be mended (a folder) is an InputError."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return ""
    if size == 0:
        return ""
    try:
        return _mend(path)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def _mend(path):
    with open(path, "rb+") as handle:
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) == b"\n":
            return ""
        handle.seek(0)
        data = handle.read()
        start = data.rfind(b"\n") + 1
        try:
            whole = isinstance(loads_strict(data[start:].decode("utf-8")), dict)
        except (UnicodeDecodeError, ValueError):
            whole = False
        if whole:
            handle.seek(0, os.SEEK_END)
            handle.write(b"\n")
            return "ended"
        handle.truncate(start)
    return "cut"


def read_answers(path, bad_lines=None):
    """(header or None, answer rows, warnings) from an answers file.

    A partial last line is skipped with a warning; any other line that is not a record is
    an InputError naming its line, or, when a `bad_lines` list is given, a message added to
    it (replay reports a corrupted record as a difference, not as a file it cannot read).
    """
    data = read_bytes(path)
    warnings = []
    lines = data.split(b"\n")
    partial = lines.pop() if lines else b""
    if partial.strip():
        warnings.append(f"{path}: skipped an unfinished last line (an interrupted write)")
    header, rows = None, []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        problem = None
        try:
            record = loads_strict(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            problem = f"{path} line {number}: not a JSON record ({exc})"
        else:
            problem = _record_problem(record)
            problem = problem and f"{path} line {number}: {problem}"
        if problem:
            if bad_lines is None:
                raise InputError(problem)
            bad_lines.append(problem)
            continue
        if record.get("kind") == "items":
            if header is not None:
                raise InputError(f"{path} line {number}: a second items record")
            header = record
        elif record.get("kind") == "answer":
            record["_line"] = number
            rows.append(record)
        else:
            raise InputError(f"{path} line {number}: unknown record kind {record.get('kind')!r}")
    return header, rows, warnings


def _record_problem(record):
    """What makes a decoded line not an answers record, or None."""
    if not isinstance(record, dict) or record.get("schema") not in ANSWERS_SCHEMAS:
        return f"not a receipt-pair answers record (schema must be {ANSWERS_SCHEMA!r})"
    if record.get("kind") == "items":
        models, extra = record.get("models"), record.get("extra")
        if not (isinstance(models, dict) and all(isinstance(models.get(a), str) for a in "AB")):
            return "the items record must name models A and B"
        if extra is not None and not (isinstance(extra, dict) and all(
                isinstance(extra.get(a, {}), dict) for a in "AB")):
            return "the items record's extra fields must be objects for A and B"
    if record.get("kind") == "answer":
        for key in ("verdict", "turn", "reason"):
            if not (record.get(key) is None or isinstance(record.get(key), str)):
                return f"an answer's '{key}' must be text or null"
        if not isinstance(record.get("quote", ""), str):
            return "an answer's 'quote' must be text"
        if not isinstance(record.get("id"), str) or record.get("arm") not in ("A", "B"):
            return "an answer needs a text 'id' and an 'arm' of A or B"
        if record.get("answer") not in ANSWERS or not isinstance(record.get("code"), str):
            return "an answer needs an 'answer' of shown, contradicted or not shown, and a 'code'"
        if not (record.get("error") is None or isinstance(record.get("error"), str)):
            return "an answer's 'error' must be text or null"
    return None


def write_atomic(path, data, what):
    """Replace `path` with `data` (bytes) through a temporary file and a rename; an
    InputError naming `what` ("the receipt") when it cannot be done, with nothing left
    behind. Only a regular file (or a new one) is replaced."""
    problem = _not_a_file(path, what)
    if problem:
        raise problem
    try:
        fd, temp = tempfile.mkstemp(prefix=".receipt-pair-", dir=os.path.dirname(
            os.path.abspath(path)))
    except OSError as exc:
        raise cannot_write(path, exc, what) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException as exc:
        if os.path.exists(temp):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise cannot_write(path, exc, what) from None
        raise


def write_json_atomic(path, value, what="the record"):
    """Write `value` as JSON to `path` through a temporary file and a rename (`write_atomic`);
    a value that cannot be written is an InputError before anything is."""
    write_atomic(path, record_bytes(value, path, what, indent=2) + b"\n", what)


def canonical_sha256(record, leave_out):
    """The sha256 of `record` without its `leave_out` key, over one canonical serialisation."""
    body = {k: v for k, v in record.items() if k != leave_out}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def build_receipt(result, log_name, log_sha256, max_turns, settings, witness=None,
                  made_by="check", gate=None, redaction=None):
    """The whole receipt of one check, enough to re-derive its answer offline.

    `witness`: the witness block (the record it pins and what it says); `gate`: the gate's
    decision ({"program", "runs", "status", "dry_run"}). The receipt ends with the sha256
    of everything else in it: an edit made without recomputing it is caught. (That is not
    proof against someone who recomputes it; keep receipts in a ledger for that.)
    """
    receipt = {
        "schema": RECEIPT_SCHEMA,
        "package_version": __version__,
        "time": utc_now(),
        "made_by": made_by,
        "claim": result.claim,
        "log": {"file": log_name, "sha256": log_sha256},
        # Whether credentials were replaced when the log was read, and how many: the turns
        # below are the redacted ones, the sha256 above is the file's own.
        "redaction": redaction or {"on": False, "count": 0},
        "max_turns": max_turns,
        # Everything the reader read (a menu reader reads the whole log), so that the
        # receipt re-derives from itself.
        "turns": [t.to_json() for t in result.shown.turns],
        "shown": [{"id": t.id, "cmd": t.cmd, "output": t.output} for t in result.shown],
        "reader": {"version": result.reader.version, "fingerprint": result.reader.fingerprint,
                   **result.reader.versions},
        "rule": result.rule,
        "settings": settings,
        "models": [m.to_dict() for m in result.models],
        "answer": result.answer,
        "quotes": [q.to_dict() for q in result.quotes],
        # The deterministic first reading: a recorded non-zero exit status is a failure line.
        "recorded_failures": [{"turn": t.id, "exit_status": t.exit_status}
                              for t in result.shown if t.exit_status],
    }
    if witness is not None:
        receipt["witness"] = witness
    if gate is not None:
        receipt["gate"] = gate
    receipt["receipt_sha256"] = canonical_sha256(receipt, "receipt_sha256")
    return receipt


def reply_text(data, name):
    """The model's reply from a saved file: the raw text, or a whole chat response's content."""
    text = decode(data, name)
    try:
        value = loads_strict(text)
    except ValueError:
        return text
    if isinstance(value, dict) and isinstance(value.get("choices"), list) and value["choices"]:
        try:
            content = value["choices"][0]["message"]["content"]
        except (KeyError, TypeError):
            return text
        return content if isinstance(content, str) else ""
    return text
