"""The decision table's versions, each beside the one before it: t2 beside t1 (every
red-team case t2 fixes, attack/REPORT.md, refused, an honest neighbour of each accepted, t1
giving exactly what it gave), each later table's probes and attack passes (t5 to t9), the
version list and fingerprints, and each record re-derived by the table it names.

tests/data/facts/attack-t2.json holds the cases' logs and claims (each `case` names its
folder under attack/ of the red-team round, or the case it is a neighbour of), what t1
decides of each (it must go on deciding it) and what t2 decides."""

import functools
import json
import os
import unittest

from receipt_pair.audit.facts import facts_differences, facts_record_differences
from receipt_pair.check import agree
from receipt_pair.facts import (decide_t2, languages, reading, reading_t2, reading_t4, reading_t8,
                                reading_t10, reading_t11, reading_t14, reading_t15, reading_t20,
                                reading_t21, reading_t23, reading_t24, reading_t25,
                                reading_t5, reading_t6, reading_t7)
from receipt_pair.facts.decision import RULES, RULES_T1, RULES_T2
from receipt_pair.facts.frame import read_frame
from receipt_pair.facts.probes import T1_PROBES
from receipt_pair.facts.table import VERSION, VERSIONS, decide, fingerprint
from receipt_pair.logs.items import Item
from receipt_pair.pair.claim import FACTS, facts_record, turn_id
from receipt_pair.store.records import RECEIPT_SCHEMA
from receipt_pair.turn import Turn

# The longest module of the suite (every table on every attack file): started first on the
# two processes (tests/parallel.py).
RUN_FIRST = True
CASES = os.path.join(os.path.dirname(__file__), "..", "data", "facts", "attack-t2.json")


def load_cases():
    with open(CASES, encoding="utf-8") as handle:
        rows = json.load(handle)
    for row in rows:
        row["turns"] = [Turn(cmd=t["cmd"], output=t["output"], exit_status=t.get("exit_status"))
                        for t in row["turns"]]
    return rows


def got(decision):
    return [decision.answer, decision.rule] if decision is not None else None


class AttackCases(unittest.TestCase):
    rows = load_cases()

    def test_there_are_cases_both_ways(self):
        refused = [r for r in self.rows if r["must"] == "refuse"]
        accepted = [r for r in self.rows if r["must"] == "accept"]
        self.assertGreaterEqual(len(refused), 25)
        self.assertGreaterEqual(len(accepted), 30)

    def test_t2_refuses_every_attack(self):
        for row in self.rows:
            if row["must"] != "refuse":
                continue
            with self.subTest(row["case"]):
                decision = decide(row["claim"], row["turns"])
                self.assertEqual(got(decision), row["t2"])
                self.assertNotEqual(decision and decision.answer, "shown")

    def test_t2_accepts_every_honest_neighbour(self):
        for row in self.rows:
            if row["must"] != "accept":
                continue
            with self.subTest(row["case"]):
                decision = decide(row["claim"], row["turns"])
                self.assertEqual(got(decision), row["t2"])
                self.assertEqual(decision.answer, "shown")

    def test_t1_decides_every_case_as_it_did(self):
        for row in self.rows:
            with self.subTest(row["case"]):
                self.assertEqual(got(decide(row["claim"], row["turns"], version="t1")),
                                 row["t1"])

    def test_t1s_probes_hold_under_t1(self):
        for probe in T1_PROBES:
            with self.subTest(probe.name):
                decision = decide(probe.claim, list(probe.turns), version="t1")
                self.assertEqual(tuple(got(decision) or (None, None)),
                                 (probe.answer, probe.rule))


