"""The current redactor on every text that enters the tool (issue 32): the claim, the agent's final
message, a witness's command, and the log; and a receipt re-reads its log with the
redactor version it recorded. Each both ways: a secret goes, ordinary text stays."""

import json
import os

from receipt_pair.audit.verify import receipt_redacted
from receipt_pair.pair.witness import redact_record

from tests.fakeserver import FakeServer, answer
from tests.helpers import DATA, EXAMPLES, TempDirTest, closed_port, run_cli

TOKEN = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7c"
PUSH_OK = os.path.join(EXAMPLES, "push-ok.json")


class Claims(TempDirTest):
    def check(self, claim):
        receipt = self.path("receipt.json")
        with FakeServer() as fake:
            fake.default = answer("not_shown")
            status, out, err = run_cli("check", "--claim", claim, "--log", PUSH_OK, "--json",
                                       "--base-url", fake.base_url, "--model-a", "qa",
                                       "--model-b", "qb", "--save", receipt)
            asked = json.dumps(fake.chats())
        self.assertEqual(status, 0, err)
        with open(receipt) as handle:
            return json.loads(out), handle.read(), asked

    def test_a_token_in_the_claim_reaches_no_model_and_no_receipt(self):
        data, receipt, asked = self.check(f"I set GITHUB_TOKEN={TOKEN} and pushed")
        for text in (json.dumps(data), receipt, asked):
            self.assertNotIn(TOKEN, text)
        self.assertIn("[REDACTED]", data["claim"])

    def test_an_ordinary_claim_is_left_as_it_is(self):
        claim = "The parser handles the token list of commit 9c41e07"
        data, _, _ = self.check(claim)
        self.assertEqual(data["claim"], claim)


class Messages(TempDirTest):
    def stop(self, *options):
        """(stdout, stderr, the receipts kept) of a Claude Code stop whose last message
        repeats a token, the facts deciding."""
        session = self.path("session.jsonl")
        with open(os.path.join(DATA, "transcripts", "claude-code-session.jsonl")) as source:
            with open(session, "w") as handle:
                handle.write(source.read())
        with open(os.path.join(DATA, "transcripts", "hook-claude-code-stop.json")) as handle:
            value = json.load(handle)
        value.update(transcript_path=session, last_assistant_message=(
            f"I pushed the parser fix to fix/parser with token {TOKEN}."))
        hook_input = self.write("hook.json", json.dumps(value))
        receipts = self.path("r")
        status, out, err = run_cli("hook", "claude-code", "--input", hook_input, "--base-url",
                                   f"http://127.0.0.1:{closed_port()}/v1", "--wait", "0",
                                   "--receipts", receipts, "--models-only", *options)
        kept = ""
        for name in os.listdir(receipts):
            with open(os.path.join(receipts, name)) as handle:
                kept += handle.read()
        return out, err, kept

    def test_a_token_the_agent_repeats_reaches_no_receipt_and_no_notice(self):
        for text in self.stop():
            self.assertNotIn(TOKEN, text)

    def test_the_hook_keeps_it_with_no_redact_as_check_does(self):
        _, _, kept = self.stop("--no-redact")
        self.assertIn(TOKEN, kept)
        status, out, _ = run_cli("hook", "claude-code", "--install-snippet", "--no-redact")
        self.assertEqual(status, 0)
        self.assertIn("--no-redact", out)  # carried into the command the agent runs


class Witness(TempDirTest):
    def test_a_password_beside_its_option_goes_and_the_rest_stays(self):
        record = {"cmd": "curl -u alice:hunter2hunter2 https://api.example.com/v1/ping",
                  "argv": ["curl", "-u", "alice:hunter2hunter2", "https://api.example.com/v1/ping"],
                  "output": "pong"}
        out, count = redact_record(record)
        self.assertGreaterEqual(count, 1)
        self.assertNotIn("hunter2hunter2", json.dumps(out))
        self.assertIn("https://api.example.com/v1/ping", out["argv"])
        plain = {"cmd": "pytest -q", "argv": ["pytest", "-q"], "output": "3 passed"}
        self.assertEqual(redact_record(plain), (plain, 0))


class Versions(TempDirTest):
    def test_a_receipt_rereads_its_log_with_the_redactor_it_recorded(self):
        self.assertEqual(receipt_redacted({"redaction": {"on": True, "count": 1}}), "s1")
        self.assertEqual(receipt_redacted({"redaction": {"on": True, "count": 1,
                                                         "version": "s2"}}), "s2")
        self.assertFalse(receipt_redacted({"redaction": {"on": False, "count": 0}}))
        self.assertFalse(receipt_redacted({}))

    def test_a_receipt_read_with_s2_rederives_with_s2_where_s3_takes_more(self):
        # s3 takes an ini password of several words that s2 left: a receipt that recorded
        # s2 re-reads its log with s2, so its turns are the same as when it was made.
        from receipt_pair import Settings, check_claim
        from receipt_pair.logs import read_log
        from receipt_pair.server.request import SETTINGS
        from receipt_pair.store.records import build_receipt

        log = self.write("log.json", json.dumps([
            {"cmd": "cat setup.cfg", "output": "[server]\npassword = My Long Pass Phrase 42"},
            {"cmd": "pytest -q", "output": "12 passed in 0.40s", "exit_status": 0}]))
        for version, kept in (("s2", True), ("s3", False)):
            with self.subTest(version):
                read = read_log(log, redact=version)
                self.assertEqual("My Long Pass Phrase 42" in read.turns[0].output, kept)
                result = check_claim("the tests pass", read.turns, Settings(facts=True))
                receipt = build_receipt(result, read, dict(SETTINGS))
                self.assertEqual(receipt["redaction"]["version"], version)
                saved = self.write(f"receipt-{version}.json", json.dumps(receipt))
                status, out, err = run_cli("replay", "--receipt", saved, "--log", log)
                self.assertEqual(status, 0, out + err)

