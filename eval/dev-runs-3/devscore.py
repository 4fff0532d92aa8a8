"""Dev counts for eval/dev-runs-3: `python3 eval/dev-runs-3/devscore.py e1:dev-3 e1:real-dev:0.4`
(READER:SET[:MIN_CONFIDENCE]); each answer is re-derived with the current quote check."""
import sys, json, os, statistics
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from receipt_pair.logs.items import read_items
from receipt_pair.store.records import read_answers
from receipt_pair.readers import get_reader, unpack_replies
from receipt_pair.audit.score import score
from receipt_pair.answers import CheckedAnswer, CHECKED_KEYS
def rederive(reader, items, rows, min_conf=None):
    by = {i.id: i for i in items}
    out = []
    partners = {}
    for r in sorted(rows, key=lambda r: r["arm"] != "A"):
        if r.get("error"): out.append(r); continue
        it = by[r["id"]]
        shown = reader.render(list(it.turns), 6, it.claim)
        conf = r.get("confidence")
        c = reader.judge(unpack_replies(reader, r["reply"]), shown, conf)
        if min_conf and c.code == "ok" and isinstance(conf, float) and conf < min_conf:
            c = CheckedAnswer(c.verdict, c.turn, c.quote, c.reason, "not shown", "low_confidence")
        out.append(dict(r, answer=c.answer, code=c.code))
    return out
def line(name, s):
    a = s["arms"]
    def f(arm, m): return f"{a[arm][m]['k']}/{a[arm][m]['n']}"
    return (f"{name:18} A: R {f('A','right')} FS {f('A','false_shown')} TSK {f('A','true_shown_kept')} FC {f('A','false_contradicted')} TCK {f('A','true_contradicted_kept')} | "
            f"B: R {f('B','right')} FS {f('B','false_shown')} TSK {f('B','true_shown_kept')} FC {f('B','false_contradicted')} | "
            f"R2: R {f('R2','right')} FS {f('R2','false_shown')} TSK {f('R2','true_shown_kept')} FC {f('R2','false_contradicted')} TCK {f('R2','true_contradicted_kept')}")
for spec in sys.argv[1:]:
    reader_v, setname = spec.split(":")[:2]
    minc = float(spec.split(":")[2]) if spec.count(":") == 2 else None
    path = f"eval/dev-runs-3/{reader_v}-{setname}.jsonl"
    if not os.path.exists(path): continue
    items, sha = read_items(f"eval/{setname}.jsonl")
    header, rows, _ = read_answers(path)
    done = {(r["id"], r["arm"]) for r in rows if not r.get("error")}
    if len(done) < 2 * len(items):
        print(f"{reader_v}-{setname}: incomplete {len(done)}/{2*len(items)} (missing counted wrong)")
    reader = get_reader(reader_v)
    rows2 = rederive(reader, items, rows, minc)
    s = score(items, sha, header, rows2)
    toks = [r["usage"].get("prompt_tokens", 0) for r in rows if r["arm"] == "A" and not r.get("error")]
    secs = [r["wall_s"] for r in rows if r["arm"] == "A" and not r.get("error")]
    print(line(f"{reader_v}{'@'+str(minc) if minc else ''}-{setname}", s), f"| A tok {statistics.median(toks):.0f} s {statistics.median(secs):.1f}")
    print("   codes A", s["codes"]["A"]); print("   codes B", s["codes"]["B"])