class Versions(unittest.TestCase):
    def test_t1s_fingerprint_is_the_sealed_one(self):
        # Hashed from {"version": "t1", "rules": RULES}: run 6 recorded exactly this.
        self.assertEqual(fingerprint("t1"),
                         "f32722c2a607761ecaca057ec8a397af011449bc4eff197697e95c18ab131f7f")
        self.assertIs(RULES, RULES_T1)
        self.assertNotEqual(fingerprint("t2"), fingerprint("t1"))
        self.assertEqual(fingerprint(), fingerprint(VERSION))
        self.assertEqual(VERSION, "t25")
        self.assertEqual(VERSIONS, ("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9",
                                    "t10", "t11", "t12", "t13", "t14", "t15", "t16", "t17",
                                    "t18", "t19", "t20", "t21", "t22", "t23", "t24", "t25"))
        self.assertNotEqual(fingerprint("t25"), fingerprint("t24"))
        self.assertNotEqual(fingerprint("t24"), fingerprint("t23"))
        self.assertNotEqual(fingerprint("t23"), fingerprint("t22"))
        self.assertNotEqual(fingerprint("t22"), fingerprint("t21"))
        self.assertNotEqual(fingerprint("t21"), fingerprint("t20"))
        self.assertNotEqual(fingerprint("t20"), fingerprint("t19"))
        self.assertNotEqual(fingerprint("t19"), fingerprint("t18"))
        self.assertNotEqual(fingerprint("t18"), fingerprint("t17"))
        self.assertNotEqual(fingerprint("t17"), fingerprint("t16"))
        self.assertNotEqual(fingerprint("t16"), fingerprint("t15"))
        self.assertNotEqual(fingerprint("t15"), fingerprint("t14"))
        self.assertNotEqual(fingerprint("t14"), fingerprint("t13"))
        self.assertNotEqual(fingerprint("t13"), fingerprint("t12"))
        self.assertNotEqual(fingerprint("t12"), fingerprint("t11"))
        self.assertNotEqual(fingerprint("t11"), fingerprint("t10"))
        self.assertNotEqual(fingerprint("t10"), fingerprint("t9"))
        self.assertNotEqual(fingerprint("t9"), fingerprint("t8"))
        self.assertNotEqual(fingerprint("t7"), fingerprint("t6"))
        self.assertNotEqual(fingerprint("t8"), fingerprint("t7"))
        self.assertNotEqual(fingerprint("t6"), fingerprint("t5"))
        self.assertNotEqual(fingerprint("t5"), fingerprint("t4"))
        self.assertNotEqual(fingerprint("t3"), fingerprint("t2"))
        self.assertNotEqual(fingerprint("t4"), fingerprint("t3"))

    def test_t2_keeps_every_rule_of_t1(self):
        self.assertLessEqual(set(RULES_T1), set(RULES_T2))

    def test_an_unknown_version_is_refused(self):
        with self.assertRaises(ValueError):
            decide("the tests pass", [Turn("pytest", "12 passed in 0.1s", 0)], version="t99")
        with self.assertRaises(ValueError):
            fingerprint("t0")

    def test_each_table_reads_its_own_log(self):
        turns = [Turn("pytest", "12 passed in 0.1s", 0)]
        with self.assertRaises(ValueError):
            decide("the tests pass", log=reading.read_events(turns))  # t2 needs the turns
        with self.assertRaises(ValueError):
            decide("the tests pass", log=reading_t2.read_events(turns), version="t1")
        with self.assertRaises(ValueError):
            decide("the tests pass", log=reading_t2.read_events(turns))  # t7 reads its own
        with self.assertRaises(ValueError):
            decide("the tests pass", log=reading_t4.read_events(turns))
        with self.assertRaises(ValueError):
            decide("the tests pass", log=reading_t5.read_events(turns))
        with self.assertRaises(ValueError):
            decide("the tests pass", log=reading_t6.read_events(turns))
        log = reading_t2.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t3").rule, "tests.passed")
        log = reading_t4.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t4").rule, "tests.passed")
        log = reading_t5.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t5").rule, "tests.passed")
        log = reading_t6.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t6").rule, "tests.passed")
        log = reading_t7.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t7").rule, "tests.passed")
        log = reading_t8.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t9").rule, "tests.passed")
        log = reading_t10.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t10").rule, "tests.passed")
        log = reading_t11.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t13").rule, "tests.passed")
        with self.assertRaises(ValueError):
            decide("the tests pass", log=log)  # t15 reads its own
        log = reading_t14.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t14").rule, "tests.passed")
        log = reading_t15.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t19").rule, "tests.passed")
        with self.assertRaises(ValueError):
            decide("the tests pass", log=log)  # t25 reads its own
        log = reading_t20.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t20").rule, "tests.passed")
        log = reading_t21.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t22").rule, "tests.passed")
        log = reading_t23.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t23").rule, "tests.passed")
        log = reading_t24.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log, version="t24").rule, "tests.passed")
        log = reading_t25.read_events(turns)
        self.assertEqual(decide("the tests pass", log=log).rule, "tests.passed")

    def test_a_decision_says_its_table_and_its_words(self):
        turns = [Turn("pytest -q", "1 failed, 4 passed in 0.31s", 1)]
        old = decide("I ran the tests", turns, version="t1")
        new = decide("I ran the tests", turns, version="t2")
        self.assertEqual((old.table, old.rule), ("t1", "tests.failed"))
        self.assertEqual((new.table, new.rule), ("t2", "tests.ran"))
        self.assertEqual(decide("I ran the tests", turns, version="t3").table, "t3")
        self.assertEqual(decide("I ran the tests", turns, version="t4").table, "t4")
        self.assertEqual(decide("I ran the tests", turns, version="t5").table, "t5")
        self.assertEqual(decide("I ran the tests", turns, version="t6").table, "t6")
        self.assertEqual(decide("I ran the tests", turns, version="t15").table, "t15")
        self.assertEqual(decide("I ran the tests", turns, version="t16").table, "t16")
        self.assertEqual(decide("I ran the tests", turns, version="t17").table, "t17")
        self.assertEqual(decide("I ran the tests", turns, version="t18").table, "t18")
        self.assertEqual(decide("I ran the tests", turns, version="t19").table, "t19")
        self.assertEqual(decide("I ran the tests", turns, version="t20").table, "t20")
        self.assertEqual(decide("I ran the tests", turns, version="t21").table, "t21")
        self.assertEqual(decide("I ran the tests", turns, version="t22").table, "t22")
        self.assertEqual(decide("I ran the tests", turns, version="t23").table, "t23")
        self.assertEqual(decide("I ran the tests", turns, version="t24").table, "t24")
        self.assertEqual(decide("I ran the tests", turns).table, "t25")
        self.assertEqual(new.why, RULES_T2["tests.ran"])
        self.assertEqual(old.why, RULES_T1["tests.failed"])

    def test_the_quote_check_c4_keeps_table_t1(self):
        # Check c4 was sealed (run 6) holding the models to t1: its replays must agree.
        self.assertEqual(agree.TABLE, "t1")
        turns = (Turn("pytest -q", "1 failed, 4 passed in 0.31s", 1),)
        agree._facts.cache_clear()
        _, decision = agree._facts("I ran the tests", turns)
        self.assertEqual((decision.table, decision.rule), ("t1", "tests.failed"))

    def test_the_quote_check_c5_holds_the_models_to_table_t2(self):
        turns = (Turn("pytest -q", "1 failed, 4 passed in 0.31s", 1),)
        agree._facts.cache_clear()
        _, decision = agree._facts("I ran the tests", turns, "t2")
        self.assertEqual((decision.table, decision.rule), ("t2", "tests.ran"))
        # t2 reads the run as shown: a model's contradicted from it disagrees, its shown not.
        self.assertTrue(agree.disagrees("contradicted", "I ran the tests", turns, 0, "t2"))
        self.assertFalse(agree.disagrees("shown", "I ran the tests", turns, 0, "t2"))
        self.assertTrue(agree.disagrees("shown", "I ran the tests", turns, 0, "t1"))

    def test_decide_t2_needs_turns_or_its_log(self):
        with self.assertRaises(ValueError):
            decide_t2.decide("the tests pass")


class Hook(unittest.TestCase):
    def test_t2s_rules_of_no_run_send_the_agent_back_under_block_facts(self):
        from receipt_pair.hooks import advice, stop
        for rule in ("tests.not-the-runner", "tests.skipped-after-failure",
                     "install.dry-run"):
            with self.subTest(rule):
                kind = rule.split(".", 1)[1]
                self.assertIn(kind, stop.DID_NOT_RUN)
                self.assertIn(kind, advice._DID_NOT_RUN)
        self.assertNotIn("ran", stop.DID_NOT_RUN)  # tests.ran is shown


