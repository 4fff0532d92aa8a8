#!/usr/bin/env python3
"""Run the peer proof-of-done (pinned) on items rendered as Claude Code sessions, and write
its answer per item: shown (every claim it found supported), contradicted (a claim it found
failed by the run: failed_exit, failed_output), not shown (anything else, and no claim it
could detect, where it says nothing).

    python3 eval/run-6/peer.py ITEMS OUT.jsonl --peer /path/to/venv/bin/proof-of-done

Each line of OUT: {"id", "answer", "claims": [...its per-claim results...]}.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_cc import session_lines  # noqa: E402

PEER_VERSION = "0.1.1"
FAILED = ("failed_exit", "failed_output")


def answer(claims):
    if not claims:
        return "not shown"
    if any(c.get("reason") in FAILED for c in claims):
        return "contradicted"
    if all(c.get("supported") for c in claims):
        return "shown"
    return "not shown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("items")
    parser.add_argument("out")
    parser.add_argument("--peer", required=True, help="the peer's proof-of-done command")
    args = parser.parse_args(argv)
    version = subprocess.run([args.peer, "--version"], capture_output=True, text=True)
    if PEER_VERSION not in (version.stdout + version.stderr):
        print(f"the peer must be proof-of-done {PEER_VERSION}: {version.stdout.strip()}",
              file=sys.stderr)
        return 2
    with open(args.items, encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    with tempfile.TemporaryDirectory() as work, open(args.out, "w", encoding="utf-8") as out:
        project = os.path.join(work, "proj")
        os.makedirs(os.path.join(project, ".git"))  # the peer's project root
        for item in items:
            path = os.path.join(work, f"{item['id']}.jsonl")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("\n".join(session_lines(item)) + "\n")
            done = subprocess.run([args.peer, "check", "--transcript", path, "--message",
                                   item["claim"], "--json"], capture_output=True, text=True,
                                  cwd=project, env={**os.environ, "HOME": work})
            try:
                result = json.loads(done.stdout)
            except ValueError:
                result = {"error": (done.stdout + done.stderr)[-500:]}
            claims = result.get("claims") or []
            out.write(json.dumps({"id": item["id"], "answer": answer(claims),
                                  "claims": claims, "status": done.returncode,
                                  "error": result.get("error")}, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
