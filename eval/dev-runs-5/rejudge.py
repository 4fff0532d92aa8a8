#!/usr/bin/env python3
"""Judge the replies of an answers file again with the quote check as it is now (no model).

    python3 eval/dev-runs-5/rejudge.py ANSWERS OUT [ITEMS]

Every saved reply is checked again against its item's turns as the reader shows them today
(the same reader, check and menu versions the file's items record names, except that the
check is the current one); OUT is a copy of ANSWERS whose rows carry the new verdicts and
codes, for devscore.py. A development tool: while the check is tuned on dev items, it shows
what a change of the check alone does to answers already asked.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from receipt_pair import (get_reader, read_answers, read_items, request_digest,  # noqa: E402
                          unpack_replies)
from receipt_pair.server.servers import get_kind  # noqa: E402


def main():
    answers, out = sys.argv[1], sys.argv[2]
    items_path = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        ROOT, "eval/real-5/real5-dev.jsonl")
    items, _ = read_items(items_path)
    by_id = {item.id: item for item in items}
    header, rows, _ = read_answers(answers)
    reader = get_reader(header["reader"], replay=True).judged_by("c3", header.get("menu"))
    shown, moved = {}, []
    lines = [json.dumps(header)]
    for row in sorted(rows, key=lambda r: r["_line"]):
        item = by_id[row["id"]]
        if item.id not in shown:
            shown[item.id] = reader.render(list(item.turns), header["max_turns"], item.claim)
        if not row.get("error") and not reader.partner:
            # The same request today, or the labels may name other lines than were shown.
            bodies = reader.bodies(item.claim, shown[item.id], row["model"], row["extra"],
                                   row["schema_sent"], get_kind(row["server"]))
            if request_digest(bodies) != row["request_sha256"]:
                moved.append(f"{item.id}/{row['arm']}")
        if not row.get("error"):
            checked = reader.judge(unpack_replies(reader, row["reply"]), shown[item.id])
            row = dict(row, **{k: getattr(checked, k) for k in ("verdict", "turn", "quote",
                                                                "reason", "answer", "code")})
        row.pop("_line", None)
        lines.append(json.dumps(row, ensure_ascii=False))
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    if moved:
        print(f"rejudge: {len(moved)} request(s) differ from what was asked (the menu moved): "
              + ", ".join(moved[:10]), file=sys.stderr)


if __name__ == "__main__":
    main()
