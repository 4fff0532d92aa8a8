import itertools
import unittest

from receipt_pair.answers import CONTRADICTED, CheckedAnswer, NOT_SHOWN, OK, QUOTE_NOT_FOUND, SHOWN
from receipt_pair.check.rules import RULES, TABLE, combine, combine_answers

S, C, N = SHOWN, CONTRADICTED, NOT_SHOWN

# The table of spec section 3, typed out again on purpose: the code's table is checked
# against this copy, cell by cell.
SPEC = """
shown        shown        shown        shown        shown
shown        contradicted not_shown    not_shown    not_shown
shown        not_shown    shown        not_shown    not_shown
contradicted shown        not_shown    not_shown    not_shown
contradicted contradicted contradicted contradicted contradicted
contradicted not_shown    contradicted contradicted not_shown
not_shown    shown        shown        not_shown    not_shown
not_shown    contradicted contradicted contradicted not_shown
not_shown    not_shown    not_shown    not_shown    not_shown
"""


def _word(text):
    return N if text == "not_shown" else text


class PairRules(unittest.TestCase):
    def test_all_27_cells(self):
        rows = [line.split() for line in SPEC.strip().splitlines()]
        cells = 0
        for a, b, *column in rows:
            for rule, want in zip(RULES, column):
                with self.subTest(a=a, b=b, rule=rule):
                    self.assertEqual(combine_answers(_word(a), _word(b), rule), _word(want))
                    cells += 1
        self.assertEqual(cells, 27)
        self.assertEqual(len(TABLE), 9)

    def test_pair_never_invents(self):
        for a, b in itertools.product((S, C, N), repeat=2):
            for rule in RULES:
                got = combine_answers(a, b, rule)
                self.assertTrue(got == N or got in (a, b))

    def test_deciding_quotes(self):
        a = CheckedAnswer("shown", "T2", "pushed", "", S, OK)
        b = CheckedAnswer("shown", "T2", "main -> main", "", S, OK)
        pair = combine(a, b, "r2")
        self.assertEqual(pair.answer, S)
        self.assertEqual([(q.arm, q.quote) for q in pair.quotes], [("A", "pushed"), ("B", "main -> main")])
        refused = CheckedAnswer("shown", "T2", "invented", "", N, QUOTE_NOT_FOUND)
        pair = combine(refused, b, "r1")
        self.assertEqual(pair.answer, S)
        self.assertEqual([q.arm for q in pair.quotes], ["B"])
        self.assertEqual(combine(refused, b, "r2").quotes, ())

    def test_unknown_rule(self):
        with self.assertRaises(ValueError):
            combine_answers(S, S, "r9")


if __name__ == "__main__":
    unittest.main()
