import glob
import io
import json
import os
import sys
import unittest
from unittest import mock

from receipt_pair.errors import InputError
from receipt_pair.logs.items import read_items
from receipt_pair.logs import parse_log, read_log

from tests.helpers import DATA, TempDirTest, run_cli


def _as_dicts(turns):
    return [{"cmd": t.cmd, "output": t.output, "exit_status": t.exit_status} for t in turns]


class LogFormats(unittest.TestCase):
    def test_golden_logs(self):
        inputs = [f for f in sorted(glob.glob(os.path.join(DATA, "logs", "*")))
                  if ".expected." not in f]
        self.assertGreaterEqual(len(inputs), 7)
        for path in inputs:
            with self.subTest(log=os.path.basename(path)):
                turns, sha = read_log(path)
                expected_path = path.rsplit(".", 1)[0] + ".expected.json"
                with open(expected_path) as handle:
                    self.assertEqual(_as_dicts(turns), json.load(handle))
                self.assertEqual(len(sha), 64)

    def test_format_is_told_from_content_not_extension(self):
        turns = parse_log(b'[{"cmd": "ls", "output": "a.txt"}]', "log.txt")
        self.assertEqual(turns[0].cmd, "ls")
        turns = parse_log(b"plain words in a .json file", "log.json")
        self.assertEqual(turns[0].output, "plain words in a .json file")

    def test_standard_input_is_dash(self):
        fake = io.TextIOWrapper(io.BytesIO(b'{"cmd": "make", "output": "built"}\n'))
        with mock.patch.object(sys, "stdin", fake):
            turns, _ = read_log("-")
        self.assertEqual(turns[0].output, "built")

    def test_byte_order_mark_is_dropped(self):
        turns = parse_log(b"\xef\xbb\xbf[{\"cmd\": \"a\", \"output\": \"b\"}]")
        self.assertEqual(turns[0].output, "b")


def junit(body, root='<testsuite name="all"{}>', attributes=""):
    opening = root.format(attributes)
    closing = "</" + opening[1:].split()[0].rstrip(">") + ">"
    return parse_log(('<?xml version="1.0"?>\n' + opening + body + closing).encode(), "j.xml")


PASS = '<testcase classname="smoke" name="test_ping"/>'
FAIL = '<testcase classname="api" name="test_deploy"><failure message="500"/></testcase>'


class JUnitFailClosed(unittest.TestCase):
    """Every test case is read wherever it is nested, and a suite whose own counts disagree
    with the cases read is summed up as an error, never as a clean run."""

    def test_a_suite_nested_in_the_root_suite_is_read(self):
        turns = junit(f'<testsuite name="api">{FAIL}</testsuite>{PASS}',
                      attributes=' tests="2" failures="1"')
        self.assertEqual([t.cmd for t in turns],
                         ["test api::test_deploy", "junit summary of api", "test smoke::test_ping",
                          "junit summary of all"])
        self.assertEqual(turns[1].output, "1 tests: 0 passed, 1 failed, 0 errors, 0 skipped")
        self.assertEqual(turns[3].output, "2 tests: 1 passed, 1 failed, 0 errors, 0 skipped")
        self.assertEqual([t.exit_status for t in turns], [None] * 4)
        deep = junit('<testsuite name="x">' * 3000 + FAIL + "</testsuite>" * 3000)
        self.assertEqual(deep[-1].output, "1 tests: 0 passed, 1 failed, 0 errors, 0 skipped")
        loose = junit(FAIL + '<testsuite name="s">' + PASS + "</testsuite>",
                      root='<testsuites name="run"{}>')
        self.assertEqual([t.cmd for t in loose], ["test api::test_deploy", "test smoke::test_ping",
                                                  "junit summary of s", "junit summary of run"])
        self.assertEqual(loose[-1].output, "2 tests: 1 passed, 1 failed, 0 errors, 0 skipped")

    def test_counts_that_disagree_with_the_cases_are_an_error(self):
        cases = {' tests="2"': "tests=2", ' tests="1" failures="1"': "failures=1",
                 ' tests="1" skipped="1"': "skipped=1", ' tests="1" errors="2"': "errors=2",
                 ' tests="one"': "tests='one'", ' tests="-1"': "tests='-1'"}
        for attributes, said in cases.items():
            with self.subTest(attributes=attributes):
                summary = junit(PASS, attributes=attributes)[-1]
                self.assertEqual(summary.exit_status, 1)
                self.assertTrue(summary.output.startswith("ERROR: the counts of all disagree"))
                self.assertIn(said, summary.output)
                self.assertNotIn("1 tests: 1 passed", summary.output)
        # A suite that failed to run, with no test case: its counts are all there is.
        crashed = junit('<testsuite name="cart" tests="0" errors="1"/>' + PASS,
                        root='<testsuites name="jest tests"{}>', attributes=' tests="1"')
        self.assertEqual([t.exit_status for t in crashed], [1, None, None])
        self.assertEqual(crashed[0].cmd, "junit summary of cart")
        self.assertIn("errors=1", crashed[0].output)

    def test_counts_that_agree_or_are_absent_read_as_before(self):
        for attributes in ("", ' tests="1"', ' tests="1" failures="0" errors="0" skipped="0"',
                           ' tests=" 1 " time="0.1" hostname="ci"'):
            with self.subTest(attributes=attributes):
                summary = junit(PASS, attributes=attributes)[-1]
                self.assertEqual((summary.output, summary.exit_status),
                                 ("1 tests: 1 passed, 0 failed, 0 errors, 0 skipped", None))
        self.assertEqual(len(junit(PASS + '<testsuite name="empty" tests="0"/>')), 2)
        with open(os.path.join(DATA, "testcounts", "junit-pytest.xml"), "rb") as handle:
            real = parse_log(handle.read(), "junit-pytest.xml")  # written by pytest 9.0.3
        self.assertEqual([t.exit_status for t in real], [None] * len(real))
        self.assertTrue(real[-1].output.startswith("8 tests: 4 passed, 2 failed"))


