import sys, json
import os
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
os.chdir(ROOT)
from receipt_pair.logs.items import read_items
from receipt_pair.store.records import read_answers
from receipt_pair.audit.score import score
items, sha = read_items("eval/dev-items.jsonl")
for v in sys.argv[1:]:
    h, rows, _ = read_answers(f"eval/dev-runs/{v}-qwen15-qwen05.jsonl")
    s = score(items, sha, h, rows)
    a = s["arms"]
    out = []
    for arm in ("A", "B", "R1", "R2"):
        m = a[arm]
        out.append(f"{arm}: right {m['right']['k']:2} FS {m['false_shown']['k']:2} TSK {m['true_shown_kept']['k']:2} CNS {m['correct_not_shown']['k']:2} FC {m['false_contradicted']['k']:2} TCK {m['true_contradicted_kept']['k']:2}")
    print(v, " | ".join(out))
    print("   codes A", s["codes"]["A"]); print("   codes B", s["codes"]["B"])
