"""Small shared helpers for the tests: run the CLI in-process, temporary files."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

from receipt_pair.cli import main

DATA = os.path.join(os.path.dirname(__file__), "data")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


def run_cli(*argv, stdin=None):
    """(exit status, stdout, stderr) of `receipt-pair ARGV...`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receipt-pair-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        path = self.path(name)
        mode = "wb" if isinstance(text, bytes) else "w"
        with open(path, mode) as handle:
            handle.write(text)
        return path