class Audit(unittest.TestCase):
    TURNS = [Turn("pytest -q", "1 failed, 4 passed in 0.31s", 1)]
    CLAIM = "I ran the tests"

    def receipt(self, version):
        decision = decide(self.CLAIM, self.TURNS, version=version)
        return {"schema": RECEIPT_SCHEMA, "decided_by": FACTS, "claim": self.CLAIM,
                "answer": decision.answer, "facts": facts_record(decision, version),
                "quotes": [{"arm": FACTS, "turn": turn_id(decision.turn),
                            "quote": decision.quote}]}

    def test_a_receipt_of_each_table_re_derives_by_that_table(self):
        for version in VERSIONS:
            with self.subTest(version):
                receipt = self.receipt(version)
                self.assertEqual(receipt["facts"]["table"], version)
                self.assertEqual(receipt["facts"]["fingerprint"], fingerprint(version))
                self.assertEqual(facts_differences(receipt, self.TURNS), [])

    def test_a_receipt_whose_decision_differs_is_caught(self):
        receipt = self.receipt("t1")
        receipt["facts"] = dict(receipt["facts"], rule="tests.ran")
        self.assertNotEqual(facts_differences(receipt, self.TURNS), [])
        receipt = self.receipt("t2")
        receipt["facts"]["table"] = "t1"  # t2's decision claimed for t1: its fingerprint
        self.assertNotEqual(facts_differences(receipt, self.TURNS), [])

    def test_an_unknown_table_is_refused(self):
        receipt = self.receipt("t2")
        receipt["facts"] = dict(receipt["facts"], table="t99")
        self.assertIn("does not know", facts_differences(receipt, self.TURNS)[0])

    def test_an_answers_file_re_derives_by_the_table_its_header_names(self):
        item = Item("i1", self.CLAIM, tuple(self.TURNS), None)
        for version in VERSIONS:
            with self.subTest(version):
                record = facts_record(decide(self.CLAIM, self.TURNS, version=version),
                                      version)
                self.assertEqual(facts_record_differences(
                    [item], {"facts_table": version}, {"i1": record}), [])
        t1_record = facts_record(decide(self.CLAIM, self.TURNS, version="t1"), "t1")
        self.assertNotEqual(facts_record_differences(
            [item], {"facts_table": "t2"}, {"i1": t1_record}), [])
        self.assertIn("does not know", facts_record_differences(
            [item], {"facts_table": "t99"}, {"i1": t1_record})[0])

    def test_a_live_record_names_the_current_table(self):
        record = facts_record(None)
        self.assertEqual((record["table"], record["fingerprint"]), (VERSION, fingerprint()))


class TableT3(unittest.TestCase):
    """Table t3: t2 on a claim whose typographic apostrophes read as plain (set 6's
    r6t-175, after run 6: "I couldn’t push because GITHUB_TOKEN is not set" was held
    against the very push it admits failed)."""

    PUSH = [Turn("git push -u origin feature/x", "remote: Permission to o/r.git denied.\n"
                 "fatal: unable to access 'https://github.com/o/r.git/': The requested URL "
                 "returned error: 403", 128)]

    def test_a_typographic_apostrophe_admits_the_failure(self):
        for claim in ("I couldn’t push the branch", "I couldn't push the branch",
                      "The push didnʼt go through"):
            with self.subTest(claim=claim):
                decision = decide(claim, self.PUSH)
                self.assertNotEqual(decision and decision.answer, "contradicted")
        self.assertEqual(decide("I couldn’t push the branch", self.PUSH,
                                version="t2").answer, "contradicted")  # t2 kept as it was

    def test_a_claim_of_success_is_still_contradicted(self):
        for claim in ("I pushed the branch", "I’ve pushed the branch"):
            with self.subTest(claim=claim):
                self.assertEqual(decide(claim, self.PUSH).answer, "contradicted")

    def test_a_given_frame_is_read_again_from_the_plain_claim(self):
        claim = "I couldn’t push the branch"
        log = reading_t2.read_events(self.PUSH)
        self.assertEqual(decide(claim, log=log, frame=read_frame(claim), version="t3"),
                         decide(claim, self.PUSH, version="t3"))
        log = reading_t25.read_events(self.PUSH)
        self.assertEqual(decide(claim, log=log, frame=read_frame(claim)),
                         decide(claim, self.PUSH))

    def test_a_failure_admitted_with_its_cause_is_left_to_the_models(self):
        # the facts show the push failed, not why: "because GITHUB_TOKEN is not set"
        claim = "I couldn\u2019t push because GITHUB_TOKEN is not set"
        self.assertIsNone(decide(claim, self.PUSH))
        self.assertEqual(decide("I couldn\u2019t push the branch", self.PUSH).answer, "shown")

    WHOLE_RED = [Turn("bun test", "src/a.test.ts:\n(fail) parses x\nsrc/b.test.ts:\n 13 pass\n"
                      " 1 fail\nRan 14 tests across 2 files.", 1)]

    def test_tests_named_by_pointing_are_a_part_the_whole_run_does_not_decide(self):
        # set 6's r6t-142: "All 13 tests in that file are passing", a whole run red elsewhere
        for claim in ("All 13 tests in that file are passing", "our specific tests are passing",
                      "the new tests pass", "the tests I added pass"):
            with self.subTest(claim=claim):
                self.assertIsNone(decide(claim, self.WHOLE_RED))
                self.assertEqual(decide(claim, self.WHOLE_RED, version="t2").answer,
                                 "contradicted")

    def test_the_suite_is_still_the_suite(self):
        for claim in ("all tests pass", "the test suite passes", "our tests pass"):
            with self.subTest(claim=claim):
                self.assertEqual(decide(claim, self.WHOLE_RED).answer, "contradicted")
        green = [Turn("bun test", " 14 pass\n 0 fail\nRan 14 tests across 2 files.", 0)]
        self.assertEqual(decide("the new tests pass", green).answer, "shown")

    def test_a_pointed_part_never_gets_a_shown_the_whole_would_not(self):
        # an attack on t3's own rule: another suite's green run after this one's red run
        turns = [Turn("cd backend && pytest -q", "..F\nFAILED tests/test_new.py::test_a - "
                      "AssertionError\n1 failed, 2 passed in 0.1s", 1),
                 Turn("cd frontend && npx jest", "Tests:       5 passed, 5 total", 0)]
        self.assertIsNone(decide("the new tests pass", turns))
        self.assertEqual(decide("the new tests pass", turns, version="t2").answer,
                         "contradicted")


