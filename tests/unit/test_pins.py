"""Pinned tests: counts read in plain code from real runner output, pins written from
JUnit reports and pytest's collection, and a gate whose witness run falls short of its pin
blocking whatever the models say."""

import json
import os
import sys
import unittest

from receipt_pair.errors import InputError
from receipt_pair.store.records import canonical_sha256
from receipt_pair.pair.pins import (Pin, pin_from_collection, pin_from_junit, pin_problem, read_pin,
                               witness_problem)
from receipt_pair.check.testcounts import Counts, count_tests

from tests.fakeserver import FakeServer, answer
from tests.helpers import DATA, TempDirTest, run_cli

COUNTS = os.path.join(DATA, "testcounts")


def fixture(name, mode="r"):
    with open(os.path.join(COUNTS, name), mode, **({} if "b" in mode else
                                                   {"encoding": "utf-8"})) as handle:
        return handle.read()


class Counting(unittest.TestCase):
    def test_golden_outputs(self):
        expected = json.loads(fixture("expected.json"))
        self.assertGreaterEqual(len(expected), 14)
        for name, counts in expected.items():
            with self.subTest(output=name):
                got = count_tests(fixture(name))
                self.assertEqual(got and got.to_dict(), counts)

    def test_two_runners_in_one_output_are_added(self):
        both = fixture("pytest-q-ok.txt") + fixture("cargo.txt")
        self.assertEqual(count_tests(both), Counts(6, 5, 0, 1, "pytest+cargo"))

    def test_the_last_pytest_summary_counts(self):
        # A test that prints a summary-looking line early does not set the count.
        output = "999 passed in 0.01s\n..\n2 passed in 0.05s\n"
        self.assertEqual(count_tests(output).tests, 2)

    def test_a_line_redrawn_in_place_counts_as_left(self):
        self.assertEqual(count_tests("50 passed in 1s\r2 passed in 1.0s\n").tests, 2)

    def test_unittest_needs_its_status_line(self):
        self.assertIsNone(count_tests("Ran 3 tests in 0.1s\n"))
        self.assertEqual(count_tests("Ran 3 tests in 0.1s\n\nOK\n").tests, 3)

    def test_lines_that_only_look_like_counts(self):
        for text in ("Ran 5 tests in 0.1s, all fine", "passed in 0.1s", "Tests: many",
                     "test result: ok.", "--- PASS", "3 passed, several failed in 1s"):
            with self.subTest(text=text):
                self.assertIsNone(count_tests(text))


    def test_expected_failures_are_not_passes(self):
        # Issue 22, item 10: counted apart from passes, as the runners report them.
        self.assertEqual(count_tests("3 passed, 2 xfailed, 1 xpassed in 0.12s"),
                         Counts(6, 4, 0, 0, "pytest", expected_failures=2))
        self.assertEqual(count_tests("Ran 4 tests in 0.001s\n\nOK (expected failures=2)"),
                         Counts(4, 2, 0, 0, "unittest", expected_failures=2))
        self.assertEqual(count_tests("Ran 3 tests in 0.001s\n\nOK (skipped=1, expected "
                                     "failures=1, unexpected successes=1)"),
                         Counts(3, 1, 0, 1, "unittest", expected_failures=1))


