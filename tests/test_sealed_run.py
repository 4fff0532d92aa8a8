"""scripts/sealed-run against the fake server: the three seals, and what they refuse."""

import os
import subprocess
import sys

from tests.fakeserver import FakeServer, answer
from tests.helpers import ROOT, TempDirTest, good, make_items

SCRIPT = os.path.join(ROOT, "scripts", "sealed-run")


class SealedRun(TempDirTest):
    def step(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_three_steps_then_tamper(self):
        items = self.write("items.jsonl", make_items(3))
        run = self.path("run")
        with FakeServer() as fake:
            fake.script("qa", *[good] * 3)
            fake.script("qb", *[good] * 3)
            done = self.step("design", run, "--items", items, "--model-a", "qa", "--model-b",
                             "qb", "--base-url", fake.base_url, "--choose", "v1 only")
            self.assertEqual(done.returncode, 0, done.stderr)
            done = self.step("scores", run)
            self.assertNotEqual(done.returncode, 0)  # answers are not sealed yet
            self.assertIn("2-answers", done.stderr)
            done = self.step("answers", run)
            self.assertEqual(done.returncode, 0, done.stderr)
        done = self.step("scores", run)
        self.assertEqual(done.returncode, 0, done.stderr)
        names = sorted(os.listdir(run))
        for name in ("1-design-SHA256.txt", "2-answers-SHA256.txt", "3-scores-SHA256.txt",
                     "design.json", "items.jsonl", "answers-v1.jsonl", "score-v1.json",
                     "score-v1.txt"):
            self.assertIn(name, names)
        done = subprocess.run(["sha256sum", "-c", "--ignore-missing", "1-design-SHA256.txt",
                               "2-answers-SHA256.txt", "3-scores-SHA256.txt"], cwd=run,
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertEqual(self.step("check", run).returncode, 0)
        done = self.step("design", run, "--items", items, "--model-a", "qa", "--model-b", "qb",
                         "--choose", "again")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("already has a sealed design", done.stderr)
        with open(os.path.join(run, "answers-v1.jsonl"), "a") as handle:
            handle.write("\n")
        done = self.step("check", run)
        self.assertEqual(done.returncode, 1)
        self.assertIn("answers-v1.jsonl: FAILED", done.stdout)

    def test_rerun_compares_with_the_sealed_scores(self):
        items = self.write("items.jsonl", make_items(3))
        run, again, moved = self.path("run"), self.path("again"), self.path("moved")
        with FakeServer() as fake:
            fake.script("qa", *[good] * 9)
            fake.script("qb", *[good] * 6, *[answer("not_shown", None, None)] * 3)
            self.step("design", run, "--items", items, "--model-a", "qa", "--model-b", "qb",
                      "--base-url", fake.base_url, "--choose", "v1 only")
            self.assertEqual(self.step("answers", run).returncode, 0)
            self.assertEqual(self.step("scores", run).returncode, 0)
            done = self.step("rerun", run, again)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("score-v1.json: the same as in", done.stdout)
            done = self.step("rerun", run, moved)  # model B now answers not_shown
            self.assertEqual(done.returncode, 1, done.stderr)
            self.assertIn("arms.B.false_shown.k: 2 -> 0", done.stdout)
            self.assertNotIn(".rate:", done.stdout)
        self.assertEqual(self.step("check", again).returncode, 0)
        done = self.step("rerun", run, again)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("already has a sealed design", done.stderr)
