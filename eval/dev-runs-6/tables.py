#!/usr/bin/env python3
"""Two versions of the facts' table on every development set: what each decides, how
often rightly, its false receipts and false contradictions, and every claim they decide
differently. A development tool (sets 5 to 19 are development data since their runs were
sealed), never a sealed result.

    python3 eval/dev-runs-6/tables.py [OLD NEW] [--before-run-7 | ... | --before-run-19]

`--before-run-N` leaves out sets N to 19, the sets run N and later measured: the sets as
they were when the table run N was designed with was made (`--before-run-7` for t4,
`--before-run-8` for t5 and t6, ... `--before-run-17` for t16, `--before-run-18` for t18,
`--before-run-19` for t20).
"""

import collections
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from receipt_pair import read_items  # noqa: E402
from receipt_pair.facts import table  # noqa: E402

SETS = ("eval/dev-items.jsonl", "eval/holdout-1.jsonl", "eval/holdout-2.jsonl",
        "eval/dev-3.jsonl", "eval/holdout-3.jsonl", "eval/real-dev.jsonl",
        "eval/real-test.jsonl", "eval/real-5/real5-dev.jsonl", "eval/real-5/real5-test.jsonl",
        "eval/real-6/real6-test.jsonl", "eval/real-7/real7-test.jsonl",
        "eval/real-8/real8-test.jsonl", "eval/real-9/real9-test.jsonl",
        "eval/real-10/real10-test.jsonl", "eval/real-11/real11-test.jsonl",
        "eval/real-12/real12-test.jsonl", "eval/real-13/real13-test.jsonl",
        "eval/real-14/real14-test.jsonl", "eval/real-15/real15-test.jsonl",
        "eval/real-16/real16-test.jsonl", "eval/real-17/real17-test.jsonl",
        "eval/real-18/real18-test.jsonl", "eval/real-19/real19-test.jsonl")


def main(argv):
    cut = {f"--before-run-{run}": 20 - run for run in range(7, 20)}
    sets = SETS[:len(SETS) - max([cut[a] for a in argv if a in cut] or [0])]
    argv = [a for a in argv if a not in cut]
    old, new = argv[:2] if len(argv) >= 2 else ("t3", "t4")
    totals = collections.Counter()
    for path in sets:
        items, _ = read_items(os.path.join(ROOT, path))
        for item in items:
            truth = item.truth.replace("_", " ")
            found = {v: table.decide(item.claim, list(item.turns), version=v) for v in (old, new)}
            for version, decision in found.items():
                answer = decision.answer if decision else None
                totals[version, "decided"] += answer is not None
                totals[version, "right"] += answer == truth
                totals[version, "false shown"] += answer == "shown" and truth != "shown"
                totals[version, "false contradicted"] += (answer == "contradicted" and
                                                          truth != "contradicted")
            a, b = found[old], found[new]
            if (a and (a.answer, a.rule)) != (b and (b.answer, b.rule)):
                print(f"{item.id:9} {truth:12} {old}={a and a.answer}:{a and a.rule} "
                      f"{new}={b and b.answer}:{b and b.rule} | {item.claim[:80]!r}")
    for version in (old, new):
        print(version, ", ".join(f"{k} {totals[version, k]}" for k in
                                 ("decided", "right", "false shown", "false contradicted")))


if __name__ == "__main__":
    main(sys.argv[1:])
