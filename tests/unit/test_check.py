"""check against the fake server: what it prints, its JSON, receipts, failures, concurrency."""

import json
import os
import threading
import unittest

from receipt_pair.server.request import sha256_text
from receipt_pair.logs import read_log
from receipt_pair.pair.settings import Settings
from receipt_pair.pair.claim import check_claim
from receipt_pair.server.client import Client

from tests.fakeserver import FakeServer, Reply, answer, chat_response
from tests.helpers import EXAMPLES, TempDirTest, closed_port, run_cli, users_reader

LOG = os.path.join(EXAMPLES, "push-ok.json")
CLAIM = "I pushed the parser fix to fix/parser"
GOOD = answer("shown", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser", "git moved the branch")
INVENTED = answer("shown", "T3", "Successfully pushed fix/parser", "it says so")


def cli(fake, *argv):
    return run_cli(*argv, "--base-url", fake.base_url, "--model-a", "qa", "--model-b", "qb")


class CheckCommand(TempDirTest):
    def test_prints_answer_and_each_model(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", INVENTED)
            status, out, err = cli(fake, "check", "--claim", CLAIM, "--log", LOG, "--rule", "r1")
        self.assertEqual(status, 0, err)
        self.assertIn(f"claim:  {CLAIM}", out)
        self.assertIn("rule:   R1", out)
        self.assertIn("answer: shown", out)
        self.assertIn('decided by model A, T3: "3b2a6f1..9c41e07  fix/parser -> fix/parser"', out)
        self.assertIn("check:   passed", out)
        self.assertIn("check:   refused, quote_not_found", out)
        self.assertIn("reason:  git moved the branch", out)

    def test_default_rule_is_r3_agree_or_not_shown(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", INVENTED)
            status, out, _ = cli(fake, "check", "--claim", CLAIM, "--log", LOG, "--json")
        data = json.loads(out)
        self.assertEqual(status, 0)
        self.assertEqual((data["answer"], data["rule"]), ("not shown", "r3"))
        self.assertEqual(data["quotes"], [])
        keys = {"model", "verdict", "turn", "quote", "answer", "code", "reason", "error"}
        for entry in data["models"]:
            self.assertTrue(keys <= set(entry))
        self.assertEqual([m["code"] for m in data["models"]], ["ok", "quote_not_found"])

    def test_log_from_standard_input(self):
        import io
        import sys
        from unittest import mock

        with open(LOG, "rb") as handle:
            stdin = io.TextIOWrapper(io.BytesIO(handle.read()))
        with FakeServer() as fake, mock.patch.object(sys, "stdin", stdin):
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            status, out, _ = cli(fake, "check", "--claim", CLAIM, "--log", "-", "--json")
        self.assertEqual(json.loads(out)["answer"], "shown")

    def test_one_model_failing(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", Reply(500, {"error": {"message": "out of memory"}}))
            status, out, err = cli(fake, "check", "--claim", CLAIM, "--log", LOG, "--rule", "r1")
        self.assertEqual(status, 6)
        self.assertIn("model B: qb\n  call failed:", out)
        self.assertIn("out of memory", out)
        self.assertIn("model B could not be asked", err)
        self.assertIn("answer: shown", out)  # R1: A's checked shown stands; B vouched for nothing

    def test_both_models_failing_is_an_error_not_an_answer(self):
        with FakeServer() as fake:
            fake.script("qa", Reply(404, {"error": "model 'qa' not found"}))
            fake.script("qb", Reply(404, {"error": "model 'qb' not found"}))
            status, out, err = cli(fake, "check", "--claim", CLAIM, "--log", LOG)
        self.assertEqual(status, 6)
        self.assertEqual(out, "")
        self.assertNotIn("not shown", err)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_server_down(self):
        status, out, err = run_cli("check", "--claim", CLAIM, "--log", LOG, "--base-url",
                                   f"http://127.0.0.1:{closed_port()}/v1")
        self.assertEqual(status, 6)
        self.assertEqual(out, "")
        self.assertIn("cannot reach the model server", err)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_remote_server_refused(self):
        status, _, err = run_cli("check", "--claim", CLAIM, "--log", LOG, "--base-url",
                                 "http://10.0.0.5:8080/v1")
        self.assertEqual(status, 2)
        self.assertIn("--allow-remote", err)

    def test_receipt_rederives_offline(self):
        receipt = self.path("receipt.json")
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", GOOD)
            status, out, _ = cli(fake, "check", "--claim", CLAIM, "--log", LOG, "--save", receipt)
        self.assertEqual(status, 0)
        with open(receipt) as handle:
            saved = json.load(handle)
        for key in ("claim", "log", "turns", "shown", "reader", "rule", "models", "answer",
                    "quotes", "settings", "package_version", "time"):
            self.assertIn(key, saved)
        self.assertEqual(saved["answer"], "shown")
        self.assertEqual(saved["models"][0]["reply_sha256"], sha256_text(GOOD))
        status, out, _ = run_cli("replay", "--receipt", receipt, "--log", LOG)
        self.assertEqual(status, 0, out)
        status, out, _ = run_cli("verify", "--receipt", receipt)
        self.assertEqual(status, 0, out)
        # A reply edited after the fact, and a log that is not the receipt's, are caught.
        saved["models"][1]["reply"] = INVENTED
        tampered = self.write("tampered.json", json.dumps(saved))
        status, out, _ = run_cli("replay", "--receipt", tampered)
        self.assertEqual(status, 1)
        self.assertIn("reply sha256 differs", out)
        self.assertIn("answer recorded 'shown', the replies give 'not shown'", out)
        other = self.write("other.json", '[{"cmd": "git push", "output": "rejected"}]')
        status, out, _ = run_cli("replay", "--receipt", receipt, "--log", other)
        self.assertEqual(status, 1)
        self.assertIn("not the one this receipt was made from", out)


class OnlyTheFactsContradict(TempDirTest):
    """`--contradictions facts`: a contradiction the models found is `not shown` (only plain
    code may contradict, as the hook's `--contradicted block-facts` holds); one the facts
    settle stands; the receipt records the setting and replays by it."""

    MAILER = [{"cmd": "./send_invoice.sh 42", "output": "error: mailbox unavailable (550)",
               "exit_status": 1}]
    SAID = answer("contradicted", "T1", "error: mailbox unavailable (550)", "it bounced")

    def test_a_models_contradiction_is_not_shown_and_replays(self):
        log = self.write("mail.json", json.dumps(self.MAILER))
        receipt = self.path("receipt.json")
        with FakeServer() as fake:
            fake.script("qa", self.SAID, self.SAID)
            fake.script("qb", self.SAID, self.SAID)
            _, out, _ = cli(fake, "check", "--claim", "I sent invoice 42", "--log", log,
                            "--json")
            self.assertEqual(json.loads(out)["answer"], "contradicted")
            status, out, err = cli(fake, "check", "--claim", "I sent invoice 42", "--log", log,
                                   "--contradictions", "facts", "--json", "--save", receipt)
        self.assertEqual(status, 0, err)
        data = json.loads(out)
        self.assertEqual((data["answer"], data["decided_by"], data["contradictions"]),
                         ("not shown", "models", "facts"))
        self.assertEqual([m["answer"] for m in data["models"]], ["contradicted"] * 2)
        status, out, _ = run_cli("replay", "--receipt", receipt, "--log", log)
        self.assertEqual(status, 0, out)
        with open(receipt) as handle:
            saved = json.load(handle)
        self.assertEqual(saved["contradictions"], "facts")
        saved["contradictions"] = "any"
        status, out, _ = run_cli("replay", "--receipt", self.write("t.json", json.dumps(saved)))
        self.assertEqual(status, 1)
        self.assertIn("answer recorded 'not shown', the replies give 'contradicted'", out)

    def test_a_contradiction_the_facts_settle_stands(self):
        with users_reader():  # the facts decide first, as for a user
            status, out, err = run_cli("check", "--claim", "I pushed main to origin", "--log",
                                       os.path.join(EXAMPLES, "push-rejected.json"),
                                       "--contradictions", "facts", "--json",
                                       "--base-url", f"http://127.0.0.1:{closed_port()}/v1")
        self.assertEqual(status, 0, err)
        self.assertEqual((json.loads(out)["answer"], json.loads(out)["decided_by"]),
                         ("contradicted", "facts"))

    def test_an_unknown_value_is_refused(self):
        status, _, err = run_cli("check", "--claim", "c", "--log", LOG,
                                 "--contradictions", "models")
        self.assertEqual(status, 2)
        self.assertIn("--contradictions", err)
        from receipt_pair.errors import UsageError
        with self.assertRaises(UsageError):
            Settings(contradictions="some").checked()


class Concurrency(unittest.TestCase):
    def run_pair(self, concurrent):
        """The pair's result, and whether both questions were in flight at the same time."""
        turns, _ = read_log(LOG)
        # Each reply waits for the other question to arrive: only asking at once meets it.
        meeting = threading.Barrier(2, timeout=2 if concurrent is not False else 0.2)
        met = []

        def meet(body):
            try:
                meeting.wait()
                met.append(True)
            except threading.BrokenBarrierError:
                met.append(False)
            return Reply(200, chat_response(GOOD))

        with FakeServer(kind="lemonade", max_models=2) as fake:
            fake.script("qa", meet)
            fake.script("qb", meet)
            # v6: one question per model, so the two can be asked at once (r1's B waits
            # for A's answer, so it is always asked in turn)
            result = check_claim(CLAIM, turns, Settings(facts=False), model_a="qa",
                                 model_b="qb", reader="v6", client=Client(fake.base_url),
                                 concurrent=concurrent)
            return result, all(met)

    def test_same_answers_either_way(self):
        together, both_in_flight = self.run_pair(True)
        in_turn, overlapped = self.run_pair(False)
        self.assertTrue(together.concurrent)
        self.assertFalse(in_turn.concurrent)
        for a, b in zip(together.models, in_turn.models):
            self.assertEqual(a.request_sha256, b.request_sha256)
            self.assertEqual(a.checked, b.checked)
        self.assertEqual(together.answer, in_turn.answer)
        self.assertTrue(both_in_flight)
        self.assertFalse(overlapped)

    def test_auto_uses_what_the_server_says(self):
        result, both_in_flight = self.run_pair(None)
        self.assertTrue(result.concurrent)
        self.assertTrue(both_in_flight)


if __name__ == "__main__":
    unittest.main()
