"""show --html: one static page per receipt or ledger; every string from a log escaped, the
quoted spans marked in their turns, and no markup from a hostile log surviving."""

import json
import os
import random

from receipt_pair.audit.expiry import judge_receipt as judge
from receipt_pair.audit.ledger import verify_ledger
from receipt_pair.store.ledger import entry_summary
from receipt_pair.cli.page import ledger_page, marked_lines, receipt_page
from receipt_pair.audit.replay import replay_receipt

from tests.fakeserver import FakeServer, answer
from tests.pages import (HOSTILE_CLAIM, HOSTILE_OUTPUT, IMG_QUOTE, PAGE_TAGS, Elements,
                         hostile_receipt)
from tests.helpers import EXAMPLES, ROOT, TempDirTest, run_cli

GATE_DEMO = os.path.join(ROOT, "receipts", "gate-demo-1")
TAKE1 = os.path.join(GATE_DEMO, "receipt-take1.json")
def assert_no_markup_survives(test, page):
    """Only the page writer's own tags, no event handler, no source, no link out."""
    elements = Elements(page)
    tags = {e["tag"] for e in elements.elements}
    test.assertLessEqual(tags, PAGE_TAGS, f"tags from the log: {tags - PAGE_TAGS}")
    for element in elements.elements:
        for name, value in element["attrs"].items():
            test.assertFalse(name.startswith("on"), element)
            test.assertNotIn(name, ("src", "srcdoc", "action", "formaction", "style"))
            if name == "href":
                test.assertRegex(value, r"^#entry-\d+$")
    lowered = page.lower()
    for forbidden in ("<script", "<img", "<h1>forged", "href=\"javascript", "<iframe"):
        test.assertNotIn(forbidden, lowered)
    return elements