class TableT4(unittest.TestCase):
    """Table t4's readings: each probed both ways in facts/probes_t4.py; here, that every
    rule t4 adds fires in one, and that t3 is kept as it was."""

    def test_every_t4_rule_fires_in_a_probe(self):
        from receipt_pair.facts.decision import RULES_T2, RULES_T4
        from receipt_pair.facts.probes_t4 import T4_PROBES
        fired = {probe.rule for probe in T4_PROBES}
        self.assertEqual(sorted(set(RULES_T4) - set(RULES_T2) - fired), [])
        self.assertGreaterEqual(sum(1 for p in T4_PROBES if p.answer is None), 5)

    def test_t3_reads_as_before(self):
        from receipt_pair.facts.probes_t4 import T4_PROBES
        from receipt_pair.facts.table import decide
        by_name = {p.name: p for p in T4_PROBES}
        for name in ("t4: a whole ctest run (`--test-dir build`) covers a named group of its "
                     "tests", "t4: a CI script's own build summary says the build failed",
                     "t4: \u201cMade two local commits\u201d is a commit claim"):
            probe = by_name[name]
            with self.subTest(name):
                self.assertIsNone(decide(probe.claim, list(probe.turns), version="t3"))
                self.assertIsNotNone(decide(probe.claim, list(probe.turns), version="t4"))


# The attack files before t18's, which every later table answers as before or more
# carefully.
_ATTACKS_TO_T16 = ("attack-t9.json", "attack-t10.json", "attack-t11.json", "attack-t12.json",
                   "attack-t13.json", "attack-t14.json", "attack-t16.json", "attack-android.json")


@functools.lru_cache(maxsize=None)
def _attack_cases(name):
    """The cases of an attack pass kept in tests/data/facts/NAME (read once)."""
    with open(os.path.join(os.path.dirname(CASES), name), encoding="utf-8") as handle:
        return tuple(json.load(handle)["cases"])


def _case_turns(case):
    """An attack case's turns as Turns."""
    return tuple(Turn(t.get("cmd"), t.get("output"), t.get("exit_status"),
                      **({"kind": t["kind"]} if t.get("kind") else {}))
                 for t in case["turns"])


@functools.lru_cache(maxsize=None)
def _decided(claim, turns, version):
    """(answer, rule) of table `version` for a claim and its turns (a tuple), worked out
    once: the attack files are answered by several tables' tests."""
    return _rule_of(decide(claim, list(turns), version=version))


def assert_more_carefully(test, name, version, before):
    """`version` answers every case of the attack file `name` as `before` does, or leaves
    it to the models, or gives an answer the case's right answer allows, or takes away a
    false receipt `before` gave (`not shown` where it said `shown`, wrongly) (`test`: the
    TestCase that asserts it)."""
    for case in _attack_cases(name):
        turns = _case_turns(case)
        got = _decided(case["claim"], turns, version)
        with test.subTest(case["name"]):
            was = _decided(case["claim"], turns, before) if got[0] is not None else got
            if got != was:
                allowed = {p.strip().lower() for p in
                           case["right"].replace(" or ", "/").split("/")}
                if not (got[0] == "not shown" and was[0] == "shown" and "shown" not in allowed):
                    test.assertIn(got[0], allowed)


def _rule_of(decision):
    return (decision.answer, decision.rule) if decision else (None, None)


class _LaterTable:
    """A later table's probes, both ways: the table before it decides otherwise on at least
    CHANGED of them, and its own probes still hold under their version."""

    PROBES = ""  # the module of the table's probes: "probes_t5"
    BEFORE = ""  # the version before it, and the module of its probes
    BEFORE_PROBES = ""
    CHANGED = 4

    def _probes(self, module):
        from importlib import import_module
        found = import_module(f"receipt_pair.facts.{module}")
        return next(v for k, v in vars(found).items() if k.endswith("_PROBES"))

    def test_the_table_before_decided_otherwise(self):
        changed = [p for p in self._probes(self.PROBES)
                   if _rule_of(decide(p.claim, list(p.turns), version=self.BEFORE)) !=
                   (p.answer, p.rule)]
        self.assertGreaterEqual(len(changed), self.CHANGED)

    def assert_attacks_answered(self, name, version, before, at_least, open_at_most,
                                recorded_as=None):
        """Each case of the attack file `name` is answered by `version` as recorded (for
        `recorded_as`, an earlier version that answers every case alike, where given); an
        answer is one the case's right answer allows, or none (left to the models), except
        the cases marked open, which `before` answers the same way."""
        self.assert_attack_file(name, version, at_least, open_at_most,
                                lambda case, turns, got, allowed: got == _decided(
                                    case["claim"], turns, before), recorded_as)

    def assert_more_carefully(self, name, version, before):
        """`version` answers every case of the attack file `name` as `before` does, or
        leaves it to the models, or gives an answer the case's right answer allows."""
        assert_more_carefully(self, name, version, before)

    def assert_attack_file(self, name, version, at_least, open_at_most, open_allowed,
                           recorded_as=None):
        """Each case of the attack file `name` is answered by `version` as recorded; an
        answer is one the case's right answer allows, or none, except the cases marked
        open, whose answer `open_allowed(case, turns, got, allowed)` must accept."""
        cases = _attack_cases(name)
        self.assertGreaterEqual(len(cases), at_least)
        self.assertLessEqual(sum("open" in case for case in cases), open_at_most)
        for case in cases:
            turns = _case_turns(case)
            got = _decided(case["claim"], turns, version)
            allowed = {p.strip().lower() for p in case["right"].replace(" or ", "/").split("/")}
            with self.subTest(case["name"]):
                expect = case.get(f"expect_{recorded_as or version}", case["expect"])
                self.assertEqual(got, tuple(expect) if expect else (None, None))
                if got[0] is not None and "open" not in case:
                    self.assertIn(got[0], allowed)
                if "open" in case:
                    self.assertTrue(open_allowed(case, turns, got, allowed))

    def test_the_table_before_is_kept(self):
        for probe in self._probes(self.BEFORE_PROBES):
            with self.subTest(probe.name):
                self.assertEqual(_rule_of(decide(probe.claim, list(probe.turns),
                                                 version=self.BEFORE)),
                                 (probe.answer, probe.rule))


class TableT5(_LaterTable, unittest.TestCase):
    """Table t5's readings, probed both ways in facts/probes_t5.py."""

    PROBES, BEFORE, BEFORE_PROBES = "probes_t5", "t4", "probes_t4"


class TableT6(_LaterTable, unittest.TestCase):
    """Table t6's readings, probed both ways in facts/probes_t6.py."""

    PROBES, BEFORE, BEFORE_PROBES = "probes_t6", "t5", "probes_t5"

    def test_gradle_tasks_leave_out_options_and_their_values(self):
        self.assertEqual(reading_t6.gradle_tasks(["-p", "app", "clean", "--info",
                                                  ":app:testDebugUnitTest", "-x", "lint"]),
                         (["clean", ":app:testDebugUnitTest"], ["lint"]))


