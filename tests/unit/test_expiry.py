"""Expiry: a receipt is VALID while its log, its witness record and its reader stand, and
EXPIRED (exit 1) with the reason once any of them changed."""

import json
import os
import shutil
import sys
import unittest

from receipt_pair.audit.expiry import EXPIRED, INVALID, VALID, judge_receipt as judge
from receipt_pair.store.records import canonical_sha256

from tests.fakeserver import FakeServer, answer
from tests.helpers import EXAMPLES, ROOT, TempDirTest, run_cli

GOOD = answer("shown", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser", "git moved it")
GATE_DEMO = os.path.join(ROOT, "receipts", "gate-demo-1")


def resealed(receipt, **changes):
    """The receipt with `changes`, its own sha256 made again (an edit by someone careful)."""
    changed = dict(receipt, **changes)
    changed["receipt_sha256"] = canonical_sha256(changed, "receipt_sha256")
    return changed


class Expiry(TempDirTest):
    def setUp(self):
        super().setUp()
        self.log = self.path("push.json")
        shutil.copy(os.path.join(EXAMPLES, "push-ok.json"), self.log)
        self.receipt = self.path("receipt.json")
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            status, _, err = run_cli("check", "--claim", "I pushed fix/parser", "--log",
                                     self.log, "--save", self.receipt, "--base-url",
                                     fake.base_url, "--model-a", "qa", "--model-b", "qb")
        self.assertEqual(status, 0, err)

    def verify(self, receipt=None, log=None, *options):
        return run_cli("verify", "--receipt", receipt or self.receipt, "--log", log or self.log,
                       *options)

    def saved(self):
        with open(self.receipt) as handle:
            return json.load(handle)

    def test_valid_while_the_log_is_unchanged(self):
        status, out, _ = self.verify()
        self.assertEqual(status, 0, out)
        self.assertIn("VALID", out)
        status, out, _ = self.verify(None, None, "--json")
        self.assertEqual(json.loads(out)["status"], VALID)

    def test_expired_once_the_log_changed_after_the_receipt(self):
        with open(self.log, "a") as handle:
            handle.write("\n")
        status, out, _ = self.verify()
        self.assertEqual(status, 1)
        self.assertIn("expired: the log changed since the receipt was made", out)
        self.assertIn("EXPIRED", out.splitlines()[-1])
        status, out, _ = self.verify(None, None, "--json")
        self.assertEqual(json.loads(out)["status"], EXPIRED)

    def test_expired_when_the_reader_is_unknown_or_changed(self):
        saved = self.saved()
        with open(self.log, "rb") as handle:
            data = handle.read()
        unknown = resealed(saved, reader=dict(saved["reader"], version="v99"))
        changed = resealed(saved, reader=dict(saved["reader"], fingerprint="0" * 64))
        for receipt, words in ((unknown, "reader 'v99' is not known"),
                               (changed, "fingerprint differs from the installed one")):
            with self.subTest(words=words):
                judged = judge(receipt, data)
                self.assertEqual(judged.status, EXPIRED)
                self.assertIn(words, judged.reasons[0])

    def test_a_retired_reader_expires_the_sealed_gate_demo(self):
        for take in ("receipt-take1.json", "receipt-take2.json"):
            with self.subTest(take=take):
                status, out, _ = self.verify(os.path.join(GATE_DEMO, take),
                                             os.path.join(GATE_DEMO, "witness.jsonl"))
                self.assertEqual(status, 1)
                self.assertIn("expired: reader v1 is retired", out)
                self.assertEqual(len([l for l in out.splitlines() if l.startswith("expired")]),
                                 1)  # its witness record is still in the log
                status, out, _ = run_cli("replay", "--receipt", os.path.join(GATE_DEMO, take),
                                         "--log", os.path.join(GATE_DEMO, "witness.jsonl"))
                self.assertEqual(status, 0, out)

    def test_an_edited_receipt_is_invalid(self):
        saved = self.saved()
        saved["answer"] = "contradicted"
        edited = self.write("edited.json", json.dumps(saved))
        status, out, _ = self.verify(edited)
        self.assertEqual(status, 1)
        self.assertIn("INVALID", out)
        self.assertEqual(judge(saved, b"").status, INVALID)


class WitnessExpiry(TempDirTest):
    def test_valid_while_the_record_stays_in_the_log(self):
        log = self.path("witness.jsonl")
        receipt = self.path("receipt.json")

        def quote_last_line(body):
            text = body["messages"][1]["content"]
            output = text.split("<output>\n", 1)[1].split("\n</output>", 1)[0]
            return answer("shown", "T1", output.splitlines()[-1])

        with FakeServer() as fake:
            fake.script("qa", quote_last_line)
            fake.script("qb", quote_last_line)
            status, out, err = run_cli(
                "gate", "--claim", "the tests pass", "--witness", "--log", log, "--save",
                receipt, "--base-url", fake.base_url, "--model-a", "qa", "--model-b", "qb",
                "--", sys.executable, "-c", "import sys; print('2 passed in 0.1s')", "--", "true")
        self.assertEqual(status, 0, out + err)
        self.assertEqual(run_cli("verify", "--receipt", receipt, "--log", log)[0], 0)
        # Later records follow it: the receipt still stands.
        run_cli("record", "--log", log, "--", sys.executable, "-c", "print('later')")
        self.assertEqual(run_cli("verify", "--receipt", receipt, "--log", log)[0], 0)
        self.assertEqual(run_cli("replay", "--receipt", receipt, "--log", log)[0], 0)
        # The record removed from the log: the receipt has nothing left to stand on.
        with open(log, "rb") as handle:
            lines = handle.read().split(b"\n")
        with open(log, "wb") as handle:
            handle.write(b"\n".join(lines[1:]))
        status, out, _ = run_cli("verify", "--receipt", receipt, "--log", log)
        self.assertEqual(status, 1)
        self.assertIn("the witness command's record is gone from the log", out)


class LedgerExpiry(TempDirTest):
    def test_each_entry_judged_against_its_own_log(self):
        ledger = self.path("ledger.jsonl")
        logs = [self.path("one.json"), self.path("two.json")]
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            for log in logs:
                shutil.copy(os.path.join(EXAMPLES, "push-ok.json"), log)
                run_cli("check", "--claim", "I pushed fix/parser", "--log", log, "--ledger",
                        ledger, "--base-url", fake.base_url, "--model-a", "qa",
                        "--model-b", "qb")
        status, out, _ = run_cli("ledger", "verify", ledger, "--expiry")
        self.assertEqual(status, 0, out)
        self.assertIn("entry 1: VALID", out)
        with open(logs[1], "a") as handle:
            handle.write(" ")
        status, out, _ = run_cli("ledger", "verify", ledger, "--expiry")
        self.assertEqual(status, 1)
        self.assertIn("entry 1: VALID", out)
        self.assertIn("entry 2: EXPIRED: the log changed", out)
        os.unlink(logs[0])
        status, out, _ = run_cli("ledger", "verify", ledger, "--expiry", "--json")
        judged = json.loads(out)["expiry"]
        self.assertEqual([j["status"] for j in judged], [EXPIRED, EXPIRED])
        self.assertIn("cannot be read now", judged[0]["reasons"][0])
        self.assertEqual(json.loads(out)["differences"], [])  # the chain itself holds
        # the same from Python
        from receipt_pair import check_ledger

        with open(ledger, "rb") as handle:
            check = check_ledger(handle.read(), expiry=True)
        self.assertEqual({"ledger": ledger, **check.to_dict()}, json.loads(out))
        self.assertFalse(check.ok)

    def test_a_log_path_that_can_name_no_file_is_a_usage_error(self):
        # Issue 32 item 5: a receipt whose log path holds a NUL byte (no file's name can)
        # made `ledger verify --expiry` a traceback; it is one line naming the entry, exit
        # 2. The same ledger verifies without --expiry, and a path that can be read is
        # judged as ever.
        from receipt_pair.store.ledger import append_receipt

        log, saved = self.path("push.json"), self.path("receipt.json")
        shutil.copy(os.path.join(EXAMPLES, "push-ok.json"), log)
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            run_cli("check", "--claim", "I pushed fix/parser", "--log", log, "--save", saved,
                    "--base-url", fake.base_url, "--model-a", "qa", "--model-b", "qb")
        with open(saved) as handle:
            receipt = json.load(handle)
        for name, path, expected in (("a NUL byte", "push\x00.json", 2), ("readable", log, 0)):
            with self.subTest(name):
                ledger = self.path(f"ledger-{name}.jsonl")
                append_receipt(ledger, resealed(receipt, log=dict(receipt["log"], file=path)))
                status, out, err = run_cli("ledger", "verify", ledger, "--expiry")
                self.assertEqual(status, expected, out + err)
                self.assertNotIn("Traceback", err)
                if expected:
                    self.assertEqual(err.count("\n"), 1, err)
                    self.assertIn("entry 1: its receipt names the log", err)
                    self.assertIn("NUL byte", err)
                else:
                    self.assertIn("entry 1: VALID", out)
                self.assertEqual(run_cli("ledger", "verify", ledger)[0], 0)


if __name__ == "__main__":
    unittest.main()
