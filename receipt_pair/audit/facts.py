"""Re-deriving what the facts decided: the facts' table run again on the turns a receipt or
an answers file holds must give what they recorded (the same table, the same decision,
and, where the facts decided, the same answer and quote). Each record is re-derived by the
table version it names (t1, t2 or t3, facts/table.py VERSIONS); an unknown one is refused."""

from ..answers import NOT_SHOWN
from ..facts import table as facts_table
from ..pair.claim import FACTS, MODELS, facts_record, turn_id
from ..store.records import RECEIPT_SCHEMA

_FACTS_COMPARED = ("table", "fingerprint", "answer", "rule", "turn", "line", "quote")


def facts_record_differences(items, header, facts):
    """What the facts' table gives now for each item, against the facts records of an
    answers file made with one (its header names the table)."""
    table = header.get("facts_table")
    if table is None:
        return [] if not facts else ["facts records in an answers file that names no table"]
    if table not in facts_table.VERSIONS:
        return [f"the answers file's facts were read by table {str(table)[:40]!r}, which "
                f"this version does not know (it knows {', '.join(facts_table.VERSIONS)})"]
    out = []
    for item in items:
        recorded = facts.get(item.id)
        if recorded is None:
            out.append(f"item {item.id!r}: no facts record")
            continue
        now = {"rule": None, "turn": None, "line": "", "quote": "",
               **facts_record(facts_table.decide(item.claim, list(item.turns),
                                                 version=table), table)}
        if any(recorded.get(key) != now[key] for key in _FACTS_COMPARED):
            out.append(f"item {item.id!r}: the facts recorded {recorded.get('answer')!r} "
                       f"({recorded.get('rule')}), the turns give {now['answer']!r} "
                       f"({now.get('rule')})")
    return out


def facts_differences(receipt, turns):
    """What the facts' table gives now for a receipt of schema 4, against what it recorded:
    the same table (version and fingerprint) and the same decision; where the facts
    decided, the receipt's answer and quote are theirs."""
    if receipt.get("schema") != RECEIPT_SCHEMA:
        return []
    recorded = receipt.get("facts")
    if receipt.get("decided_by") not in (FACTS, MODELS):
        return ["the receipt must say who decided (facts or models)"]
    if recorded is None:
        return [] if receipt["decided_by"] == MODELS else [
            "the facts decided, but the receipt holds no facts"]
    if not isinstance(recorded, dict):
        return ["the receipt's facts must be an object"]
    table = recorded.get("table")
    if table not in facts_table.VERSIONS:
        return [f"the receipt's facts were read by table {str(table)[:40]!r}, which this "
                f"version does not know (it knows {', '.join(facts_table.VERSIONS)})"]
    if recorded.get("fingerprint") != facts_table.fingerprint(table):
        return [f"the receipt's facts name table {table} but not its fingerprint"]
    decision = facts_table.decide(receipt["claim"], turns, version=table)
    now = facts_record(decision, table)
    out = []
    if now != recorded:
        out.append(f"the facts recorded {recorded.get('answer')!r} "
                   f"({recorded.get('rule', 'undecided')}), the turns give {now['answer']!r} "
                   f"({now.get('rule', 'undecided')})")
    if receipt["decided_by"] == FACTS:
        if decision is None or receipt.get("answer") != decision.answer:
            out.append(f"answer recorded {receipt.get('answer')!r}, the facts give "
                       f"{decision.answer if decision else 'no answer'!r}")
        quotes = [] if decision is None or decision.answer == NOT_SHOWN else [
            {"arm": FACTS, "turn": turn_id(decision.turn), "quote": decision.quote}]
        if receipt.get("quotes") != quotes:
            out.append("the deciding quotes differ from the receipt's")
    elif decision is not None:
        out.append("the facts settle this claim now, but the receipt says the models decided")
    return out


