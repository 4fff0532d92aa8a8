import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from receipt_pair.logs import read_items
from receipt_pair.records import read_answers
from receipt_pair.score import score
items, sha = read_items(os.path.join(HERE, "dev-items.jsonl"))
h1, r1, _ = read_answers(os.path.join(HERE, "v1-qwen15-qwen05.jsonl"))
h2, r2, _ = read_answers(os.path.join(HERE, "v1-smollm-gemma.jsonl"))
per_model = {}
for rows in (r1, r2):
    for r in rows:
        per_model.setdefault(r["model"], []).append(r)
A = "qwen2.5-coder-1.5b"
for B in ("qwen2.5-coder-0.5b", "smollm2-135m", "gemma3-270m"):
    rows = [dict(r, arm="A") for r in per_model[A]] + [dict(r, arm="B") for r in per_model[B]]
    header = dict(h1, models={"A": A, "B": B})
    s = score(items, sha, header, rows)
    a = s["arms"]
    def f(arm, m): return f"{a[arm][m]['k']}/{a[arm][m]['n']}"
    print(f"B={B:20} B right {f('B','right')}  R2 right {f('R2','right')} FS {f('R2','false_shown')} TSK {f('R2','true_shown_kept')} TCK {f('R2','true_contradicted_kept')} CNS {f('R2','correct_not_shown')} | R1 right {f('R1','right')} FS {f('R1','false_shown')} | codes B {s['codes']['B']}")
