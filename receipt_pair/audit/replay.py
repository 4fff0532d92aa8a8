"""Offline replay: re-derive everything a record asserts from what it pins, and compare.

No server is involved. An answers file pins its items (sha256 and count) and its run's
settings (reader, fingerprint, max_turns, models, extra fields); each row must be made with
exactly those settings, its request is rebuilt from them, its reply is re-hashed and
re-checked. A receipt pins its turns and its replies; the turns as shown, the recorded
failures, the witness record, the checked answers, the pair's answer under its rule, the
deciding quotes and the gate's decision are all derived again. Anything malformed is a
difference, never a traceback. Each function returns a list of differences, one line each.
"""

from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..answers import CALL_FAILED, NOT_SHOWN, failed_call
from ..check.quote import parse_reply
from ..check.rules import CONTRADICTIONS, DEFAULT_CONTRADICTIONS, RULES, combine
from ..pair.claim import FACTS
from ..errors import InputError, UsageError
from ..readers import get_reader, unpack_replies
from ..readers.conform import conforms
from ..server.request import SETTINGS, request_digest, sha256_text, unapplied_settings
from ..server.servers import get_kind
from ..store.records import ANSWERS_SCHEMAS, RECEIPT_SCHEMA, RECEIPT_SCHEMAS, canonical_sha256
from ..turn import turn_from_json
from .facts import facts_differences, facts_record_differences
from .witnessed import gate_problems, witness_problems

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from ..logs.items import Item
    from ..turn import Turn

_COMPARED = ("answer", "code", "verdict", "turn", "quote", "reason")
ARMS = ("A", "B")


def _short(value):
    return f"{str(value)[:12]}..."


def _reader_for(recorded, where, differences):
    """The reader a record names ({"reader"/"version", "fingerprint"/"reader_fingerprint",
    "check", "menu"}), judged by the check and menu it records (or, where it records none,
    by those of the reader's sealed answers)."""
    version = recorded.get("version", recorded.get("reader"))
    fingerprint = recorded.get("fingerprint", recorded.get("reader_fingerprint"))
    try:
        reader = get_reader(version, replay=True)
    except (UsageError, TypeError):
        differences.append(f"{where}: reader {version!r} is not known to this version")
        return None
    if reader.fingerprint != fingerprint:
        differences.append(f"{where}: reader {version} fingerprint differs (recorded "
                           f"{_short(fingerprint)}, this reader {_short(reader.fingerprint)})")
    try:
        return reader.judged_by(recorded.get("check"), recorded.get("menu"))
    except (ValueError, TypeError):
        differences.append(f"{where}: check {recorded.get('check')!r} or menu "
                           f"{recorded.get('menu')!r} is not known to this version")
        return None


def _server_for(key, where, differences):
    if key is None:
        return None
    try:
        return get_kind(key)
    except (ValueError, TypeError):
        differences.append(f"{where}: server kind {key!r} is not known")
        return False


class Asked(NamedTuple):
    """What one model was asked, as a record pins it: the reader, the turns as it showed
    them (rendered once per item), the claim, the model and its extra request fields."""

    reader: object
    shown: list
    claim: str
    model: str
    extra: dict


