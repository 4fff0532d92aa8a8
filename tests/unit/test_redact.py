"""The redactor: every version still gives what it gave, and the current one redacts each
secret shape whole while ordinary text stays (golden cases in tests/data/secrets/)."""

import hashlib
import json
import os
import time
import unittest

from receipt_pair.errors import InputError
from receipt_pair.logs import redact_s1, redact_s2_names, redact_s2_shapes
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

    def test_s1_code_is_frozen(self):
        # s1's code byte for byte as main had it when s2 was written (from `import re` on):
        # a change of what is redacted is a new version, never an edit of an old one.
        with open(redact_s1.__file__, encoding="utf-8") as handle:
            source = handle.read()
        code = source[source.index("\nimport re\n"):]
        self.assertEqual(hashlib.sha256(code.encode()).hexdigest(),
                         "9cb99ed293cc25e0bc0003bad56ddb643a51316187e7a7ddb952bf6e2201f646")

    def test_s2_gives_what_it_gave(self):
        # A receipt that records s2 re-derives only while s2 redacts as it did when s3 was
        # written: the golden texts of then, and the red-team's logs that s3 redacts more of.
        cases = load("s2-pinned.json")["cases"]
        self.assertGreaterEqual(len(cases), 300)
        for case in cases:
            with self.subTest(text=case["text"][:60]):
                self.assertEqual(redact(case["text"], version="s2"),
                                 (case["redacted"], case["count"]))

    def test_s2_code_is_frozen(self):
        # s2's finders byte for byte as secret_shapes.py and secret_names.py had them when
        # s3 was written (the names module reads its placeholders from the frozen shapes).
        for module, start, digest in (
                (redact_s2_shapes, "\nimport re\n",
                 "c00ddded06f806a350f42a0cf5dcd75353c1465ae3725e688fb01da4f6fdc6f4"),
                (redact_s2_names, "\nimport functools\n",
                 "1c6e015ac0b7bca69332801bbf9af567dcadcfec4e46496ec835e2b7ec8a7c1d")):
            with self.subTest(module.__name__):
                with open(module.__file__, encoding="utf-8") as handle:
                    source = handle.read()
                code = source[source.index(start):]
                self.assertEqual(hashlib.sha256(code.encode()).hexdigest(), digest)

    def test_s3_takes_what_s2_let_through_and_s2_still_does_not(self):
        # red-team cases c8-01 and c8-04: each shape's secret goes whole under s3; s2,
        # frozen, gives what it gave
        for text, secret in (
                ("[server]\npassword = My Long Pass Phrase 42", "My Long Pass Phrase 42"),
                ("gh secret set API_TOKEN --body Gs7Ee8Cc9Rr0Tt1Yy2", "Gs7Ee8Cc9Rr0Tt1Yy2"),
                ("db.internal:5432:app:app:Xy7Pq9Wr2Zt4", "Xy7Pq9Wr2Zt4"),
                ("ldapsearch -x -D cn=admin -w Lq1Aw2Se3Dr4 -b dc=acme", "Lq1Aw2Se3Dr4"),
                ("zip -P Zp4Ww5Ee6Rr7 backup.zip db.sql", "Zp4Ww5Ee6Rr7"),
                ('network={\n  psk="Wf1Ii2Pp3Ss4Kk5"\n}', "Wf1Ii2Pp3Ss4Kk5"),
                ("admin:$apr1$Q1w2E3r4$Zx9Cv8Bn7Mq6Wr5Ty4Ui3/", "$apr1$Q1w2E3r4$Zx9Cv8Bn7Mq6Wr5Ty4Ui3/"),
                ("LIN=lin_api_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No",
                 "lin_api_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No"),
                ("[db]\npwd = Vb6Nm7Qw8Er9Ty0U", "Vb6Nm7Qw8Er9Ty0U"),
                ("api:\n  secret: >-\n    Lm4Nb5Vc6Xz7As8D", "Lm4Nb5Vc6Xz7As8D")):
            with self.subTest(text):
                self.assertEqual(redact(text, version="s3"), (text.replace(secret, MARK), 1))
                self.assertIn(secret, redact(text, version="s2")[0])

    def test_the_current_version_loads_no_frozen_redactor(self):
        # s1 and s2 are loaded only to re-derive what they redacted.
        import subprocess
        import sys

        from tests.helpers import ROOT

        code = ("import sys; from receipt_pair.logs.redact import redact; "
                "redact('GITHUB_TOKEN=ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3'); "
                "print(' '.join(m for m in sys.modules if 'redact_s' in m))")
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        self.assertEqual(done.stdout.split(), [])

    def test_the_current_version_is_the_default_and_known(self):
        self.assertIn(REDACTOR_VERSION, REDACTOR_VERSIONS)
        self.assertEqual(REDACTOR_VERSIONS, ("s1", "s2", "s3"))
        self.assertEqual(REDACTOR_VERSION, "s3")
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


