"""The commands that need no server: verify, selftest, replay of a receipt, usage errors."""

import json
import os
import subprocess
import sys
import unittest

from tests.helpers import EXAMPLES, ROOT, TempDirTest, run_cli


class Verify(TempDirTest):
    def test_invented_quote_is_refused(self):
        status, out, _ = run_cli("verify", "--log", os.path.join(EXAMPLES, "push-ok.json"),
                                 "--reply", os.path.join(EXAMPLES, "reply-invented-quote.json"))
        self.assertEqual(status, 0)
        self.assertIn("answer: not shown", out)
        self.assertIn("quote_not_found", out)

    def test_json_keys(self):
        status, out, _ = run_cli("verify", "--json", "--log", os.path.join(EXAMPLES, "push-ok.json"),
                                 "--reply", os.path.join(EXAMPLES, "reply-real-quote.json"))
        self.assertEqual(status, 0)
        data = json.loads(out)
        self.assertEqual((data["answer"], data["code"]), ("shown", "ok"))

    def test_whole_chat_response_is_accepted(self):
        content = json.dumps({"verdict": "shown", "turn": "T3",
                              "quote": "3b2a6f1..9c41e07  fix/parser -> fix/parser", "reason": ""})
        path = self.write("response.json", json.dumps(
            {"choices": [{"message": {"role": "assistant", "content": content}}]}))
        status, out, _ = run_cli("verify", "--json", "--log", os.path.join(EXAMPLES, "push-ok.json"),
                                 "--reply", path)
        self.assertEqual(json.loads(out)["answer"], "shown")

    def test_missing_arguments(self):
        status, _, err = run_cli("verify", "--log", os.path.join(EXAMPLES, "push-ok.json"))
        self.assertEqual(status, 2)
        self.assertIn("verify needs", err)

    def test_unreadable_reply(self):
        status, _, err = run_cli("verify", "--log", os.path.join(EXAMPLES, "push-ok.json"),
                                 "--reply", self.path("missing.json"))
        self.assertEqual(status, 5)
        self.assertIn("missing.json: cannot read", err)


class Selftest(unittest.TestCase):
    def test_selftest_passes_and_counts(self):
        status, out, _ = run_cli("selftest")
        self.assertEqual(status, 0)
        last = out.strip().splitlines()[-1]
        self.assertRegex(last, r"^\d+ probes: \d+ passed, 0 failed$")
        self.assertGreaterEqual(int(last.split()[0]), 60)

    def test_selftest_fails_with_its_own_status_when_a_probe_fails(self):
        from unittest import mock

        from receipt_pair.audit import selftest
        from receipt_pair.cli import runs as cli_runs

        broken = selftest.Result("broken probe", False, "x")
        with mock.patch.object(cli_runs, "run_probes", return_value=[broken]):
            status, out, _ = run_cli("selftest")
        self.assertEqual(status, 7)
        self.assertIn("FAIL broken probe", out)


class Usage(unittest.TestCase):
    def test_usage_errors_exit_2(self):
        for argv in ([], ["nonsense"], ["check"], ["check", "--claim", "x", "--log", "a",
                                                   "--max-turns", "0"],
                     ["check", "--claim", "x", "--log", "a", "--extra-a", "[1]"],
                     ["gate", "--claim", "x", "--log", "a", "--rule", "r1", "--", "true"]):
            with self.subTest(argv=argv):
                status, _, err = run_cli(*argv)
                self.assertEqual(status, 2)
                self.assertNotIn("Traceback", err)

    def test_help_on_every_command(self):
        for command in ("check", "batch", "score", "verify", "replay", "gate", "record", "selftest"):
            with self.subTest(command=command):
                status, out, _ = run_cli(command, "--help")
                self.assertEqual(status, 0)
                self.assertIn("usage:", out)

    def test_module_entry_point(self):
        done = subprocess.run([sys.executable, "-m", "receipt_pair", "selftest"], cwd=ROOT,
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0)
        self.assertIn("passed, 0 failed", done.stdout)


if __name__ == "__main__":
    unittest.main()
