#!/usr/bin/env python3
"""Does asking a stop's claims together change answers for the worse? (issue 25)

    python3 eval/dev-runs-5/stopgroups.py OUT.jsonl [--items FILE] [--summary]

Set 5's dev half has logs with several claims (the same turns, a claim each). For each such
log, the claims are asked as a Stop hook asks them (`check_claims`: one menu picked for all
the claims, the prompt cache on) and one by one as `check` and `batch` ask them (a menu per
claim, no cache), with the default reader and the models of $RECEIPT_PAIR_MODEL_A/B on the
server of $RECEIPT_PAIR_BASE_URL. A line per claim goes to OUT (a rerun skips the claims
already there); `--summary` prints R2's counts of both ways against the truths, and where
they part. Development figures: the test half is not read.
"""

import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from receipt_pair import Settings  # noqa: E402
from receipt_pair.pair.claim import check_claims  # noqa: E402

WAYS = ("together", "alone")


def groups(path):
    """[(turns, [item...])] for the logs that carry more than one claim, in file order."""
    by_log = collections.OrderedDict()
    with open(path) as handle:
        for line in handle:
            item = json.loads(line)
            by_log.setdefault(json.dumps(item["turns"], sort_keys=True), []).append(item)
    return [(items[0]["turns"], items) for items in by_log.values() if len(items) > 1]


def outcome(checked):
    if not checked.result:
        return {"answer": None, "error": checked.error}
    return {"answer": checked.result.answer,
            "models": [{"arm": m.arm, "verdict": m.checked.verdict, "answer": m.checked.answer,
                        "quote": m.checked.quote, "code": m.checked.code, "error": m.error}
                       for m in checked.result.models]}


def ask(out_path, items_path):
    done = set()
    if os.path.exists(out_path):
        with open(out_path) as handle:
            done = {json.loads(line)["id"] for line in handle if line.strip()}
    settings = Settings.from_environment()
    for turns, items in groups(items_path):
        if all(item["id"] in done for item in items):
            continue
        claims = [item["claim"] for item in items]
        together = check_claims(claims, turns, settings, share_prompt=True)
        alone = [check_claims([claim], turns, settings, share_prompt=False)[0]
                 for claim in claims]
        with open(out_path, "a") as handle:
            for item, t, a in zip(items, together, alone):
                handle.write(json.dumps({"id": item["id"], "truth": item["truth"],
                                         "claims_of_log": len(items),
                                         "together": outcome(t), "alone": outcome(a)}) + "\n")
        print(f"{items[0]['id']}..: {len(items)} claims", file=sys.stderr, flush=True)


def counts(rows, way):
    c = collections.Counter()
    for row in rows:
        truth, answer = row["truth"], row[way]["answer"]
        c["right"] += answer == truth.replace("_", " ")
        c["shown"] += truth == "shown"
        c["kept"] += truth == "shown" and answer == "shown"
        c["not shown truth"] += truth != "shown"
        c["false shown"] += truth != "shown" and answer == "shown"
        c["not contradicted"] += truth != "contradicted"
        c["false contradicted"] += truth != "contradicted" and answer == "contradicted"
        c["no answer"] += answer is None
    return c


def summary(out_path):
    with open(out_path) as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    print(f"{len(rows)} claims on logs with several claims")
    for way in WAYS:
        c = counts(rows, way)
        print(f"{way:>8}: right {c['right']}/{len(rows)}, kept {c['kept']}/{c['shown']}, "
              f"false shown {c['false shown']}/{c['not shown truth']}, false contradicted "
              f"{c['false contradicted']}/{c['not contradicted']}, no answer {c['no answer']}")
    differ = [r for r in rows if r["together"]["answer"] != r["alone"]["answer"]]
    print(f"answers that differ: {len(differ)}")
    for row in differ:
        print(f"  {row['id']} truth {row['truth']}: together {row['together']['answer']}, "
              f"alone {row['alone']['answer']}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--items", default=os.path.join(ROOT, "eval/real-5/real5-dev.jsonl"))
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    if not args.summary:
        ask(args.out, args.items)
    summary(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
