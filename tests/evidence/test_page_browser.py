"""The page in a real headless Chromium: it renders (a screenshot with the deciding line's
highlight in it), the highlighted element is the quote, and a hostile log leaves no
element behind. Chromium is Debian's `chromium`, installed by scripts/install-chromium when
missing; without it these tests skip and say why."""

import os
import unittest
from collections import Counter

from tests.helpers import ROOT, TempDirTest, run_cli
from tests.pages import IMG_QUOTE, Elements, chromium, hostile_receipt, png_pixels, run_chromium

TAKE1 = os.path.join(ROOT, "receipts", "gate-demo-1", "receipt-take1.json")
QUOTE_OK = (255, 212, 59)  # the page's colour for a quote that passed the check (#ffd43b)


class Browser(TempDirTest):
    @classmethod
    def setUpClass(cls):
        chromium()  # skips the class, saying why, when there is no browser

    def page(self, source):
        out = self.path("page.html")
        status, _, err = run_cli("show", source, "--html", out)
        self.assertIn(status, (0, 1), err)
        return out

    def test_the_gate_demo_page_renders_with_its_deciding_line_highlighted(self):
        shot = self.path("page.png")
        run_chromium(self.page(TAKE1), f"--screenshot={shot}", "--window-size=1100,1000")
        with open(shot, "rb") as handle:
            width, height, rows = png_pixels(handle.read())
        self.assertEqual((width, height), (1100, 1000))
        colours = Counter(pixel for row in rows for pixel in row)
        self.assertGreater(len(colours), 50)  # text, tables, colours: not a blank page
        self.assertLess(colours.most_common(1)[0][1], width * height * 0.9)
        # The highlight is drawn: bands of the passing quote's colour, a line high each, one
        # in the legend above the log and one on the deciding line in the log.
        highlighted = [y for y, row in enumerate(rows) if row.count(QUOTE_OK) > 50]
        bands = [y for y in highlighted if y - 1 not in highlighted]
        self.assertEqual(len(bands), 2, bands)
        self.assertGreater(len(highlighted), 16)

    def test_the_highlighted_element_is_the_quote(self):
        dom = run_chromium(self.page(TAKE1), "--dump-dom").decode("utf-8")
        elements = Elements(dom)
        marks = elements.find("mark", "q", "ok", inside="pre")
        self.assertEqual([elements.text(m) for m in marks], ["Traceback (most recent call last):"])
        self.assertEqual(len(elements.find("section", "receipt")), 1)

    def test_a_hostile_log_leaves_no_element_in_the_browser(self):
        dom = run_chromium(self.page(hostile_receipt(self)), "--dump-dom").decode("utf-8")
        elements = Elements(dom)
        tags = Counter(e["tag"] for e in elements.elements)
        for tag in ("script", "img", "iframe", "object", "embed", "form"):
            self.assertEqual(tags[tag], 0, tag)
        self.assertEqual(tags["h1"], 1)  # the page's own heading, not the log's
        for element in elements.elements:
            self.assertFalse([n for n in element["attrs"] if n.startswith("on")], element)
            self.assertFalse(str(element["attrs"].get("href", "")).startswith("javascript"))
        marks = elements.find("mark", "ok", inside="pre")
        self.assertEqual([elements.text(m) for m in marks], [IMG_QUOTE])


if __name__ == "__main__":
    unittest.main()