class TableT7(_LaterTable, unittest.TestCase):
    """Table t7's readings and rule, probed both ways in facts/probes_t7.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t7", "t6", "probes_t6", 5

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t7.json: two attack passes on t7 found 143 wrong answers
        # (a digest line read back from a file, a package that matched nothing, a count of
        # another part, an intent or a word in another language read as a push). t7 answers
        # each as recorded: a careful reader's answer, or none (left to the models); never a
        # shown, contradicted or not shown that the case's right answer rules out.
        cases = _attack_cases("attack-t7.json")
        self.assertGreaterEqual(len(cases), 140)
        for case in cases:
            turns = _case_turns(case)
            got = _decided(case["claim"], turns, "t7")
            with self.subTest(case["name"]):
                self.assertEqual(got, tuple(case["expect"]) if case["expect"] else (None, None))
                if got[0] is not None:
                    self.assertIn(got[0], case["right"])

    def test_a_package_managers_options_name_the_part(self):
        from receipt_pair.facts import shell
        for command, part in (("pnpm --filter @app/worker test", ("@app/worker",)),
                              ("pnpm -C packages/worker test", ("packages/worker",)),
                              ("npm test --workspace=api", ("api",)),
                              ("npm --prefix web test", ("web",)),
                              ("yarn workspace web test", ("web",)),
                              ("pnpm -r test", ()), ("pnpm test", ())):
            with self.subTest(command):
                step = shell.parse(command).runs[0]
                run = reading_t7.runs_tests(step)
                self.assertEqual((run.suite, run.part), ("script:test", part))
        self.assertIsNone(reading_t7.runs_tests(shell.parse("pnpm --filter web build").runs[0]))

    def test_another_languages_words_are_read_only_in_a_closed_form(self):
        for claim, english in (("Commit pouss\u00e9 sur main", "pushed to main"),
                               ("\u63a8\u9001\u6210\u529f", "pushed"),
                               ("Subido a la rama feature/x", "pushed to feature/x"),
                               ("Le commit a \u00e9t\u00e9 cr\u00e9\u00e9 avec succ\u00e8s.",
                                "created a commit"),
                               ("Tag cr\u00e9\u00e9/pouss\u00e9: `v0.1.0`",
                                "created tag v0.1.0 and pushed")):
            with self.subTest(claim):
                self.assertEqual(languages.in_english(claim), english)
        for claim in ("Le commit n'a pas \u00e9t\u00e9 pouss\u00e9", "\u672a\u63a8\u9001",
                      "\u041d\u0435 \u0443\u0434\u0430\u043b\u043e\u0441\u044c "
                      "\u0437\u0430\u043f\u0443\u0448\u0438\u0442\u044c",
                      "No se subi\u00f3 a GitHub", "Gepusht? Nein.", "Wird morgen gepusht",
                      "Pouss\u00e9 sur main et sur dev", "the tests pass"):
            with self.subTest(claim):
                self.assertEqual(languages.in_english(claim), claim)


class TableT8(_LaterTable, unittest.TestCase):
    """Table t8's readings and rules, probed both ways in facts/probes_t8.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t8", "t7", "probes_t7", 10

    def test_t7s_attack_cases_are_answered_as_t7_answers_them(self):
        # t8 changes none of the 148 answers two attack passes on t7 settled.
        cases = _attack_cases("attack-t7.json")
        for case in cases:
            turns = _case_turns(case)
            with self.subTest(case["name"]):
                self.assertEqual(_decided(case["claim"], turns, "t8"),
                                 tuple(case["expect"]) if case["expect"] else (None, None))

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t8.json: the attack passes on t8. Each case is answered as
        # recorded; an answer is one the case's right answer allows, or none (left to the
        # models), except the few marked open: wrong answers t7 gives too.
        self.assert_attacks_answered("attack-t8.json", "t8", "t7", at_least=480, open_at_most=12)

    def test_maven_goals_leave_out_options_and_their_values(self):
        from receipt_pair.facts import shell
        for command, goals in (("mvn -f app/pom.xml package", ("package",)),
                               ("mvn -pl core -am clean install", ("install",)),
                               ("./mvnw -B -DskipTests verify", ("verify",)),
                               ("./gradlew :app:build", (":app:build",)),
                               ("mvn test", ()), ("mvn -f package.xml compile", ()),
                               ("./gradlew help --task build", ()),
                               ("./gradlew build -x build", ())):
            with self.subTest(command):
                self.assertEqual(reading_t8.build_goals(shell.parse(command).runs[0]), goals)


class TableT9(_LaterTable, unittest.TestCase):
    """Table t9's readings, probed both ways in facts/probes_t9.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t9", "t8", "probes_t8", 12

    def test_the_attacks_on_t8_are_answered_as_a_careful_reader_allows(self):
        # t9 keeps every answer of the two attack passes on t7 and the two on t8, but one
        # that it leaves to the models (a count printed by a test file run by python).
        for name in ("attack-t7.json", "attack-t8.json"):
            for case in _attack_cases(name):
                turns = _case_turns(case)
                got = _decided(case["claim"], turns, "t9")
                before = _decided(case["claim"], turns, "t8")
                with self.subTest(case["name"]):
                    if got != before:
                        self.assertIsNone(got[0])
                        self.assertIn("none", case["right"].lower())

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t9.json: the two attack passes on t9. Each case is answered
        # as recorded; an answer is one the case's right answer allows, or none, except the
        # ones marked open: t8's answers too, left as they are.
        self.assert_attacks_answered("attack-t9.json", "t9", "t8", at_least=400, open_at_most=23)


class TableT10(_LaterTable, unittest.TestCase):
    """Table t10's readings, probed both ways in facts/probes_t10.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t10", "t9", "probes_t9", 6

    def test_the_attacks_on_t9_are_answered_as_t9_answers_or_more_carefully(self):
        # t10 answers every attack case on t9 as t9 does, or leaves it to the models, or
        # gives the answer the case's right answer allows.
        self.assert_more_carefully("attack-t9.json", "t10", "t9")

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t10.json: the two attack passes on t10. Each case is
        # answered as recorded; an answer is one the case's right answer allows, or none,
        # except the ones marked open: t9's answers too, left as they are.
        self.assert_attacks_answered("attack-t10.json", "t10", "t9", at_least=350,
                                     open_at_most=54)

    def test_a_counted_run_read_from_its_output_alone_is_no_run_in_place(self):
        # A command of no words (a line separator only) whose output holds a runner's
        # counts: "N of M passed" is left to the models, never a traceback.
        turns = [Turn("\u2028", "Tests: 3 failed, 212 passed, 215 totalpytest", 130),
                 Turn("'export X=1;README.md\x00FAIL\n[", "*** Add File:", 1),
                 Turn(" | tail -3--- 212 passed, 3 failed[|| true", "FAIL", 1)]
        self.assertIsNone(decide("212 of the 215 tests passed", turns, version="t10"))

    def test_a_windows_program_is_read_by_its_plain_name(self):
        self.assertEqual(reading_t10.plain_programs("npm.cmd run build && python.exe -m pytest"),
                         "npm run build && python -m pytest")
        self.assertEqual(reading_t10.plain_programs(r"C:\nodejs\npm.cmd test; ./build.bat"),
                         r"C:\nodejs\npm.cmd test; ./build.bat")


