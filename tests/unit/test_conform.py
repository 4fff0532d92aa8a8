"""conforms(): a reply counts as constrained only if it really follows the schema we sent."""

import json
import unittest

from receipt_pair.readers.conform import conforms
from receipt_pair.legacy.classic_words import lines_schema
from receipt_pair.readers.classic import answer_schema
from receipt_pair.check.render import render_turns
from receipt_pair.logs import Turn

TURNS = [Turn("git push", "To origin\n ! [rejected] main -> main (fetch first)"),
         Turn("ls", ""),
         Turn("git push", "To origin\n   a1..b2  main -> main")]


def reply(verdict="shown", turn="T3", quote="   a1..b2  main -> main", reason="pushed",
          **more):
    return json.dumps({"verdict": verdict, "turn": turn, "quote": quote, "reason": reason,
                       **more})


class V1AnswerSchema(unittest.TestCase):
    def setUp(self):
        self.shown = render_turns(TURNS)
        self.schema = answer_schema(self.shown)

    def test_must_accept(self):
        accepted = {
            "shown": reply(),
            "not_shown with null turn": reply("not_shown", None, "", "nothing settles it"),
            "fenced": "```json\n" + reply() + "\n```",
            "keys in another order": json.dumps({"reason": "r", "quote": "", "turn": None,
                                                 "verdict": "contradicted"}),
            "reason at its limit": reply(reason="x" * 200),
            "non-ASCII within maxLength": reply(reason="\u00e9" * 200),
        }
        for name, text in accepted.items():
            with self.subTest(name):
                self.assertTrue(conforms(text, self.schema))

    def test_must_refuse(self):
        refused = {
            "plain text": "The push worked.",
            "empty": "",
            "not an object": json.dumps([reply()]),
            "two objects": reply() + reply(),
            "verdict outside the enum": reply("maybe"),
            "turn not shown": reply(turn="T9"),
            "turn a number": reply(turn=3),
            "quote null": reply(quote=None),
            "missing reason": json.dumps({"verdict": "shown", "turn": "T3", "quote": "q"}),
            "an extra key": reply(confidence=0.9),
            "reason too long": reply(reason="x" * 201),
            "duplicate key": '{"verdict": "shown", "verdict": "shown", "turn": "T3", '
                             '"quote": "q", "reason": "r"}',
            "two fences": "```\n" + reply() + "\n```\n```\n{}\n```",
            "NaN": '{"verdict": "shown", "turn": "T3", "quote": "q", "reason": NaN}',
            "nested very deep": '{"verdict": ' + "[" * 100000 + "]" * 100000 + "}",
            "not a string": None,
        }
        for name, text in refused.items():
            with self.subTest(name):
                self.assertFalse(conforms(text, self.schema))


class V2LinesSchema(unittest.TestCase):
    def setUp(self):
        self.shown = render_turns(TURNS)
        self.schema = lines_schema(self.shown)

    def test_must_accept(self):
        accepted = {
            # Lines are offered stripped of their surrounding whitespace.
            "a real line of T3": reply("shown", "T3", "a1..b2  main -> main"),
            "a real line of T1": reply("contradicted", "T1",
                                       "! [rejected] main -> main (fetch first)"),
            "a line both turns printed": reply("shown", "T3", "To origin"),
            "the not_shown branch": reply("not_shown", None, "", "nothing"),
        }
        for name, text in accepted.items():
            with self.subTest(name):
                self.assertTrue(conforms(text, self.schema))

    def test_must_refuse(self):
        refused = {
            "a line of another turn": reply("shown", "T3", "! [rejected] main -> main "
                                                         "(fetch first)"),
            "a line with its indentation": reply("shown", "T3", "   a1..b2  main -> main"),
            "a turn with no output": reply("shown", "T2", ""),
            "not_shown with a quote": reply("not_shown", None, "To origin"),
            "not_shown with a turn": reply("not_shown", "T3", ""),
            "shown with a null turn": reply("shown", None, "To origin"),
            "part of a line": reply("shown", "T3", "a1..b2"),
            "an extra key": reply("not_shown", None, "", "r", extra=1),
            "reason too long": reply("not_shown", None, "", "x" * 201),
        }
        for name, text in refused.items():
            with self.subTest(name):
                self.assertFalse(conforms(text, self.schema))


class SchemaSubset(unittest.TestCase):
    def test_keywords_outside_the_subset_are_not_vouched_for(self):
        schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}
        self.assertFalse(conforms('{"a": "x"}', schema))

    def test_json_equality(self):
        self.assertFalse(conforms('{"a": 1}', {"properties": {"a": {"const": True}}}))
        self.assertTrue(conforms('{"a": 1.0}', {"properties": {"a": {"const": 1}}}))
        self.assertTrue(conforms('{"a": 2}', {"properties": {"a": {"type": "integer"}}}))
        self.assertFalse(conforms('{"a": true}', {"properties": {"a": {"type": "integer"}}}))
        self.assertTrue(conforms('{"a": null}',
                                 {"properties": {"a": {"type": ["string", "null"]}}}))

    def test_bad_schemas_refuse(self):
        for schema in (None, [], {"anyOf": []}, {"required": "a"}, {"enum": "a"},
                       {"properties": {"a": {"maxLength": "3"}}}):
            with self.subTest(schema=schema):
                self.assertFalse(conforms('{"a": "x"}', schema))

    def test_deep_schema_is_bounded(self):
        schema = {"type": "object"}
        for _ in range(5000):
            schema = {"anyOf": [schema]}
        self.assertFalse(conforms("{}", schema))


if __name__ == "__main__":
    unittest.main()
