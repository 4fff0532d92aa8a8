"""The builder of a real set's items from its folder, from set 17 on: set 16's
(eval/set_builder.py, which set 16's seal holds as it was) with what a review of it found.
It refuses what set 16's builder let through: a pool or labels file named but missing (it
skipped it, so an item could fall out of the set unseen), a label or an adjudicated truth
that is not one of the three truths, a pooled item one pass did not label; and it writes
the items file whole or not at all (a file beside it, then renamed), never half. Pools are
named in full (`A`, `A2`), so a second collector of a lane has a pool of its own.

A set's folder holds the collectors' pools (`pool-<letter>.jsonl`), two blind labelling
passes (`labels/labels-1-<group>.jsonl`, `labels/labels-2-<group>.jsonl`, each pool labelled
by one labeller of each pass, neither seeing the other's labels), the adjudication of every
item where they differ (`adjudication.jsonl`) and `used-repos.txt`. The truth is the label
both passes gave, or the adjudicated one. An item whose repository is in used-repos.txt
(compared without case) is left out, and so is any item past the first `per_repository` of
its repository (in pid order): a set that leans on a few repositories measures those. An
exit status written as a string of digits is read as the number it is. Every item is a
test item, shuffled once with random.Random(seed) and numbered r<N>t-001 ... before any
reader answers a question about it.

A set's make_set.py names its number, seed, pools and groups, and calls `main`; the seal
(`1-set-SHA256.txt`) hashes this file beside it. A pool file may be empty (a collector who
found nothing writes one).
"""

import argparse
import collections
import json
import os
import random
import sys

TRUTHS = ("shown", "contradicted", "not_shown")


class SetFolder:
    """One set's folder and what it is built from."""

    def __init__(self, here, number, seed, pools, groups, per_repository):
        self.here, self.number, self.seed = here, number, seed
        self.pools = tuple(f"pool-{name}.jsonl" for name in pools)
        self.first = tuple(f"labels/labels-1-{group}.jsonl" for group in groups)
        self.second = tuple(f"labels/labels-2-{group}.jsonl" for group in groups)
        self.per_repository = per_repository
        self.items_file = f"real{number}-test.jsonl"

    def read_jsonl(self, name):
        with open(os.path.join(self.here, name), encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]

    def by_pid(self, *names):
        """The rows of the files `names`, by pid; a file named but missing, or a pid twice,
        is an error."""
        rows = {}
        for name in names:
            if not os.path.exists(os.path.join(self.here, name)):
                raise ValueError(f"{name}: named but missing")
            for row in self.read_jsonl(name):
                if row["pid"] in rows:
                    raise ValueError(f"{name}: {row['pid']} twice")
                rows[row["pid"]] = row
        return rows

    def pooled(self):
        """The pools' items of repositories no earlier set used, at most `per_repository`
        of each, by pid."""
        with open(os.path.join(self.here, "used-repos.txt"), encoding="utf-8") as handle:
            used = {line.strip().lower() for line in handle if line.strip()}
        taken = collections.Counter()
        kept = {}
        for pid, item in sorted(self.by_pid(*self.pools).items()):
            repository = item["source"].split("@")[0].strip().lower()
            if repository in used or taken[repository] >= self.per_repository:
                continue
            taken[repository] += 1
            kept[pid] = item
        return kept

    def build_items(self):
        first, second = self.by_pid(*self.first), self.by_pid(*self.second)
        decided = self.by_pid("adjudication.jsonl") \
            if os.path.exists(os.path.join(self.here, "adjudication.jsonl")) else {}
        pooled = self.pooled()
        for pid in pooled:
            for name, labels in (("pass 1", first), ("pass 2", second)):
                if pid not in labels:
                    raise ValueError(f"{pid}: no label of {name}")
                if labels[pid]["label"] not in TRUTHS:
                    raise ValueError(f"{pid}: {name}'s label {labels[pid]['label']!r} is no "
                                     f"truth")
        for pid, row in decided.items():
            if row["truth"] not in TRUTHS:
                raise ValueError(f"{pid}: adjudicated truth {row['truth']!r} is no truth")
        items = [_item(pid, item, first[pid], second[pid], decided.get(pid))
                 for pid, item in pooled.items()]
        items.sort(key=lambda i: i["pid"])
        random.Random(self.seed).shuffle(items)
        return [{"id": f"r{self.number}t-{n:03d}", **item} for n, item in enumerate(items, 1)]


def _turn(turn):
    """A turn as the items file holds it: an exit status a collector wrote as a string of
    digits is that number; any other string is an error."""
    status = turn.get("exit_status")
    if isinstance(status, str):
        if not status.isdigit():
            raise ValueError(f"exit_status {status!r} is no number")
        turn = dict(turn, exit_status=int(status))
    return turn


def _item(pid, item, one, two, decided):
    """An item with its truth: both passes' label, or the adjudicated one."""
    if one["label"] == two["label"]:
        truth, why, adjudicated = one["label"], one["why"], False
    else:
        if decided is None:
            raise ValueError(f"{pid}: the passes differ and no adjudication says which")
        truth, why, adjudicated = decided["truth"], decided["why"], True
    deciding = next((l for l in (one, two) if l["label"] == truth and l["line"]), None)
    if adjudicated and decided.get("line"):
        deciding = decided
    return {
        "pid": pid, "claim": item["claim"], "turns": [_turn(t) for t in item["turns"]],
        "truth": truth, "trap": f"real:{item['agent']}", "why": why,
        "turn": deciding and deciding["turn"], "line": deciding["line"] if deciding else "",
        "labels": [one["label"], two["label"]], "adjudicated": adjudicated,
        "edited_after": bool(one.get("edited_after") or two.get("edited_after")),
        "sure": bool(one.get("sure") and two.get("sure")),
        "claim_source": item["claim_source"], "agent": item["agent"],
        "source": item["source"], "source_turns": item["source_turns"],
    }


def main(folder, argv=None):
    """Writes the set's items file, or with --check compares it with what the inputs give."""
    parser = argparse.ArgumentParser(description=f"Build set {folder.number}'s items.")
    parser.add_argument("--check", action="store_true", help="compare with the file written")
    args = parser.parse_args(argv)
    items = folder.build_items()
    text = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
    path = os.path.join(folder.here, folder.items_file)
    if args.check:
        with open(path, encoding="utf-8") as handle:
            if handle.read() != text:
                print(f"{folder.items_file}: differs from what the inputs give", file=sys.stderr)
                return 1
    else:
        with open(path + ".new", "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(path + ".new", path)
    counts = collections.Counter(i["truth"] for i in items)
    print(f"{folder.items_file}: {len(items)} items, "
          + ", ".join(f"{t} {counts[t]}" for t in TRUTHS))
    return 0
