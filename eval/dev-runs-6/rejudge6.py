#!/usr/bin/env python3
"""Run 5's sealed answers (set 5's test half, now development data) judged again the way run
6 will judge: the same replies under check c4, with the facts' records beside them, and
scored with every arm (no model asked).

    python3 eval/dev-runs-6/rejudge6.py [ANSWERS ITEMS] [--table t2 --check c5] [--json OUT]

Prints the arms' figures; a development tool for choosing run 6's candidates, never a
sealed result. By default it judges as run 6 does (table t1, check c4: run 6's design quotes
these figures); `--table` and `--check` judge the same replies by a later table and check,
and `--json` writes the whole score.
"""

import argparse

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from receipt_pair import get_reader, read_answers, read_items, unpack_replies  # noqa: E402
from receipt_pair.audit.score import score  # noqa: E402
from receipt_pair.facts import table  # noqa: E402
from receipt_pair.facts.frame import read_frame  # noqa: E402
from receipt_pair.pair.claim import facts_record  # noqa: E402

RUN_6 = "t1"  # the facts' table run 6 judges with (its design names it)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("answers", nargs="?", default=os.path.join(
        ROOT, "receipts/run-5-real/answers-f2-real-test.jsonl"))
    parser.add_argument("items", nargs="?", default=os.path.join(
        ROOT, "receipts/run-5-real/items-real-test.jsonl"))
    parser.add_argument("--table", default=RUN_6)
    parser.add_argument("--check", default="c4")
    parser.add_argument("--json", help="write the whole score here")
    args = parser.parse_args(argv)
    answers, items_path = args.answers, args.items
    items, items_sha256 = read_items(items_path)
    by_id = {item.id: item for item in items}
    header, rows, _ = read_answers(answers)
    reader = get_reader(header["reader"], replay=True).judged_by(args.check, header.get("menu"))
    shown, judged = {}, []
    for row in rows:
        item = by_id[row["id"]]
        if item.id not in shown:
            shown[item.id] = reader.render(list(item.turns), header["max_turns"], item.claim)
        if not row.get("error"):
            checked = reader.judge(unpack_replies(reader, row["reply"]), shown[item.id])
            row = dict(row, **{k: getattr(checked, k) for k in ("verdict", "turn", "quote",
                                                                "reason", "answer", "code")})
        judged.append(row)
    facts = {}
    for item in items:
        record = facts_record(table.decide(item.claim, list(item.turns), version=args.table),
                              args.table)
        facts[item.id] = dict(record, kinds=list(read_frame(item.claim).kinds))
    result = score(items, items_sha256, header, judged, facts)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2)
            handle.write("\n")
    print(f"items {len(items)}; facts decided {result['facts']['decided']} "
          f"({result['facts']['right']} rightly)")
    keys = ("right", "true_shown_kept", "false_shown", "false_contradicted",
            "true_contradicted_kept")
    print(f"{'arm':<8}" + "".join(f"{k:>24}" for k in keys))
    for arm, figures in result["arms"].items():
        print(f"{arm:<8}" + "".join(f"{figures[k]['k']:>12} of {figures[k]['n']:<8}"
                                    for k in keys))
    for rule, entry in result["facts"]["by_rule"].items():
        print(f"  {rule}: {entry['right']} of {entry['decided']} right")


if __name__ == "__main__":
    main(sys.argv[1:])


def wrong(argv=()):
    """The items the default answer gets wrong, with what decided them."""
    answers = os.path.join(ROOT, "receipts/run-5-real/answers-f2-real-test.jsonl")
    items, _ = read_items(os.path.join(ROOT, "receipts/run-5-real/items-real-test.jsonl"))
    header, rows, _ = read_answers(answers)
    reader = get_reader(header["reader"], replay=True).judged_by("c4", header.get("menu"))
    from receipt_pair.check.rules import combine
    for item in items:
        shown = reader.render(list(item.turns), header["max_turns"], item.claim)
        got = {}
        for row in rows:
            if row["id"] == item.id and not row.get("error"):
                got[row["arm"]] = reader.judge(unpack_replies(reader, row["reply"]), shown)
        decision = table.decide(item.claim, list(item.turns), version=RUN_6)
        answer = decision.answer if decision else combine(got["A"], got["B"], "r2").answer
        truth = item.truth.replace("_", " ")
        if answer != truth:
            print(f"{item.id} truth={truth} got={answer} by={'facts ' + decision.rule if decision else 'models'}"
                  f" | {item.claim[:90]}")
            for arm in ("A", "B"):
                c = got[arm]
                print(f"    {arm}: {c.answer} ({c.code}) {c.turn} {c.quote[:110]!r}")
