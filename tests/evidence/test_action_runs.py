"""The GitHub Action's own steps (action.yml), run in bash as a runner runs them: installed
from a copy of this checkout into a virtual environment, then `ci` over a workspace with a
receipt that holds, a tampered one and a ledger, with the runner's files
(GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) in a temporary folder."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tests.helpers import EXAMPLES, ROOT, closed_port

try:
    import yaml
except ImportError:
    yaml = None

SHIPPED = ("pyproject.toml", "README.md", "LICENSE", "receipt_pair")


@unittest.skipIf(yaml is None, "PyYAML is not installed: the action's steps cannot be read")
@unittest.skipIf(shutil.which("bash") is None, "no bash to run the action's steps")
class ActionSteps(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receipt-pair-action-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        with open(os.path.join(ROOT, "action.yml"), encoding="utf-8") as handle:
            self.steps = yaml.safe_load(handle)["runs"]["steps"]
        # the action's checkout: what pip builds from (its build/ stays out of this one)
        self.action = os.path.join(self.dir, "action")
        os.makedirs(self.action)
        for name in SHIPPED:
            source = os.path.join(ROOT, name)
            copy = shutil.copytree if os.path.isdir(source) else shutil.copy
            copy(source, os.path.join(self.action, name))
        self.workspace = os.path.join(self.dir, "workspace")
        os.makedirs(os.path.join(self.workspace, "receipts"))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("RECEIPT_PAIR_")}
        self.env.update(GITHUB_ACTION_PATH=self.action, RUNNER_TEMP=self.dir,
                        GITHUB_WORKSPACE=self.workspace,
                        GITHUB_STEP_SUMMARY=os.path.join(self.dir, "summary.md"))

    def receipts(self):
        """A receipt that holds, one edited after it was made, and a ledger: made by this
        checkout's check --save with the facts deciding (no server)."""
        shutil.copy(os.path.join(EXAMPLES, "push-ok.json"), self.workspace)
        down = f"http://127.0.0.1:{closed_port()}/v1"
        for name, claim in (("good.json", "I pushed the parser fix to fix/parser"),
                            ("edited.json", "the tests pass")):
            subprocess.run([sys.executable, "-m", "receipt_pair", "check", "--claim", claim,
                            "--log", "push-ok.json", "--base-url", down, "--save",
                            f"receipts/{name}", "--ledger", "receipts/ledger.jsonl"],
                           cwd=self.workspace, env=dict(self.env, PYTHONPATH=ROOT),
                           check=True, capture_output=True)
        path = os.path.join(self.workspace, "receipts", "edited.json")
        with open(path, encoding="utf-8") as handle:
            receipt = json.load(handle)
        receipt["claim"] = "the tests pass | <b>all</b>\n::error::forged"
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(receipt, handle)

    def step(self, number, cwd, **env):
        output = os.path.join(self.dir, f"output-{number}.txt")
        done = subprocess.run(["bash", "-c", self.steps[number]["run"]], cwd=cwd,
                              env=dict(self.env, GITHUB_OUTPUT=output, **env),
                              capture_output=True, text=True, timeout=600)
        with open(output, encoding="utf-8") as handle:
            return done, dict(line.split("=", 1) for line in handle.read().splitlines())

    def test_installed_from_its_checkout_it_fails_on_the_edited_receipt(self):
        self.receipts()
        done, outputs = self.step(0, self.dir, RP_PYTHON=sys.executable)
        if done.returncode != 0 and "setuptools" in done.stderr:
            self.skipTest(f"pip cannot fetch the build backend here: {done.stderr[-200:]}")
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        inputs = {"RP_RECEIPTS": "receipts/*.json", "RP_LEDGERS": "receipts/ledger.jsonl",
                  "RP_EXPIRY": "true", "RP_REQUIRE_SHOWN": "false",
                  "RP_ALLOW_MISSING": "false", "RP_CLAIMS": "", "RP_BASE_URL": "",
                  "RP_MODEL_A": "", "RP_MODEL_B": "", "RP_ALLOW_REMOTE": "false"}
        done, outputs = self.step(1, self.workspace, RP_PYTHON=outputs["python"], **inputs)
        self.assertEqual(done.returncode, 1, done.stderr[-2000:])
        self.assertEqual(outputs, {"result": "fail", "checked": "4", "failed": "1"})
        errors = [line for line in done.stdout.splitlines() if line.startswith("::")]
        self.assertEqual(len(errors), 1, done.stdout)
        self.assertTrue(errors[0].startswith("::error file=receipts/edited.json,title="))
        with open(self.env["GITHUB_STEP_SUMMARY"], encoding="utf-8") as handle:
            summary = handle.read()
        self.assertIn("## receipt-pair ci: 1 of 4 do not hold", summary)
        self.assertNotIn("<b>", summary)


if __name__ == "__main__":
    unittest.main()
