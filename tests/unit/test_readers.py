"""Reader variants: each a versioned unit; the quote check is the same for every one."""

import json
import unittest

from receipt_pair.answers import OK
from receipt_pair.legacy import evidence_c1
from receipt_pair.check.quote import check_reply
from receipt_pair.legacy.classic_words import lines_schema
from receipt_pair.readers import READERS, READER_V1, get_reader
from receipt_pair.check.render import render_turns
from receipt_pair.server.request import build_request
from receipt_pair.logs import Turn
from receipt_pair.check.probes import QUOTE_PROBES

TURNS = [Turn("git push", "To origin\n ! [rejected] main -> main\n"),
         Turn("git push", ""), Turn("git push", "   a..b  main -> main\n   a..b  main -> main")]


class Variants(unittest.TestCase):
    def test_one_literal_table_with_distinct_fingerprints(self):
        self.assertTrue({"v1", "v2", "v3", "v4"} <= set(READERS))
        prints = [r.fingerprint for r in READERS.values()]
        self.assertEqual(len(prints), len(set(prints)))
        for version, reader in READERS.items():
            self.assertEqual(reader.version, version)
        self.assertIs(READERS["v1"], READER_V1)

    def test_v6_is_built_from_v1s_frozen_question_word_for_word(self):
        # v6's words live with it (readers/classic.py); the retired v1 keeps its own frozen
        # copy in legacy/. The two must never drift: each fingerprint is sealed.
        from receipt_pair.legacy import classic_words
        from receipt_pair.readers import classic

        self.assertEqual(classic.INSTRUCTIONS_V1, classic_words.INSTRUCTIONS_V1)
        self.assertEqual(READER_V1.instructions, classic.INSTRUCTIONS_V1)

    def test_constrained_schema_offers_only_real_lines(self):
        shown = render_turns(TURNS)
        schema = lines_schema(shown)
        branches = schema["anyOf"]
        self.assertEqual([b["properties"]["turn"].get("const") for b in branches],
                         ["T1", "T3", None])  # T2 printed nothing: no branch
        self.assertEqual(branches[1]["properties"]["quote"]["enum"], ["a..b  main -> main"])
        for branch in branches[:-1]:
            turn = next(t for t in shown if t.id == branch["properties"]["turn"]["const"])
            for line in branch["properties"]["quote"]["enum"]:
                reply = json.dumps({"verdict": "contradicted", "turn": turn.id, "quote": line,
                                    "reason": ""})
                # v2's schema, judged by v2's check (c1): every offered line is found.
                self.assertEqual(check_reply(reply, shown, "c1", evidence_c1).code, OK)
        last = branches[-1]["properties"]
        self.assertEqual((last["verdict"]["const"], last["quote"]["const"]), ("not_shown", ""))

    def test_look_first_puts_the_reason_first(self):
        shown = render_turns(TURNS)
        body = build_request(get_reader("v3", replay=True), "c", shown, "m")
        branch = body["response_format"]["json_schema"]["schema"]["anyOf"][0]
        self.assertEqual(list(branch["properties"]), ["reason", "verdict", "turn", "quote"])
        self.assertEqual(branch["required"], ["reason", "verdict", "turn", "quote"])

    def test_worked_examples_are_in_the_fingerprinted_instructions(self):
        v4 = get_reader("v4", replay=True)
        self.assertIn("worked examples", v4.instructions)
        self.assertEqual(v4.messages("c", render_turns(TURNS))[0]["content"], v4.instructions)

    def test_same_check_for_every_variant(self):
        # Readers that show the last turns whole; the menu readers are tested in test_menu.
        # The check is a pure function of the reply and the turns as shown: where two
        # readers show a probe's turns exactly alike, it is judged once for both.
        judged = {}
        for version, reader in ((v, r) for v, r in READERS.items() if not r.menu):
            for probe in QUOTE_PROBES:
                with self.subTest(reader=version, probe=probe.name):
                    shown = reader.render(list(probe.turns), claim=probe.claim)
                    key = (probe.reply, tuple(shown), shown.claim, shown.turns,
                           tuple(shown.menu_claims or ()))
                    if key not in judged:
                        judged[key] = check_reply(probe.reply, shown)
                    checked = judged[key]
                    self.assertEqual((checked.answer, checked.code), (probe.answer, probe.code))

    def test_unknown_reader(self):
        from receipt_pair.errors import UsageError

        with self.assertRaises(UsageError):
            get_reader("v9")


if __name__ == "__main__":
    unittest.main()
