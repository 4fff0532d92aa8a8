"""scripts/bench's measures of a stop, of replay and of the unit suite (issues 23 and 25).

- stop: a Stop hook with N claims against one session, timed from outside (the whole
  `receipt-pair hook claude-code` command), and the same claims asked through
  `check_claims` with the server's prompt cache on and off, to see whether the answers
  agree. The session is rebuilt in Claude Code's transcript shape from a real item's turns
  (commands and outputs verbatim) and the claims are the first N that the plain-code split
  finds in that session's real final message; reading the file back must give the item's
  turns, or the bench stops.
- replay: `receipt-pair replay` of a sealed answers file copied K times (each copy's items
  given new ids), timed as a whole process; the copy must replay with exit 0.
- unit suite: the README's test command, timed as a whole process.

Whole processes are timed by scripts/bench_timing.py (min, median and max of each figure;
the median is the one quoted).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from receipt_pair import Settings, read_items, read_log  # noqa: E402
from receipt_pair.pair.claim import check_claims  # noqa: E402
from receipt_pair.hooks.claims import split_claims  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import bench_timing  # noqa: E402

TOOL_CALL = re.compile(r"^([A-Z][A-Za-z]+) (\{.*\})$", re.S)  # `Glob {"pattern": ...}`


def claude_code_lines(turns, message, session="bench-stop"):
    """Claude Code transcript lines: each turn as a tool call and its result, then the
    final message. A turn's command `Name {json}` is that tool with that input; any other
    command is a Bash call."""
    lines = []
    for number, turn in enumerate(turns, 1):
        match = TOOL_CALL.match(turn.cmd)
        name, tool_input = (match.group(1), json.loads(match.group(2))) if match else \
            ("Bash", {"command": turn.cmd})
        call = f"toolu_{number:04d}"
        lines.append({"type": "assistant", "sessionId": session, "uuid": f"a{number}",
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": call, "name": name, "input": tool_input}]}})
        lines.append({"type": "user", "sessionId": session, "uuid": f"u{number}",
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": call, "content": turn.output,
                           "is_error": turn.exit_status not in (None, 0)}]}})
    lines.append({"type": "assistant", "sessionId": session, "uuid": "final",
                  "message": {"role": "assistant",
                              "content": [{"type": "text", "text": message}]}})
    return [json.dumps(line) for line in lines]


def measure_stop(item, message, count, args, runs=3):
    """The stop's figures: the hook timed `runs` times, and cached against uncached."""
    claims = [claim.text for claim in split_claims(message)][:count]
    if len(claims) < count:
        raise SystemExit(f"bench: the message has {len(claims)} claims, not {count}")
    turns = list(item.turns)
    figures = {"item": item.id, "claims": claims, "turns": len(turns), "runs": [],
               "message_sha256": hashlib.sha256(message.encode("utf-8")).hexdigest()}
    with tempfile.TemporaryDirectory() as work:
        session = os.path.join(work, "session.jsonl")
        with open(session, "w") as handle:
            handle.write("\n".join(claude_code_lines(turns, message)) + "\n")
        back = read_log(session, fmt="claude-code")[0]
        # Claude Code's reader names a tool call by its tool and main argument and takes an
        # "Exit code N" head into the exit status: the outputs read back must be the item's.
        if len(back) != len(turns) or any(b.output not in t.output for b, t in zip(back, turns)):
            raise SystemExit("bench: the rebuilt session does not read back as the item's turns")
        turns = list(back)  # what the hook reads, for check_claims too
        with open(os.path.join(work, "claims.txt"), "w") as handle:
            handle.write("\n".join(claims) + "\n")
        hook_input = {"session_id": "bench-stop", "transcript_path": session, "cwd": work,
                      "hook_event_name": "Stop", "stop_hook_active": False,
                      "last_assistant_message": message}
        with open(os.path.join(work, "input.json"), "w") as handle:
            json.dump(hook_input, handle)
        for run in range(runs):
            receipts = os.path.join(work, f"receipts-{run}")
            started = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "receipt_pair", "hook", "claude-code", "--input",
                 os.path.join(work, "input.json"), "--claims-from",
                 os.path.join(work, "claims.txt"), "--receipts", receipts,
                 "--model-a", args.model_a, "--model-b", args.model_b,
                 "--base-url", args.base_url, "--not-shown", "allow"],
                cwd=ROOT, capture_output=True, text=True)
            figures["runs"].append({"wall_s": round(time.monotonic() - started, 2),
                                    "exit": done.returncode,
                                    "stdout": done.stdout.strip()[:400],
                                    "stderr": done.stderr.strip()[:400]})
    walls = sorted(run["wall_s"] for run in figures["runs"])
    figures["stop_s"] = walls[len(walls) // 2]
    # Three ways to ask the same claims: as the hook does (one menu for all, the prompt
    # cache on), the very same requests with the cache off (does the cache change a reply?),
    # and one claim at a time as `check` does (a menu per claim, no cache field sent).
    ways = {"cached": {"share_prompt": True},
            "cold": {"share_prompt": True, "cache_prompt": False},
            "uncached": {"share_prompt": False}}
    settings = Settings(model_a=args.model_a, model_b=args.model_b, base_url=args.base_url)
    for name, how in ways.items():
        started = time.monotonic()
        checked = check_claims(claims, turns, settings, **how)
        figures[f"answers_{name}"] = [c.result.answer if c.result else c.error
                                      for c in checked]
        figures[f"{name}_s"] = round(time.monotonic() - started, 2)
    figures["cache_agrees"] = figures["answers_cached"] == figures["answers_cold"]
    figures["cached_agrees"] = figures["answers_cached"] == figures["answers_uncached"]
    return figures


def measure_replay(answers_path, items_path, copies, runs=3):
    """The whole-process timing of replaying `copies` copies of a sealed answers file."""
    with open(answers_path) as handle:
        lines = handle.read().splitlines()
    with open(items_path) as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    work = tempfile.mkdtemp()
    out_items = os.path.join(work, "items.jsonl")
    with open(out_items, "w") as handle:
        for copy in range(copies):
            for item in items:
                handle.write(json.dumps(dict(item, id=f"{item['id']}~{copy}")) + "\n")
    _, sha256 = read_items(out_items)
    header = json.loads(lines[0])
    header["items_sha256"], header["items_count"] = sha256, len(items) * copies
    out_answers = os.path.join(work, "answers.jsonl")
    with open(out_answers, "w") as handle:
        handle.write(json.dumps(header) + "\n")
        for copy in range(copies):
            for line in lines[1:]:
                row = json.loads(line)
                handle.write(json.dumps(dict(row, id=f"{row['id']}~{copy}")) + "\n")
    command = [sys.executable, "-m", "receipt_pair", "replay", out_answers, out_items]
    check = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    timing = bench_timing.time_commands(command, runs=runs, cwd=ROOT)
    outside = bench_timing.outside_timer(command, runs=runs, timeout=600)
    shutil.rmtree(work)
    return {"answers": (len(lines) - 1) * copies, "copies": copies,
            "source": os.path.relpath(os.path.abspath(answers_path), ROOT),
            "exit": check.returncode, "last_line": check.stdout.strip().splitlines()[-1:],
            "timing": timing, "outside": outside, "median_s": timing["A"]["wall_s"]["median"]}


def measure_unit_suite(runs=3):
    command = [sys.executable, "-m", "unittest", "discover", "-s", "tests/unit", "-t", "."]
    timing = bench_timing.time_commands(command, runs=runs, cwd=ROOT)
    outside = bench_timing.outside_timer(command, runs=runs, timeout=900)
    return {"command": "python -m unittest discover -s tests/unit -t .", "timing": timing,
            "outside": outside, "median_s": timing["A"]["wall_s"]["median"]}


def render(figures):
    lines = []
    stop = figures.get("stop")
    if stop:
        lines.append(f"stop with {len(stop['claims'])} claims (item {stop['item']}, "
                     f"{stop['turns']} turns, hook claude-code, {len(stop['runs'])} runs): "
                     f"median {stop['stop_s']:.1f} s (runs " +
                     ", ".join(f"{r['wall_s']:.1f}" for r in stop["runs"]) + ")")
        lines.append(f"the same claims through check_claims: one menu, prompt cache on "
                     f"{stop['cached_s']:.1f} s {stop['answers_cached']}")
        lines.append(f"  the same requests, cache off: {stop['cold_s']:.1f} s "
                     f"{stop['answers_cold']}; the same answers: {stop['cache_agrees']}")
        lines.append(f"  one claim at a time, a menu each: {stop['uncached_s']:.1f} s "
                     f"{stop['answers_uncached']}; the same answers as the stop's: "
                     f"{stop['cached_agrees']}")
    replay = figures.get("replay")
    if replay:
        lines.append(f"replay of {replay['answers']} answers ({replay['source']} x "
                     f"{replay['copies']}): exit {replay['exit']}, median wall "
                     f"{replay['median_s']} s (whole process)")
    unit = figures.get("unit_suite")
    if unit:
        lines.append(f"unit suite ({unit['command']}): median wall {unit['median_s']} s "
                     f"(whole process)")
    for name in ("replay", "unit_suite"):
        if figures.get(name) and figures[name].get("timing"):
            lines += bench_timing.render(name, figures[name]["timing"],
                                         figures[name].get("outside"))
    return "\n".join(lines) + "\n"
