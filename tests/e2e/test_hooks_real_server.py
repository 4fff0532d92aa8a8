"""End to end: the Stop hooks against a real llama-server with real small models.

Like test_real_server.py, this needs `.ci/run` (or `scripts/local-models start`) to have
started the server and set RECEIPT_PAIR_E2E_PORT. A real-shaped session file is copied to
a temporary folder, the hook's JSON input names it, and `python -m receipt_pair hook ...`
runs as the agent would run it. What the small models answer is whatever they answer: the
tests check that the hook speaks the agent's protocol, keeps a receipt per claim that
re-derives offline, and blocks only on what its receipts say.
"""

import json
import os
import shutil
import tempfile
import unittest

from tests.e2e.test_real_server import MODELS, PORT, ROOT, cli, server_up

TRANSCRIPTS = os.path.join(ROOT, "tests", "data", "transcripts")
HOOKS = os.path.join(ROOT, "tests", "data", "hooks")


@unittest.skipUnless(server_up(), f"no llama-server on port {PORT} (scripts/local-models start)")
class HookOnRealServer(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receipt-pair-e2e-hook-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.receipts = os.path.join(self.dir, "receipts")

    def run_hook(self, agent, session, hook_input):
        path = os.path.join(self.dir, os.path.basename(session))
        shutil.copy(session, path)
        with open(hook_input, encoding="utf-8") as handle:
            value = json.load(handle)
        value["transcript_path"] = path
        input_path = os.path.join(self.dir, "hook.json")
        with open(input_path, "w", encoding="utf-8") as handle:
            json.dump(value, handle)
        return cli("hook", agent, "--input", input_path, "--receipts", self.receipts,
                   "--wait", "1", *MODELS)

    def receipts_kept(self):
        names = sorted(n for n in os.listdir(self.receipts) if not n.endswith("state.json"))
        self.assertTrue(names, "no receipt was kept")
        return [os.path.join(self.receipts, name) for name in names]

    def check_protocol(self, done):
        """The agent's protocol: exit 0; stdout empty, a block decision, or a message."""
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout) if done.stdout.strip() else {}
        self.assertLessEqual(set(out), {"decision", "reason", "systemMessage"})
        if "decision" in out:
            self.assertEqual(out["decision"], "block")
            self.assertTrue(out["reason"].strip())
        return out

    def check_receipts(self, out):
        """Every receipt re-derives offline, and the decision follows from the receipts: a
        block exactly when a claim both models answered is contradicted (a model's not shown
        does not block under the default policy, block-empty), a message when a model's call
        failed."""
        answers = []
        for path in self.receipts_kept():
            with open(path, encoding="utf-8") as handle:
                receipt = json.load(handle)
            self.assertEqual(receipt["made_by"], "hook")
            failed = any(model["error"] for model in receipt["models"])
            answers.append("could not check" if failed else receipt["answer"])
            verified = cli("verify", "--receipt", path)
            self.assertEqual(verified.returncode, 0, verified.stdout + verified.stderr)
        self.assertEqual("decision" in out, "contradicted" in answers, answers)
        if "could not check" in answers:
            self.assertIn("could not check", out.get("systemMessage", "") + out.get("reason", ""))
        return answers

    def test_claude_code_session_whose_push_was_rejected(self):
        done = self.run_hook("claude-code", os.path.join(TRANSCRIPTS, "claude-code-session.jsonl"),
                             os.path.join(TRANSCRIPTS, "hook-claude-code-stop.json"))
        answers = self.check_receipts(self.check_protocol(done))
        self.assertEqual(len(answers), 1)  # "I pushed the parser fix to fix/parser"

    def test_codex_rollout_whose_suite_passed(self):
        done = self.run_hook("codex", os.path.join(HOOKS, "codex-green.jsonl"),
                             os.path.join(HOOKS, "hook-codex-green.json"))
        answers = self.check_receipts(self.check_protocol(done))
        self.assertEqual(len(answers), 2)  # "Pushed fix/parser", "the suite is green (...)"


if __name__ == "__main__":
    unittest.main()
