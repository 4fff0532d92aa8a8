#!/usr/bin/env python3
"""Build set 5's labelled items and split them into development and test halves.

    python3 eval/real-5/make_sets.py            # writes real5-dev.jsonl, real5-test.jsonl
    python3 eval/real-5/make_sets.py --check    # rebuilds in memory, compares with the files

Inputs (all in this folder): the collectors' pools (pool-A.jsonl, pool-B.jsonl), the two
blind labelling passes (labels/labels-1-*.jsonl, labels/labels-2-*.jsonl: pass 1 and pass
2 never saw each other's labels), and the adjudication of every item where they differ
(adjudication.jsonl). The truth is the label both passes gave, or the adjudicated one.

The split is made once, by a seeded rule, before any reader answers a question about the
items: items cut from the same source file form a group and never straddle the split;
the groups are shuffled with random.Random(SEED) and each is put on the side that keeps
the per-truth counts and the sizes of the two sides most equal (ties to the test side).
"""

import argparse
import collections
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261204
TRUTHS = ("shown", "contradicted", "not_shown")


def read_jsonl(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def by_pid(*names):
    return {row["pid"]: row for name in names for row in read_jsonl(name)}


def build_items():
    pool = by_pid("pool-A.jsonl", "pool-B.jsonl")
    first = by_pid("labels/labels-1-A.jsonl", "labels/labels-1-B.jsonl")
    second = by_pid("labels/labels-2-A.jsonl", "labels/labels-2-B.jsonl")
    decided = by_pid("adjudication.jsonl")
    items = []
    for pid, item in pool.items():
        one, two = first[pid], second[pid]
        if one["label"] == two["label"]:
            truth, why, adjudicated = one["label"], one["why"], False
        else:
            truth, why, adjudicated = decided[pid]["truth"], decided[pid]["why"], True
        deciding = next((l for l in (one, two) if l["label"] == truth and l["line"]), None)
        items.append({
            "pid": pid, "claim": item["claim"], "turns": item["turns"], "truth": truth,
            "trap": f"real:{item['agent']}", "why": why,
            "turn": deciding and deciding["turn"], "line": deciding["line"] if deciding else "",
            "labels": [one["label"], two["label"]], "adjudicated": adjudicated,
            "edited_after": bool(one.get("edited_after") or two.get("edited_after")),
            "sure": bool(one.get("sure") and two.get("sure")),
            "claim_source": item["claim_source"], "source": item["source"],
            "source_turns": item["source_turns"],
        })
    return items


def split(items):
    groups = collections.defaultdict(list)
    for item in items:
        groups[item["source"]].append(item)
    order = sorted(groups)
    random.Random(SEED).shuffle(order)
    sides = {"test": [], "dev": []}

    def imbalance(side, group):
        trial = {s: list(v) for s, v in sides.items()}
        trial[side] += group
        counts = {s: collections.Counter(i["truth"] for i in v) for s, v in trial.items()}
        return (sum(abs(counts["test"][t] - counts["dev"][t]) for t in TRUTHS)
                + abs(len(trial["test"]) - len(trial["dev"])))

    for source in order:
        group = groups[source]
        side = min(("test", "dev"), key=lambda s: imbalance(s, group))
        sides[side] += group
    out = {}
    for side, chosen in sides.items():
        chosen = sorted(chosen, key=lambda i: i["pid"])
        random.Random(SEED + len(side)).shuffle(chosen)
        prefix = "r5t" if side == "test" else "r5d"
        out[side] = [{"id": f"{prefix}-{n:03d}", **item} for n, item in enumerate(chosen, 1)]
    return out


def render(items):
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files written")
    args = parser.parse_args(argv)
    sets = split(build_items())
    names = {"dev": "real5-dev.jsonl", "test": "real5-test.jsonl"}
    for side, name in names.items():
        path = os.path.join(HERE, name)
        text = render(sets[side])
        if args.check:
            with open(path, encoding="utf-8") as handle:
                if handle.read() != text:
                    print(f"{name}: differs from what the inputs give", file=sys.stderr)
                    return 1
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        counts = collections.Counter(i["truth"] for i in sets[side])
        print(f"{name}: {len(sets[side])} items, "
              + ", ".join(f"{t} {counts[t]}" for t in TRUTHS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
