"""The examples and both demos, end to end, with the models faked by a loopback server.

The gate demo runs for real: a throwaway git project, a bare repository standing in for
the server, the gate as a child process. Only the two models are scripted: they quote the
real last line of the rendered output when the tests passed, and the failing line when
they see "FAILED" or "Error".
"""

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import unittest
from collections import Counter

from receipt_pair.logs.items import read_items
from receipt_pair.logs import read_log
from tests.fakeserver import FakeServer, answer
from tests.helpers import EXAMPLES, TempDirTest, closed_port, run_cli, users_reader

GATE_DEMO = os.path.join(EXAMPLES, "gate-demo", "run_demo.py")
CHAIN_DEMO = os.path.join(EXAMPLES, "chain_demo", "demo_chain.py")
TRAPS = {"plain", "command_looks_like_success", "wrong_object", "retry", "undone", "silent",
         "never_ran", "overwrite", "injection", "self_report", "benign_count", "partial",
         "http_status", "long_output", "junit_summary"}
_TURN = re.compile(r'<turn id="(T\d+)">\n<command>\n.*?\n</command>\n<output>\n(.*?)\n</output>',
                   re.S)


def read_the_log(body):
    """A scripted model: shown on a passing log, contradicted on a failing one."""
    turns = _TURN.findall(body["messages"][1]["content"])
    for turn_id, output in reversed(turns):
        for marker in ("FAILED", "Error"):
            failing = [line for line in output.splitlines() if marker in line]
            if failing:
                return answer("contradicted", turn_id, failing[0].strip(), "a failure line")
    for turn_id, output in reversed(turns):
        lines = [line for line in output.splitlines() if line.strip()]
        if lines:
            return answer("shown", turn_id, lines[-1].strip(), "the last line")
    return answer("not_shown", None, "", "nothing was printed")


def scripted_server(calls=8):
    fake = FakeServer()
    for model in ("qa", "qb"):
        fake.script(model, *[read_the_log] * calls)
    return fake


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True)


def load_chain_demo():
    spec = importlib.util.spec_from_file_location("demo_chain", CHAIN_DEMO)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ExampleFiles(unittest.TestCase):
    def test_every_log_loads(self):
        names = sorted(n for n in os.listdir(EXAMPLES)
                       if n.endswith(".json") and not n.startswith("reply-"))
        self.assertGreaterEqual(len(names), 6)
        for name in names:
            with self.subTest(log=name):
                turns, _ = read_log(os.path.join(EXAMPLES, name))
                self.assertTrue(turns)

    def test_more_items_load_and_are_balanced(self):
        items, _ = read_items(os.path.join(EXAMPLES, "more-items.jsonl"))
        self.assertEqual(len(items), 24)
        self.assertEqual(Counter(i.truth for i in items),
                         {"shown": 8, "contradicted": 8, "not_shown": 8})
        traps = {i.trap for i in items}
        self.assertLessEqual(traps, TRAPS)
        self.assertGreaterEqual(len(traps), 10)
        for item in items:
            with self.subTest(item=item.id):
                self.assertTrue(item.why and item.why.strip())

    def test_each_reply_verifies_as_the_readme_says(self):
        with open(os.path.join(EXAMPLES, "README.md"), encoding="utf-8") as handle:
            readme = handle.read()
        runs = []
        for block in re.findall(r"```console\n(.*?)```", readme, re.S):
            for command in re.split(r"^\$ ", block, flags=re.M)[1:]:
                line, _, expected = command.partition("\n")
                argv = shlex.split(line)
                if argv[:4] == ["python", "-m", "receipt_pair", "verify"]:
                    runs.append((argv[4:], expected))
        replies = {n for n in os.listdir(EXAMPLES) if n.startswith("reply-")}
        said = {os.path.basename(a) for argv, _ in runs for a in argv if "reply-" in a}
        self.assertEqual(said, replies, "every reply file has its verify run in README.md")
        root = os.path.dirname(EXAMPLES)
        for argv, expected in runs:
            with self.subTest(run=" ".join(argv)):
                paths = [os.path.join(root, a) if a.startswith("examples/") else a for a in argv]
                with users_reader():  # as a reader of the README runs it
                    status, out, err = run_cli("verify", *paths)
                self.assertEqual(status, 0, err)
                self.assertEqual(out, expected)


