"""The Python API a user would expect: the public names, their annotations, and
check_claim's promises."""

import dataclasses
import inspect
import os
import unittest

from receipt_pair.errors import ModelCallFailed, ServerError, UsageError

from tests.fakeserver import FakeServer, Reply, answer
from tests.helpers import ROOT, closed_port

TURNS = [{"cmd": "git push origin main", "output": "To origin\n   a1..b2  main -> main"}]
GOOD = answer("shown", "T1", "a1..b2  main -> main")


class PublicNames(unittest.TestCase):
    def test_top_level_imports(self):
        import receipt_pair
        from receipt_pair import ReceiptPairError, Turn, check_claim, read_log

        self.assertTrue(callable(check_claim) and callable(read_log))
        self.assertEqual(Turn("a", "b").output, "b")

        self.assertTrue(issubclass(ServerError, ReceiptPairError))
        for name in receipt_pair.__all__:  # every public name is there, and imports
            with self.subTest(name=name):
                self.assertIsNotNone(getattr(receipt_pair, name))
        for name in ("check_claim", "read_log", "Turn", "ReceiptPairError", "read_items",
                     "score", "replay_receipt", "append_receipt", "verify_ledger",
                     "judge_receipt", "verify_reply"):
            self.assertIn(name, receipt_pair.__all__)
        with self.assertRaises(AttributeError):
            receipt_pair.no_such_name  # noqa: B018


def annotated_functions(owner):
    """(name, function) of `owner` as the annotations promise it: a function itself, or a
    class's own public methods (properties, class and static methods too) and its __init__
    or __new__; a dataclass field whose default is a function is no method."""
    if not inspect.isclass(owner):
        return [(owner.__name__, owner)] if inspect.isfunction(owner) else []
    fields = {f.name for f in dataclasses.fields(owner)} if dataclasses.is_dataclass(owner) \
        else set()
    found = []
    for name, value in vars(owner).items():
        if name in fields or name.startswith("_") and name not in ("__init__", "__new__"):
            continue
        value = value.fget if isinstance(value, property) else value
        value = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
        if inspect.isfunction(value):
            found.append((f"{owner.__name__}.{name}", value))
    return found


def unannotated(function):
    """The parameters of `function` with no annotation (self and cls aside), and "return"
    when it has no return annotation."""
    signature = inspect.signature(function)
    missing = [name for index, (name, parameter) in enumerate(signature.parameters.items())
               if parameter.annotation is inspect.Parameter.empty
               and not (index == 0 and name in ("self", "cls"))]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


class Typed(unittest.TestCase):
    """The public API is typed (mypy checks the annotated functions in .ci/run): every
    function of receipt_pair.__all__ and every method of its classes is annotated in full,
    and so is what docs/api.md shows beside them."""

    def shown_in_the_docs(self):
        """What docs/api.md shows that __all__ does not name: the MCP server, and the classes
        the API returns (a LogRead, a Gated, a Verified, a LedgerCheck, a Claim, an Expiry)."""
        from receipt_pair.audit.expiry import Expiry
        from receipt_pair.audit.ledger import LedgerCheck
        from receipt_pair.audit.verify import Verified
        from receipt_pair.hooks.claims import Claim
        from receipt_pair.logs import LogRead
        from receipt_pair.mcp import serve
        from receipt_pair.pair.gate import Gated

        return [serve, LogRead, Gated, Verified, LedgerCheck, Claim, Expiry]

    def test_every_public_function_is_annotated_in_full(self):
        import receipt_pair

        public = [getattr(receipt_pair, name) for name in receipt_pair.__all__]
        functions = [found for owner in public + self.shown_in_the_docs()
                     for found in annotated_functions(owner)]
        self.assertGreater(len(functions), 50)  # a shrinking list is noticed
        for name, function in functions:
            with self.subTest(function=name):
                self.assertEqual(unannotated(function), [])

    def test_the_package_says_it_is_typed(self):
        self.assertTrue(os.path.isfile(os.path.join(ROOT, "receipt_pair", "py.typed")))
        with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as handle:
            pyproject = handle.read()
        self.assertIn('"py.typed"', pyproject)  # shipped as package data
        self.assertIn("[tool.mypy]", pyproject)


