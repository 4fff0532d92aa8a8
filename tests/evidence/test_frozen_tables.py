"""The frozen tables (t13 to t24) answer every earlier attack case as the table before them
did, or more carefully (tests/data/facts/attack-*.json).

Each check replays a few hundred attack cases under two frozen tables: they decide the
answers of sealed runs, so they can change only where code they share changes, and a change
there must show here. They were the unit suite's slowest tests (about two seconds each, a
table more each time the table grows); the current table's own check stays in the unit
suite (tests/unit/test_facts_versions.py, the current table's class).
"""

import unittest

from tests.unit.test_facts_versions import (_ATTACKS_TO_T16, _attack_cases, _case_turns,
                                            _decided, assert_more_carefully)


class FrozenTablesAnswerEarlierAttacks(unittest.TestCase):
    def test_t13_answers_every_attack_case_as_t12_or_leaves_it(self):
        # t13 only takes answers away: on every attack file it answers as t12 does, or
        # leaves the case to the models.
        for name in ("attack-t9.json", "attack-t10.json", "attack-t11.json", "attack-t12.json",
                     "attack-android.json"):
            for case in _attack_cases(name):
                turns = _case_turns(case)
                got = _decided(case["claim"], turns, "t13")
                with self.subTest(f"{name}: {case['name']}"):
                    self.assertIn(got, ((None, None), _decided(case["claim"], turns, "t12")))

    def test_t14_answers_every_attack_case_as_t13_or_more_carefully(self):
        # Where t14 answers an earlier attack case otherwise than t13, its answer is one the
        # case's right answer allows (or it leaves the case to the models).
        for name in ("attack-t9.json", "attack-t10.json", "attack-t11.json", "attack-t12.json",
                     "attack-t13.json", "attack-android.json"):
            with self.subTest(name):
                assert_more_carefully(self, name, "t14", "t13")

    def test_t15_answers_every_attack_case_as_t14_or_more_carefully(self):
        # t15 takes t14's answers away, or gives back t13's: on every attack file it answers
        # as t14 does, or leaves the case to the models, or gives an answer the case allows.
        for name in ("attack-t9.json", "attack-t10.json", "attack-t11.json", "attack-t12.json",
                     "attack-t13.json", "attack-t14.json", "attack-android.json"):
            with self.subTest(name):
                assert_more_carefully(self, name, "t15", "t14")

    def test_t16_answers_every_attack_case_as_t15_or_more_carefully(self):
        # t16 takes t15's answers away, or reads a kind a claim quotes a command of: on every
        # attack file it answers as t15 does, or leaves the case to the models, or gives an
        # answer the case allows.
        for name in ("attack-t9.json", "attack-t10.json", "attack-t11.json", "attack-t12.json",
                     "attack-t13.json", "attack-t14.json", "attack-android.json"):
            with self.subTest(name):
                assert_more_carefully(self, name, "t16", "t15")

    def test_t17_answers_every_attack_case_as_t16_or_more_carefully(self):
        for name in _ATTACKS_TO_T16:
            with self.subTest(name):
                assert_more_carefully(self, name, "t17", "t16")

    def test_t18_to_t24_answer_every_attack_case_as_t17_or_more_carefully(self):
        for version in ("t18", "t19", "t20", "t21", "t22", "t23", "t24"):
            for name in _ATTACKS_TO_T16:
                with self.subTest(f"{version}: {name}"):
                    assert_more_carefully(self, name, version, "t17")
