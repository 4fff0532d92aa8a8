"""scripts/sealed-run against the fake server: the three seals, and what they refuse."""

import json
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


    def choose(self, chooser, readers, replies):
        """Design, answer (scripted replies), score, choose and check a run of 3 items under
        `chooser`; its choice.json."""
        items = self.write("items.jsonl", make_items(3))
        run = self.path("run")
        with FakeServer() as fake:
            fake.script("qa", *[by_reader] * replies)
            fake.script("qb", *[by_reader] * replies)
            done = self.step("design", run, "--items", f"one={items}", "--readers", readers,
                             "--chooser", chooser, "--model-a", "qa", "--model-b", "qb",
                             "--base-url", fake.base_url, "--choose", f"{chooser}'s rule")
            self.assertEqual(done.returncode, 0, done.stderr)
            done = self.step("answers", run)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        for step in ("scores", "choose", "check"):
            done = self.step(step, run)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        with open(os.path.join(run, "choice.json")) as handle:
            return json.load(handle)

    def test_run_5_chooses_among_independent_pairs_beside_r1(self):
        choice = self.choose("run-5", "r1,f2", 10)
        rows = {row["reader"]: row for row in choice["candidates"]}
        self.assertEqual(set(rows), {"r1", "f2"})
        self.assertFalse(rows["r1"]["qualifies"])  # the baseline is not a candidate
        self.assertEqual(rows["r1"]["hook"]["items"], 3)
        expected = "f2" if rows["f2"]["qualifies"] else "r1"
        self.assertEqual(choice["winner"], expected)

    def test_run_13_holds_the_default_f_r3_as_its_baseline(self):
        choice = self.choose("run-13", "f2", 5)
        arms = [row["arm"] for row in choice["candidates"]]
        self.assertEqual((choice["baseline"], arms[0]), ("F+R3", "F+R3"))
        self.assertEqual(set(arms), {"F+R3", "answer", "F+R4", "F+A", "F+R2nc", "F+Anc"})
        self.assertIn(choice["winner"], arms)


def by_reader(body):
    """A scripted reply in the shape of whichever reader asked: a label for a menu reader."""
    text = body["messages"][1]["content"]
    line = next(l for l in text.splitlines() if "main -> main" in l).strip()
    if line.startswith("L") and ": " in line:
        return answer("shown", None, None).replace('"turn": null, "quote": null',
                                                   f'"line": "{line.split(":")[0]}"')
    return answer("shown", "T1", line)


class SeveralSets(TempDirTest):
    def step(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_sets_derived_readers_mixes_and_the_choice(self):
        one = self.write("one.jsonl", make_items(3))
        two = self.write("two.jsonl", make_items(2))
        run = self.path("run")
        with FakeServer() as fake:
            fake.script("qa", *[by_reader] * 10)
            fake.script("qb", *[by_reader] * 10)
            done = self.step("design", run, "--items", f"one={one}", "--items", f"two={two}",
                             "--readers", "v6,e1", "--derived", "e1c=e1:0.5", "--mix", "e1+v6",
                             "--chooser", "run-3", "--model-a", "qa", "--model-b", "qb",
                             "--base-url", fake.base_url, "--choose", "run 3's rule")
            self.assertEqual(done.returncode, 0, done.stderr)
            done = self.step("answers", run)
            self.assertEqual(done.returncode, 0, done.stderr)
        for step in ("scores", "choose", "check"):
            done = self.step(step, run)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        names = set(os.listdir(run))
        for name in ("items-one.jsonl", "answers-e1-two.jsonl", "score-v6-one.json",
                     "score-e1c-two.json", "score-mix-e1-v6-one.json", "choice.json",
                     "4-choice-SHA256.txt"):
            self.assertIn(name, names)
        with open(os.path.join(run, "choice.json")) as handle:
            choice = json.load(handle)
        self.assertEqual(choice["winner"], "v6")  # no candidate is strictly ahead
        self.assertEqual({row["reader"] for row in choice["candidates"]}, {"v6", "e1", "e1c"})
