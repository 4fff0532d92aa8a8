"""Versioned records on disk: the answers file of a batch, and the receipt of a check.

Both are JSON Lines or JSON written by the rules of jsonl.py (whole lines under a lock,
a torn last line read or left out the one way, files replaced through a rename, strict
JSON only); what is here is what the records hold and how they are checked.
"""

import datetime
import hashlib
import json
from typing import Any, Dict, List, Optional, Tuple

from .. import __version__
from ..errors import InputError
from ..answers import ANSWERS
from .files import decode, loads_strict, read_bytes
from .jsonl import is_record, whole_lines

ANSWERS_SCHEMA = "receipt-pair/answers/2"
# Schema 1 rows had no server, schema_sent or unapplied: their "constrained" said whether
# the schema was sent. They are still read (the sealed runs in receipts/ are schema 1).
ANSWERS_SCHEMAS = ("receipt-pair/answers/1", ANSWERS_SCHEMA)
RECEIPT_SCHEMA = "receipt-pair/receipt/4"
# Receipts of schema 1 kept each model's checked answer nested under "checked" (the gate
# demo's two in receipts/gate-demo-1); schema 2 kept only the last max_turns turns, which
# is all a classic reader reads but not all a menu reader does; schema 3 had no facts (who
# decided, and what the facts' table said). All are still read.
RECEIPT_SCHEMAS = ("receipt-pair/receipt/1", "receipt-pair/receipt/2", "receipt-pair/receipt/3",
                   RECEIPT_SCHEMA)

# The keys of one answer row, in order. A test pins them: scripts rely on them.
ROW_KEYS = (
    "schema", "kind", "id", "arm", "model", "reader", "reader_fingerprint", "max_turns",
    "constrained", "extra", "request_sha256", "reply", "reply_sha256", "verdict", "turn",
    "quote", "reason", "answer", "code", "usage", "timings", "wall_s", "error", "time",
    "server", "schema_sent", "unapplied", "verdict_probabilities", "confidence",
)


# The keys of one facts record: what the facts' table decided of one item, written by batch
# beside the models' answers (a sealed run still asks both models every item).
FACTS_KEYS = ("schema", "kind", "id", "table", "fingerprint", "answer", "rule", "turn", "line",
              "quote", "kinds", "time")


