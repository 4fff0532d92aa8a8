"""Every figure the README and docs/measured.md quote from a run matches that run's sealed
file, and no count is typed by hand in either."""

import hashlib
import importlib.util
import os
import re
import unittest

from tests.helpers import ROOT

spec = importlib.util.spec_from_file_location("figures", os.path.join(ROOT, "scripts", "figures.py"))
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)


def sealed_hashes(folder):
    hashes = {}
    for name in os.listdir(folder):
        if name.endswith("-SHA256.txt"):
            with open(os.path.join(folder, name)) as handle:
                for line in handle:
                    digest, file_name = line.rstrip("\n").split("  ", 1)
                    hashes[file_name] = digest
    return hashes


class ReadmeFigures(unittest.TestCase):
    def setUp(self):
        self.text = ""
        for page in figures.PAGES:  # the README and docs/measured.md, read as one
            with open(os.path.join(ROOT, page)) as handle:
                self.text += handle.read() + "\n"

    def test_blocks_match_their_files(self):
        for spec_text, body in figures.blocks(self.text):
            with self.subTest(block=spec_text):
                self.assertEqual(body, figures.render(spec_text), "run scripts/figures.py --update")

    def test_quoted_files_are_sealed(self):
        for spec_text, _ in figures.blocks(self.text):
            # every word after the kind is a file, except the arm a `variants` block names
            # and the label a `plain` or an `answer` block starts with
            kind, *words = spec_text.split()
            for path in [w for w in words[kind in ("plain", "answer"):]
                         if w not in figures.ARMS]:
                with self.subTest(path=path):
                    folder, name = os.path.split(os.path.join(ROOT, path))
                    hashes = sealed_hashes(folder)
                    self.assertIn(name, hashes, f"{path} is not in a seal of its folder")
                    with open(os.path.join(folder, name), "rb") as handle:
                        self.assertEqual(hashlib.sha256(handle.read()).hexdigest(), hashes[name])

    def test_every_sealed_figures_file_has_its_block(self):
        # A block deleted from the README (or never written) must fail here: every sealed
        # score, benchmark and choice file in receipts/ is quoted by at least one block.
        quoted = {word for spec_text, _ in figures.blocks(self.text)
                  for word in spec_text.split()[1:]}
        receipts = os.path.join(ROOT, "receipts")
        for folder in sorted(os.listdir(receipts)):
            hashes = sealed_hashes(os.path.join(receipts, folder)) \
                if os.path.isdir(os.path.join(receipts, folder)) else {}
            for name in hashes:
                if name.startswith(("score-", "bench", "choice")) and name.endswith(".json"):
                    with self.subTest(file=f"receipts/{folder}/{name}"):
                        self.assertIn(f"receipts/{folder}/{name}", quoted)

    def test_no_count_typed_outside_a_block(self):
        # "k of n" figures belong in blocks rendered from sealed files, not in prose.
        outside = figures.BLOCK.sub("", self.text)
        self.assertEqual(re.findall(r"\b\d+ of \d+\b", outside), [])

    def test_render_score_block(self):
        fake = {"arms": {arm: {key: {"k": 1, "n": 4, "rate": 0.25, "low": 0.0456, "high": 0.6994}
                               for key, _ in figures.MEASURES} for arm in figures.ARMS}}
        original = figures.load
        figures.load = lambda path: fake
        try:
            lines = figures.render("score whatever.json").splitlines()
        finally:
            figures.load = original
        self.assertEqual(lines[0], "| measure | " + " | ".join(figures.ARMS) + " |")
        self.assertIn("| right | 1 of 4 (5-70%) |", lines[2])

    def test_render_plain_block_gives_every_denominator(self):
        fake = {"reader": "r9", "arms": {"R2": {
            key: {"k": i, "n": 10 + i, "rate": 0.1, "low": 0.0, "high": 0.5}
            for i, (key, _) in enumerate(figures.MEASURES)}}}
        original = figures.load
        figures.load = lambda path: fake
        try:
            text = " ".join(figures.render("plain long_logs x.json").split())
        finally:
            figures.load = original
        self.assertTrue(text.startswith("On long logs, the pair under reader r9 and R2"))
        for i, _ in enumerate(figures.MEASURES):
            self.assertIn(f"{i} of {10 + i}", text)
