"""Offline replay: rebuild every request, re-run every check, and compare with the record.

No server is involved. Each function returns a list of differences, one line each; an
empty list means the record is exactly what the items, the reader and the saved replies
give today.
"""

from .answers import CheckedAnswer, failed_call
from .readers import get_reader
from .request import build_request, request_sha256, sha256_text
from .errors import UsageError
from .records import ANSWERS_SCHEMA, RECEIPT_SCHEMA, RECEIPT_SCHEMAS
from .rules import combine
from .logs import Turn

_COMPARED = ("answer", "code", "verdict", "turn", "quote", "reason")


def _reader_for(version, fingerprint, where, differences):
    try:
        reader = get_reader(version, replay=True)
    except UsageError:
        differences.append(f"{where}: reader {version!r} is not known to this version")
        return None
    if reader.fingerprint != fingerprint:
        differences.append(f"{where}: reader {version} fingerprint differs (recorded "
                           f"{str(fingerprint)[:12]}..., this reader {reader.fingerprint[:12]}...)")
    return reader


def recheck(reader, claim, turns, max_turns, model, extra, constrained, reply, recorded,
            where, differences):
    """Rebuild one request and re-check its reply; add a line per difference found."""
    shown = reader.render(list(turns), max_turns)
    body = build_request(reader, claim, shown, model, extra, constrained)
    rebuilt = request_sha256(body)
    if rebuilt != recorded.get("request_sha256"):
        differences.append(f"{where}: request sha256 differs (recorded "
                           f"{str(recorded.get('request_sha256'))[:12]}..., rebuilt {rebuilt[:12]}...)")
    if recorded.get("error"):
        if reply is not None:
            differences.append(f"{where}: a failed call with a saved reply")
        return shown, None
    if not isinstance(reply, str):
        differences.append(f"{where}: no saved reply")
        return shown, None
    if sha256_text(reply) != recorded.get("reply_sha256"):
        differences.append(f"{where}: reply sha256 differs: the saved reply was changed")
    checked = reader.check_reply(reply, shown).to_dict()
    for key in _COMPARED:
        if checked[key] != recorded.get(key):
            differences.append(f"{where}: {key} recorded {recorded.get(key)!r}, "
                               f"the check gives {checked[key]!r}")
    return shown, CheckedAnswer(**checked)


def replay_answers(items, items_sha256, header, rows):
    """Differences between an answers file and what its items and replies give now."""
    differences = []
    if header is None:
        return ["the answers file has no items record"]
    if header.get("items_sha256") != items_sha256:
        differences.append("the items file is not the one the answers file pinned (sha256 "
                           f"{str(header.get('items_sha256'))[:12]}..., given {items_sha256[:12]}...)")
    if header.get("items_count") != len(items):
        differences.append(f"the answers file pinned {header.get('items_count')} items; "
                           f"the items file has {len(items)}")
    by_id = {item.id: item for item in items}
    seen = {}
    for row in rows:
        where = f"line {row.get('_line')} (item {row.get('id')}, model {row.get('arm')})"
        item = by_id.get(row.get("id"))
        if item is None:
            differences.append(f"{where}: no such item in the items file")
            continue
        arm = row.get("arm")
        if arm not in ("A", "B"):
            differences.append(f"{where}: arm must be A or B")
            continue
        if row.get("model") != (header.get("models") or {}).get(arm):
            differences.append(f"{where}: model {row.get('model')!r} is not the run's model {arm}")
        if not row.get("error"):
            if (item.id, arm) in seen:
                differences.append(f"{where}: a second usable answer (first on line "
                                   f"{seen[(item.id, arm)]})")
            seen[(item.id, arm)] = row.get("_line")
        reader = _reader_for(row.get("reader"), row.get("reader_fingerprint"), where,
                             differences)
        if reader is None:
            continue
        recheck(reader, item.claim, item.turns, row.get("max_turns"), row.get("model"),
                row.get("extra") or {}, row.get("constrained"), row.get("reply"), row, where,
                differences)
    for item in items:
        for arm in ("A", "B"):
            if (item.id, arm) not in seen:
                differences.append(f"item {item.id}: no usable answer from model {arm}")
    return differences


def replay_receipt(receipt, log_turns=None, log_sha256=None):
    """Differences between a saved receipt and what its own turns and replies give now.

    With `log_turns`/`log_sha256` (the log file read again), the receipt must also be a
    receipt for that log.
    """
    differences = []
    if not isinstance(receipt, dict) or receipt.get("schema") not in RECEIPT_SCHEMAS:
        return [f"not a receipt (schema must be one of {', '.join(RECEIPT_SCHEMAS)})"]
    try:
        turns = [Turn(t.get("cmd", ""), t.get("output", ""), t.get("exit_status"))
                 for t in receipt["turns"]]
        max_turns = receipt["max_turns"]
        claim = receipt["claim"]
        models = receipt["models"]
        rule = receipt["rule"]
    except (KeyError, TypeError, AttributeError) as exc:
        return [f"the receipt is missing {exc}"]
    if log_sha256 is not None and log_sha256 != receipt.get("log", {}).get("sha256"):
        differences.append("the log file is not the one this receipt was made from "
                           "(sha256 differs)")
    if log_turns is not None and list(log_turns[-max_turns:]) != turns:
        differences.append("the log's last turns differ from the turns in the receipt")
    reader = _reader_for(receipt.get("reader", {}).get("version"),
                         receipt.get("reader", {}).get("fingerprint"), "receipt", differences)
    if reader is None:
        return differences
    checked = {}
    shown = reader.render(turns, max_turns)
    rendered = [{"id": t.id, "cmd": t.cmd, "output": t.output} for t in shown]
    if rendered != receipt.get("shown"):
        differences.append("the turns as the models saw them differ from the receipt's")
    for entry in models:
        arm = entry.get("arm")
        where = f"model {arm}"
        recorded = dict(entry)
        if receipt["schema"] != RECEIPT_SCHEMA:  # schema 1 nested the checked answer
            recorded.update(entry.get("checked") or {})
        _, again = recheck(reader, claim, turns, max_turns, entry.get("model"),
                           entry.get("extra") or {}, entry.get("constrained"),
                           entry.get("reply"), recorded, where, differences)
        checked[arm] = again or failed_call()
    if set(checked) != {"A", "B"}:
        return differences + ["the receipt must hold models A and B"]
    pair = combine(checked["A"], checked["B"], rule)
    if pair.answer != receipt.get("answer"):
        differences.append(f"answer recorded {receipt.get('answer')!r}, "
                           f"the replies give {pair.answer!r}")
    if [q.to_dict() for q in pair.quotes] != receipt.get("quotes"):
        differences.append("the deciding quotes differ from the receipt's")
    return differences


__all__ = ["replay_answers", "replay_receipt", "ANSWERS_SCHEMA"]
