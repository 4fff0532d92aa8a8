"""score on a hand-worked example: every count, the Wilson interval, the pins."""

import json
import unittest

from receipt_pair.logs.items import read_items
from receipt_pair.store.records import ANSWERS_SCHEMA
from receipt_pair.audit.score import score, wilson

from tests.helpers import TempDirTest, run_cli

TRUTH = {"s1": "shown", "s2": "shown", "s3": "shown", "s4": "shown",
         "c1": "contradicted", "c2": "contradicted", "c3": "contradicted",
         "n1": "not_shown", "n2": "not_shown", "n3": "not_shown"}
# id -> (model A's verdict, A's checked answer, B's checked answer); None: A's call failed.
ANSWERS = {
    "s1": ("shown", "shown", "shown"),
    "s2": ("shown", "shown", "not shown"),
    "s3": ("shown", "not shown", "not shown"),  # a right verdict the check overturned
    "s4": ("contradicted", "contradicted", "not shown"),
    "c1": ("contradicted", "contradicted", "contradicted"),
    "c2": ("not_shown", "not shown", "not shown"),
    "c3": ("shown", "shown", "not shown"),
    "n1": ("shown", "not shown", "not shown"),  # a wrong verdict the check caught
    "n2": ("shown", "shown", "shown"),
    "n3": None,
}


def item_line(item_id, trap):
    return json.dumps({"id": item_id, "claim": "c", "turns": [{"cmd": "x", "output": "y"}],
                       "truth": TRUTH[item_id], "trap": trap})


def row(item_id, arm, verdict, answer, error=None):
    code = "ok" if answer != "not shown" else ("model_not_shown" if verdict == "not_shown"
                                              else "quote_not_found")
    return {"schema": ANSWERS_SCHEMA, "kind": "answer", "id": item_id, "arm": arm,
            "verdict": verdict, "answer": answer, "code": code if not error else "call_failed",
            "error": error}


