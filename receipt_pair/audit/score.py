"""Score an answers file against labelled items: every arm, every count, with Wilson intervals.

The denominator is the item set the answers file pinned. An item without a usable answer
(never asked, or its call failed) is counted wrong and listed by id; it is never dropped.
"""

import math
from collections import Counter
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

from ..errors import MismatchError
from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN
from ..check.rules import RULES, SCORED_RULE, combine_answers, held

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from ..logs.items import Item

SCORE_SCHEMA = "receipt-pair/score/1"
Z95 = 1.959963984540054
ARMS = ("A", "B") + tuple(rule.upper() for rule in RULES)  # the models alone, then each rule
MEASURES = ("right", "false_shown", "true_shown_kept", "correct_not_shown",
            "false_contradicted", "true_contradicted_kept")
MEASURE_TEXT = {
    "right": "right",
    "false_shown": "false shown (of items not truly shown)",
    "true_shown_kept": "true shown kept (of items truly shown)",
    "correct_not_shown": "correct not shown (of items truly not shown)",
    "false_contradicted": "false contradicted (of items not truly contradicted)",
    "true_contradicted_kept": "true contradicted kept (of items truly contradicted)",
}
# An item's truth: score refuses items with none (check_pins) before any is looked up.
TRUTH_ANSWER: Dict[Optional[str], str] = {"shown": SHOWN, "contradicted": CONTRADICTED,
                                          "not_shown": NOT_SHOWN}
_VERDICT_ANSWER = {"shown": SHOWN, "contradicted": CONTRADICTED, "not_shown": NOT_SHOWN}


def wilson(k, n, z=Z95):
    """The Wilson score interval for k successes in n trials, as (low, high)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(k, n):
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": (k / n) if n else 0.0,
            "low": round(low, 4), "high": round(high, 4)}


def usable_rows(rows):
    """(id, arm) -> the first row with no error; (id, arm) -> error rows' messages."""
    usable, failed = {}, {}
    for row in rows:
        key = (row["id"], row["arm"])
        if row.get("error"):
            failed.setdefault(key, []).append(row["error"])
        elif key not in usable:
            usable[key] = row
    return usable, failed


def arm_answers(items, usable):
    """arm -> {item id: answer, or None when there is no usable answer}."""
    answers = {arm: {} for arm in ARMS}
    for item in items:
        a = usable.get((item.id, "A"))
        b = usable.get((item.id, "B"))
        answers["A"][item.id] = a["answer"] if a else None
        answers["B"][item.id] = b["answer"] if b else None
        for rule in RULES:
            pair = combine_answers(a["answer"], b["answer"], rule) if a and b else None
            answers[rule.upper()][item.id] = pair
    return answers


def count_measures(items, answers):
    """The six measures for one arm's answers over `items`."""
    counts = {m: [0, 0] for m in MEASURES}
    for item in items:
        truth = TRUTH_ANSWER[item.truth]
        got = answers[item.id]
        counts["right"][0] += got == truth
        counts["right"][1] += 1
        if truth != SHOWN:
            counts["false_shown"][0] += got == SHOWN
            counts["false_shown"][1] += 1
        else:
            counts["true_shown_kept"][0] += got == SHOWN
            counts["true_shown_kept"][1] += 1
        if truth == NOT_SHOWN:
            counts["correct_not_shown"][0] += got == NOT_SHOWN
            counts["correct_not_shown"][1] += 1
        if truth != CONTRADICTED:
            counts["false_contradicted"][0] += got == CONTRADICTED
            counts["false_contradicted"][1] += 1
        else:
            counts["true_contradicted_kept"][0] += got == CONTRADICTED
            counts["true_contradicted_kept"][1] += 1
    return {m: measure(k, n) for m, (k, n) in counts.items()}


def check_pins(items, items_sha256, header, rows):
    """Refuse answers that were not made for exactly these items."""
    if header is None:
        raise MismatchError("the answers file has no items record; it was not written by batch")
    if header.get("items_sha256") != items_sha256:
        raise MismatchError(
            f"the answers file pinned another items file (sha256 "
            f"{str(header.get('items_sha256'))[:12]}..., this one is {items_sha256[:12]}...)")
    if header.get("items_count") != len(items):
        raise MismatchError(f"the answers file pinned {header.get('items_count')} items; "
                            f"the items file has {len(items)}")
    ids = {item.id for item in items}
    strays = sorted({row["id"] for row in rows} - ids)
    if strays:
        raise MismatchError(f"the answers file has answers for ids not in the items file: "
                            f"{', '.join(strays[:5])}")
    unlabelled = [item.id for item in items if item.truth is None]
    if unlabelled:
        raise MismatchError(f"score needs labelled items; no 'truth' for: "
                            f"{', '.join(unlabelled[:5])}")