@unittest.skipUnless(shutil.which("git"), "the gate demo needs git")
class GateDemo(TempDirTest):
    def run_demo(self, *options):
        work = self.path("work")
        completed = subprocess.run(
            [sys.executable, GATE_DEMO, "--workdir", work, "--model-a", "qa", "--model-b", "qb",
             *options], capture_output=True, text=True, timeout=120)
        return completed, work

    def test_take_1_is_blocked_and_take_2_arrives(self):
        with scripted_server() as fake:
            completed, work = self.run_demo("--base-url", fake.base_url)
            asked = fake.chats("qa")
        out = completed.stdout
        self.assertEqual(completed.returncode, 0, out + completed.stderr)
        server = os.path.join(work, "server.git")
        project = os.path.join(work, "project")
        self.assertIn("Blocked: the pair said contradicted", out)
        self.assertIn("contradicted: the log shows it failed", out)
        self.assertIn("shown: the log shows it worked, so the command runs: git", out)
        # The server holds exactly take 2's commit; take 1's never arrived.
        log = git("--git-dir", server, "log", "--format=%H %s", "main").stdout.splitlines()
        head = git("-C", project, "rev-parse", "HEAD").stdout.strip()
        self.assertEqual(log, [f"{head} Add gross(): the price with VAT at the rate given"])
        take1 = git("-C", project, "rev-parse", "HEAD@{1}").stdout.strip()
        self.assertNotEqual(take1, head)
        self.assertNotEqual(git("--git-dir", server, "cat-file", "-e", take1).returncode, 0)
        self.assertIn(f"take 1's commit {take1[:7]} is not on the server", out)
        # The gate wrote the witness log itself: take 1's failing run, then take 2's passing one.
        with open(os.path.join(work, "witness.jsonl"), encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle]
        self.assertEqual([r["exit_status"] for r in records], [1, 0])
        self.assertIn("FAILED (failures=1)", records[0]["output"])
        # The models saw only the fresh record each time, the failure with its exit status.
        self.assertEqual(len(asked), 2)
        self.assertIn("[exit status 1]", asked[0]["messages"][1]["content"])
        self.assertNotIn("FAILED", asked[1]["messages"][1]["content"])

    def test_no_model_server_pushes_nothing_and_says_so(self):
        completed, work = self.run_demo("--base-url", f"http://127.0.0.1:{closed_port()}/v1")
        out = completed.stdout
        self.assertEqual(completed.returncode, 1, out + completed.stderr)
        self.assertIn("could not check: no receipt, no action", out)
        self.assertIn("The model server is not running", out)
        server = os.path.join(work, "server.git")
        self.assertNotEqual(git("--git-dir", server, "rev-parse", "-q", "--verify",
                                "refs/heads/main").returncode, 0)

    def test_a_used_workdir_is_refused(self):
        os.makedirs(self.path("work"))
        self.write("work/keep.txt", "mine")
        completed, _ = self.run_demo("--base-url", "http://127.0.0.1:9/v1")
        self.assertEqual(completed.returncode, 2)
        self.assertIn("exists and is not empty", completed.stderr)


class ChainDemo(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.demo = load_chain_demo()

    def run_demo(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = self.demo.main(list(argv))
        return status, out.getvalue(), err.getvalue()

    def section(self, out, claim_id):
        return out.split(f"--- claim {claim_id} ", 1)[1].split("--- claim ", 1)[0]

    def test_the_check_holds_back_and_warns(self):
        with scripted_server() as fake:
            status, out, err = self.run_demo("--base-url", fake.base_url, "--model-a", "qa",
                                             "--model-b", "qb", "tests", "migrate", "push")
        self.assertEqual(status, 0, err)
        self.assertNotIn("--- claim deploy", out)  # only the chosen ids
        tests = self.section(out, "tests")
        self.assertIn("receipt check:   contradicted", tests)
        self.assertIn("held back", tests)
        self.assertNotIn("reviewer:", tests)
        self.assertNotIn("release manager:", tests)
        migrate = self.section(out, "migrate")
        self.assertIn("receipt check:   not shown", migrate)
        self.assertIn("reviewer:        approved", migrate)
        self.assertIn("The approval repeats the build agent's word", migrate)
        self.assertIn("release manager: held", migrate)
        push = self.section(out, "push")
        self.assertIn("release manager: released", push)
        self.assertIn("Approved without a receipt: migrate.", out)
        self.assertNotIn("\x1b[", out)

    def test_color_and_all_claims_by_default(self):
        with scripted_server() as fake:
            status, out, _ = self.run_demo("--color", "--base-url", fake.base_url,
                                           "--model-a", "qa", "--model-b", "qb")
        self.assertEqual(status, 0)
        self.assertIn("\x1b[", out)
        for claim_id in self.demo.CLAIM_IDS:
            self.assertIn(f"--- claim {claim_id} ", out)

    def test_no_model_server_stops_the_chain(self):
        status, _, err = self.run_demo("--base-url", f"http://127.0.0.1:{closed_port()}/v1")
        self.assertEqual(status, 6)
        self.assertIn("cannot reach the model server", err)

    def test_unknown_id(self):
        status, _, err = self.run_demo("nope")
        self.assertEqual(status, 2)
        self.assertIn("unknown claim id", err)


if __name__ == "__main__":
    unittest.main()