def recheck(asked, recorded, where, differences, partner=None, judged=None):
    """Rebuild one answer's request(s) from what was `asked` (an Asked) and re-check its
    reply against `recorded` (a flat answer: row or receipt entry); add a line per
    difference, each starting with `where`; return the re-derived CheckedAnswer.
    `partner`: model A's re-derived answer, for a reader with roles. `judged`: a dict that
    keeps each check's result for the same shown turns, replies and confidence (the check
    is a pure function of them), so a reply saved many times is judged once."""
    reader, shown, claim, model, extra = asked
    if not isinstance(extra, dict):
        differences.append(f"{where}: extra must be an object")
        return failed_call()
    server = _server_for(recorded.get("server"), where, differences)
    if server is False:
        return failed_call()
    # Schema 1 records had no schema_sent: their "constrained" said whether it was sent.
    sent = recorded.get("schema_sent", recorded.get("constrained"))
    if not isinstance(sent, bool):
        differences.append(f"{where}: whether the schema was sent is not recorded")
        return failed_call()
    bodies = reader.bodies(claim, shown, model, extra, sent, server,
                           partner if reader.partner else None)
    rebuilt = request_digest(bodies)
    if rebuilt != recorded.get("request_sha256"):
        differences.append(f"{where}: request sha256 differs (recorded "
                           f"{_short(recorded.get('request_sha256'))}, rebuilt {_short(rebuilt)})")
    reply = recorded.get("reply")
    if recorded.get("error"):
        if reply is not None:
            differences.append(f"{where}: a failed call with a saved reply")
        if (recorded.get("answer"), recorded.get("code")) != (NOT_SHOWN, CALL_FAILED):
            differences.append(f"{where}: a failed call must be recorded as not shown, "
                               f"{CALL_FAILED}")
        return failed_call()
    if not isinstance(reply, str):
        differences.append(f"{where}: no saved reply")
        return failed_call()
    if sha256_text(reply) != recorded.get("reply_sha256"):
        differences.append(f"{where}: reply sha256 differs: the saved reply was changed")
    probabilities = recorded.get("verdict_probabilities")
    confidence = recorded.get("confidence")
    if probabilities is not None or confidence is not None:
        parsed = parse_reply(reply)
        again = probabilities.get(parsed.get("verdict")) if isinstance(probabilities, dict) \
            and parsed else None
        if again != confidence or not (isinstance(confidence, float) or confidence is None):
            differences.append(f"{where}: confidence recorded {confidence!r}, the recorded "
                               f"probabilities give {again!r}")
    replies = unpack_replies(reader, reply)
    confidence = confidence if isinstance(confidence, float) else None
    key = (id(shown), tuple(sorted(replies.items())), confidence)
    checked = judged.get(key) if judged is not None else None
    if checked is None:
        checked = reader.judge(replies, shown, confidence)
        if judged is not None:
            judged[key] = checked
    for key, value in checked.to_dict().items():
        if key in _COMPARED and value != recorded.get(key):
            differences.append(f"{where}: {key} recorded {recorded.get(key)!r}, "
                               f"the check gives {value!r}")
    if "schema_sent" in recorded:
        schemas = reader.schemas(shown)
        constrained = sent and all(isinstance(text, str) and conforms(text, schemas[name])
                                   for name, text in replies.items())
        if recorded.get("constrained") is not constrained:
            differences.append(f"{where}: constrained recorded {recorded.get('constrained')!r}, "
                               f"the reply against the schema sent gives {constrained!r}")
        unapplied = list(unapplied_settings(server, model)) if server else []
        if recorded.get("unapplied") != unapplied:
            differences.append(f"{where}: unapplied settings recorded "
                               f"{recorded.get('unapplied')!r}, the server kind gives {unapplied!r}")
    return checked


def _header_problems(header, items, items_sha256):
    """(differences, run settings or None) for an answers file's items record."""
    if not isinstance(header, dict):
        return ["the answers file has no items record"], None
    problems = []
    if header.get("items_sha256") != items_sha256:
        problems.append("the items file is not the one the answers file pinned (sha256 "
                        f"{_short(header.get('items_sha256'))}, given {_short(items_sha256)})")
    if header.get("items_count") != len(items):
        problems.append(f"the answers file pinned {header.get('items_count')!r} items; "
                        f"the items file has {len(items)}")
    models, extra, max_turns = header.get("models"), header.get("extra"), header.get("max_turns")
    if not (isinstance(models, dict) and all(isinstance(models.get(a), str) for a in ARMS)):
        return problems + ["the items record must name models A and B"], None
    if not (isinstance(extra, dict) and all(isinstance(extra.get(a), dict) for a in ARMS)):
        return problems + ["the items record must hold the extra fields of A and B"], None
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        return problems + [f"the items record's max_turns {max_turns!r} is not a count"], None
    reader = _reader_for(header, "the items record", problems)
    if reader is None:
        return problems, None
    return problems, {"reader": reader, "models": models, "extra": extra,
                      "max_turns": max_turns, "schema": header.get("schema")}