def expected_text(text, secrets):
    """The text with each secret replaced, whole, by MARK where it stood."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, MARK)
    return text


def leaked_parts(secret, redacted, expected):
    """Pieces of 4+ characters of `secret` left in `redacted` (that the text around the
    secret does not hold anyway)."""
    return sorted({secret[i:i + 4] for i in range(len(secret) - 3)
                   if secret[i:i + 4] in redacted and secret[i:i + 4] not in expected})


class Golden(unittest.TestCase):
    """The current redactor against tests/data/secrets/must-redact.json and must-keep.json."""

    def test_each_secret_goes_whole_and_mark_stands_where_it_was(self):
        cases = load("must-redact.json")["cases"]
        self.assertGreaterEqual(len(cases), 60)  # a shrinking suite is noticed
        for case in cases:
            with self.subTest(case=case["name"]):
                self.assertTrue(case["secrets"])
                for secret in case["secrets"]:
                    self.assertIn(secret, case["text"])
                redacted, count = redact(case["text"])
                expected = expected_text(case["text"], case["secrets"])
                for secret in case["secrets"]:
                    self.assertEqual(leaked_parts(secret, redacted, expected), [],
                                     f"part of {secret!r} left")
                self.assertEqual(redacted, expected)
                self.assertEqual(count, case.get("count", len(case["secrets"])))
                for kept in case["keep"]:
                    self.assertIn(kept, redacted)

    def test_ordinary_text_stays(self):
        cases = load("must-keep.json")["cases"]
        self.assertGreaterEqual(len(cases), 40)
        for case in cases:
            with self.subTest(case=case["name"]):
                self.assertEqual(redact(case["text"]), (case["text"], 0))

    def test_case_names_are_unique(self):
        names = [c["name"] for f in ("must-redact.json", "must-keep.json")
                 for c in load(f)["cases"]]
        self.assertEqual(len(names), len(set(names)))

    def test_redacting_twice_changes_nothing_more(self):
        # A record redacted at read and again when kept (a witness) must not grow marks.
        for case in load("must-redact.json")["cases"]:
            with self.subTest(case=case["name"]):
                once, _ = redact(case["text"])
                self.assertEqual(redact(once), (once, 0))

    def test_every_secret_of_a_log_goes_when_read_together(self):
        # Shapes side by side in one text: no rule's span may cut into another's. (A key
        # block cut off runs to the end of its text: here it would take the next case.)
        cases = [c for c in load("must-redact.json")["cases"] if not c.get("to_end")]
        text = "\n\n".join(c["text"] for c in cases)
        redacted, count = redact(text)
        for case in cases:
            for secret in case["secrets"]:
                with self.subTest(case=case["name"]):
                    self.assertNotIn(secret, redacted)
        self.assertEqual(count, sum(c.get("count", len(c["secrets"])) for c in cases))


class Speed(unittest.TestCase):
    def test_a_megabyte_of_ordinary_log_takes_well_under_a_second(self):
        keep = "\n".join(c["text"] for c in load("must-keep.json")["cases"])
        text = (keep + "\n") * (1_000_000 // (len(keep) + 1) + 1)
        text = text[:1_000_000]
        started = time.perf_counter()
        result = redact(text)
        elapsed = time.perf_counter() - started
        self.assertEqual(len(text), 1_000_000)
        self.assertEqual(result, (text, 0))
        self.assertLess(elapsed, 2.0)  # ~0.2 s on a laptop; generous for a loaded CI box

    def test_secret_words_or_one_long_line_stay_bounded(self):
        # A quarter of a megabyte each: enough that time growing with the square of the
        # length would take minutes, small enough to keep the suite quick.
        for text in (("password token key secret auth " * 10_000)[:250_000],
                     "a" * 250_000, "-----BEGIN RSA PRIVATE KEY-----" * 8_000):
            with self.subTest(text=text[:20]):
                started = time.perf_counter()
                redact(text)
                self.assertLess(time.perf_counter() - started, 2.0)


if __name__ == "__main__":
    unittest.main()
