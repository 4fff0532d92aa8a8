"""scripts/bench's measures of what the facts decide (issue 31).

- facts_median_s: every claim of the items that the facts decide, asked in process through
  `check_claim` with the server's address pointing at a port nothing listens on, so a claim
  that needed a model would fail at once instead of being timed. One pass fills the caches
  and is not counted; the second is timed, claim by claim.
- facts_stop_vs_peer: one item whose claim the facts decide, written as a Claude Code session
  (eval/run-6/render_cc.py, the same rendering the peer is measured on), its claim the final
  message; the whole `receipt-pair hook claude-code` process from the agent's input to its
  output, against the peer's own Stop hook on the same input, run in turn
  (scripts/bench_timing.py). Each is installed as a user installs it, in a virtual
  environment of its own (the peer's is given; ours is made from this checkout).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "scripts"), os.path.join(ROOT, "eval", "run-6")]

import bench_timing  # noqa: E402
from render_cc import session_lines  # noqa: E402
from receipt_pair import ReceiptPairError, Settings, check_claim, read_items  # noqa: E402

NOWHERE = "http://127.0.0.1:9/v1"  # the discard port: nothing answers a model call


def _decided(items, settings):
    """[(item, seconds)] for each item whose claim the facts decide, timed in process."""
    timed = []
    for item in items:
        started = time.perf_counter()
        try:
            result = check_claim(item.claim, list(item.turns), settings)
        except ReceiptPairError:
            continue  # the models would decide it: no server here
        seconds = time.perf_counter() - started
        if result.decided_by == "facts":
            timed.append((item, seconds, result))
    return timed


def facts_median(paths, model_a, model_b):
    items = [item for path in paths for item in read_items(path)[0]]
    settings = Settings(model_a=model_a, model_b=model_b, base_url=NOWHERE, timeout=2)
    _decided(items, settings)  # the warm-up pass: imports and caches, not counted
    timed = _decided(items, settings)
    seconds = sorted(s for _, s, _ in timed)
    answers = {}
    for _, _, result in timed:
        answers[result.answer] = answers.get(result.answer, 0) + 1
    return {"items": [os.path.relpath(os.path.abspath(p), ROOT) for p in paths],
            "claims": len(items), "decided": len(timed), "answers": answers,
            "median_s": round(statistics.median(seconds), 4) if seconds else None,
            "max_s": round(seconds[-1], 4) if seconds else None}


def facts_stop_vs_peer(items_path, item_id, peer, runs=10):
    items, _ = read_items(items_path)
    item = next((i for i in items if i.id == item_id), None)
    if item is None:
        raise SystemExit(f"bench: no item {item_id} in {items_path}")
    plain = {"claim": item.claim, "turns": [t.to_json() for t in item.turns]}
    with tempfile.TemporaryDirectory() as work:
        project = os.path.join(work, "proj")
        os.makedirs(os.path.join(project, ".git"))  # the peer's project root
        session = os.path.join(work, "session.jsonl")
        with open(session, "w", encoding="utf-8") as handle:
            handle.write("\n".join(session_lines(plain)) + "\n")
        hook_input = os.path.join(work, "input.json")
        with open(hook_input, "w", encoding="utf-8") as handle:
            json.dump({"session_id": "00000000-0000-0000-0000-000000000006",
                       "transcript_path": session, "cwd": project, "hook_event_name": "Stop",
                       "stop_hook_active": False, "last_assistant_message": item.claim}, handle)
        ours = [_installed(work), "hook", "claude-code", "--input",
                hook_input, "--receipts", os.path.join(work, "receipts"), "--base-url",
                NOWHERE, "--not-shown", "allow"]
        theirs = [peer, "hook", "stop", "--data-dir", os.path.join(work, "peer-data")]
        said = subprocess.run(ours, cwd=ROOT, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
        with open(hook_input, "rb") as handle:
            peer_said = subprocess.run(theirs, cwd=project, capture_output=True, stdin=handle)
        decided = _receipts_decided_by(os.path.join(work, "receipts"))
        if decided != {"facts"}:
            raise SystemExit(f"bench: the facts do not decide {item_id}'s claim as the hook "
                             f"reads it (receipts decided by {decided}): {said.stderr.strip()}")
        figures = bench_timing.time_commands(ours, ["sh", "-c", _peer_shell(theirs, hook_input)],
                                             runs=runs, cwd=ROOT)
        outside = bench_timing.outside_timer(
            ours, ["sh", "-c", _peer_shell(theirs, hook_input)], runs=runs)
    return {"item": item.id, "items_file": os.path.relpath(os.path.abspath(items_path), ROOT),
            "claim": item.claim, "ours_said": said.stderr.strip()[:300],
            "peer_said": peer_said.stdout.decode("utf-8", "replace").strip()[:300],
            "timing": figures, "outside": outside,
            "ratio_median": figures["ratio_wall"]["median"]}


def _installed(work):
    """receipt-pair installed as a user installs it, in a virtual environment of its own
    (as the peer is): its bytecode compiled, no other package's start-up in its way."""
    venv = os.path.join(work, "venv")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-deps", ROOT],
                   check=True)
    return os.path.join(venv, "bin", "receipt-pair")


def _peer_shell(theirs, hook_input):
    """The peer's hook reads the agent's input only on standard input."""
    import shlex
    return "exec " + " ".join(shlex.quote(p) for p in theirs) + " < " + shlex.quote(hook_input)


def _receipts_decided_by(folder):
    seen = set()
    for name in os.listdir(folder) if os.path.isdir(folder) else ():
        if name.endswith(".json") and not name.endswith(".state.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                seen.add(json.load(handle).get("decided_by"))
    return seen


def render(figures):
    lines = []
    facts = figures.get("facts")
    if facts:
        lines.append(f"facts_median_s: {facts['median_s']} s per claim in process (max "
                     f"{facts['max_s']} s), {facts['decided']} of {facts['claims']} claims "
                     f"decided by the facts ({facts['answers']}), no model asked; items "
                     + ", ".join(facts["items"]))
    peer = figures.get("facts_stop_vs_peer")
    if peer:
        lines.append(f"facts_stop_vs_peer: a stop the facts decide (item {peer['item']}), the "
                     f"whole hook process against the peer's, median ratio "
                     f"{peer['ratio_median']}")
        lines += bench_timing.render("  timed in turn", peer["timing"], peer["outside"])
    return lines