def replay_answers(items: Sequence["Item"], items_sha256: str, header: Optional[Dict[str, Any]],
                   rows: List[Dict[str, Any]],
                   facts: Optional[Dict[str, Any]] = None) -> List[str]:
    """Differences between an answers file and what its items, settings and replies give;
    with `facts` (each item's facts record, by id), what the facts' table gives of each
    item too."""
    differences, run = _header_problems(header, items, items_sha256)
    if run is None:
        return differences
    differences += facts_record_differences(items, header, facts or {})
    by_id: Dict[Optional[str], "Item"] = {item.id: item for item in items}  # a row's id or None
    seen: Dict[Tuple[str, str], Any] = {}  # (item id, arm): the line of its usable answer
    partners: Dict[str, Any] = {}  # item id: model A's checked answer, for roles
    rendered: Dict[Any, Any] = {}  # (claim, turns): the turns as shown
    judged: Dict[Any, Any] = {}  # what recheck has judged already
    # Model A's rows first: with roles, a B request is rebuilt from A's re-derived answer.
    for row in sorted(rows, key=lambda r: r.get("arm") != "A"):
        where = f"line {row.get('_line')} (item {row.get('id')!r}, model {row.get('arm')!r})"
        item = by_id.get(row.get("id"))
        arm = row.get("arm")
        if item is None:
            differences.append(f"{where}: no such item in the items file")
            continue
        if arm not in ARMS:
            differences.append(f"{where}: arm must be A or B")
            continue
        pinned = {"schema": run["schema"], "model": run["models"][arm],
                  "reader": run["reader"].version,
                  "reader_fingerprint": run["reader"].fingerprint,
                  "max_turns": run["max_turns"], "extra": run["extra"][arm]}
        for key, value in pinned.items():
            recorded = row.get(key)
            if key == "extra" and recorded is None and run["schema"] in ANSWERS_SCHEMAS[:1]:
                recorded = {}
            if recorded != value:
                differences.append(f"{where}: {key} {recorded!r} is not the run's {value!r}")
        if not row.get("error"):
            if (item.id, arm) in seen:
                differences.append(f"{where}: a second usable answer (first on line "
                                   f"{seen[(item.id, arm)]})")
            seen[(item.id, arm)] = row.get("_line")
        # The request is rebuilt from what the run pinned, not from what the row says.
        # A and B were shown the same turns, and so is every item of the same claim and
        # turns: each is rendered once.
        content = (item.claim, tuple(item.turns))
        if content not in rendered:
            rendered[content] = run["reader"].render(list(item.turns), run["max_turns"],
                                                     item.claim)
        asked = Asked(run["reader"], rendered[content], item.claim, run["models"][arm],
                      run["extra"][arm])
        checked = recheck(asked, row, where, differences,
                          partners.get(item.id) if arm == "B" else None, judged)
        if arm == "A" and not row.get("error"):
            partners[item.id] = checked
    for item in items:
        for arm in ARMS:
            if (item.id, arm) not in seen:
                differences.append(f"item {item.id}: no usable answer from model {arm}")
    return differences


def _turns_of(receipt):
    """The receipt's turns as Turns, or a difference naming what is wrong with them."""
    turns = receipt.get("turns")
    if not isinstance(turns, list) or not turns:
        return None, "the receipt's turns must be a non-empty list"
    out = []
    for number, turn in enumerate(turns, 1):
        if not isinstance(turn, dict):
            return None, f"the receipt's turn {number} is not an object"
        try:
            out.append(turn_from_json(turn, f"the receipt's turn {number}"))
        except InputError:
            return None, f"the receipt's turn {number} has a field of the wrong type"
    return out, None


def _receipt_shape(receipt):
    """A difference for the first thing a receipt lacks, or None."""
    by_facts = receipt.get("decided_by") == FACTS and receipt.get("schema") == RECEIPT_SCHEMA
    checks = (
        (isinstance(receipt.get("claim"), str), "the receipt's claim must be text"),
        (receipt.get("rule") in RULES, f"the receipt's rule must be one of {', '.join(RULES)}"),
        (receipt.get("contradictions", DEFAULT_CONTRADICTIONS) in CONTRADICTIONS,
         f"the receipt's contradictions must be one of {', '.join(CONTRADICTIONS)}"),
        (isinstance(receipt.get("max_turns"), int) and not isinstance(receipt.get("max_turns"), bool)
         and receipt.get("max_turns", 0) >= 1, "the receipt's max_turns must be a count"),
        (isinstance(receipt.get("reader"), dict), "the receipt must name its reader"),
        (isinstance(receipt.get("log"), dict), "the receipt must name its log"),
        (by_facts and receipt.get("models") == [] or
         isinstance(receipt.get("models"), list) and len(receipt["models"]) == 2
         and all(isinstance(m, dict) for m in receipt["models"])
         and sorted(str(m.get("arm")) for m in receipt["models"]) == list(ARMS),
         "the receipt must hold models A and B, once each (none, where the facts decided)"),
    )
    return next((message for ok, message in checks if not ok), None)


_LATER_FIELDS = ("receipt_sha256", "made_by", "gate")
_LATER_MODEL_FIELDS = ("schema_sent", "server", "unapplied", "verdict_probabilities",
                       "confidence")


def _later_fields(receipt):
    """The fields of a receipt that schema 1 never had."""
    found = [key for key in _LATER_FIELDS if key in receipt]
    witness = receipt.get("witness")
    if isinstance(witness, dict) and any(k in witness for k in ("record", "problem")):
        found.append("a witness record")
    if any(isinstance(m, dict) and any(k in m for k in _LATER_MODEL_FIELDS)
           for m in receipt.get("models") or []):
        found.append("the models' later fields")
    return found


def reads(reader, turns, max_turns):
    """The turns `reader` reads of a log: all of them for a menu, else the last ones."""
    return list(turns) if reader.menu else list(turns)[-max_turns:]


