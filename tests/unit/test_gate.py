"""The gate: every row of its table, with real commands that write a file when they run."""

import json
import os
import stat
import sys

from tests.fakeserver import FakeServer, Reply, answer
from tests.helpers import EXAMPLES, TempDirTest, closed_port, run_cli

LOG = os.path.join(EXAMPLES, "push-ok.json")
CLAIM = "I pushed the parser fix to fix/parser"
SHOWN = answer("shown", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser")
CONTRA = answer("contradicted", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser")
NOT = answer("not_shown")


class Gate(TempDirTest):
    def setUp(self):
        super().setUp()
        self.marker = self.path("ran.txt")
        # The action: a real program that leaves a file behind, then exits 7.
        self.action = [sys.executable, "-c",
                       "import sys; open(sys.argv[1], 'w').write(' '.join(sys.argv[2:])); "
                       "sys.exit(7)", self.marker]

    def gate(self, a, b, *options, action=None, log=LOG, claim=CLAIM):
        with FakeServer() as fake:
            fake.script("qa", a)
            fake.script("qb", b)
            return run_cli("gate", "--claim", claim, "--log", log, "--base-url", fake.base_url,
                           "--model-a", "qa", "--model-b", "qb", *options, "--",
                           *(action or self.action))

    def last_line(self, out):
        return out.strip().splitlines()[-1]

    def test_shown_runs_with_the_commands_own_status(self):
        status, out, err = self.gate(SHOWN, SHOWN, action=self.action + ["token=s3cret"])
        self.assertEqual(status, 7)
        self.assertTrue(os.path.exists(self.marker))
        self.assertEqual(self.last_line(out),
                         f"shown: the log shows it worked, so the command runs: {sys.executable}")
        self.assertNotIn("s3cret", out + err)  # arguments can hold secrets: never printed

    def test_not_shown_does_not_run(self):
        status, out, _ = self.gate(SHOWN, NOT)
        self.assertEqual(status, 3)
        self.assertFalse(os.path.exists(self.marker))
        self.assertEqual(self.last_line(out), "not shown: no receipt, no action")

    def test_contradicted_does_not_run(self):
        failed = answer("contradicted", "T2", "error: failed to push some refs to "
                                              "'github.com:acme/payments.git'")
        status, out, _ = self.gate(failed, failed, log=os.path.join(EXAMPLES, "push-rejected.json"),
                                   claim="I pushed the payment retry to main")
        self.assertEqual(status, 4)
        self.assertFalse(os.path.exists(self.marker))
        self.assertEqual(self.last_line(out), "contradicted: the log shows it failed")

    def test_one_model_failing_blocks_whatever_the_rule(self):
        for rule in ("r2", "r3"):
            with self.subTest(rule=rule):
                status, out, err = self.gate(SHOWN, Reply(500, {"error": "boom"}), "--rule", rule)
                self.assertEqual(status, 1)
                self.assertFalse(os.path.exists(self.marker))
                self.assertEqual(self.last_line(out), "could not check: no receipt, no action")
                self.assertIn("boom", err)

    def test_server_down_blocks(self):
        status, out, err = run_cli("gate", "--claim", CLAIM, "--log", LOG, "--base-url",
                                   f"http://127.0.0.1:{closed_port()}/v1", "--", *self.action)
        self.assertEqual(status, 1)
        self.assertFalse(os.path.exists(self.marker))
        self.assertEqual(self.last_line(out), "could not check: no receipt, no action")
        self.assertIn("cannot reach the model server", err)

    def test_unreadable_log_blocks(self):
        for log in (self.path("missing.json"), self.write("bad.json", "[{\"cmd\": 1}]")):
            with self.subTest(log=log):
                status, out, err = self.gate(SHOWN, SHOWN, log=log)
                self.assertEqual(status, 1)
                self.assertFalse(os.path.exists(self.marker))
                self.assertEqual(self.last_line(out), "could not check: no receipt, no action")

    def test_unparseable_reply_is_not_shown(self):
        status, out, _ = self.gate(SHOWN, "Yes, it was pushed.")
        self.assertEqual(status, 3)
        self.assertFalse(os.path.exists(self.marker))

    def test_program_not_found_is_127(self):
        status, out, err = self.gate(SHOWN, SHOWN, action=["no-such-program-xyz", "arg"])
        self.assertEqual(status, 127)
        self.assertEqual(self.last_line(out),
                         "shown: the log shows it worked, so the command runs: no-such-program-xyz")
        self.assertIn("cannot run no-such-program-xyz: no such program", err)

    def test_program_that_cannot_start_is_126(self):
        script = self.write("not-executable.sh", "#!/bin/sh\ntouch ran\n")
        os.chmod(script, stat.S_IRUSR | stat.S_IWUSR)
        status, out, err = self.gate(SHOWN, SHOWN, action=[script])
        self.assertEqual(status, 126)
        self.assertIn("permission denied", err)

    def test_no_shell(self):
        args = ["; touch " + self.path("injected"), "&&", "$HOME", "*"]
        status, out, _ = self.gate(SHOWN, SHOWN, action=self.action + args)
        self.assertEqual(status, 7)
        self.assertFalse(os.path.exists(self.path("injected")))
        with open(self.marker) as handle:
            self.assertEqual(handle.read(), " ".join(args))  # every character reached it as is

    def test_dry_run_prints_the_command_and_runs_nothing(self):
        status, out, _ = self.gate(SHOWN, SHOWN, "--dry-run", action=self.action + ["--force"])
        self.assertEqual(status, 0)
        self.assertFalse(os.path.exists(self.marker))
        self.assertIn("dry run, so nothing runs:", self.last_line(out))
        self.assertIn("--force", self.last_line(out))

    def test_the_same_gate_from_python(self):
        from receipt_pair import GateOptions, Keeper, Settings, gate

        receipt = self.path("receipt.json")
        with FakeServer() as fake:
            fake.script("qa", SHOWN)
            fake.script("qb", SHOWN)
            settings = Settings(model_a="qa", model_b="qb", base_url=fake.base_url, facts=False)
            gated = gate(CLAIM, LOG, self.action, GateOptions(settings, Keeper(receipt)))
        self.assertEqual((gated.result.answer, gated.decision.runs), ("shown", True))
        self.assertFalse(os.path.exists(self.marker))  # nothing runs before run()
        with open(receipt, encoding="utf-8") as handle:
            self.assertEqual(json.load(handle)["gate"]["runs"], True)  # kept before
        self.assertEqual(gated.run(), (7, None))
        self.assertTrue(os.path.exists(self.marker))
        with FakeServer() as fake:
            fake.script("qa", NOT)
            fake.script("qb", NOT)
            settings = Settings(model_a="qa", model_b="qb", base_url=fake.base_url, facts=False)
            gated = gate(CLAIM, LOG, ["no-such-program-xyz"], GateOptions(settings))
        self.assertEqual(gated.run(), (3, None))  # not shown: it does not run

    def test_only_r2_and_r3(self):
        status, _, err = self.gate(SHOWN, NOT, "--rule", "r1")
        self.assertEqual(status, 2)
        self.assertFalse(os.path.exists(self.marker))

    def test_missing_action(self):
        status, _, err = run_cli("gate", "--claim", CLAIM, "--log", LOG)
        self.assertEqual(status, 2)
        self.assertIn("gate needs the action after --", err)


class WitnessGate(TempDirTest):
    def run_witness(self, test_code, reply):
        log = self.path("witness.jsonl")
        marker = self.path("pushed")
        receipt = self.path("receipt.json")

        def quote_last_line(body):
            if reply != "quote":
                return reply
            text = body["messages"][1]["content"]
            output = text.split("<output>\n", 1)[1].split("\n</output>", 1)[0]
            return answer("shown", "T1", output.splitlines()[-1])

        with FakeServer() as fake:
            fake.script("qa", quote_last_line)
            fake.script("qb", quote_last_line)
            result = run_cli("gate", "--claim", "the tests pass", "--witness", "--log", log,
                             "--save", receipt, "--base-url", fake.base_url, "--model-a", "qa",
                             "--model-b", "qb", "--", sys.executable, "-c", test_code, "--",
                             sys.executable, "-c", f"open({marker!r}, 'w')")
            asked = fake.chats()
        return result, log, marker, receipt, asked

    def test_passing_witness_lets_the_action_run(self):
        (status, out, err), log, marker, receipt, asked = self.run_witness(
            "import sys; print('3 passed in 0.1s')", "quote")
        self.assertEqual(status, 0, out + err)
        self.assertTrue(os.path.exists(marker))
        self.assertIn("3 passed in 0.1s", err)  # the test's output streams to the terminal
        with open(receipt) as handle:
            saved = json.load(handle)
        with open(log, "rb") as handle:
            line = handle.read().splitlines()[-1]
        import hashlib

        self.assertEqual(saved["witness"]["record_sha256"], hashlib.sha256(line).hexdigest())
        self.assertEqual(saved["log"]["sha256"], saved["witness"]["record_sha256"])
        self.assertEqual(len(saved["turns"]), 1)  # the fresh record only

    def test_failing_witness_is_shown_to_the_models_and_blocks(self):
        (status, out, err), log, marker, receipt, asked = self.run_witness(
            "import sys; print('1 failed'); sys.exit(1)", "quote")
        self.assertNotEqual(status, 0)
        self.assertFalse(os.path.exists(marker))
        self.assertIn("[exit status 1]", asked[0]["messages"][1]["content"])
        with open(receipt) as handle:
            saved = json.load(handle)
        self.assertEqual(saved["recorded_failures"], [{"turn": "T1", "exit_status": 1}])
        self.assertIn("exited with status 1", saved["witness"]["reading"])

    def test_witness_needs_two_parts(self):
        status, _, err = run_cli("gate", "--claim", "c", "--witness", "--log", self.path("w"),
                                 "--", "true")
        self.assertEqual(status, 2)
        self.assertIn("-- TEST COMMAND ... -- ACTION", err)