class CheckClaim(unittest.TestCase):
    def check(self, fake, **kwargs):
        from receipt_pair import check_claim

        return check_claim("I pushed main", kwargs.pop("turns", TURNS), model_a="qa",
                           model_b="qb", base_url=fake.base_url, **kwargs)

    def test_dicts_and_a_reader_by_version(self):
        from receipt_pair import Turn

        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            result = self.check(fake, reader="v6")
            self.assertEqual(result.answer, "shown")
            self.assertEqual(result.reader.version, "v6")
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            again = self.check(fake, turns=[Turn(**TURNS[0])])
        self.assertEqual(again.answer, "shown")
        self.assertEqual([m.answer for m in map(lambda m: m.checked, again.models)],
                         ["shown", "shown"])

    def test_bad_arguments_refused_before_any_request(self):
        bad = [dict(rule="r9"), dict(reader="v9"), dict(max_turns=0), dict(turns=[]),
               dict(turns="git push"), dict(turns=[{"cmd": 3}]), dict(turns=[42])]
        with FakeServer() as fake:
            for kwargs in bad:
                with self.subTest(kwargs=kwargs):
                    with self.assertRaises((UsageError,)) as caught:
                        self.check(fake, **kwargs)
                    self.assertNotIn("--", str(caught.exception))
            self.assertEqual(fake.requests, [])

    def test_a_failed_model_raises_with_the_result(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", Reply(500, {"error": "out of memory"}))
            with self.assertRaises(ModelCallFailed) as caught:
                self.check(fake)
            result = caught.exception.result
            self.assertEqual([m.arm for m in result.failed], ["B"])
            self.assertIn("out of memory", str(caught.exception))
            fake.script("qa", GOOD)
            fake.script("qb", Reply(500, {"error": "out of memory"}))
            kept = self.check(fake, keep_failed=True)
        self.assertEqual(kept.answer, "not shown")
        self.assertEqual(kept.models[1].checked.code, "call_failed")

    def test_no_model_answering_is_a_server_error_even_when_failures_are_kept(self):
        with FakeServer() as fake:
            fake.script("qa", Reply(500, {"error": "out of memory"}))
            fake.script("qb", Reply(500, {"error": "out of memory"}))
            with self.assertRaises(ServerError) as caught:
                self.check(fake, keep_failed=True)
        self.assertNotIsInstance(caught.exception, ModelCallFailed)
        self.assertIn("out of memory", str(caught.exception))

    def test_server_down_is_a_server_error(self):
        from receipt_pair import check_claim

        with self.assertRaises(ServerError):
            check_claim("I pushed main", TURNS, base_url=f"http://127.0.0.1:{closed_port()}/v1")

    def test_one_to_dict_everywhere(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            result = self.check(fake)
        data = result.to_dict()
        self.assertEqual(set(data), {"answer", "decided_by", "rule", "claim", "reader", "quotes",
                                     "facts", "models"})
        for entry, model in zip(data["models"], result.models):
            self.assertEqual(entry, model.to_dict())
            self.assertLessEqual({"model", "verdict", "turn", "quote", "answer", "code",
                                  "reason", "error"}, set(entry))


class VerifyReply(unittest.TestCase):
    """verify_reply: the quote check alone on a saved reply, no server."""

    def test_a_real_quote_passes_and_an_invented_one_is_refused(self):
        from receipt_pair import verify_reply

        verified = verify_reply(GOOD, TURNS, reader="v6")
        self.assertEqual((verified.checked.answer, verified.reader), ("shown", "v6"))
        self.assertEqual(set(verified.to_dict()), {"answer", "code", "verdict", "turn",
                                                   "quote", "reason", "reader"})
        invented = verify_reply(answer("shown", "T1", "main -> main pushed"), TURNS,
                                reader="v6")
        self.assertEqual(invented.checked.answer, "not shown")
        self.assertEqual(invented.checked.code, "quote_not_found")

    def test_a_whole_chat_response_is_read_for_its_content(self):
        import json

        from receipt_pair import verify_reply

        chat = json.dumps({"choices": [{"message": {"role": "assistant", "content": GOOD}}]})
        self.assertEqual(verify_reply(chat, TURNS, reader="v6").checked.answer, "shown")

    def test_bad_arguments_are_usage_errors_naming_no_flag(self):
        from receipt_pair import verify_reply

        for kwargs in (dict(reply=None), dict(reader="v9"), dict(claim=3), dict(turns=[]),
                       dict(nonsense=1), dict(reader="f2")):  # f2 picks lines by the claim
            with self.subTest(kwargs=kwargs):
                given = {"reply": GOOD, "turns": TURNS, "reader": "v6", **kwargs}
                with self.assertRaises(UsageError) as caught:
                    verify_reply(given.pop("reply"), given.pop("turns"), **given)
                self.assertNotIn("--", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