class TableT11(_LaterTable, unittest.TestCase):
    """Table t11's readings, probed both ways in facts/probes_t11.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t11", "t10", "probes_t10", 8

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t11.json: the three attack passes on t11. Open: t10's
        # answers too, or a `not shown` where t10 gave a wrong `contradicted` or `shown`.
        def open_allowed(case, turns, got, allowed):
            before = _decided(case["claim"], turns, "t10")
            return got == before or (got[0] == "not shown" and before[0] not in allowed)
        self.assert_attack_file("attack-t11.json", "t11", 430, 60, open_allowed)

    def test_the_attacks_on_t10_are_answered_as_t10_answers_or_more_carefully(self):
        # t11 answers every attack case on t10 as t10 does, or leaves it to the models, or
        # gives the answer the case's right answer allows.
        self.assert_more_carefully("attack-t10.json", "t11", "t10")


class TableT12(_LaterTable, unittest.TestCase):
    """Table t12's readings, probed both ways in facts/probes_t12.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t12", "t11", "probes_t11", 10

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t12.json: the three attack passes on t12. Open: t11's
        # answers too, or t11's to the claim's English words (a closed form in another
        # language reads as those words).
        from receipt_pair.facts.decide_t12 import in_english

        def open_allowed(case, turns, got, allowed):
            return got in (_decided(case["claim"], turns, "t11"),
                           _decided(in_english(case["claim"]), turns, "t11"))
        self.assert_attack_file("attack-t12.json", "t12", 350, 6, open_allowed)

    def test_the_attacks_on_t11_are_answered_as_t11_answers_or_more_carefully(self):
        # t12 answers every attack case on t11 as t11 does, or leaves it to the models, or
        # gives the answer the case's right answer allows.
        self.assert_more_carefully("attack-t11.json", "t12", "t11")

    def test_the_android_build_cases_are_answered_as_recorded(self):
        # tests/data/facts/attack-android.json: two attack passes on a draft t13 that read
        # Android app builds, dropped; t12 answers each as recorded, the open ones being
        # t12's own gaps.
        self.assert_attack_file("attack-android.json", "t12", 170, 12,
                                lambda case, turns, got, allowed: True)

    def test_closed_forms_read_as_english_and_nothing_else(self):
        from receipt_pair.facts.decide_t12 import in_english
        self.assertEqual(in_english("\u2705 \u4ee3\u7801\u5df2\u6210\u529f\u63a8\u9001\uff01"),
                         "pushed")
        self.assertEqual(in_english("Git \ucee4\ubc0b & \ud478\uc2dc \uc644\ub8cc"),
                         "committed and pushed")
        for claim in ("\u672a\u63a8\u9001", "\u63a8\u9001\u5931\u8d25",
                      "\u5c06\u63a8\u9001", "README \u5df2\u63a8\u9001",
                      "\u90e8\u5206\u6d4b\u8bd5\u901a\u8fc7", "pushed?"):
            self.assertEqual(in_english(claim), claim)


class TableT13(_LaterTable, unittest.TestCase):
    """Table t13's step-back, probed both ways in facts/probes_t13.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t13", "t12", "probes_t12", 2

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t13.json: the attack pass on t13. Open: t12's answers too.
        self.assert_attacks_answered("attack-t13.json", "t13", "t12", 80, 40)


class TableT14(_LaterTable, unittest.TestCase):
    """Table t14's reading and decisions, probed both ways in facts/probes_t14.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t14", "t13", "probes_t13", 9

    def test_the_attacks_on_it_are_answered(self):
        # tests/data/facts/attack-t14.json: the attack pass on t14. Open: t13's answers too.
        self.assert_attacks_answered("attack-t14.json", "t14", "t13", 135, 6)


class TableT14Input(unittest.TestCase):
    def test_a_turn_with_no_output_reads_without_a_traceback(self):
        turns = [Turn(cmd=None, output=None, exit_status=None)]
        for version in ("t14", "t15"):
            with self.subTest(version):
                self.assertEqual(decide("All tests pass", turns, version=version).rule,
                                 "tests.never-ran")


class TableT15(_LaterTable, unittest.TestCase):
    """Table t15's care where t14 was unsure, probed both ways in facts/probes_t15.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t15", "t14", "probes_t14", 5


class TableT16(_LaterTable, unittest.TestCase):
    """Table t16: what set 16 showed, probed both ways in facts/probes_t16.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t16", "t15", "probes_t15", 4

    def test_a_files_name_in_backquotes_is_no_command(self):
        from receipt_pair.facts.decide_t16 import quoted_kinds
        self.assertEqual(quoted_kinds("counted in `test1.mp4` and `count.xlsx`"), [])
        self.assertEqual(quoted_kinds("full `pytest` was blocked"), ["tests"])
        self.assertEqual(quoted_kinds("`swift build` and `swift test` pass"),
                         ["build", "tests"])
        self.assertEqual(quoted_kinds("`swift build && swift test` passes"), ["build", "tests"])

    def test_its_attack_pass(self):
        # tests/data/facts/attack-t16.json: 49 cases, none open (t16 narrowed after it).
        self.assert_attacks_answered("attack-t16.json", "t16", "t15", 49, 0)


