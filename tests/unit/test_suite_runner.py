"""The unit suite's own runner (tests/parallel.py): every module's outcome reaches the one
result, whichever process ran it, and a child that dies is an error, not a quiet pass."""

import os
import tempfile
import time
import unittest
from unittest import mock

from tests import parallel

_WHO = "RECEIPT_PAIR_TEST_WHO_RAN"  # a file each test writes the number of its process to


def _note_process():
    if os.environ.get(_WHO):
        with open(os.environ[_WHO], "a") as handle:
            handle.write(f"{os.getpid()}\n")


class _Cases:
    """Cases the tests below run (not discovered: unittest looks at a module's own names)."""

    class Slow(unittest.TestCase):
        def test_slow(self):
            _note_process()
            time.sleep(0.3)  # holds one process, so the other takes the modules after it

    class Passes(unittest.TestCase):
        def test_one(self):
            _note_process()

        def test_two(self):
            pass

    class Fails(unittest.TestCase):
        def test_fails(self):
            _note_process()
            self.assertEqual(1, 2)

        def test_errs(self):
            raise RuntimeError("boom")

        @unittest.skip("told to")
        def test_skipped(self):
            pass


def _modules(*cases):
    loader = unittest.TestLoader()
    return [loader.loadTestsFromTestCase(case) for case in cases]


@unittest.skipUnless(hasattr(os, "fork"), "the runner forks only where the platform can")
class TwoProcesses(unittest.TestCase):
    def run_suite(self, *cases):
        """(the result, how many processes ran tests) of `cases`, a module each."""
        result = unittest.TestResult()
        with tempfile.TemporaryDirectory() as folder:
            who = os.path.join(folder, "who")
            with mock.patch.dict(os.environ, {"RECEIPT_PAIR_TESTS_SERIAL": "", _WHO: who}):
                parallel.TwoProcesses(_modules(*cases)).run(result)
            with open(who) as handle:
                processes = len(set(handle.read().split()))
        return result, processes

    def test_every_outcome_counted_whichever_process_ran_it(self):
        # One process sleeps in the first module taken; the other takes the rest.
        result, processes = self.run_suite(_Cases.Slow, _Cases.Fails, _Cases.Passes, _Cases.Fails)
        self.assertEqual(processes, 2)
        self.assertEqual(result.testsRun, 9)
        self.assertEqual(len(result.failures), 2)
        self.assertEqual(len(result.errors), 2)
        self.assertEqual(len(result.skipped), 2)
        self.assertTrue(all("boom" in text for _, text in result.errors))

    def test_all_passing(self):
        result, processes = self.run_suite(_Cases.Slow, _Cases.Passes, _Cases.Passes)
        self.assertEqual(processes, 2)
        self.assertEqual((result.testsRun, result.failures, result.errors), (5, [], []))
        self.assertTrue(result.wasSuccessful())

    def test_a_child_that_sends_nothing_is_an_error(self):
        result = unittest.TestResult()
        parallel._merge(result, b"", 256)
        self.assertFalse(result.wasSuccessful())
        self.assertIn("without sending its outcomes", result.errors[0][1])

    def test_serial_when_asked(self):
        result = unittest.TestResult()
        with mock.patch.dict(os.environ, {"RECEIPT_PAIR_TESTS_SERIAL": "1"}), \
                mock.patch.object(os, "fork", side_effect=AssertionError("forked")):
            parallel.TwoProcesses(_modules(_Cases.Passes, _Cases.Fails)).run(result)
        self.assertEqual((result.testsRun, len(result.failures)), (5, 1))
