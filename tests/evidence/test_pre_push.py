"""scripts/pre-push and .pre-commit-hooks.yaml: real git pushes to a local bare repository,
with the hook linked in and the fake model server standing in for the models."""

import json
import os
import shlex
import shutil
import subprocess
import sys
import unittest

from tests.fakeserver import FakeServer, answer
from tests.helpers import ROOT, TempDirTest, closed_port

SCRIPT = os.path.join(ROOT, "scripts", "pre-push")
PASSING = [sys.executable, "-c", "import sys; print('3 passed in 0.01s')"]
FAILING = [sys.executable, "-c", "import sys; print('1 failed, 2 passed in 0.02s'); sys.exit(1)"]


def shown_if_there(line):
    def reply(body):
        text = body["messages"][-1]["content"]
        return answer("shown", "T1", line) if line in text else answer("not_shown")
    return reply


@unittest.skipUnless(shutil.which("git"), "git is not installed")
class PrePush(TempDirTest):
    def setUp(self):
        super().setUp()
        self.fake = FakeServer()
        self.fake.__enter__()
        self.addCleanup(self.fake.__exit__, None, None, None)
        self.fake.default = shown_if_there("3 passed in 0.01s")
        self.env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
                        RECEIPT_PAIR_BASE_URL=self.fake.base_url, RECEIPT_PAIR_MODEL_A="A",
                        RECEIPT_PAIR_MODEL_B="B")
        for name in ("RECEIPT_PAIR_TEST_COMMAND", "RECEIPT_PAIR_CLAIM", "RECEIPT_PAIR_GATE_ARGS"):
            self.env.pop(name, None)
        self.remote = self.path("remote.git")
        self.work = self.path("work")
        self.git("init", "-q", "--bare", self.remote, cwd=self.dir)
        self.git("init", "-q", "-b", "main", self.work, cwd=self.dir)
        self.git("remote", "add", "origin", self.remote)
        with open(os.path.join(self.work, "app.py"), "w") as handle:
            handle.write("print('hello')\n")
        self.git("add", "app.py")
        self.git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one")
        os.symlink(SCRIPT, os.path.join(self.work, ".git", "hooks", "pre-push"))

    def git(self, *args, cwd=None, check=True):
        return subprocess.run(["git", *args], cwd=cwd or self.work, env=self.env, text=True,
                              capture_output=True, check=check)

    def push(self):
        return self.git("push", "-q", "origin", "main", check=False)

    def pushed(self):
        done = subprocess.run(["git", "--git-dir", self.remote, "rev-parse", "--verify", "-q",
                               "main"], capture_output=True, text=True, env=self.env)
        return done.returncode == 0

    def test_tests_shown_passing_let_the_push_through(self):
        self.git("config", "receipt-pair.test-command", shlex.join(PASSING))
        done = self.push()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(self.pushed())
        self.assertIn("goes ahead", done.stdout + done.stderr)
        folder = os.path.join(self.work, ".git", "receipt-pair")
        receipts = [n for n in os.listdir(folder) if n.startswith("receipt-")]
        self.assertEqual(len(receipts), 1)
        with open(os.path.join(folder, receipts[0])) as handle:
            receipt = json.load(handle)
        self.assertEqual((receipt["made_by"], receipt["answer"]), ("gate", "shown"))
        self.assertEqual(receipt["claim"], "the tests pass")

    def test_failing_tests_stop_the_push_whatever_the_models_say(self):
        self.fake.default = answer("shown", "T1", "1 failed, 2 passed in 0.02s")
        self.git("config", "receipt-pair.test-command", shlex.join(FAILING))
        done = self.push()
        self.assertNotEqual(done.returncode, 0)
        self.assertFalse(self.pushed())
        self.assertIn("the push is stopped", done.stderr)

    def test_the_environment_wins_and_the_claim_can_be_set(self):
        self.git("config", "receipt-pair.test-command", shlex.join(FAILING))
        self.env["RECEIPT_PAIR_TEST_COMMAND"] = shlex.join(PASSING)
        self.env["RECEIPT_PAIR_CLAIM"] = "all three tests pass"
        done = self.push()
        self.assertEqual(done.returncode, 0, done.stderr)
        claims = {b["messages"][-1]["content"].split("\n")[0] for b in self.fake.chats()}
        self.assertIn("Claim: all three tests pass", claims)

    def test_no_test_command_stops_the_push_and_says_how(self):
        done = self.push()
        self.assertNotEqual(done.returncode, 0)
        self.assertFalse(self.pushed())
        self.assertIn("git config receipt-pair.test-command", done.stderr)
        self.assertEqual(self.fake.chats(), [])

    def test_a_server_that_is_down_stops_the_push(self):
        self.git("config", "receipt-pair.test-command", shlex.join(PASSING))
        self.env["RECEIPT_PAIR_BASE_URL"] = f"http://127.0.0.1:{closed_port()}/v1"
        done = self.push()
        self.assertNotEqual(done.returncode, 0)
        self.assertFalse(self.pushed())
        self.assertIn("could not check", done.stdout + done.stderr)

    def test_gate_options_are_passed_on(self):
        self.git("config", "receipt-pair.test-command", shlex.join(PASSING))
        self.git("config", "receipt-pair.gate-args", "--rule r3")
        done = self.push()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.git("config", "receipt-pair.gate-args", "--rule r1")  # the gate refuses r1
        self.git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q",
                 "--allow-empty", "-m", "two")
        self.assertNotEqual(self.push().returncode, 0)

    def test_deleting_a_ref_runs_nothing(self):
        zero = "0" * 40
        done = subprocess.run([sys.executable, SCRIPT, "origin", self.remote], cwd=self.work,
                              env=self.env, text=True, capture_output=True,
                              input=f"(delete) {zero} refs/heads/old {'1' * 40}\n")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.fake.chats(), [])

    def test_outside_a_repository_it_stops_and_makes_no_folder(self):
        outside = self.path("outside")
        os.mkdir(outside)
        env = dict(self.env, RECEIPT_PAIR_TEST_COMMAND=shlex.join(PASSING),
                   GIT_CEILING_DIRECTORIES=self.dir)
        done = subprocess.run([sys.executable, SCRIPT, "origin", self.remote], cwd=outside,
                              env=env, text=True, capture_output=True, input="")
        self.assertEqual(done.returncode, 1)
        self.assertIn("not a git folder", done.stderr)
        self.assertEqual(os.listdir(outside), [])
        self.assertEqual(self.fake.chats(), [])


class PreCommitManifest(unittest.TestCase):
    def test_the_entry(self):
        with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as handle:
            lines = [line.strip() for line in handle if line.strip() and
                     not line.lstrip().startswith("#")]
        fields = dict(line.lstrip("- ").split(": ", 1) for line in lines)
        self.assertEqual(fields["id"], "receipt-pair-gate")
        self.assertEqual(fields["entry"], "scripts/pre-push")
        self.assertEqual(fields["language"], "script")
        self.assertEqual(fields["stages"], "[pre-push]")
        self.assertEqual(fields["pass_filenames"], "false")
        self.assertEqual(fields["always_run"], "true")
        self.assertTrue(fields["name"])
        self.assertTrue(os.access(os.path.join(ROOT, fields["entry"]), os.X_OK))


if __name__ == "__main__":
    unittest.main()
