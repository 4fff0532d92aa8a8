"""The sealed winner rule of run 2, on made-up scores."""

import importlib.machinery
import importlib.util
import json
import os
import unittest

from receipt_pair.readers import DEFAULT_READER, SEALED_DEFAULT
from tests.helpers import ROOT

loader = importlib.machinery.SourceFileLoader("choose_reader",
                                              os.path.join(ROOT, "scripts", "choose-reader"))
spec = importlib.util.spec_from_loader("choose_reader", loader)
choose_reader = importlib.util.module_from_spec(spec)
loader.exec_module(choose_reader)


def score(false_shown, true_shown_kept, right):
    return {"arms": {"R2": {"false_shown": {"k": false_shown}, "true_shown_kept":
                            {"k": true_shown_kept}, "right": {"k": right}}}}


class Rule(unittest.TestCase):
    def test_most_true_shown_within_the_false_shown_limit(self):
        scores = {"v1": score(2, 3, 40), "v2": score(9, 20, 45), "v4": score(3, 6, 38),
                  "v5": score(1, 6, 41)}
        seconds = {"v1": 9.0, "v2": 9.5, "v4": 11.0, "v5": 9.1}
        winner, detail = choose_reader.choose(scores, seconds)
        self.assertEqual(winner, "v5")  # v2 is over the limit (3); v5 ties v4, more right
        self.assertEqual(detail["false_shown_limit"], 3)
        self.assertFalse(next(r for r in detail["readers"] if r["reader"] == "v2")["qualifies"])

    def test_v1_stays_unless_strictly_ahead(self):
        scores = {"v1": score(0, 2, 30), "v2": score(0, 2, 30)}
        winner, _ = choose_reader.choose(scores, {"v1": 10.0, "v2": 5.0})
        self.assertEqual(winner, "v1")
        scores = {"v1": score(0, 2, 30), "v2": score(5, 9, 35)}
        winner, _ = choose_reader.choose(scores, {"v1": 10.0, "v2": 5.0})
        self.assertEqual(winner, "v1")

    def test_time_breaks_a_full_tie_between_others(self):
        scores = {"v1": score(0, 1, 20), "v4": score(1, 4, 30), "v5": score(1, 4, 30)}
        winner, _ = choose_reader.choose(scores, {"v1": 9.0, "v4": 12.0, "v5": 8.0})
        self.assertEqual(winner, "v5")


class Default(unittest.TestCase):
    def test_the_default_reader_is_the_latest_sealed_winner(self):
        # Run 5's sealed choice names the default; run 3 had chosen r1, and run 2's winner
        # (v1) is retired: its hardened twin v6 stood in for it until run 3.
        with open(os.path.join(ROOT, "receipts", "run-5-real", "choice.json")) as handle:
            self.assertEqual(DEFAULT_READER, SEALED_DEFAULT[json.load(handle)["winner"]])
        with open(os.path.join(ROOT, "receipts", "run-3-structure", "choice.json")) as handle:
            self.assertEqual(SEALED_DEFAULT[json.load(handle)["winner"]], "r1")
        with open(os.path.join(ROOT, "receipts", "run-2-readers", "choice.json")) as handle:
            self.assertEqual(SEALED_DEFAULT[json.load(handle)["winner"]], "v6")


if __name__ == "__main__":
    unittest.main()
