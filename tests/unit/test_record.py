"""record: real commands, appended whole, readable by every command that reads logs."""

import hashlib
import json
import os
import sys
import unittest

from receipt_pair.logs import read_log
from receipt_pair.pair.witness import record_turn

from tests.helpers import TempDirTest, run_cli


class Record(TempDirTest):
    def test_passing_and_failing_commands(self):
        log = self.path("run.jsonl")
        ok = record_turn(log, [sys.executable, "-c", "print('all good')"])
        bad = record_turn(log, [sys.executable, "-c",
                                "import sys; print('oops', file=sys.stderr); sys.exit(3)"])
        self.assertEqual(ok.turn.exit_status, 0)
        self.assertEqual(bad.turn.exit_status, 3)
        self.assertIn("oops", bad.turn.output)  # stderr is part of the combined output
        turns, _ = read_log(log)
        self.assertEqual([t.exit_status for t in turns], [0, 3])
        self.assertEqual(turns[0].output.strip(), "all good")
        with open(log) as handle:
            records = [json.loads(line) for line in handle]
        for record in records:
            for key in ("cmd", "argv", "output", "exit_status", "started", "ended",
                        "output_sha256"):
                self.assertIn(key, record)
        self.assertTrue(records[0]["started"].endswith("Z"))

    def test_command_that_cannot_be_found(self):
        log = self.path("run.jsonl")
        witness = record_turn(log, ["no-such-program-xyz"])
        self.assertEqual(witness.turn.exit_status, 127)
        self.assertIn("cannot start no-such-program-xyz", witness.turn.output)
        self.assertEqual(len(read_log(log)[0]), 1)

    def test_carriage_returns_and_invalid_utf8(self):
        log = self.path("run.jsonl")
        code = ("import sys; sys.stdout.buffer.write(b'10%\\r100%\\nbad byte \\xff here\\n')")
        witness = record_turn(log, [sys.executable, "-c", code])
        self.assertIn("\r", witness.turn.output)
        self.assertIn("\ufffd", witness.turn.output)
        self.assertEqual(witness.output_sha256,
                         hashlib.sha256(b"10%\r100%\nbad byte \xff here\n").hexdigest())
        self.assertFalse(witness.record["output_was_utf8"])
        turns, _ = read_log(log)
        self.assertEqual(turns[0].output, witness.turn.output)

    def test_only_appends_and_refuses_other_files(self):
        log = self.write("run.jsonl", '{"cmd": "earlier", "output": "kept"}\n')
        record_turn(log, [sys.executable, "-c", "print(1)"])
        with open(log) as handle:
            self.assertTrue(handle.readline().startswith('{"cmd": "earlier"'))
        status, _, err = run_cli("record", "--log", self.write("log.json", "[]\n"), "--",
                                 sys.executable, "-c", "print(1)")
        self.assertEqual(status, 5)
        self.assertIn("not a JSON Lines turn", err)
        # A record torn by a kill is cut off (and said so), not left to block every reader.
        partial = self.write("partial.jsonl", '{"cmd": "a", "output": "whole"}\n{"cmd": "a"')
        status, _, err = run_cli("record", "--log", partial, "--", "true")
        self.assertEqual(status, 0)
        self.assertIn("cut an unfinished last line", err)
        turns, _ = read_log(partial)
        self.assertEqual([t.output for t in turns], ["whole", ""])

    def test_cli_passes_the_exit_status_through(self):
        log = self.path("run.jsonl")
        status, out, _ = run_cli("record", "--log", log, "--", sys.executable, "-c",
                                 "import sys; sys.exit(5)")
        self.assertEqual(status, 5)


class OneRuleForATornLastLine(unittest.TestCase):
    """Every reader of JSON Lines takes a whole last record written without its line break
    and leaves out a torn one, the same way (store/jsonl.py)."""

    def test_every_reader_agrees(self):
        import tempfile

        from receipt_pair.logs import parse_log
        from receipt_pair.store.ledger import read_ledger
        from receipt_pair.store.records import read_answers

        whole = '{"cmd": "a", "output": "x"}\n{"cmd": "b", "output": "y"}'
        torn = '{"cmd": "a", "output": "x"}\n{"cmd": "b", "outp'
        self.assertEqual(len(parse_log(whole.encode(), "log", "turns", [])), 2)
        warnings = []
        self.assertEqual(len(parse_log(torn.encode(), "log", "turns", warnings)), 1)
        self.assertEqual(len(warnings), 1)
        header = ('{"schema": "receipt-pair/answers/2", "kind": "items", "items_sha256": "x", '
                  '"items_count": 1, "models": {"A": "a", "B": "b"}, "extra": {"A": {}, "B": {}}}')
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
            handle.write(header)  # a whole record with no line break after it
        try:
            self.assertIsNotNone(read_answers(handle.name)[0])
        finally:
            os.unlink(handle.name)
        entries = read_ledger(b'{"schema": "receipt-pair/ledger/1", "entry": 1')
        self.assertEqual(len(entries), 1)
        self.assertIn("unfinished last line", entries[0].problems[0])
