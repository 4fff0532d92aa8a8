"""The unit suite on two processes: `python -m unittest discover -s tests/unit -t .` runs its
modules on this machine's two cores, one process taking the next module whenever it is
free, and reports them as one run (the dots of both, one "Ran N tests", every failure).

A module runs whole in one process, so its fixtures (setUpModule, setUpClass) run as they
would in one. The work list is a pipe the parent fills with module numbers before it forks;
each process reads the next number when it is free, so a slow module does not hold up the
rest. The child sends its outcomes back through a second pipe as text (the tracebacks
already formatted) and the parent adds them to its own result.

A module that runs long says so (`RUN_FIRST = True` at its top) and is started first, so the
two processes end at about the same time.

RECEIPT_PAIR_TESTS_SERIAL=1 (or a platform without fork) runs the modules in one process,
in order, as unittest alone would. The child keeps the parent's -f, -b and --locals; once
either process stops on a failure (-f), the other takes no new module. With -v the two
processes' lines interleave.
"""

import os
import pickle
import struct
import sys
import unittest

WORKERS = 2
_NUMBER = struct.Struct(">H")


class _Named:
    """A test of the other process, known by its name: what a result prints of it."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    def shortDescription(self):
        return None


class _Pulled(unittest.TestSuite):
    """The modules this process takes from the work list, one at a time, as it gets to
    them. unittest's own run handles each module's and class's fixtures."""

    def __init__(self, modules, work):
        super().__init__()
        self._modules, self._work = modules, work

    def __iter__(self):
        while True:
            raw = os.read(self._work, _NUMBER.size)
            if len(raw) < _NUMBER.size:
                return
            yield self._modules[_NUMBER.unpack(raw)[0]]

    def _removeTestAtIndex(self, index):
        pass  # the modules are the parent's list's: unittest may not set them to None


class TwoProcesses(unittest.TestSuite):
    """The suite `load_tests` returns: its tests are the package's modules' suites."""

    def run(self, result, debug=False):
        modules = list(self)
        if (debug or not hasattr(os, "fork") or len(modules) < WORKERS
                or os.environ.get("RECEIPT_PAIR_TESTS_SERIAL") == "1"):
            return super().run(result, debug)
        work, fill = os.pipe()
        os.write(fill, b"".join(_NUMBER.pack(i) for i in range(len(modules))))
        os.close(fill)
        back, send = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:
            os.close(back)
            _run_child(modules, work, send, result)
        os.close(send)
        _Pulled(modules, work).run(result)
        if result.shouldStop:  # -f: take the rest of the work list, so the child stops too
            _read_all(work)
        received = _read_all(back)
        os.close(back)
        os.close(work)
        _, status = os.waitpid(child, 0)
        _merge(result, received, status)
        return result


def _run_child(modules, work, send, parent):
    """The child's whole life: run what it takes from the work list, send the outcomes,
    exit without running the parent's exit handlers."""
    code = 0
    try:
        verbosity = 2 if getattr(parent, "showAll", False) else \
            1 if getattr(parent, "dots", False) else 0
        stream = unittest.runner._WritelnDecorator(sys.stderr)
        result = unittest.TextTestResult(stream, True, verbosity)
        result.failfast = parent.failfast
        result.buffer = parent.buffer
        result.tb_locals = getattr(parent, "tb_locals", False)
        _Pulled(modules, work).run(result)
        if result.shouldStop:
            _read_all(work)
        outcomes = {
            "ran": result.testsRun,
            "failures": [(str(t), text) for t, text in result.failures],
            "errors": [(str(t), text) for t, text in result.errors],
            "skipped": [(str(t), reason) for t, reason in result.skipped],
            "expected": [(str(t), text) for t, text in result.expectedFailures],
            "unexpected": [str(t) for t in result.unexpectedSuccesses],
        }
        payload = pickle.dumps(outcomes)
        view = memoryview(payload)
        while view:
            view = view[os.write(send, view):]
    except BaseException:  # the parent reports a child that sent nothing
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _read_all(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _merge(result, received, status):
    """Adds the child's outcomes to the parent's result; a child that sent none is one
    error, said with its exit status."""
    try:
        outcomes = pickle.loads(received)
    except Exception:
        code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") \
            else status
        result.errors.append((_Named("the second test process"),
                              f"it ended (exit status {code}) without sending its "
                              f"outcomes: its modules' results are lost\n"))
        return
    result.testsRun += outcomes["ran"]
    result.failures.extend((_Named(n), text) for n, text in outcomes["failures"])
    result.errors.extend((_Named(n), text) for n, text in outcomes["errors"])
    result.skipped.extend((_Named(n), reason) for n, reason in outcomes["skipped"])
    result.expectedFailures.extend((_Named(n), text) for n, text in outcomes["expected"])
    result.unexpectedSuccesses.extend(_Named(n) for n in outcomes["unexpected"])


def load_package(loader, start_dir, pattern):
    """The suite of the package at `start_dir` for its `load_tests`: every module found
    there, run on two processes."""
    # The repository's root is the top level, whoever asked (`discover -t .`, or
    # `python -m unittest tests.unit`): the modules are tests.unit.test_x.
    root = os.path.dirname(os.path.dirname(os.path.abspath(start_dir)))
    found = loader.discover(start_dir=start_dir, pattern=pattern or "test*.py",
                            top_level_dir=root)
    return TwoProcesses(first_the_long(list(found)))


def first_the_long(modules):
    """The modules' suites with those whose module says it runs long (`RUN_FIRST = True`)
    first, the rest in their order: a long module taken last would leave one process
    working alone at the end."""
    return sorted(modules, key=lambda suite: not getattr(_module_of(suite), "RUN_FIRST", False))


def _module_of(suite):
    """The module of the first test in `suite`, or None for an empty one."""
    for test in suite:
        if isinstance(test, unittest.TestSuite):
            found = _module_of(test)
            if found is not None:
                return found
        else:
            return sys.modules.get(type(test).__module__)
    return None