class BadLogs(unittest.TestCase):
    def test_every_malformed_log_is_a_clear_error(self):
        with open(os.path.join(DATA, "bad_logs.json")) as handle:
            expected = json.load(handle)
        files = sorted(os.listdir(os.path.join(DATA, "bad_logs")))
        self.assertEqual(sorted(expected), files, "every bad log has an expected message")
        for name in files:
            with self.subTest(log=name):
                with self.assertRaises(InputError) as caught:
                    read_log(os.path.join(DATA, "bad_logs", name))
                self.assertIn(expected[name], str(caught.exception))
                self.assertNotIn("\n", str(caught.exception))

    def test_missing_file_and_directory(self):
        with self.assertRaisesRegex(InputError, "nope.json: cannot read"):
            read_log(os.path.join(DATA, "nope.json"))
        # A folder is read only where an agent keeps its log in one (folders.py).
        with self.assertRaisesRegex(InputError, "a folder, but not an OpenHands session"):
            read_log(DATA)

    def test_cli_reports_bad_log_without_traceback(self):
        for name in sorted(os.listdir(os.path.join(DATA, "bad_logs"))):
            with self.subTest(log=name):
                status, out, err = run_cli("verify", "--log",
                                           os.path.join(DATA, "bad_logs", name),
                                           "--reply", os.path.join(DATA, "bad_logs", "empty.txt"))
                self.assertEqual(status, 5)
                self.assertNotIn("Traceback", err)
                self.assertEqual(len(err.strip().splitlines()), 1)


class Items(TempDirTest):
    GOOD = ('{"id": "a", "claim": "I pushed", "turns": [{"cmd": "git push", "output": "ok"}], '
            '"truth": "shown", "trap": "plain"}\n')

    def test_reads_items(self):
        items, sha = read_items(self.write("items.jsonl", self.GOOD + "\n"))
        self.assertEqual(items[0].id, "a")
        self.assertEqual(items[0].truth, "shown")
        self.assertEqual(items[0].turns[0].cmd, "git push")

    def test_bad_items(self):
        cases = {
            '{"id": "a", "claim": "c", "turns": "x"}': "line 1: 'turns' must be a list",
            '{"id": "a", "claim": "", "turns": [{}]}': "line 1: 'claim' must be a non-empty",
            '{"claim": "c", "turns": [{}]}': "line 1: 'id' must be a non-empty string",
            '{"id": "a", "claim": "c", "turns": [{"cmd": "x"}], "truth": "yes"}': "'truth' must be one of",
            '{"id": "a", "claim": "c", "turns": [5]}': "line 1 turn 1: a turn must be an object",
            '{"id": "a", "claim": "c", "turns": []}': "'turns' is empty",
            "[1, 2]": "line 1: an item must be an object",
            '{"id": "a"': "line 1 column",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(InputError) as caught:
                    read_items(self.write("bad.jsonl", text + "\n"))
                self.assertIn(message, str(caught.exception))
        with self.assertRaisesRegex(InputError, "line 2: id 'a' already used on line 1"):
            read_items(self.write("dup.jsonl", self.GOOD + self.GOOD))
        with self.assertRaisesRegex(InputError, "no items"):
            read_items(self.write("empty.jsonl", ""))


if __name__ == "__main__":
    unittest.main()
