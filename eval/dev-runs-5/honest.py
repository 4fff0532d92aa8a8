#!/usr/bin/env python3
"""Plain code on real dev items, no model: what the quote check does with honest quotes and
with every other line.

    python3 eval/dev-runs-5/honest.py [--check c2|c3] [--items eval/real-5/real5-dev.jsonl]

- honest: for each item labelled shown or contradicted, a reply citing the labelled
  deciding line with the labelled verdict; the check should accept it (a refusal is an
  honest answer taken away).
- exposure: for each item whose truth is not shown, a `shown` reply citing each output
  line in turn; a line the check accepts is one a pair of models could turn into a false
  receipt. Likewise `contradicted` replies on items not contradicted.
"""

import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from receipt_pair.check.quote import check_reply  # noqa: E402
from receipt_pair.readers import VOCABULARIES  # noqa: E402
from receipt_pair.check.render import Shown, render_turns  # noqa: E402
from receipt_pair.turn import turn_from_json  # noqa: E402


def reply(verdict, turn, quote):
    return json.dumps({"verdict": verdict, "turn": turn, "quote": quote, "reason": "dev"})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", default="c3")
    parser.add_argument("--items", default=os.path.join(ROOT, "eval/real-5/real5-dev.jsonl"))
    parser.add_argument("--show", action="store_true", help="print each refusal and exposure")
    args = parser.parse_args()
    items = [json.loads(l) for l in open(args.items)]
    honest, refused = collections.Counter(), collections.Counter()
    exposure = collections.Counter()
    for item in items:
        turns = [turn_from_json(t, item["id"]) for t in item["turns"]]
        shown = Shown(render_turns(turns, len(turns), 10**6, 10**7), item["claim"], turns)
        verdict = {"shown": "shown", "contradicted": "contradicted"}.get(item["truth"])
        if verdict and item.get("line"):
            checked = check_reply(reply(verdict, item["turn"], item["line"]), shown, args.check,
                                  VOCABULARIES[args.check])
            honest[verdict] += 1
            if checked.code != "ok":
                refused[(verdict, checked.code)] += 1
                if args.show:
                    print(f"REFUSED {item['id']} {verdict} {checked.code}: {item['claim'][:80]!r}"
                          f" <- {item['line'][:100]!r}")
        for wrong in ("shown", "contradicted"):
            if item["truth"] == wrong:
                continue
            passed = []
            for t in shown:
                for line in {l.strip() for l in t.output.split("\n") if l.strip()}:
                    if check_reply(reply(wrong, t.id, line), shown, args.check,
                                  VOCABULARIES[args.check]).code == "ok":
                        passed.append((t.id, line))
            exposure[(wrong, "items")] += 1
            exposure[(wrong, "items with a line that passes")] += bool(passed)
            exposure[(wrong, "lines that pass")] += len(passed)
            if args.show and passed and wrong == "shown":
                print(f"EXPOSED {item['id']} ({item['truth']}) {item['claim'][:70]!r}: "
                      + "; ".join(repr(l[:60]) for _, l in passed[:4]))
    print(f"check {args.check}, {len(items)} items")
    for verdict in ("shown", "contradicted"):
        kept = honest[verdict] - sum(v for (w, _), v in refused.items() if w == verdict)
        print(f"honest {verdict}: {kept} of {honest[verdict]} accepted; refused by "
              + (", ".join(f"{c} {v}" for (w, c), v in sorted(refused.items()) if w == verdict)
                 or "nothing"))
    for key, value in sorted(exposure.items()):
        print(f"exposure {key[0]}: {key[1]}: {value}")


if __name__ == "__main__":
    main()
