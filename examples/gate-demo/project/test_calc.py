"""The two tests the gate runs before anything is pushed."""

import unittest

from calc import gross, vat


class VatTest(unittest.TestCase):
    def test_vat_at_the_standard_rate(self):
        self.assertEqual(vat(100.0), 20.0)

    def test_gross_uses_the_rate_it_is_given(self):
        self.assertEqual(gross(100.0, rate=0.1), 110.0)


if __name__ == "__main__":
    unittest.main()