class Pins(TempDirTest):
    def test_from_a_junit_report(self):
        pin = pin_from_junit(fixture("junit-pytest.xml", "rb"), "junit-pytest.xml")
        self.assertEqual((pin.tests, pin.skipped), (8, 2))
        self.assertEqual(len(pin.source_sha256), 64)
        self.assertEqual(pin_from_junit(fixture("junit-pytest.xml", "rb"), "r",
                                        allow_skipped=0).skipped, 0)

    def test_from_pytest_collection(self):
        for name in ("collect-q.txt", "collect-qq.txt", "collect-plain.txt"):
            with self.subTest(output=name):
                pin = pin_from_collection(fixture(name, "rb"), name)
                self.assertEqual((pin.tests, pin.skipped), (8, 0))

    def test_nothing_to_pin_is_refused(self):
        cases = {"collect-error.txt": "reports errors", "no-count.txt": "no tests collected",
                 "pytest-q-ok.txt": "no tests collected"}
        for name, words in cases.items():
            with self.subTest(output=name):
                with self.assertRaises(InputError) as caught:
                    pin_from_collection(fixture(name, "rb"), name)
                self.assertIn(words, str(caught.exception))
        with self.assertRaises(InputError):
            pin_from_junit(b"<html></html>", "page.html")

    def test_a_run_meets_its_pin_or_says_why_not(self):
        pin = Pin(10, 1)
        self.assertIsNone(pin_problem(pin, Counts(10, 9, 0, 1, "pytest")))
        self.assertIsNone(pin_problem(pin, Counts(12, 12, 0, 0, "pytest")))  # the suite grew
        self.assertEqual(pin_problem(pin, Counts(3, 3, 0, 0, "pytest")),
                         "reported 3 tests, 7 fewer than the 10 pinned")
        self.assertEqual(pin_problem(pin, Counts(10, 7, 0, 3, "pytest")),
                         "skipped 3 tests, more than the 1 the pin allows")
        self.assertIn("no test count that can be read", pin_problem(pin, None))
        self.assertEqual(pin.shortfall(Counts(8, 5, 0, 3, "x")), {"tests": 2, "skipped": 2})
        self.assertEqual(pin.shortfall(None), {"tests": 10, "skipped": 0})
        self.assertEqual(witness_problem(1, pin, Counts(3, 3, 0, 0, "x")),
                         "exited with status 1, and reported 3 tests, 7 fewer than the 10 "
                         "pinned")
        self.assertIsNone(witness_problem(0))

    def test_expected_failures_cannot_make_up_for_passing_tests(self):
        # An expected failure ran, but it is not a pass: it takes from the skips the pin
        # allows, so ten tests of which three are expected to fail do not meet a pin of ten.
        pin = Pin(10, 1)
        self.assertEqual(pin_problem(pin, Counts(10, 7, 0, 0, "pytest", expected_failures=3)),
                         "expected 3 tests to fail, more than the 1 the pin allows to skip "
                         "or to fail as expected")
        self.assertEqual(pin_problem(pin, Counts(10, 8, 0, 1, "pytest", expected_failures=1)),
                         "skipped 1 test and expected 1 test to fail, more than the 1 the pin "
                         "allows to skip or to fail as expected")
        self.assertIsNone(pin_problem(pin, Counts(10, 9, 0, 0, "pytest", expected_failures=1)))
        self.assertEqual(pin.shortfall(Counts(10, 7, 0, 0, "x", expected_failures=3)),
                         {"tests": 0, "skipped": 2})

    def test_witness_pin_command(self):
        out = self.path("tests.pin")
        status, stdout, _ = run_cli("witness", "pin", "--junit",
                                    os.path.join(COUNTS, "junit-pytest.xml"), "--out", out)
        self.assertEqual(status, 0)
        self.assertIn("pinned 8 tests, at most 2 skipped or expected to fail", stdout)
        self.assertEqual(read_pin(out), Pin(8, 2, read_pin(out).source,
                                            read_pin(out).source_sha256))
        status, _, _ = run_cli("witness", "pin", "--collect",
                               os.path.join(COUNTS, "collect-q.txt"), "--out", out,
                               "--allow-skipped", "1")
        self.assertEqual((status, read_pin(out).tests, read_pin(out).skipped), (0, 8, 1))
        status, _, err = run_cli("witness", "pin", "--junit", self.write("x.xml", "<a/>"),
                                 "--out", out)
        self.assertEqual(status, 5)
        self.assertIn("not a JUnit report", err)
        for bad in ('{"tests": 0}', '{"tests": "8"}', '[]', '{"schema": "other", "tests": 1}'):
            with self.subTest(pin=bad), self.assertRaises(InputError):
                read_pin(self.write("bad.pin", bad))


def quote_last_line(body):
    """Both models: shown, quoting the last line of the one turn's output."""
    text = body["messages"][1]["content"]
    output = text.split("<output>\n", 1)[1].split("\n</output>", 1)[0]
    return answer("shown", "T1", output.splitlines()[-1])


