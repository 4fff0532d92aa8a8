"""End to end: the real command line against a real llama-server with real small models.

`.ci/run` starts the server (scripts/local-models start) and sets RECEIPT_PAIR_E2E_PORT.
The models are the two smallest this project installs, so the suite takes minutes, not
hours; what they answer is whatever they answer: these tests check that the tool works
with them, not that they are right.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PORT = os.environ.get("RECEIPT_PAIR_E2E_PORT", "18080")
BASE_URL = f"http://127.0.0.1:{PORT}/v1"
MODEL_A = os.environ.get("RECEIPT_PAIR_E2E_MODEL_A", "qwen2.5-coder-0.5b")
MODEL_B = os.environ.get("RECEIPT_PAIR_E2E_MODEL_B", "smollm2-135m")
EXAMPLES = os.path.join(ROOT, "examples")
MODELS = ["--base-url", BASE_URL, "--model-a", MODEL_A, "--model-b", MODEL_B]


def server_up():
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/health", timeout=3) as reply:
            return reply.status == 200
    except OSError:
        return False


def cli(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "receipt_pair", *args], cwd=ROOT,
                          capture_output=True, text=True, **kwargs)


def model_status():
    with urllib.request.urlopen(f"{BASE_URL}/models", timeout=10) as reply:
        data = json.load(reply)["data"]
    return {m["id"]: (m.get("status") or {}).get("value") for m in data}


@unittest.skipUnless(server_up(), f"no llama-server on port {PORT} (scripts/local-models start)")
class RealServer(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receipt-pair-e2e-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def small_items(self, n=6):
        path = os.path.join(self.dir, "items.jsonl")
        with open(os.path.join(EXAMPLES, "more-items.jsonl")) as source:
            lines = [line for line in source if line.strip()][:n]
        with open(path, "w") as handle:
            handle.writelines(lines)
        return path

    def test_check_on_a_shipped_example(self):
        receipt = os.path.join(self.dir, "receipt.json")
        done = cli("check", "--claim", "I pushed the parser fix to fix/parser", "--log",
                   os.path.join(EXAMPLES, "push-ok.json"), "--json", "--save", receipt, *MODELS)
        self.assertEqual(done.returncode, 0, done.stderr)
        data = json.loads(done.stdout)
        self.assertIn(data["answer"], ("shown", "contradicted", "not shown"))
        for model in data["models"]:
            self.assertIsNone(model["error"])
            self.assertTrue(model["usage"].get("prompt_tokens"))
            self.assertIn("predicted_ms", model["timings"])
        self.assertEqual(cli("replay", "--receipt", receipt, "--log",
                             os.path.join(EXAMPLES, "push-ok.json")).returncode, 0)

    def test_batch_score_replay(self):
        items = self.small_items()
        out = os.path.join(self.dir, "answers.jsonl")
        done = cli("batch", items, "--out", out, *MODELS)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            rows = [json.loads(line) for line in handle][1:]
        # All of A's questions, then B's, then the facts' record of every item.
        self.assertEqual([r["kind"] for r in rows], ["answer"] * 12 + ["facts"] * 6)
        self.assertEqual([r["arm"] for r in rows[:12]], ["A"] * 6 + ["B"] * 6)
        # A was unloaded before B was asked: after the run only B may still be loaded.
        self.assertNotEqual(model_status().get(MODEL_A), "loaded")
        done = cli("score", out, items, "--json")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(json.loads(done.stdout)["items"], 6)
        done = cli("replay", out, items)
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_evidence_first_readers_ask_and_replay(self):
        # e1 (one question, a label), n1 (two questions per model), r1 (B told A's answer):
        # real replies, replayed offline with no difference.
        items = self.small_items(3)
        for reader in ("e1", "n1", "r1"):
            with self.subTest(reader=reader):
                out = os.path.join(self.dir, f"answers-{reader}.jsonl")
                done = cli("batch", items, "--out", out, "--reader", reader, *MODELS)
                self.assertEqual(done.returncode, 0, done.stderr)
                done = cli("replay", out, items)
                self.assertEqual(done.returncode, 0, done.stdout)
                with open(out) as handle:
                    rows = [json.loads(line) for line in handle][1:]
                if reader == "e1":  # llama-server gives logprobs: the verdict's probability
                    self.assertTrue(any(r["verdict_probabilities"] for r in rows))

    def test_resume_after_killing_a_batch(self):
        items = self.small_items()
        out = os.path.join(self.dir, "answers.jsonl")
        process = subprocess.Popen([sys.executable, "-m", "receipt_pair", "batch", items,
                                    "--out", out, *MODELS], cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and process.poll() is None:
            if os.path.exists(out):
                with open(out) as handle:
                    if sum('"kind": "answer"' in line for line in handle) >= 2:
                        break
            time.sleep(0.2)
        process.kill()
        process.wait()
        done = cli("batch", items, "--out", out, *MODELS)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as handle:
            rows = [json.loads(line) for line in handle][1:]
        keys = [(r["id"], r["arm"]) for r in rows if r["kind"] == "answer"]
        self.assertEqual(len([r for r in rows if r["kind"] == "facts"]), 6)
        self.assertEqual(len(keys), 12)
        self.assertEqual(len(set(keys)), 12, "an answer was asked for twice")
        self.assertEqual(cli("replay", out, items).returncode, 0)

    def test_gate_blocks_a_rejected_push(self):
        marker = os.path.join(self.dir, "pushed")
        log = os.path.join(self.dir, "rejected.json")
        with open(log, "w") as handle:
            json.dump([{"cmd": "git push origin main", "output":
                        "To git.example.com:team/app.git\n ! [rejected]        main -> main "
                        "(non-fast-forward)\nerror: failed to push some refs to "
                        "'git.example.com:team/app.git'"}], handle)
        done = cli("gate", "--claim", "I pushed main to origin", "--log", log, *MODELS, "--",
                   sys.executable, "-c", f"open({marker!r}, 'w')")
        self.assertIn(done.returncode, (3, 4), done.stdout + done.stderr)
        self.assertFalse(os.path.exists(marker))

    def test_gate_runs_a_command_when_both_models_show_it(self):
        # One model asked through both arms, on a one-line plain-text log (no command to
        # copy by mistake) that this model at temperature 0 answers with an exact quote:
        # reader v6, whose reply is a free quote (the default, f2, answers by label).
        marker = os.path.join(self.dir, "deployed")
        log = os.path.join(self.dir, "deploy.txt")
        with open(log, "w") as handle:
            handle.write("api v2.4.0 deployed to production: 3/3 pods ready\n")
        done = cli("gate", "--claim", "I deployed api v2.4.0 to production", "--log", log,
                   "--reader", "v6", "--base-url", BASE_URL, "--model-a", MODEL_A, "--model-b", MODEL_A, "--",
                   sys.executable, "-c", f"open({marker!r}, 'w')")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertTrue(os.path.exists(marker))
        self.assertIn("so the command runs:", done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    unittest.main()