# The arms of an answers file that has the facts' records too: the facts alone (their
# decision, else not shown), the default answer (the facts, else the default pair rule),
# and the facts with each other arm of the models in their place (the candidates a sealed
# run chooses among).
ANSWER = "answer"
# And the facts with the default rule or model A in their place where only the facts may
# contradict: a model's `contradicted` counts as `not shown` ("nc"), as the hook's
# `--contradicted block-facts` holds only the facts' contradictions against an agent.
NO_MODEL_CONTRADICTIONS = (SCORED_RULE.upper(), "A")
FACT_ARMS = ("facts", ANSWER) + tuple(f"F+{arm}" for arm in ARMS if arm != SCORED_RULE.upper()) \
    + tuple(f"F+{arm}nc" for arm in NO_MODEL_CONTRADICTIONS)


def facts_arms(items, answers, facts):
    """The facts' arms: arm -> {item id: answer}, or {} without facts records."""
    if not facts:
        return {}
    decided = {item.id: (facts.get(item.id) or {}).get("answer") for item in items}
    out = {"facts": {i: a or NOT_SHOWN for i, a in decided.items()},
           ANSWER: {i: a or answers[SCORED_RULE.upper()][i] for i, a in decided.items()}}
    for arm in ARMS:
        if arm != SCORED_RULE.upper():
            out[f"F+{arm}"] = {i: a or answers[arm][i] for i, a in decided.items()}
    for arm in NO_MODEL_CONTRADICTIONS:
        out[f"F+{arm}nc"] = {i: a or held(answers[arm][i], "facts")
                             for i, a in decided.items()}
    return out


def facts_share(items, facts):
    """How many claims the facts decided, and how many of them rightly, by kind and rule."""
    by_kind, by_rule = {}, {}
    for item in items:
        record = facts.get(item.id) or {}
        kind = "+".join(record.get("kinds") or []) or "(none)"
        answer = record.get("answer")
        right = answer == TRUTH_ANSWER[item.truth]
        entry = by_kind.setdefault(kind, {"items": 0, "decided": 0, "right": 0})
        entry["items"] += 1
        if answer is not None:
            entry["decided"] += 1
            entry["right"] += right
            rule = by_rule.setdefault(record.get("rule"), {"decided": 0, "right": 0})
            rule["decided"] += 1
            rule["right"] += right
    decided = sum(v["decided"] for v in by_kind.values())
    return {"decided": decided, "right": sum(v["right"] for v in by_kind.values()),
            "by_kind": dict(sorted(by_kind.items())), "by_rule": dict(sorted(by_rule.items()))}


def score(items: Sequence["Item"], items_sha256: str, header: Dict[str, Any],
          rows: List[Dict[str, Any]], facts: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Every count for A, B and each pair rule, and, where the answers file has the facts'
    records, for the facts' arms (the default answer among them); per trap too; plain
    data, ready for JSON."""
    check_pins(items, items_sha256, header, rows)
    usable, failed = usable_rows(rows)
    answers = arm_answers(items, usable)
    answers.update(facts_arms(items, answers, facts or {}))
    result: Dict[str, Any] = {
        "schema": SCORE_SCHEMA,
        "items": len(items),
        "items_sha256": items_sha256,
        "models": header.get("models"),
        "reader": header.get("reader"),
        "truths": dict(Counter(item.truth for item in items)),
        "arms": {arm: count_measures(items, answers[arm]) for arm in answers},
    }
    if facts:
        result["facts"] = facts_share(items, facts)
    wrong = {arm: {item.id for item in items
                   if answers[arm][item.id] != TRUTH_ANSWER[item.truth]} for arm in ("A", "B")}
    both = sorted(wrong["A"] & wrong["B"])
    result["wrong"] = {"A": len(wrong["A"]), "B": len(wrong["B"]), "both": len(both),
                       "both_ids": both}
    traps = sorted({item.trap for item in items if item.trap})
    result["traps"] = {}
    for trap in traps:
        subset = [item for item in items if item.trap == trap]
        result["traps"][trap] = {
            "items": len(subset),
            "arms": {arm: count_measures(subset, answers[arm]) for arm in answers},
        }
    result["check_changed"] = {arm: _check_changed(items, usable, arm) for arm in ("A", "B")}
    result["codes"] = {arm: dict(sorted(Counter(
        usable[(item.id, arm)]["code"] for item in items if (item.id, arm) in usable).items()))
        for arm in ("A", "B")}
    result["no_answer"] = {
        arm: {
            "failed": sorted(item.id for item in items
                             if (item.id, arm) in failed and (item.id, arm) not in usable),
            "missing": sorted(item.id for item in items
                              if (item.id, arm) not in failed and (item.id, arm) not in usable),
        }
        for arm in ("A", "B")
    }
    return result


def _check_changed(items, usable, arm):
    """What the quote check did to this model's verdicts: right ones lost, wrong ones caught."""
    overturned, caught = [], []
    for item in items:
        row = usable.get((item.id, arm))
        if not row:
            continue
        truth = TRUTH_ANSWER[item.truth]
        raw = _VERDICT_ANSWER.get(row.get("verdict"))
        if raw is None or raw == row["answer"]:
            continue
        if raw == truth:
            overturned.append(item.id)
        else:
            caught.append(item.id)
    return {"overturned_right": len(overturned), "caught_wrong": len(caught),
            "overturned_ids": overturned, "caught_ids": caught}


def missing_any(result):
    """True if some item was never asked of some model (an unfinished batch)."""
    return any(v["missing"] for v in result["no_answer"].values())
