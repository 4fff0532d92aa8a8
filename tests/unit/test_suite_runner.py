"""The unit suite's own runner (tests/parallel.py): every module's outcome reaches the one
result, whichever process ran it, and a child that dies is an error, not a quiet pass."""

import os
import sys
import tempfile
import time
import types
import unittest
from unittest import mock

from tests import parallel

_WHO = "RECEIPT_PAIR_TEST_WHO_RAN"  # a file each test writes the number of its process to
_PARENT = "RECEIPT_PAIR_TEST_PARENT"  # the process that runs the suite under test


def _note_process():
    if os.environ.get(_WHO):
        with open(os.environ[_WHO], "a") as handle:
            handle.write(f"{os.getpid()}\n")


def _processes_noted():
    if not os.environ.get(_WHO) or not os.path.exists(os.environ[_WHO]):
        return set()
    with open(os.environ[_WHO]) as handle:
        return set(handle.read().split())


class _Cases:
    """Cases the tests below run (not discovered: unittest looks at a module's own names)."""

    class Slow(unittest.TestCase):
        def test_slow(self):
            # Holds one process until the other has run a test (at most 10 s), so the
            # other takes the modules after this one.
            _note_process()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and len(_processes_noted()) < 2:
                time.sleep(0.01)

    class Passes(unittest.TestCase):
        def test_one(self):
            _note_process()

        def test_two(self):
            pass

    class Dies(unittest.TestCase):
        def test_dies(self):
            _note_process()
            if str(os.getpid()) == os.environ[_PARENT]:
                self.skipTest("the parent took it")  # the parent must live: nothing to see
            os._exit(3)

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
            with mock.patch.dict(os.environ, {"RECEIPT_PAIR_TESTS_SERIAL": "", _WHO: who,
                                              _PARENT: str(os.getpid())}):
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

    def test_a_child_that_dies_is_an_error(self):
        # The child's process ends in a test (os._exit): its outcomes never come back.
        result, _ = self.run_suite(_Cases.Slow, _Cases.Dies, _Cases.Passes)
        if any(reason == "the parent took it" for _, reason in result.skipped):
            self.skipTest("the parent ran the dying test this time (the child took Slow)")
        self.assertFalse(result.wasSuccessful())
        self.assertTrue(any("without sending its outcomes" in text and "exit status 3" in text
                            for _, text in result.errors))

    def test_failfast_stops_both(self):
        # Each process stops at its first failure and takes no module after it.
        result = unittest.TestResult()
        result.failfast = True
        with mock.patch.dict(os.environ, {"RECEIPT_PAIR_TESTS_SERIAL": ""}):
            parallel.TwoProcesses(_modules(_Cases.Fails, _Cases.Fails,
                                           *[_Cases.Passes] * 6)).run(result)
        self.assertLessEqual(result.testsRun, 2)

    def test_a_module_that_runs_long_is_taken_first(self):
        # A module with RUN_FIRST = True goes to the head of the work list; the others keep
        # their order, and an empty suite has no module to ask.
        long = types.ModuleType("long_module")
        long.RUN_FIRST = True
        short = types.ModuleType("short_module")
        cases = {}
        for module in (short, long):
            case = type("Case", (unittest.TestCase,), {"test_it": lambda self: None,
                                                        "__module__": module.__name__})
            cases[module.__name__] = unittest.TestSuite([unittest.TestSuite([case("test_it")])])
        empty = unittest.TestSuite()
        with mock.patch.dict(sys.modules, {"long_module": long, "short_module": short}):
            order = parallel.first_the_long([cases["short_module"], empty,
                                             cases["long_module"]])
        self.assertEqual(order, [cases["long_module"], cases["short_module"], empty])

    def test_serial_when_asked(self):
        result = unittest.TestResult()
        with mock.patch.dict(os.environ, {"RECEIPT_PAIR_TESTS_SERIAL": "1"}), \
                mock.patch.object(os, "fork", side_effect=AssertionError("forked")):
            parallel.TwoProcesses(_modules(_Cases.Passes, _Cases.Fails)).run(result)
        self.assertEqual((result.testsRun, len(result.failures)), (5, 1))
