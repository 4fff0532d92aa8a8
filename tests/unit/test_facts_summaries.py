"""Golden tests for reading a test runner's own summary (receipt_pair.facts.tests) from real
outputs of real runners, collected from public sources (tests/data/facts/summaries/SOURCES.md).

expected.json maps each output file to what a careful reader takes from the runner's own final
summary: {"passed", "failed", "skipped", "line"}, or null where no summary can be read.
`failed` counts failures and errors together; `skipped` counts what was not run (skipped,
deselected, pending, todo, xfail, excluded, incomplete, cancelled). `line` is the summary line
a receipt would quote, compared without its surrounding blanks. Where an entry has "cut" (the
run was stopped by an interrupt or a timeout) or "no_tests" (the run found no tests), the
matching reader (cut_line, no_tests_line) is checked too, either way.

For go test the counts follow gotestsum: every `--- PASS/FAIL/SKIP` result line, subtests
included, or the package lines when the output has no test lines.
"""

import json
import os
import unittest

from receipt_pair.facts.endings import cut_line, no_tests_line
from receipt_pair.facts.summaries import read_summary
from receipt_pair.facts.text import screen_lines

from tests.helpers import DATA

SUMMARIES = os.path.join(DATA, "facts", "summaries")


def _lines(name):
    with open(os.path.join(SUMMARIES, name), encoding="utf-8", newline="") as handle:
        return screen_lines(handle.read())


def _expected():
    with open(os.path.join(SUMMARIES, "expected.json"), encoding="utf-8") as handle:
        return json.load(handle)


class SummariesTest(unittest.TestCase):

    def test_every_output_has_an_expectation(self):
        outputs = {name for name in os.listdir(SUMMARIES) if name.endswith(".txt")}
        self.assertEqual(outputs, set(_expected()))

    def test_read_summary(self):
        for name, want in sorted(_expected().items()):
            with self.subTest(output=name):
                got = read_summary(_lines(name))
                if want is None:
                    self.assertIsNone(got, "no summary can be read, got %r" % (got,))
                    continue
                self.assertIsNotNone(got, "expected %r" % (want,))
                self.assertEqual(
                    {"passed": got.passed, "failed": got.failed, "skipped": got.skipped,
                     "line": got.line.strip()},
                    {"passed": want["passed"], "failed": want["failed"],
                     "skipped": want["skipped"], "line": want["line"].strip()})

    def test_summary_index_points_at_its_line(self):
        for name, want in sorted(_expected().items()):
            if want is None:
                continue
            with self.subTest(output=name):
                lines = _lines(name)
                got = read_summary(lines)
                if got is None:
                    continue  # reported by test_read_summary
                self.assertEqual(lines[got.index].strip(), got.line)  # the line, its blanks off

    def test_cut(self):
        for name, want in sorted(_expected().items()):
            if not want or "cut" not in want:
                continue
            with self.subTest(output=name):
                self.assertEqual(cut_line(_lines(name)) is not None, want["cut"],
                                 "cut_line gave %r" % (cut_line(_lines(name)),))

    def test_no_tests(self):
        for name, want in sorted(_expected().items()):
            if not want or "no_tests" not in want:
                continue
            with self.subTest(output=name):
                self.assertEqual(no_tests_line(_lines(name)) is not None, want["no_tests"],
                                 "no_tests_line gave %r" % (no_tests_line(_lines(name)),))


if __name__ == "__main__":
    unittest.main()
