#!/usr/bin/env python3
"""Build set 15's labelled items: the test half of sealed run 15, every one of them.

    python3 eval/real-15/make_set.py            # writes real15-test.jsonl
    python3 eval/real-15/make_set.py --check    # rebuilds in memory, compares with the file

Inputs (all in this folder): the collectors' pools (pool-A.jsonl GitHub Actions logs saved
as ci_log.txt and the like, pool-B.jsonl other GitHub Actions job logs, pool-C.jsonl act,
GitLab CI and other CI logs, pool-D.jsonl Jenkins and other CI consoles, pool-E.jsonl
SpecStory exports of IDE agents, pool-F.jsonl Claude Code and Cline sessions, pool-G.jsonl
terminal agents, pool-H.jsonl (empty: benchmark runs whose repository the look-ups could not
name); the top-ups pool-I.jsonl (GitHub Actions logs), pool-J.jsonl (CI logs under other
names) and pool-K.jsonl (agent sessions, contradicted claims first)), the two blind
labelling passes (labels/labels-1-*.jsonl and labels/labels-2-*.jsonl, each pool labelled
by one labeller of each pass, and no labeller saw the other pass's labels), and the
adjudication of every item where they differ (adjudication.jsonl). The truth is the label
both passes gave, or the adjudicated one. An item whose repository is in used-repos.txt
(compared without case) is left out. An exit status written as a string of digits is read
as the number it is. Sets 5 to 14 are development data once run 14 is sealed (issue 31),
so there is no split: every item is a test item, shuffled once with random.Random(SEED)
and numbered r15t-001 ... before any reader answers a question about it. This builder is a
copy of set 14's with set 15's inputs: each set's builder stays as it was when its set was
sealed.
"""

import argparse
import collections
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261215
TRUTHS = ("shown", "contradicted", "not_shown")
POOLS = tuple(f"pool-{letter}.jsonl" for letter in "ABCDEFGHIJK")
GROUPS = ("S1", "S2", "S3", "S4", "S5")
FIRST = tuple(f"labels/labels-1-{group}.jsonl" for group in GROUPS)
SECOND = tuple(f"labels/labels-2-{group}.jsonl" for group in GROUPS)


def read_jsonl(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def by_pid(*names):
    return {row["pid"]: row for name in names if os.path.exists(os.path.join(HERE, name))
            for row in read_jsonl(name)}


def _turn(turn):
    """A turn as the items file holds it: an exit status a collector wrote as a string of
    digits is that number; any other string is an error."""
    status = turn.get("exit_status")
    if isinstance(status, str):
        if not status.isdigit():
            raise ValueError(f"exit_status {status!r} is no number")
        turn = dict(turn, exit_status=int(status))
    return turn


def build_items():
    with open(os.path.join(HERE, "used-repos.txt"), encoding="utf-8") as handle:
        used = {line.strip().lower() for line in handle if line.strip()}
    pool = {pid: item for pid, item in by_pid(*POOLS).items()
            if item["source"].split("@")[0].strip().lower() not in used}
    first, second = by_pid(*FIRST), by_pid(*SECOND)
    decided = by_pid("adjudication.jsonl")
    items = []
    for pid, item in pool.items():
        one, two = first[pid], second[pid]
        if one["label"] == two["label"]:
            truth, why, adjudicated = one["label"], one["why"], False
        else:
            truth, why, adjudicated = decided[pid]["truth"], decided[pid]["why"], True
        deciding = next((l for l in (one, two) if l["label"] == truth and l["line"]), None)
        if adjudicated and decided[pid].get("line"):
            deciding = decided[pid]
        items.append({
            "pid": pid, "claim": item["claim"], "turns": [_turn(t) for t in item["turns"]],
            "truth": truth,
            "trap": f"real:{item['agent']}", "why": why,
            "turn": deciding and deciding["turn"], "line": deciding["line"] if deciding else "",
            "labels": [one["label"], two["label"]], "adjudicated": adjudicated,
            "edited_after": bool(one.get("edited_after") or two.get("edited_after")),
            "sure": bool(one.get("sure") and two.get("sure")),
            "claim_source": item["claim_source"], "agent": item["agent"],
            "source": item["source"], "source_turns": item["source_turns"],
        })
    items.sort(key=lambda i: i["pid"])
    random.Random(SEED).shuffle(items)
    return [{"id": f"r15t-{n:03d}", **item} for n, item in enumerate(items, 1)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the file written")
    args = parser.parse_args(argv)
    items = build_items()
    text = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
    path = os.path.join(HERE, "real15-test.jsonl")
    if args.check:
        with open(path, encoding="utf-8") as handle:
            if handle.read() != text:
                print("real15-test.jsonl: differs from what the inputs give", file=sys.stderr)
                return 1
    else:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    counts = collections.Counter(i["truth"] for i in items)
    print(f"real15-test.jsonl: {len(items)} items, "
          + ", ".join(f"{t} {counts[t]}" for t in TRUTHS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
