"""batch against the fake server: A then B, resume, interruption, a server that goes away."""

import json
import os
import subprocess
import sys
import time
import unittest
from unittest import mock

from receipt_pair.store.records import ROW_KEYS, read_answers

from tests.fakeserver import FakeServer, Reply, chat_response
from tests.helpers import ROOT, TempDirTest, good, make_items, run_cli


class Batch(TempDirTest):
    def setUp(self):
        super().setUp()
        self.items = self.write("items.jsonl", make_items())
        self.out = self.path("answers.jsonl")

    def run_batch(self, fake, *extra):
        return run_cli("batch", self.items, "--out", self.out, "--base-url", fake.base_url,
                       "--model-a", "qa", "--model-b", "qb", *extra)

    def script_all(self, fake, n=10):
        fake.script("qa", *[good] * n)
        fake.script("qb", *[good] * n)

    def test_a_then_b_with_unload_between(self):
        with FakeServer(kind="lemonade") as fake:
            self.script_all(fake)
            status, out, err = self.run_batch(fake)
            order = [(p, (b or {}).get("model", (b or {}).get("model_name")))
                     for m, p, b in fake.requests if m == "POST"]
        self.assertEqual(status, 0, err)
        chats = [model for path, model in order if path.endswith("/chat/completions")]
        self.assertEqual(chats, ["qa"] * 4 + ["qb"] * 4)
        unload = order.index(("/api/v1/unload", "qa"))
        self.assertEqual(unload, 4)  # after all of A's questions, before any of B's
        self.assertIn("[A 1/8] i0: shown (ok)", err)
        self.assertIn("left", err)
        header, rows, warnings = read_answers(self.out)
        self.assertEqual(header["items_count"], 4)
        self.assertEqual(len(rows), 8)
        self.assertEqual(warnings, [])

    def test_row_keys_are_pinned(self):
        with FakeServer() as fake:
            self.script_all(fake)
            self.run_batch(fake)
        with open(self.out) as handle:
            lines = [json.loads(line) for line in handle]
        self.assertEqual(lines[0]["kind"], "items")
        for key in ("schema", "items_sha256", "items_count", "reader", "reader_fingerprint",
                    "max_turns", "models", "extra"):
            self.assertIn(key, lines[0])
        self.assertEqual(tuple(lines[1]), ROW_KEYS)
        self.assertEqual(lines[1]["schema"], "receipt-pair/answers/2")

    def test_second_run_asks_nothing(self):
        with FakeServer() as fake:
            self.script_all(fake)
            self.run_batch(fake)
            before = len(fake.chats())
            status, out, err = self.run_batch(fake)
            self.assertEqual(len(fake.chats()), before)
        self.assertEqual(status, 0)
        self.assertIn("asked 0 question(s)", out)

    def test_interrupted_run_resumes_without_asking_twice(self):
        calls = []

        def stop_after_three(event):
            if not event.note:
                calls.append(event.item_id)
                if len(calls) == 3:
                    raise KeyboardInterrupt

        with FakeServer() as fake:
            self.script_all(fake)
            with mock.patch("receipt_pair.cli.runs._progress_printer", return_value=stop_after_three):
                status, _, err = self.run_batch(fake)
            self.assertEqual(status, 130)
            self.assertEqual(len(read_answers(self.out)[1]), 3)
            status, out, err = self.run_batch(fake)
            self.assertEqual(status, 0, err)
            asked = [(b["model"], b["messages"][1]["content"]) for b in fake.chats()]
        self.assertEqual(len(asked), 8)
        self.assertEqual(len(set(asked)), 8, "a question was asked twice")
        self.assertIn("resuming; 3 answers", err)

    def test_killed_process_leaves_no_broken_line(self):
        with FakeServer() as fake:
            slow = lambda body: Reply(200, chat_response(good(body)), delay=0.05)
            fake.script("qa", *[slow] * 10)
            fake.script("qb", *[slow] * 10)
            process = subprocess.Popen(
                [sys.executable, "-m", "receipt_pair", "batch", self.items, "--out", self.out,
                 "--base-url", fake.base_url, "--model-a", "qa", "--model-b", "qb"],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if os.path.exists(self.out) and len(read_answers(self.out)[1]) >= 2:
                    break
                time.sleep(0.05)
            process.kill()
            process.wait()
            # What a kill in the middle of a write would leave behind.
            with open(self.out, "a") as handle:
                handle.write('{"schema": "receipt-pair/answers/1", "kind": "ans')
            _, rows, warnings = read_answers(self.out)
            self.assertTrue(warnings)
            kept = {(r["id"], r["arm"]) for r in rows}
            # A request the killed process sent may still be on its way into the server's
            # record: wait until the record stops growing before counting what came later.
            seen_before, settle = -1, time.monotonic() + 5
            while seen_before != len(fake.chats()) and time.monotonic() < settle:
                seen_before = len(fake.chats())
                time.sleep(0.1)
            status, out, err = self.run_batch(fake)
            self.assertEqual(status, 0, err)
            self.assertIn("cut an unfinished last line", err)
            later = fake.chats()[seen_before:]
        _, rows, warnings = read_answers(self.out)
        self.assertEqual(warnings, [])
        self.assertEqual(len({(r["id"], r["arm"]) for r in rows}), 8)
        asked_again = {(b["model"], b["messages"][1]["content"]) for b in later}
        self.assertEqual(len(later), 8 - len(kept))
        self.assertEqual(len(asked_again), len(later))

    def test_failed_calls_are_recorded_and_asked_again(self):
        with FakeServer() as fake:
            fake.script("qa", good, Reply(400, {"error": "prompt too long"}), good, good)
            fake.script("qb", *[good] * 4)
            status, out, err = self.run_batch(fake)
            self.assertEqual(status, 6)
            self.assertIn("1 question(s) have no usable answer", err)
            fake.script("qa", good)
            status, out, err = self.run_batch(fake)
            self.assertEqual(status, 0)
            self.assertEqual(len(fake.chats()), 9)

    def test_server_gone_mid_way_stops_and_keeps_answers(self):
        fake = FakeServer()
        fake.__enter__()
        fake.script("qa", good, good)

        def die(body):
            fake.httpd.shutdown()
            fake.httpd.server_close()
            return Reply(200, chat_response(good(body)))

        fake.script("qa", good, die)
        status, out, err = self.run_batch(fake)
        self.assertEqual(status, 6)
        self.assertIn("run the same command again to resume", err)
        self.assertEqual(len(err.strip().splitlines()[-1:]), 1)
        _, rows, _ = read_answers(self.out)
        self.assertGreaterEqual(len(rows), 2)
        self.assertTrue(all(not r["error"] for r in rows), "no row for a question never asked")

    def test_three_failures_in_a_row_stop_the_run(self):
        with FakeServer() as fake:
            fake.script("qa", *[Reply(500, {"error": "broken"})] * 4)
            status, _, err = self.run_batch(fake)
        self.assertEqual(status, 6)
        self.assertIn("3 calls to model qa failed in a row", err)
        self.assertEqual(len(read_answers(self.out)[1]), 3)

    def test_other_items_or_settings_are_refused(self):
        with FakeServer() as fake:
            self.script_all(fake)
            self.run_batch(fake)
            self.write("items.jsonl", make_items(5))
            status, _, err = self.run_batch(fake)
            self.assertEqual(status, 2)
            self.assertIn("another items file", err)
            self.write("items.jsonl", make_items(4))
            status, _, err = run_cli("batch", self.items, "--out", self.out, "--base-url",
                                     fake.base_url, "--model-a", "other", "--model-b", "qb")
            self.assertEqual(status, 2)
            self.assertIn("was made with models", err)


class ScoreAndReplayOfABatch(TempDirTest):
    def test_batch_then_score_then_replay(self):
        items = self.write("items.jsonl", make_items())
        out = self.path("answers.jsonl")
        with FakeServer() as fake:
            fake.script("qa", *[good] * 4)
            fake.script("qb", *[good] * 4)
            run_cli("batch", items, "--out", out, "--base-url", fake.base_url,
                    "--model-a", "qa", "--model-b", "qb")
        status, text, err = run_cli("score", out, items)
        self.assertEqual(status, 0, err)
        self.assertIn("model A alone", text)
        status, text, _ = run_cli("score", out, items, "--json")
        data = json.loads(text)
        self.assertEqual(data["items"], 4)
        self.assertEqual(set(data["arms"]), {"A", "B", "R1", "R2", "R3", "R4", "facts", "answer",
                                             "F+A", "F+B", "F+R1", "F+R3", "F+R4",
                                             "F+R2nc", "F+Anc"})
        for arm in data["arms"].values():
            self.assertEqual(set(arm), {"right", "false_shown", "true_shown_kept",
                                        "correct_not_shown", "false_contradicted",
                                        "true_contradicted_kept"})
            self.assertEqual(set(arm["right"]), {"k", "n", "rate", "low", "high"})
        # every item answered "shown": 2 true shown, 2 not
        self.assertEqual(data["arms"]["R2"]["right"]["k"], 2)
        self.assertEqual(data["arms"]["R2"]["false_shown"], {**data["arms"]["R2"]["false_shown"],
                                                             "k": 2, "n": 2})
        status, text, _ = run_cli("replay", out, items)
        self.assertEqual(status, 0, text)
        self.assertIn("no differences", text)
        # One character changed in a saved reply: replay exits 1.
        with open(out) as handle:
            lines = handle.readlines()
        lines[1] = lines[1].replace("main -> main", "main -> mai n", 1)
        with open(out, "w") as handle:
            handle.writelines(lines)
        status, text, _ = run_cli("replay", out, items)
        self.assertEqual(status, 1)


if __name__ == "__main__":
    unittest.main()


class Parallel(TempDirTest):
    def test_n_requests_really_in_flight_and_the_same_answers(self):
        import threading

        items = self.write("items.jsonl", make_items(4))
        meeting = threading.Barrier(2, timeout=5)
        met = []

        def meet(body):
            try:
                meeting.wait()  # passes only when two questions are asked at once
                met.append(True)
            except threading.BrokenBarrierError:
                met.append(False)
            return good(body)

        answers = {}
        for parallel in ("2", "1"):
            out = self.path(f"answers-{parallel}.jsonl")
            with FakeServer() as fake:
                fake.script("qa", *[meet if parallel == "2" else good] * 4)
                fake.script("qb", *[meet if parallel == "2" else good] * 4)
                status, _, err = run_cli("batch", items, "--out", out, "--parallel", parallel,
                                         "--base-url", fake.base_url, "--model-a", "qa",
                                         "--model-b", "qb")
            self.assertEqual(status, 0, err)
            with open(out) as handle:
                rows = [json.loads(line) for line in handle][1:]
            answers[parallel] = {(r["id"], r["arm"]): (r["request_sha256"], r["answer"],
                                                       r["quote"]) for r in rows
                                 if r["kind"] == "answer"}
            self.assertEqual(run_cli("replay", out, items)[0], 0)
        self.assertEqual(answers["1"], answers["2"])
        self.assertEqual(met, [True] * 8)
