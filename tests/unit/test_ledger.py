"""The ledger: receipts appended whole and chained, tampering of any kind named by entry,
torn last lines reported, and two processes appending at once losing nothing."""

import json
import os
import subprocess
import sys
import time
import unittest
from unittest import mock

from receipt_pair.errors import InputError, UsageError
from receipt_pair.audit.ledger import verify_ledger
from receipt_pair.store.ledger import (ENV_LEDGER, GENESIS, append_receipt, line_sha256,
                                       read_ledger)
from receipt_pair.store.records import RECEIPT_SCHEMA

from tests.fakeserver import FakeServer, answer
from tests.helpers import EXAMPLES, ROOT, TempDirTest, run_cli

LOG = os.path.join(EXAMPLES, "push-ok.json")
GOOD = answer("shown", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser", "git moved it")
NOT = answer("not_shown")


def check(fake, *argv):
    return run_cli("check", "--log", LOG, "--base-url", fake.base_url, "--model-a", "qa",
                   "--model-b", "qb", *argv)


class LedgerTest(TempDirTest):
    def make_ledger(self, claims=("I pushed fix/parser", "I pushed it", "the push worked",
                                  "done")):
        """A ledger of real receipts, one per claim, made by `check --ledger`."""
        ledger = self.path("ledger.jsonl")
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", NOT)
            for claim in claims:
                status, _, err = check(fake, "--claim", claim, "--ledger", ledger)
                self.assertEqual(status, 0, err)
                self.assertIn(f"appended to {ledger} as entry", err)
        return ledger

    def lines(self, ledger):
        with open(ledger, "rb") as handle:
            return handle.read().split(b"\n")[:-1]

    def rewrite(self, lines, torn=b""):
        path = self.path("tampered.jsonl")
        with open(path, "wb") as handle:
            handle.write(b"".join(line + b"\n" for line in lines) + torn)
        return path

    def verify(self, ledger, *options):
        return run_cli("ledger", "verify", ledger, *options)


class Appending(LedgerTest):
    def test_entries_chain_and_rederive(self):
        ledger = self.make_ledger()
        lines = self.lines(ledger)
        self.assertEqual(len(lines), 4)
        entries = [json.loads(line) for line in lines]
        self.assertEqual([e["entry"] for e in entries], [1, 2, 3, 4])
        self.assertEqual(entries[0]["prev_sha256"], GENESIS)
        for before, entry in zip(lines, entries[1:]):
            self.assertEqual(entry["prev_sha256"], line_sha256(before))
        self.assertEqual(list(entries[0]), ["schema", "entry", "prev_sha256", "time", "receipt"])
        status, out, _ = self.verify(ledger)
        self.assertEqual(status, 0, out)
        self.assertIn("4 entries, the chain holds and every receipt re-derives offline", out)
        self.assertIn(f"head: entry 4 sha256 {line_sha256(lines[-1])}", out)

    def test_the_environment_names_the_ledger_once(self):
        ledger = self.path("from-env.jsonl")
        with mock.patch.dict(os.environ, {ENV_LEDGER: ledger}), FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            status, out, _ = check(fake, "--claim", "I pushed fix/parser", "--json")
        self.assertEqual(status, 0)
        json.loads(out)  # stdout stays pure JSON: the ledger line goes to stderr
        self.assertEqual(len(self.lines(ledger)), 1)

    def test_gate_appends_its_decision_before_the_action(self):
        ledger = self.path("gate.jsonl")
        marker = self.path("ran")
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            status, _, _ = run_cli("gate", "--claim", "I pushed fix/parser", "--log", LOG,
                                   "--ledger", ledger, "--base-url", fake.base_url,
                                   "--model-a", "qa", "--model-b", "qb", "--", sys.executable,
                                   "-c", f"open({marker!r}, 'w')")
        self.assertEqual(status, 0)
        self.assertTrue(os.path.exists(marker))
        status, out, _ = run_cli("ledger", "show", ledger, "--json")
        shown = json.loads(out)["entries"][0]
        self.assertEqual(shown["made_by"], "gate")
        self.assertEqual(shown["gate"]["program"], sys.executable)
        self.assertTrue(shown["gate"]["runs"])
        status, out, _ = run_cli("ledger", "show", ledger)
        self.assertIn(f"{os.path.basename(sys.executable)}: ran", out)
        self.assertEqual(self.verify(ledger)[0], 0)

    def test_a_ledger_that_cannot_be_written_stops_the_gate(self):
        marker = self.path("ran")
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            status, _, err = run_cli("gate", "--claim", "I pushed fix/parser", "--log", LOG,
                                     "--ledger", self.dir, "--base-url", fake.base_url,
                                     "--model-a", "qa", "--model-b", "qb", "--",
                                     sys.executable, "-c", f"open({marker!r}, 'w')")
        self.assertEqual(status, 5)
        self.assertIn("is a directory", err)
        self.assertFalse(os.path.exists(marker))

    def test_only_receipts_and_only_onto_ledgers(self):
        with self.assertRaises(UsageError):
            append_receipt(self.path("l.jsonl"), {"schema": "something else"})
        with self.assertRaises(UsageError):
            append_receipt("-", {"schema": RECEIPT_SCHEMA})
        pretty = self.write("receipt.json", json.dumps({"schema": RECEIPT_SCHEMA}, indent=2)
                            + "\n")
        with self.assertRaises(InputError) as caught:
            append_receipt(pretty, {"schema": RECEIPT_SCHEMA})
        self.assertIn("not a receipt-pair ledger entry", str(caught.exception))

    def test_show_lists_time_claim_answer_and_action(self):
        ledger = self.make_ledger(claims=("I pushed\x1b[31m fix/parser\nreally",))
        status, out, _ = run_cli("ledger", "show", ledger)
        self.assertEqual(status, 0)
        header, row = out.splitlines()[:2]
        self.assertTrue(header.startswith("entry"))
        self.assertIn("not shown", row)
        self.assertIn("I pushed<ESC>[31m fix/parser really", row)  # no escape reaches a terminal
        self.assertNotIn("\x1b", out)
        status, out, _ = run_cli("ledger", "show", ledger, "--json")
        entry = json.loads(out)["entries"][0]
        for key in ("entry", "time", "claim", "answer", "made_by", "gate", "sha256"):
            self.assertIn(key, entry)


class Tampering(LedgerTest):
    """Edit, delete, swap, truncate, insert: each exits 1 and names the entry."""

    made = None  # the bytes of the ledger of real receipts made for this class, once

    def make_ledger(self):
        """A copy of one ledger of real receipts (Appending tests how they are made), for
        this test to tamper with."""
        if Tampering.made is None:
            with open(super().make_ledger(), "rb") as handle:
                Tampering.made = handle.read()
        return self.write("ledger.jsonl", Tampering.made)

    def assert_named(self, path, *named):
        status, out, _ = self.verify(path)
        self.assertEqual(status, 1, out)
        for words in named:
            self.assertIn(words, out)
        return out

    def test_edit_an_entrys_receipt(self):
        lines = self.lines(self.make_ledger())
        entry = json.loads(lines[1])
        entry["receipt"]["claim"] = "I deployed to production"
        lines[1] = json.dumps(entry, ensure_ascii=False).encode()
        self.assert_named(self.rewrite(lines), "differs: entry 2: its receipt:",
                          "differs: entry 3: it does not follow entry 2")

    def test_edit_that_leaves_the_receipt_whole(self):
        lines = self.lines(self.make_ledger())
        lines[1] = lines[1].replace(b'"time": "', b'"time": "1999', 1)
        out = self.assert_named(self.rewrite(lines), "entry 3: it does not follow entry 2")
        self.assertNotIn("entry 2:", out)

    def test_delete_an_entry(self):
        lines = self.lines(self.make_ledger())
        del lines[1]
        self.assert_named(self.rewrite(lines), "entry 2: it says it is entry 3: entry 2 is "
                                               "missing", "entry 2: it does not follow entry 1")

    def test_delete_the_first_entry(self):
        lines = self.lines(self.make_ledger())
        self.assert_named(self.rewrite(lines[1:]), "entry 1: it says it is entry 2",
                          "entry 1: it does not start the chain")

    def test_swap_two_entries(self):
        lines = self.lines(self.make_ledger())
        lines[1], lines[2] = lines[2], lines[1]
        self.assert_named(self.rewrite(lines), "entry 2: it says it is entry 3",
                          "entry 3: it says it is entry 2", "entry 4: it does not follow entry 3")

    def test_truncate_mid_line(self):
        lines = self.lines(self.make_ledger())
        out = self.assert_named(self.rewrite(lines[:3], torn=lines[3][:40]),
                                "entry 4: an unfinished last line")
        self.assertIn("1 difference(s)", out)

    def test_insert_an_entry(self):
        lines = self.lines(self.make_ledger())
        self.assert_named(self.rewrite(lines[:2] + [lines[1]] + lines[2:]),
                          "entry 3: it says it is entry 2", "entry 4: it says it is entry 3")

    def test_insert_a_line_that_is_not_an_entry(self):
        lines = self.lines(self.make_ledger())
        self.assert_named(self.rewrite(lines[:1] + [b'{"hello": 1}'] + lines[1:]),
                          "entry 2: not a ledger entry", "entry 3: it says it is entry 2")

    def test_removal_from_the_end_needs_the_head(self):
        ledger = self.make_ledger()
        lines = self.lines(ledger)
        head = line_sha256(lines[-1])
        shorter = self.rewrite(lines[:2])
        self.assertEqual(self.verify(shorter)[0], 0)  # a shorter chain is still a chain
        self.assertEqual(self.verify(ledger, "--head", head)[0], 0)
        status, out, _ = self.verify(shorter, "--head", head)
        self.assertEqual(status, 1)
        self.assertIn(f"no entry has the head sha256 {head}", out)


class TornLines(LedgerTest):
    def test_a_torn_last_line_is_kept_reported_and_chained_over(self):
        ledger = self.make_ledger(claims=("I pushed fix/parser", "I pushed it"))
        with open(ledger, "ab") as handle:
            handle.write(b'{"schema": "receipt-pair/ledger/1", "entry": 3, "prev')
        status, out, _ = self.verify(ledger)
        self.assertEqual(status, 1)
        self.assertIn("entry 3: an unfinished last line", out)
        with open(os.path.join(EXAMPLES, "..", "receipts", "gate-demo-1",
                               "receipt-take1.json")) as handle:
            receipt = json.load(handle)
        notes = []
        entry = append_receipt(ledger, receipt, note=notes.append)
        self.assertEqual(entry["entry"], 4)
        self.assertIn("entry 3) was unfinished", notes[0])
        with open(ledger, "rb") as handle:
            entries, differences = verify_ledger(handle.read())
        self.assertEqual([e.number for e in entries], [1, 2, 3, 4])
        # Only the torn line is reported: the entry after it chains to its bytes.
        self.assertEqual(len(differences), 1, differences)
        self.assertTrue(differences[0].startswith("entry 3: not a JSON line"))
        self.assertEqual(entries[3].receipt["claim"], "the tests pass")


_APPENDER = """
import os, sys, time
sys.path.insert(0, {root!r})
from receipt_pair.store.ledger import append_receipt
ledger, name, go = sys.argv[1], sys.argv[2], sys.argv[3]
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(50):
    append_receipt(ledger, {{"schema": "receipt-pair/receipt/2", "claim": f"{{name}} #{{i}}",
                             "padding": "x" * 20000}})
"""


class ConcurrentAppends(LedgerTest):
    def test_two_processes_never_interleave_or_lose_an_entry(self):
        ledger = self.path("shared.jsonl")
        go = self.path("go")
        code = _APPENDER.format(root=ROOT)
        processes = [subprocess.Popen([sys.executable, "-c", code, ledger, name, go])
                     for name in ("first", "second")]
        time.sleep(0.2)  # both are waiting: they start together
        open(go, "w").close()
        for process in processes:
            self.assertEqual(process.wait(timeout=120), 0)
        with open(ledger, "rb") as handle:
            entries = read_ledger(handle.read())
        self.assertEqual(len(entries), 100)
        self.assertEqual([e.problems for e in entries], [[]] * 100)
        claims = sorted(e.receipt["claim"] for e in entries)
        self.assertEqual(claims, sorted(f"{n} #{i}" for n in ("first", "second")
                                        for i in range(50)))
        # Each process's own entries are in the order it appended them.
        for name in ("first", "second"):
            mine = [e.receipt["claim"] for e in entries if e.receipt["claim"].startswith(name)]
            self.assertEqual(mine, [f"{name} #{i}" for i in range(50)])


if __name__ == "__main__":
    unittest.main()