def replay_receipt(receipt: Dict[str, Any], log_turns: Optional[Sequence["Turn"]] = None,
                   log_sha256: Optional[str] = None) -> List[str]:
    """Differences between a saved receipt and what its own turns and replies give now.

    With `log_turns`/`log_sha256` (the log file read again), the receipt must also be a
    receipt for that log.
    """
    if not isinstance(receipt, dict) or receipt.get("schema") not in RECEIPT_SCHEMAS:
        return [f"not a receipt (schema must be one of {', '.join(RECEIPT_SCHEMAS)})"]
    problem = _receipt_shape(receipt)
    turns, turn_problem = _turns_of(receipt)
    if problem or turn_problem:
        return [problem or turn_problem]
    differences = []
    current = receipt["schema"] != RECEIPT_SCHEMAS[0]  # schema 2 and later
    later = _later_fields(receipt)
    if not current and later:
        # A receipt relabelled as schema 1 would skip the checks schema 1 had no data for.
        return [f"a schema 1 receipt cannot hold {', '.join(later)}, which only later "
                "receipts have: it was relabelled"]
    if current and receipt.get("receipt_sha256") != canonical_sha256(receipt, "receipt_sha256"):
        differences.append("the receipt's own sha256 differs: it was edited after it was made")
    max_turns, models = receipt["max_turns"], receipt["models"]
    if isinstance(receipt.get("witness"), dict):
        # A witness receipt pins one record of an append-only log, which later records may
        # follow: the record must be in the log, not the whole file unchanged.
        if log_turns is not None and not set(turns) <= set(log_turns):
            differences.append("the witness record is not in the log file")
    else:
        if log_sha256 is not None and log_sha256 != receipt["log"].get("sha256"):
            differences.append("the log file is not the one this receipt was made from "
                               "(sha256 differs)")
    differences += facts_differences(receipt, turns)
    if receipt.get("decided_by") == FACTS and receipt["schema"] == RECEIPT_SCHEMA:
        if log_turns is not None and not isinstance(receipt.get("witness"), dict) and \
                list(log_turns) != list(turns):
            differences.append("the log's turns differ from the turns in the receipt")
        return differences + gate_problems(receipt, receipt.get("answer"), True)
    reader = _reader_for(receipt["reader"], "receipt", differences)
    if reader is None:
        return differences
    if log_turns is not None and not isinstance(receipt.get("witness"), dict) and \
            list(reads(reader, log_turns, max_turns)) != list(reads(reader, turns, max_turns)):
        differences.append("the log's turns differ from the turns in the receipt")
    menu_claims = receipt.get("menu_claims")
    if menu_claims is not None and not (isinstance(menu_claims, list) and all(
            isinstance(c, str) for c in menu_claims)):
        return differences + ["the receipt's menu_claims must be a list of text"]
    shown = reader.render(turns, max_turns, receipt["claim"], menu_claims)
    rendered = [{"id": t.id, "cmd": t.cmd, "output": t.output} for t in shown]
    if rendered != receipt.get("shown"):
        differences.append("the turns as the models saw them differ from the receipt's")
    failures = [{"turn": t.id, "exit_status": t.exit_status} for t in shown if t.exit_status]
    if receipt.get("recorded_failures", failures) != failures:
        differences.append("the recorded failures differ from the exit statuses of the turns")
    if current and receipt.get("settings") != SETTINGS:
        differences.append("the receipt's settings are not the fixed settings")
    differences += witness_problems(receipt, turns)
    checked = {}
    for entry in sorted(models, key=lambda m: m["arm"]):
        arm = entry["arm"]
        recorded = dict(entry)
        if not current:  # schema 1 nested the checked answer
            recorded.update(entry.get("checked") if isinstance(entry.get("checked"), dict) else {})
        model = entry.get("model")
        if not isinstance(model, str):
            differences.append(f"model {arm}: the model must be named")
            checked[arm] = failed_call()
            continue
        asked = Asked(reader, shown, receipt["claim"], model, entry.get("extra") or {})
        checked[arm] = recheck(asked, recorded, f"model {arm}", differences,
                               checked.get("A") if arm == "B" else None)
    pair = combine(checked["A"], checked["B"], receipt["rule"],
                   receipt.get("contradictions", DEFAULT_CONTRADICTIONS))
    if pair.answer != receipt.get("answer"):
        differences.append(f"answer recorded {receipt.get('answer')!r}, "
                           f"the replies give {pair.answer!r}")
    if [q.to_dict() for q in pair.quotes] != receipt.get("quotes"):
        differences.append("the deciding quotes differ from the receipt's")
    all_answered = not any(entry.get("error") for entry in models)
    differences += gate_problems(receipt, pair.answer, all_answered)
    return differences
