"""Versioned records on disk: the answers file of a batch, and the receipt of a check.

Appends are whole lines written by one system call, so an interrupted run leaves at most
one partial last line, which readers report and skip and a resumed batch cuts off. Files
that are replaced are written to a temporary file and renamed.
"""

import datetime
import hashlib
import json
import os
import tempfile

from . import __version__
from .errors import InputError
from .logs import decode

ANSWERS_SCHEMA = "receipt-pair/answers/2"
# Schema 1 rows had no server, schema_sent or unapplied: their "constrained" said whether
# the schema was sent. They are still read (the sealed runs in receipts/ are schema 1).
ANSWERS_SCHEMAS = ("receipt-pair/answers/1", ANSWERS_SCHEMA)
RECEIPT_SCHEMA = "receipt-pair/receipt/2"
# Receipts of schema 1 kept each model's checked answer nested under "checked"; they are
# still read (receipts/gate-demo-1 holds two).
RECEIPT_SCHEMAS = ("receipt-pair/receipt/1", RECEIPT_SCHEMA)

# The keys of one answer row, in order. A test pins them: scripts rely on them.
ROW_KEYS = (
    "schema", "kind", "id", "arm", "model", "reader", "reader_fingerprint", "max_turns",
    "constrained", "extra", "request_sha256", "reply", "reply_sha256", "verdict", "turn",
    "quote", "reason", "answer", "code", "usage", "timings", "wall_s", "error", "time",
    "server", "schema_sent", "unapplied",
)


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_config(reader, max_turns, model_a, model_b, extra_a, extra_b):
    """What must stay the same for two runs to share an answers file."""
    return {
        "reader": reader.version,
        "reader_fingerprint": reader.fingerprint,
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


def append_record(fd, record):
    """Append one record as one whole line with a single write; return the line's bytes."""
    line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    written = os.write(fd, line)
    if written != len(line):  # a regular file takes it all; anything else is an error
        raise OSError(f"short write ({written} of {len(line)} bytes)")
    return line


def open_append(path):
    return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)


def cut_partial_line(path):
    """Drop an unfinished last line (an interrupted write); return True if one was cut."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return False
    if size == 0:
        return False
    with open(path, "rb+") as handle:
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) == b"\n":
            return False
        handle.seek(0)
        data = handle.read()
        handle.truncate(data.rfind(b"\n") + 1)
    return True


def read_answers(path, bad_lines=None):
    """(header or None, answer rows, warnings) from an answers file.

    A partial last line is skipped with a warning; any other line that is not a record is
    an InputError naming its line, or, when a `bad_lines` list is given, a message added to
    it (replay reports a corrupted record as a difference, not as a file it cannot read).
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
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
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            problem = f"{path} line {number}: not a JSON record ({exc})"
        else:
            if not isinstance(record, dict) or record.get("schema") not in ANSWERS_SCHEMAS:
                problem = (f"{path} line {number}: not a receipt-pair answers record "
                           f"(schema must be {ANSWERS_SCHEMA!r})")
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


def write_json_atomic(path, value):
    """Write `value` as JSON to `path` through a temporary file and a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".receipt-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(value, handle, ensure_ascii=False, indent=2)
            handle.write("\n")
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def canonical_sha256(record, leave_out):
    """The sha256 of `record` without its `leave_out` key, over one canonical serialisation."""
    body = {k: v for k, v in record.items() if k != leave_out}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def build_receipt(result, log_name, log_sha256, turns, max_turns, settings, witness=None,
                  made_by="check", gate=None):
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
        "max_turns": max_turns,
        "turns": [{"cmd": t.cmd, "output": t.output, "exit_status": t.exit_status}
                  for t in list(turns)[-max_turns:]],
        "shown": [{"id": t.id, "cmd": t.cmd, "output": t.output} for t in result.shown],
        "reader": {"version": result.reader.version, "fingerprint": result.reader.fingerprint,
                   "check": result.reader.check},
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
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, dict) and isinstance(value.get("choices"), list) and value["choices"]:
        try:
            content = value["choices"][0]["message"]["content"]
        except (KeyError, TypeError):
            return text
        return content if isinstance(content, str) else ""
    return text