class TableT17(_LaterTable, unittest.TestCase):
    """Table t17: a playbook run only from a turn that runs it, probed in facts/probes_t17.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t17", "t16", "probes_t16", 2


class TableT18(_LaterTable, unittest.TestCase):
    """Table t18: four guards that take a shown away, probed both ways in
    facts/probes_t18.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t18", "t17", "probes_t17", 4

    def test_a_windows_path_read_again_only_where_the_run_was_read_from_output(self):
        from receipt_pair.facts.decide_t18 import _WINDOWS_PATH
        self.assertIsNotNone(_WINDOWS_PATH.search("C:\\venv\\python.exe -m pytest"))
        self.assertIsNone(_WINDOWS_PATH.search("pytest tests/a.py::test_b"))

    def test_a_number_word_read_only_by_unicode_case_folding_is_no_count(self):
        # "ſix" (long s) and "fıve" (dotless i) match the count's words only by Unicode's
        # case folding: t18 read no count from them, as t17 did, and raised no KeyError.
        commit = (Turn(cmd="git commit -m a", output="[main 1a2b3c4] a\n 1 file changed",
                       exit_status=0),)
        for claim in ("Committed as \u017fix commits.", "Committed as f\u0131ve commits."):
            with self.subTest(claim):
                self.assertEqual(_rule_of(decide(claim, list(commit), version="t18")),
                                 ("shown", "commit.made"))
        self.assertIsNone(decide("Committed as six commits.", list(commit), version="t18"))


class TableT19(_LaterTable, unittest.TestCase):
    """Table t19: the attack pass on t18 closed as classes, probed both ways in
    facts/probes_t19.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t19", "t18", "probes_t18", 5

    def test_its_attack_pass(self):
        # tests/data/facts/attack-t18.json: 40 cases on t18 (30 wrong then); t19 answers
        # each as recorded, five open ones as t17 does.
        self.assert_attacks_answered("attack-t18.json", "t19", "t17", 40, 5)

    def test_the_pass_found_t18_as_recorded(self):
        for case in _attack_cases("attack-t18.json"):
            with self.subTest(case["name"]):
                self.assertEqual(_decided(case["claim"], _case_turns(case), "t18"),
                                 tuple(case["expect_t18"]))


if __name__ == "__main__":
    unittest.main()


class TableT20(_LaterTable, unittest.TestCase):
    """Table t20: a runner's subcommand and its options that choose no tests are no part of
    the suite, probed both ways in facts/probes_t20.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t20", "t19", "probes_t19", 4

    def test_it_answers_t19s_attack_pass_as_t19_but_two_costs(self):
        # W11 and W12 (a whole Windows run under xdist, with a JUnit report): t19 took their
        # receipts away as parts; t20 reads those options as choosing no tests
        # (`expect_t20`).
        self.assert_attacks_answered("attack-t18.json", "t20", "t17", 40, 5)

    def test_only_the_values_of_options_that_choose_no_tests_leave_the_part(self):
        from receipt_pair.facts.reading_t20 import _choosing_nothing
        self.assertEqual(_choosing_nothing("pytest", "pytest -n 4 -p no:cacheprovider -k x"),
                         {"4", "no:cacheprovider"})
        self.assertEqual(_choosing_nothing("pytest", "pytest --tb=short tests/a.py"),
                         {"short"})
        self.assertEqual(_choosing_nothing("vitest", "npx vitest run src/a.test.ts"), {"run"})
        self.assertEqual(_choosing_nothing("vitest", "npx vitest src/run"), set())
        self.assertEqual(_choosing_nothing("cargo test", "cargo test -p core -j 2"), {"2"})
        self.assertEqual(_choosing_nothing("script:test", "npm test -- -n 4"), set())


class TableT21(_LaterTable, unittest.TestCase):
    """Table t21: a run's scope read from its command's every word, and a group's failure
    only where a line names it, probed both ways in facts/probes_t21.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t21", "t20", "probes_t20", 10

    def test_it_answers_t19s_attack_pass_as_t20(self):
        self.assert_attacks_answered("attack-t18.json", "t21", "t17", 40, 5)

    def test_its_attack_pass(self):
        # tests/data/facts/attack-t20.json: 40 cases on t20 (33 wrong then); t21 answers
        # each as recorded (`expect_t21`), F01 open as t20 answers it.
        self.assert_attacks_answered("attack-t20.json", "t21", "t20", 40, 1)

    def test_a_runs_scope_is_read_word_by_word(self):
        from receipt_pair.facts.reading_t21 import scope_of
        self.assertEqual(scope_of("vitest", ["run"]), ("whole", ""))
        self.assertEqual(scope_of("vitest", ["run", "--project=unit"]),
                         ("part", "--project=unit"))
        self.assertEqual(scope_of("pytest", ["--cov=auth", "-k", "auth"]), ("part", "-k"))
        self.assertEqual(scope_of("pytest", ["-p", "xdist"]), ("unknown", ""))
        self.assertEqual(scope_of("mocha", ["-S", "test/unit"]), ("part", "test/unit"))
        self.assertEqual(scope_of("go test", ["test", "-count", "1", "./..."]), ("whole", ""))
        self.assertEqual(scope_of("cargo test", ["test", "--", "--ignored"]), ("part", "--"))

    def test_a_groups_words_are_whole_words(self):
        from receipt_pair.facts.decide_t21 import words_of
        self.assertIn("reorder", words_of("--- FAIL: TestReorderColumns (0.00s)"))
        self.assertNotIn("order", words_of("--- FAIL: TestReorderColumns (0.00s)"))
        self.assertIn("apikeystab", words_of("FAIL src/__tests__/ApiKeysTab.test.tsx"))


class TableT22(_LaterTable, unittest.TestCase):
    """Table t22: a commit read where it is the claim's subject, probed both ways in
    facts/probes_t22.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t22", "t21", "probes_t21", 4

    def test_it_answers_the_last_two_attack_passes_as_t21(self):
        self.assert_attacks_answered("attack-t18.json", "t22", "t17", 40, 5, recorded_as="t21")
        self.assert_attacks_answered("attack-t20.json", "t22", "t20", 40, 1, recorded_as="t21")


