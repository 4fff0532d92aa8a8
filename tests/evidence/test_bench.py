"""scripts/bench against the fake router: it runs, writes bench.json, and the README can render it."""

import importlib.util
import json
import os
import subprocess
import sys

from tests.fakeserver import FakeServer, answer
from tests.helpers import ROOT, TempDirTest, good, make_items

spec = importlib.util.spec_from_file_location("figures", os.path.join(ROOT, "scripts", "figures.py"))
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)


class Bench(TempDirTest):
    def bench(self, *extra, reply=good):
        """(bench.json, the process) of scripts/bench over three items on the fake router."""
        items = self.write("items.jsonl", make_items(3))
        out = self.path("bench")
        with FakeServer(kind="llama-router", max_models=2) as fake:
            fake.default = reply
            done = subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts", "bench"), "--items", items,
                 "--model-a", "qa", "--model-b", "qb", "--base-url", fake.base_url,
                 "--check-runs", "1", "--out", out, *extra], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(out, "bench.json")) as handle:
            return json.load(handle), done

    def test_bench_runs_and_renders(self):
        bench, done = self.bench()
        self.assertEqual([row["model"] for row in bench["models"]], ["qa", "qb"])
        for row in bench["models"]:
            self.assertEqual(row["claims"], 3)
            self.assertGreater(row["server_over_client"], 0)
            self.assertIsNotNone(row["load_s"])
        self.assertTrue(bench["check"]["same_answers"])
        self.assertIn("check at once vs in turn", done.stdout)
        original = figures.load
        figures.load = lambda path: bench
        try:
            text = figures.render("bench x.json")
        finally:
            figures.load = original
        self.assertIn("| qa | v6 | 3 |", text)

    def test_a_stop_and_a_replay_of_copies(self):
        run = os.path.join(ROOT, "receipts", "run-4-holdout-3")
        bench, done = self.bench(
            "--stop-items", os.path.join(ROOT, "eval", "real-5", "real5-dev.jsonl"),
            "--stop-item", "r5d-094", "--stop-claims", "3", "--stop-message",
            os.path.join(ROOT, "eval", "real-5", "messages-A.jsonl") + ":A-M002",
            "--replay-answers", os.path.join(run, "answers-r1-holdout-3.jsonl"),
            "--replay-items", os.path.join(run, "items-holdout-3.jsonl"), "--replay-copies", "2",
            reply=lambda body: good(body) if "main -> main" in body["messages"][1]["content"]
            else answer("not_shown", None, None))
        stop = bench["stop"]
        self.assertEqual(len(stop["claims"]), 3)
        self.assertEqual(len(stop["runs"]), 3)
        self.assertEqual(len(stop["answers_cached"]), 3)
        self.assertIn("stop with 3 claims", done.stdout)
        self.assertEqual(bench["replay"]["answers"], 480)
        self.assertEqual(bench["replay"]["exit"], 0, bench["replay"]["last_line"])

    def test_parallel_times_its_own_items(self):
        short = self.write("short.jsonl", make_items(2))
        parallel = self.bench("--parallel", "2", "--parallel-items", short)[0]["parallel"]
        self.assertTrue(parallel["items_file"].endswith("short.jsonl"))
        self.assertTrue(parallel["same_answers"])
        original = figures.load
        figures.load = lambda path: {"models": [], "client_ms_per_claim": 0.1,
                                     "client_rss_mb": 1, "server_rss_mb": 1,
                                     "parallel": parallel}
        try:
            text = figures.render("bench x.json")
        finally:
            figures.load = original
        self.assertIn("short.jsonl", text)
