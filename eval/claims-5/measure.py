#!/usr/bin/env python3
"""How much of a golden file's claims the plain-code splitter finds, and what it invents.

    python3 eval/claims-5/measure.py eval/claims-5/golden-dev.jsonl
    python3 eval/claims-5/measure.py eval/claims-5/golden-dev.jsonl --misses   # and list them

A found claim matches a golden one when either span holds the other, in place: the golden
claim is a text of the message (RULE.md), so it stands wherever that text occurs, and a
found claim is a span (start, end) of the same message. Both are compared without the
markdown marks at their ends (`, *, _), which RULE.md leaves out of a claim and the
splitter keeps on a code span's closing backtick ("Added `a.py`").

Recall counts the golden claims matched by some found claim; a found claim matched by no
golden claim is listed, since the splitter must invent none. A found claim that holds two
or more golden claims is counted too: the measure lets it match them all, and a splitter
that cut too little would hide behind that.
"""

import argparse
import collections
import json
import os
import sys

MARKS = "`*_ "
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from receipt_pair.hooks.claims import split_claims  # noqa: E402


def read_golden(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def places(message, text):
    """Every (start, end) where `text` stands in `message`."""
    found, start = [], message.find(text)
    while start >= 0 and text:
        found.append((start, start + len(text)))
        start = message.find(text, start + 1)
    return found


def core(message, span):
    """The span without the markdown marks and spaces at its ends."""
    start, end = span
    while start < end and message[start] in MARKS:
        start += 1
    while end > start and message[end - 1] in MARKS:
        end -= 1
    return start, end


def nests(a, b):
    return (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1])


def measure(rows):
    """Per message: the golden claims with whether each was matched, and the found claims
    with how many golden claims each matched."""
    results = []
    for row in rows:
        message = row["message"]
        found = [(c.start, c.end, c.text) for c in split_claims(message)]
        golden = []
        held = [0] * len(found)
        for text in row["claims"]:
            matched = False
            for spot in places(message, text):
                for index, claim in enumerate(found):
                    if nests(core(message, spot), core(message, claim[:2])):
                        matched = True
                        held[index] += 1
            golden.append((text, matched))
        results.append({"mid": row["mid"], "agent": row["agent"], "golden": golden,
                        "found": list(zip(found, held))})
    return results


def report(name, results, misses=False):
    lines = []
    n_golden = sum(len(r["golden"]) for r in results)
    n_found = sum(len(r["found"]) for r in results)
    matched = sum(ok for r in results for _, ok in r["golden"])
    stray = [(r["mid"], claim[2]) for r in results for claim, held in r["found"] if not held]
    joined = sum(1 for r in results for _, held in r["found"] if held > 1)
    lines.append(f"{name}: {len(results)} messages, {n_golden} golden claims, "
                 f"{n_found} found claims")
    lines.append(f"recall: {matched}/{n_golden} = {100 * matched / max(n_golden, 1):.1f}%")
    lines.append(f"found claims that hold two or more golden claims: {joined}")
    lines.append(f"found claims matched by no golden claim: {len(stray)}")
    lines.extend(f"  {mid}: {text!r}" for mid, text in stray)
    per_agent = collections.defaultdict(lambda: [0, 0])
    for r in results:
        per_agent[r["agent"]][0] += sum(ok for _, ok in r["golden"])
        per_agent[r["agent"]][1] += len(r["golden"])
    lines.append("recall per agent:")
    for agent, (hit, total) in sorted(per_agent.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"  {agent:<15} {hit:>3}/{total:<3} {100 * hit / max(total, 1):5.1f}%")
    if misses:
        lines.append("golden claims matched by no found claim:")
        lines.extend(f"  {r['mid']}: {text!r}" for r in results for text, ok in r["golden"]
                     if not ok)
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("golden", help="a golden file (golden-dev.jsonl or golden-test.jsonl)")
    parser.add_argument("--misses", action="store_true",
                        help="also list the golden claims no found claim matches")
    args = parser.parse_args(argv)
    results = measure(read_golden(args.golden))
    print(report(os.path.basename(args.golden), results, args.misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