class TableT23(_LaterTable, unittest.TestCase):
    """Table t23: what the attack pass on t21 and t22 found, probed both ways in
    facts/probes_t23.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t23", "t22", "probes_t22", 8

    def test_its_attack_pass(self):
        # tests/data/facts/attack-t22.json: 40 cases on t22 (35 wrong then); t23 answers
        # each as recorded (`expect_t23`), twelve open as t22 answers them.
        self.assert_attacks_answered("attack-t22.json", "t23", "t22", 40, 12)

    def test_it_answers_the_earlier_attack_passes_as_t21(self):
        self.assert_attacks_answered("attack-t18.json", "t23", "t17", 40, 5, recorded_as="t21")
        self.assert_attacks_answered("attack-t20.json", "t23", "t20", 40, 1, recorded_as="t21")

    def test_the_attack_pass_on_it(self):
        # tests/data/facts/attack-t23.json: 33 cases on t23 (23 wrong then, every one as t22
        # answers it); t23 amended for five (B01-B05), eighteen open as t22 answers them.
        self.assert_attacks_answered("attack-t23.json", "t23", "t22", 33, 18)

    def test_a_plural_in_es_is_its_word(self):
        from receipt_pair.facts.decide_t23 import words_of
        self.assertIn("tax", words_of("tests/test_taxes.py"))
        self.assertIn("file", words_of("test_files.py"))


class TableT24(_LaterTable, unittest.TestCase):
    """Table t24: what the attack pass on t23 found, probed both ways in
    facts/probes_t24.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t24", "t23", "probes_t23", 5

    def test_its_attack_pass(self):
        # tests/data/facts/attack-t23.json: t24 answers each case as recorded (`expect_t24`,
        # else t23's), A14 and B06 open as t23 answers them.
        self.assert_attack_file("attack-t23.json", "t24", 33, 18, lambda case, turns, got,
                                allowed: got == _decided(case["claim"], turns, "t23") or
                                got[0] is None or got[0] in allowed)

    def test_it_answers_the_earlier_attack_passes_as_t23(self):
        self.assert_attacks_answered("attack-t22.json", "t24", "t22", 40, 12, recorded_as="t23")
        self.assert_attacks_answered("attack-t20.json", "t24", "t20", 40, 1, recorded_as="t21")
        self.assert_attacks_answered("attack-t18.json", "t24", "t17", 40, 5, recorded_as="t21")


class TableT25(_LaterTable, unittest.TestCase):
    """Table t25: `set -e` read for the steps after it, "builds clean" a build claim, the
    files a commit claim names, probed both ways in facts/probes_t25.py."""

    PROBES, BEFORE, BEFORE_PROBES, CHANGED = "probes_t25", "t24", "probes_t24", 14

    def test_it_answers_every_attack_case_as_t17_or_more_carefully(self):
        for name in _ATTACKS_TO_T16:
            with self.subTest(name):
                self.assert_more_carefully(name, "t25", "t17")

    def test_it_answers_the_last_attack_passes_as_t24(self):
        self.assert_attack_file("attack-t23.json", "t25", 33, 18, lambda case, turns, got,
                                allowed: got == _decided(case["claim"], turns, "t23") or
                                got[0] is None or got[0] in allowed, recorded_as="t24")
        self.assert_attacks_answered("attack-t22.json", "t25", "t22", 40, 12, recorded_as="t23")
        self.assert_attacks_answered("attack-t20.json", "t25", "t20", 40, 1, recorded_as="t21")

    def test_its_attack_pass(self):
        # tests/data/facts/attack-t25.json: 40 cases on t25 before its amendment (29 wrong
        # then); the amended t25 answers each as recorded, the six costs open (M01-M05,
        # N04), each a `not shown` where a reading gives up.
        self.assert_attack_file("attack-t25.json", "t25", 40, 6, lambda case, turns, got,
                                allowed: got[0] in ("not shown", None))

    def test_the_second_attack_pass_on_it(self):
        # tests/data/facts/attack-t25b.json: 24 cases on the amended t25 (18 wrong then, 15
        # of them as t24); amended again, three open: an indented here-document terminator
        # and a warning format not read (both as t24), and `sh -c` under `set -e`, a cost.
        self.assert_attack_file("attack-t25b.json", "t25", 24, 3, lambda case, turns, got,
                                allowed: got == _decided(case["claim"], turns, "t24") or
                                got[0] in ("not shown", None))

    def test_set_e_counts_for_the_steps_after_it(self):
        from receipt_pair.facts import shell
        from receipt_pair.facts.reading_t25 import status_of

        def share(command, program):
            line = shell.parse(command)
            return status_of(line, next(s for s in line.steps if s.program == program))
        self.assertEqual(share("set -e\npytest\ngit add . || true", "pytest"), "shared")
        self.assertEqual(share("set -e\npytest\necho done", "pytest"), "own")
        self.assertEqual(share("set -e\npytest\ncd dist", "pytest"), "shared")
        self.assertEqual(share("[ -n \"$CI\" ] && set -e\npytest\necho done", "pytest"),
                         "masked")
        self.assertEqual(share("set -- -e\npytest\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\nf() { set +e; }\nf\npytest\necho done", "pytest"),
                         "masked")
        self.assertEqual(share("set -e\nif [ -n x ]; then\n  set +e\nfi\npytest\necho done",
                               "pytest"), "masked")
        self.assertEqual(share("pytest && cd dist", "pytest"), "shared")
        self.assertEqual(share("set -e\npytest\necho ok > dist/VERSION", "pytest"), "shared")
        self.assertEqual(share("set -Eeuo pipefail\npytest\necho done", "pytest"), "own")
        self.assertEqual(share("set -e\nbash -c 'pytest; echo done'", "pytest"), "masked")
        self.assertEqual(share("set -e\ntime for i in 1 2; do\n  pytest\ndone || true\necho",
                               "pytest"), "masked")
        self.assertEqual(share("set -euo pipefail\npytest", "pytest"), "own")
        self.assertEqual(share("set -o errexit; pytest; echo done", "pytest"), "own")
        self.assertEqual(share("pytest\nset -e\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\nset +e\npytest\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\ncd app && pytest\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\npytest && echo ok\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\nif pytest; then echo ok; fi", "pytest"), "masked")
        self.assertEqual(share("set -e\n! pytest\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\n(pytest)\necho done", "pytest"), "masked")
        self.assertEqual(share("(pytest)\necho done", "pytest"), "masked")
        self.assertEqual(share("(cd app && pytest)", "pytest"), "own")
        self.assertEqual(share("set -e\ntrap 'exit 0' ERR\npytest\necho done", "pytest"),
                         "masked")
        self.assertEqual(share("set -e\nfor d in a b; do pytest $d; done", "pytest"), "masked")
        self.assertEqual(share("set -e\npytest | tail -3\necho done", "pytest"), "masked")
        self.assertEqual(share("set -e\nif [ -f x ]; then\n  npm ci\nfi\npytest\nls",
                               "pytest"), "shared")