def facts_row(item_id, record, kinds):
    """The facts record of one item: `record` is pair.claim.facts_record's (answer None: the
    facts did not settle it); `kinds`, the kinds of operation its claim's frame read."""
    fields = {"rule": None, "turn": None, "line": "", "quote": "", **record,
              "schema": ANSWERS_SCHEMA, "kind": "facts", "id": item_id, "kinds": list(kinds),
              "time": utc_now()}
    return {key: fields[key] for key in FACTS_KEYS}


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_config(settings):
    """What must stay the same for two runs to share an answers file, from a run's checked
    settings (pair.Settings). (Answers files made before the check and the menu were
    recorded were made with the reader's sealed ones.)"""
    reader = settings.reader
    return {
        "reader": reader.version,
        "reader_fingerprint": reader.fingerprint,
        **reader.versions,
        "max_turns": settings.max_turns,
        "models": {"A": settings.model_a, "B": settings.model_b},
        "extra": {"A": dict(settings.extra_a), "B": dict(settings.extra_b)},
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


def read_answers(path: str, bad_lines: Optional[List[str]] = None,
                 facts: Optional[Dict[str, Any]] = None
                 ) -> Tuple[Optional[Dict[str, Any]], List[Dict[str, Any]], List[str]]:
    """(header or None, answer rows, warnings) from an answers file; `facts`, a dict, gets
    each item's facts record by id.

    A torn last line is left out with a warning (jsonl.py's rule); any other line that is
    not a record is an InputError naming its line, or, when a `bad_lines` list is given, a
    message added to it (replay reports a corrupted record as a difference, not as a file
    it cannot read).
    """
    torn: List[Tuple[int, bytes]] = []
    lines = whole_lines(read_bytes(path), is_record, torn)
    warnings = [f"{path}: skipped an unfinished last line (an interrupted write)"] if torn \
        else []
    header, rows = None, []
    for number, raw in lines:
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
        elif record.get("kind") == "facts":
            if facts is not None:
                facts.setdefault(record["id"], record)
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
    if record.get("kind") == "facts":
        if not isinstance(record.get("id"), str) or record.get("answer") not in ANSWERS + (None,):
            return "a facts record needs a text 'id' and an 'answer' (or null)"
        for key in ("table", "fingerprint", "line", "quote"):
            if not isinstance(record.get(key), str):
                return f"a facts record's '{key}' must be text"
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


def canonical_sha256(record, leave_out):
    """The sha256 of `record` without its `leave_out` key, over one canonical serialisation."""
    body = {k: v for k, v in record.items() if k != leave_out}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# What a receipt may hold besides the check itself, in this order: the witness run it
# pins, the gate's decision, the Stop hook's stop.
BLOCKS = ("witness", "gate", "hook")


def build_receipt(result, log, settings, made_by="check", blocks=None):
    """The whole receipt of one check, enough to re-derive its answer offline.

    `result`: the pair's answer (pair.ClaimResult), which holds the settings it was asked
    with; `log`: the log as read (logs.LogRead: its name, sha256 and redactions);
    `settings`: the fixed request settings. `blocks`: what else it holds, by name (BLOCKS):
    the witness block (the record it pins and what it says), the gate's decision
    ({"program", "runs", "status", "dry_run"}), the hook's stop. The receipt ends with the
    sha256 of everything else in it: an edit made without recomputing it is caught. (That
    is not proof against someone who recomputes it; keep receipts in a ledger for that.)
    """
    unknown = set(blocks or {}) - set(BLOCKS)
    if unknown:
        raise ValueError(f"a receipt holds no {sorted(unknown)[0]!r} block")
    said = result.to_dict()  # the answer's one serialisation: its facts, its contradictions
    receipt = {
        "schema": RECEIPT_SCHEMA,
        "package_version": __version__,
        "time": utc_now(),
        "made_by": made_by,
        "claim": result.claim,
        "log": {"file": log.name, "sha256": log.sha256},
        # Whether credentials were replaced when the log was read, and how many: the turns
        # below are the redacted ones, the sha256 above is the file's own.
        "redaction": {"on": bool(result.settings.redact), "count": log.redactions,
                      "version": getattr(log, "redactor", None)},
        "max_turns": result.settings.max_turns,
        # Everything the reader read (a menu reader reads the whole log), so that the
        # receipt re-derives from itself.
        "turns": [t.to_json() for t in result.shown.turns],
        "shown": [{"id": t.id, "cmd": t.cmd, "output": t.output} for t in result.shown],
        "reader": {"version": result.reader.version, "fingerprint": result.reader.fingerprint,
                   **result.reader.versions},
        "rule": result.rule,
        # Who may say contradicted, where not the default: "facts" (plain code only).
        **{k: v for k, v in said.items() if k == "contradictions"},
        "settings": settings,
        "models": [m.to_dict() for m in result.models],
        "answer": result.answer,
        # Who decided: plain code from the facts of the log (no model asked), or the models;
        # and what the facts' table said (None: the settings asked the models alone).
        "decided_by": result.decided_by,
        "facts": said["facts"],
        "quotes": [q.to_dict() for q in result.quotes],
        # The deterministic first reading: a recorded non-zero exit status is a failure line.
        "recorded_failures": [{"turn": t.id, "exit_status": t.exit_status}
                              for t in result.shown if t.exit_status],
    }
    if getattr(result.shown, "menu_claims", None):
        # The menu was picked for a stop's claims together: replay picks it the same way.
        receipt["menu_claims"] = list(result.shown.menu_claims)
    for name in BLOCKS:
        if (blocks or {}).get(name) is not None:
            receipt[name] = blocks[name]
    receipt["receipt_sha256"] = canonical_sha256(receipt, "receipt_sha256")
    return receipt


def reply_text(data, name):
    """The model's reply from a saved file: the raw text, or a whole chat response's content."""
    return reply_content(decode(data, name))


def reply_content(text):
    """The model's reply from saved text: the text itself, or a whole chat response's
    content."""
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
