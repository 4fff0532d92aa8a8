#!/usr/bin/env python3
"""Development figures of one answers file on set 5's dev half (no model is asked).

    python3 eval/dev-runs-5/devscore.py ANSWERS [ITEMS] [--rule r2] [--show]

Prints R2's counts (and every arm's right), then what a Stop hook would do with the pair's
answers (a `contradicted` block on a claim that is not contradicted is a false accusation;
a `not shown` block, under block-once, on a claim the log shows asks for evidence it
already has), and how often model B repeats model A (the same verdict, the same line, an
accusation of A's confirmed, A's error repeated).
"""

import argparse
import collections
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "scripts")]
from pair_figures import pair_figures  # noqa: E402
from receipt_pair import read_answers, read_items, score  # noqa: E402


def pct(k, n):
    return f"{k}/{n} ({100 * k / n:.0f}%)" if n else f"{k}/0"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("answers")
    parser.add_argument("items", nargs="?",
                        default=os.path.join(ROOT, "eval/real-5/real5-dev.jsonl"))
    parser.add_argument("--show", action="store_true", help="list the pair's wrong answers")
    args = parser.parse_args()
    items, sha = read_items(args.items)
    header, rows, _ = read_answers(args.answers)
    scored = score(items, sha, header, rows)
    arms = scored["arms"]
    r2 = arms["R2"]
    print(f"{os.path.basename(args.answers)}: {len(items)} items")
    print("R2: right " + pct(r2["right"]["k"], r2["right"]["n"])
          + ", true shown kept " + pct(r2["true_shown_kept"]["k"], r2["true_shown_kept"]["n"])
          + ", false shown " + pct(r2["false_shown"]["k"], r2["false_shown"]["n"])
          + ", false contradicted " + pct(r2["false_contradicted"]["k"],
                                          r2["false_contradicted"]["n"])
          + ", contradicted caught " + pct(r2["true_contradicted_kept"]["k"],
                                            r2["true_contradicted_kept"]["n"]))
    print("right by arm: " + ", ".join(f"{a} {arms[a]['right']['k']}" for a in arms))
    counts, wrong = pair_figures(items, rows)
    print("hook: false accusations " + pct(counts["false accusation blocks"],
                                           counts["claims not contradicted"])
          + ", asks for evidence the log holds " + pct(counts["not-shown blocks on a shown claim"],
                                                        counts["claims shown"]))
    print("B and A: same verdict " + pct(counts["same verdict"], counts["items"])
          + ", same line " + str(counts["same line"])
          + ", B confirms A's accusations " + pct(counts["B confirms A's accusation"],
                                                  counts["A accuses"])
          + ", B repeats A's error " + pct(counts["B repeats A's error"],
                                           counts["A wrong (shown/contradicted)"]))
    codes = collections.Counter((r["arm"], r["code"]) for r in rows)
    print("codes: " + ", ".join(f"{arm}:{code} {n}" for (arm, code), n in sorted(codes.items())))
    if args.show:
        for item_id, t, answer, a, b, item in wrong:
            print(f"\n{item_id} truth={t} pair={answer} | {item.claim[:100]}")
            for r in (a, b):
                print(f"  {r['arm']}: {r['verdict']} -> {r['answer']} ({r['code']}) "
                      f"{r['turn']} {r['quote'][:90]!r} | {r['reason'][:80]}")


if __name__ == "__main__":
    main()