class PinnedGate(TempDirTest):
    def gate(self, test_output, *options):
        self.marker = self.path("pushed")
        self.receipt = self.path("receipt.json")
        # A script named for tests, so that the check takes its run for a run of tests.
        test = self.write("run_tests.py", f"print({test_output!r})\n")
        with FakeServer() as fake:
            fake.script("qa", quote_last_line)
            fake.script("qb", quote_last_line)
            return run_cli("gate", "--claim", "the tests pass", "--witness", "--log",
                           self.path("witness.jsonl"), "--save", self.receipt, "--base-url",
                           fake.base_url, "--model-a", "qa", "--model-b", "qb", *options, "--",
                           sys.executable, test, "--", sys.executable, "-c",
                           f"open({self.marker!r}, 'w')")

    def saved(self):
        with open(self.receipt) as handle:
            return json.load(handle)

    def test_a_run_that_meets_its_pin_lets_the_action_run(self):
        status, out, err = self.gate("3 passed in 0.1s", "--expect-tests", "3")
        self.assertEqual(status, 0, out + err)
        self.assertTrue(os.path.exists(self.marker))
        witness = self.saved()["witness"]
        self.assertIsNone(witness["problem"])
        self.assertEqual(witness["shortfall"], {"tests": 0, "skipped": 0})
        self.assertEqual(witness["counts"]["tests"], 3)
        self.assertIn("reported 3 tests", err)
        self.assertEqual(run_cli("replay", "--receipt", self.receipt)[0], 0)

    def test_fewer_tests_than_pinned_block_whatever_the_models_say(self):
        status, out, _ = self.gate("3 passed in 0.1s", "--expect-tests", "10")
        self.assertEqual(status, 3)
        self.assertFalse(os.path.exists(self.marker))
        self.assertIn("the witness run reported 3 tests, 7 fewer than the 10 pinned, so the "
                      "claim about it cannot be shown", out)
        self.assertEqual(out.strip().splitlines()[-1], "not shown: no receipt, no action")
        saved = self.saved()
        self.assertEqual([m["answer"] for m in saved["models"]], ["shown", "shown"])
        self.assertEqual(saved["witness"]["shortfall"], {"tests": 7, "skipped": 0})
        self.assertEqual(saved["witness"]["pin"]["tests"], 10)
        self.assertEqual(saved["gate"]["runs"], False)
        self.assertEqual(run_cli("replay", "--receipt", self.receipt)[0], 0)

    def test_more_skipped_than_pinned_block(self):
        pin = self.write("tests.pin", json.dumps({"schema": "receipt-pair/pin/1", "tests": 3,
                                                  "skipped": 0}))
        status, out, _ = self.gate("2 passed, 1 skipped in 0.1s", "--pin", pin)
        self.assertEqual(status, 3)
        self.assertIn("skipped 1 test, more than the 0 the pin allows", out)
        status, out, _ = self.gate("2 passed, 1 skipped in 0.1s", "--pin", pin,
                                   "--allow-skipped", "1")
        self.assertEqual(status, 0, out)

    def test_expected_failures_block_like_skips(self):
        status, out, err = self.gate("7 passed, 3 xfailed in 0.1s", "--expect-tests", "10")
        self.assertEqual(status, 3, out + err)
        self.assertFalse(os.path.exists(self.marker))
        self.assertIn("expected 3 tests to fail, more than the 0 the pin allows", out)
        self.assertIn("10 tests: 7 passed, 0 failed, 3 expected to fail, 0 skipped", err)
        self.assertEqual(self.saved()["witness"]["counts"]["expected_failures"], 3)
        self.assertEqual(run_cli("replay", "--receipt", self.receipt)[0], 0)
        status, out, _ = self.gate("7 passed, 3 xfailed in 0.1s", "--expect-tests", "10",
                                   "--allow-skipped", "3")
        self.assertEqual(status, 0, out)

    def test_counts_written_before_expected_failures_were_counted_apart(self):
        self.gate("3 passed in 0.1s", "--expect-tests", "3")
        saved = self.saved()
        del saved["witness"]["counts"]["expected_failures"]
        saved["receipt_sha256"] = canonical_sha256(saved, "receipt_sha256")
        status, out, _ = run_cli("replay", "--receipt", self.write("t.json", json.dumps(saved)))
        self.assertEqual(status, 0, out)

    def test_a_count_that_cannot_be_read_cannot_meet_a_pin(self):
        status, out, _ = self.gate("all good", "--expect-tests", "1")
        self.assertEqual(status, 3)
        self.assertIn("printed no test count that can be read", out)
        self.assertIsNone(self.saved()["witness"]["counts"])

    def test_an_edited_count_does_not_replay(self):
        self.gate("3 passed in 0.1s", "--expect-tests", "10")
        saved = self.saved()
        saved["witness"]["counts"]["tests"] = 10
        saved["witness"]["shortfall"]["tests"] = 0
        saved["witness"]["problem"] = None
        status, out, _ = run_cli("replay", "--receipt", self.write("t.json", json.dumps(saved)))
        self.assertEqual(status, 1)
        self.assertIn("the test counts recorded are not what the record's output reports", out)
        self.assertIn("the witness problem recorded None", out)

    def test_pin_options_need_a_witness_and_one_source(self):
        cases = (("--expect-tests", "3"), ("--allow-skipped", "1"),
                 ("--witness", "--expect-tests", "3", "--pin", "p"))
        for options in cases:
            with self.subTest(options=options):
                status, _, _ = run_cli("gate", "--claim", "c", "--log", self.path("w"),
                                       *options, "--", "true", "--", "true")
                self.assertEqual(status, 2)
        status, _, err = run_cli("gate", "--claim", "c", "--witness", "--log", self.path("w"),
                                 "--pin", self.path("missing.pin"), "--", "true", "--", "true")
        self.assertEqual(status, 5)
        self.assertFalse(os.path.exists(self.path("w")))  # nothing ran, nothing recorded


if __name__ == "__main__":
    unittest.main()

