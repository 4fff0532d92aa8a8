"""The redactor: every version still gives what it gave, and the current one redacts each
secret shape whole while ordinary text stays (golden cases in tests/data/secrets/)."""

import json
import os
import unittest

from receipt_pair.errors import InputError
from receipt_pair.logs.redact import (MARK, REDACTOR_VERSION, REDACTOR_VERSIONS, redact,
                                      redact_turns)
from receipt_pair.turn import Turn

from tests.helpers import DATA

SECRETS = os.path.join(DATA, "secrets")


def load(name):
    with open(os.path.join(SECRETS, name), encoding="utf-8") as handle:
        return json.load(handle)


class Versions(unittest.TestCase):
    def test_s1_gives_what_it_gave(self):
        # A receipt that records s1 re-derives only while s1 redacts as it did.
        cases = load("s1-pinned.json")["cases"]
        self.assertGreaterEqual(len(cases), 10)
        for case in cases:
            with self.subTest(text=case["text"]):
                self.assertEqual(redact(case["text"], version="s1"),
                                 (case["redacted"], case["count"]))

    def test_the_current_version_is_the_default_and_known(self):
        self.assertIn(REDACTOR_VERSION, REDACTOR_VERSIONS)
        self.assertEqual(REDACTOR_VERSIONS[0], "s1")
        self.assertEqual(MARK, "[REDACTED]")
        text = "export GITHUB_TOKEN=ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3"
        self.assertEqual(redact(text), redact(text, version=REDACTOR_VERSION))

    def test_an_unknown_version_is_a_clear_error(self):
        for version in ("s0", "s99", None, 2):
            with self.subTest(version=version):
                with self.assertRaises(InputError) as caught:
                    redact("PGPASSWORD=hunter22", version=version)
                self.assertIn("redactor version", str(caught.exception))

    def test_redact_turns_runs_the_version_asked(self):
        turns = [Turn(cmd="psql", output="DB_PASS=s3cr3t-value"), Turn(cmd="ls", output="a b")]
        for version in REDACTOR_VERSIONS:
            with self.subTest(version=version):
                out, count = redact_turns(turns, version=version)
                expected = [redact(t.output, version=version) for t in turns]
                self.assertEqual([t.output for t in out], [text for text, _ in expected])
                self.assertEqual(count, sum(n for _, n in expected))
                self.assertIs(out[1], turns[1])  # an untouched turn is the same turn


if __name__ == "__main__":
    unittest.main()