class HandWorked(TempDirTest):
    def setUp(self):
        super().setUp()
        lines = [item_line(i, "overwrite" if i in ("s1", "c1") else "plain") for i in TRUTH]
        self.items_path = self.write("items.jsonl", "\n".join(lines) + "\n")
        self.items, self.sha = read_items(self.items_path)
        self.header = {"schema": ANSWERS_SCHEMA, "kind": "items", "items_sha256": self.sha,
                       "items_count": 10, "models": {"A": "a", "B": "b"}, "reader": "v1"}
        self.rows = []
        for item_id, spec in ANSWERS.items():
            if spec is None:
                self.rows.append(row(item_id, "A", None, "not shown", error="HTTP 500"))
                self.rows.append(row(item_id, "B", "not_shown", "not shown"))
                continue
            verdict, a, b = spec
            self.rows.append(row(item_id, "A", verdict, a))
            self.rows.append(row(item_id, "B", "shown" if b == "shown" else
                                 "contradicted" if b == "contradicted" else "not_shown", b))

    def k_n(self, result, arm, measure):
        value = result["arms"][arm][measure]
        return value["k"], value["n"]

    def test_model_a_counts(self):
        result = score(self.items, self.sha, self.header, self.rows)
        self.assertEqual(result["items"], 10)
        self.assertEqual(self.k_n(result, "A", "right"), (4, 10))  # s1, s2, c1, n1
        self.assertEqual(self.k_n(result, "A", "false_shown"), (2, 6))  # c3, n2
        self.assertEqual(self.k_n(result, "A", "true_shown_kept"), (2, 4))  # s1, s2
        self.assertEqual(self.k_n(result, "A", "correct_not_shown"), (1, 3))  # n1; n3 failed
        self.assertEqual(self.k_n(result, "A", "false_contradicted"), (1, 7))  # s4
        self.assertEqual(self.k_n(result, "A", "true_contradicted_kept"), (1, 3))  # c1

    def test_pair_counts(self):
        result = score(self.items, self.sha, self.header, self.rows)
        # R2: shown where both said shown (s1, n2); contradicted where one said it and the
        # other abstained or agreed (s4, c1).
        self.assertEqual(self.k_n(result, "R2", "true_shown_kept"), (1, 4))
        self.assertEqual(self.k_n(result, "R2", "false_shown"), (1, 6))
        self.assertEqual(self.k_n(result, "R2", "false_contradicted"), (1, 7))
        self.assertEqual(self.k_n(result, "R2", "true_contradicted_kept"), (1, 3))
        # R3 keeps only agreement; it is right on s1 (shown), c1 (contradicted) and n1 (both
        # not shown); n3 has no usable answer from A, so it is wrong.
        self.assertEqual(self.k_n(result, "R3", "right"), (3, 10))
        # R1 lets A's shown stand when B abstains: s1 and s2.
        self.assertEqual(self.k_n(result, "R1", "true_shown_kept"), (2, 4))

    def test_wilson_by_hand(self):
        low, high = wilson(4, 10)
        # p = 0.4, z = 1.959964: centre (0.4 + z²/20) / (1 + z²/10) = 0.427753,
        # half-width z·sqrt(0.024 + z²/400) / (1 + z²/10) = 0.259573.
        self.assertAlmostEqual(low, 0.168180, places=5)
        self.assertAlmostEqual(high, 0.687326, places=5)
        self.assertEqual(wilson(0, 0), (0.0, 1.0))
        low, high = wilson(0, 5)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 0.434482, places=5)
        low, high = wilson(40, 40)
        self.assertAlmostEqual(low, 0.912376, places=5)
        self.assertEqual(high, 1.0)
        result = score(self.items, self.sha, self.header, self.rows)
        self.assertEqual(result["arms"]["A"]["right"],
                         {"k": 4, "n": 10, "rate": 0.4, "low": 0.1682, "high": 0.6873})

    def test_lists_and_traps(self):
        result = score(self.items, self.sha, self.header, self.rows)
        self.assertEqual(result["no_answer"]["A"], {"failed": ["n3"], "missing": []})
        self.assertEqual(result["wrong"]["A"], 6)
        # A is wrong on s3 s4 c2 c3 n2 n3; B on s2 s3 s4 c2 c3 n2 (n3: B's not shown is right).
        self.assertEqual(result["wrong"]["both_ids"], ["c2", "c3", "n2", "s3", "s4"])
        self.assertEqual(result["check_changed"]["A"]["overturned_ids"], ["s3"])
        self.assertEqual(result["check_changed"]["A"]["caught_ids"], ["n1"])
        self.assertEqual(result["traps"]["overwrite"]["items"], 2)
        self.assertEqual(result["traps"]["overwrite"]["arms"]["R2"]["right"]["k"], 2)

    def test_cli_pins(self):
        answers = self.write("answers.jsonl", "\n".join(
            json.dumps(r) for r in [self.header] + self.rows) + "\n")
        status, out, err = run_cli("score", answers, self.items_path)
        self.assertEqual(status, 0, err)
        self.assertIn("4 of 10", out)
        other = self.write("other.jsonl", item_line("s1", "plain") + "\n")
        status, out, err = run_cli("score", answers, other)
        self.assertEqual(status, 2)
        self.assertIn("pinned another items file", err)
        missing = self.write("missing.jsonl", "\n".join(
            json.dumps(r) for r in [self.header] + self.rows[:-2]) + "\n")
        status, out, err = run_cli("score", missing, self.items_path)
        self.assertEqual(status, 2)
        self.assertIn("never asked", err)
        self.assertIn("never asked ['n3']", out)


if __name__ == "__main__":
    unittest.main()


class OnlyTheFactsContradict(unittest.TestCase):
    """The arms "F+R2nc" and "F+Anc": the facts where they decide, else the models, with a
    model's `contradicted` read as `not shown` (only the facts contradict)."""

    def test_a_models_contradiction_is_not_shown_and_the_facts_stand(self):
        from receipt_pair.audit.score import facts_arms
        items, _ = read_items_from(["s4", "c1", "s1"])
        answers = {"R2": {"s4": "contradicted", "c1": "contradicted", "s1": "shown"},
                   "A": {"s4": "contradicted", "c1": "contradicted", "s1": "shown"}}
        for arm in ("R1", "R3", "R4", "B"):
            answers[arm] = dict(answers["R2"])
        facts = {"c1": {"answer": "contradicted"}}
        arms = facts_arms(items, answers, facts)
        for arm in ("F+R2nc", "F+Anc"):
            with self.subTest(arm):
                self.assertEqual(arms[arm], {"s4": "not shown", "c1": "contradicted",
                                             "s1": "shown"})
        self.assertEqual(arms["answer"]["s4"], "contradicted")


def read_items_from(ids):
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "items.jsonl")
        with open(path, "w") as handle:
            handle.write("".join(item_line(i, "t") + "\n" for i in ids))
        return read_items(path)