class Page(TempDirTest):
    def show(self, source, *extra):
        out = self.path("page.html")
        status, stdout, err = run_cli("show", source, "--html", out, *extra)
        with open(out, encoding="utf-8") as handle:
            return status, handle.read(), stdout + err

    def test_the_gate_demo_receipt(self):
        status, page, said = self.show(TAKE1)
        self.assertEqual(status, 0, said)
        self.assertIn("re-derived offline, no differences", said)
        elements = assert_no_markup_survives(self, page)
        # The claim and the answer come before the models, the log and the hashes.
        order = [page.index(s) for s in ("the tests pass", "contradicted</span>",
                                         "The two models", "The log as the models saw it",
                                         "Hashes and settings")]
        self.assertEqual(order, sorted(order))
        marks = elements.find("mark", "q", inside="pre")
        self.assertEqual([elements.text(m) for m in marks], ["Traceback (most recent call last):"])
        self.assertEqual(marks[0]["classes"], ["q", "ok"])
        self.assertEqual(marks[0]["attrs"]["data-label"], "A: ok")
        # Model B's refused quote is nowhere in the log: its row says so, nothing is marked.
        self.assertIn("quote_not_found", page)
        self.assertIn('http-equiv="Content-Security-Policy"', page)
        self.assertIn("633eb40d47bb6ed4f601cb16844e48441dfca7aef110c3034a5ca045d8662396", page)

    def test_a_hostile_log_stays_text(self):
        receipt = hostile_receipt(self)
        status, page, said = self.show(receipt)
        self.assertEqual(status, 0, said)
        elements = assert_no_markup_survives(self, page)
        outputs = elements.find("pre", "out")
        self.assertEqual(elements.text(outputs[0]), HOSTILE_OUTPUT)  # every character, as text
        self.assertIn(HOSTILE_CLAIM, "".join(elements.text(e) for e in elements.find("p",
                                                                                  "claim")))
        ok = elements.find("mark", "ok", inside="pre")
        self.assertEqual([elements.text(m) for m in ok], [IMG_QUOTE])
        refused = elements.find("mark", "refused", inside="pre")
        self.assertEqual([elements.text(m) for m in refused], ["javascript:alert(3)"])
        self.assertEqual(refused[0]["attrs"]["data-label"], "B: quote_from_command")
        self.assertIn("pre", refused[0]["ancestors"])

    def test_hostile_values_where_a_receipt_is_not_re_derived(self):
        # Values no check ever made (an edited receipt): still only text, in attributes too.
        with open(TAKE1) as handle:
            receipt = json.load(handle)
        evil = "\"><script>alert(6)</script><img src=z onerror=alert(7)>"
        receipt["models"][0]["checked"]["code"] = evil
        receipt["models"][0]["arm"] = evil
        receipt["models"][0]["model"] = evil
        receipt["reader"]["version"] = evil
        receipt["rule"] = evil
        receipt["shown"][0]["id"] = evil
        page = receipt_page(receipt, ["differs: " + evil], evil)
        assert_no_markup_survives(self, page)

    def test_a_ledger_page_has_a_section_per_entry(self):
        ledger = self.path("ledger.jsonl")
        with FakeServer() as fake:
            fake.script("qa", answer("shown", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser"))
            fake.script("qb", answer("not_shown"))
            for claim in ("I pushed fix/parser", "the push worked"):
                run_cli("check", "--claim", claim, "--log", os.path.join(EXAMPLES, "push-ok.json"),
                        "--ledger", ledger, "--base-url", fake.base_url, "--model-a", "qa",
                        "--model-b", "qb")
        status, page, _ = self.show(ledger)
        self.assertEqual(status, 0)
        elements = assert_no_markup_survives(self, page)
        sections = elements.find("section", "receipt")
        self.assertEqual([s["attrs"]["id"] for s in sections], ["entry-1", "entry-2"])
        self.assertIn("The chain holds", page)
        # A tampered ledger is still shown, with what is wrong, and exit 1.
        with open(ledger, "rb") as handle:
            lines = handle.read().split(b"\n")
        tampered = self.write("tampered.jsonl", b"\n".join([lines[1], lines[0]]) + b"\n")
        status, page, said = self.show(tampered)
        self.assertEqual(status, 1)
        self.assertIn("difference(s), shown on the page", said)
        self.assertIn("entry 1: it says it is entry 2", page)

    def test_neither_receipt_nor_ledger(self):
        out = self.path("page.html")
        status, _, err = run_cli("show", os.path.join(EXAMPLES, "push-ok.json"), "--html", out)
        self.assertEqual(status, 5)
        self.assertIn("neither a receipt-pair receipt nor a ledger", err)
        self.assertFalse(os.path.exists(out))

    def test_page_to_standard_output(self):
        status, out, err = run_cli("show", TAKE1, "--html", "-")
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("<!DOCTYPE html>"))
        self.assertIn("wrote -", err)

    def test_marks_split_at_lines_and_overlaps(self):
        ok = {"arm": "A", "ok": True, "code": "ok"}
        refused = {"arm": "B", "ok": False, "code": "quote_not_found"}
        html_text = marked_lines("one <two>\nthree", [(4, 9, ok), (0, 7, refused)])
        self.assertEqual(html_text.split("\n")[0],
                         '<span class="line hit hit-ok hit-refused">'
                         '<mark class="q refused" data-label="B: quote_not_found">one </mark>'
                         '<mark class="q ok refused" data-label="A: ok · B: quote_not_found">'
                         '&lt;tw</mark><mark class="q ok" data-label="A: ok">o&gt;</mark></span>')
        self.assertEqual(marked_lines("a\nbc", [(0, 4, ok)]).count("<mark"), 2)


_ODD = [None, 0, -3, True, 1.5, "", "A", "<script>", [], {}, [1, "a"], {"a": None}]


def _mutated(value, rng):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            roll = rng.random()
            if roll < 0.03:
                continue
            out[key] = rng.choice(_ODD) if roll < 0.12 else _mutated(item, rng)
        return out
    if isinstance(value, list):
        return [rng.choice(_ODD) if rng.random() < 0.15 else _mutated(v, rng) for v in value]
    return value


class Malformed(TempDirTest):
    def test_a_malformed_receipt_is_never_a_traceback(self):
        # Replay, expiry, the ledger and the page each take a receipt that no check made
        # (every field the wrong type somewhere): a difference or a page, never an exception.
        with open(TAKE1) as handle:
            sources = [json.load(handle)]
        with open(hostile_receipt(self)) as handle:
            sources.append(json.load(handle))
        rng = random.Random(17)
        for number in range(300):
            receipt = _mutated(sources[number % 2], rng)
            with self.subTest(number=number):
                differences = replay_receipt(receipt)
                receipt_page(receipt, differences, "r")
                judge(receipt, b"log")
                line = json.dumps({"schema": "receipt-pair/ledger/1", "entry": 1,
                                   "prev_sha256": "0" * 64, "time": "t", "receipt": receipt})
                entries, found = verify_ledger(line.encode() + b"\n")
                ledger_page(entries, found, "l")
                [entry_summary(entry) for entry in entries]
