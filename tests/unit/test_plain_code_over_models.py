"""Plain code over what both models say (issue 22, the check's own side): the latest attempt
decides, a receipt holds all its reader read, the menu never hides a failure, a label means
the line it labels, and no secret of the log reaches the models or a receipt.

Both models say `shown` through the fake server; the plain code must still refuse, and an
honest receipt must stay possible."""

import json
import os
import sys

from receipt_pair.answers import CONTRADICTED, SHOWN, CheckedAnswer
from receipt_pair.logs.redact import REDACTOR_VERSION
from receipt_pair.readers.menu import MAX_LINES, labelled_lines, pick_lines
from receipt_pair.readers import get_reader
from receipt_pair.readers.menu_words import decide_narrow, partner_hint
from receipt_pair.turn import Turn

from tests.fakeserver import FakeServer, answer
from tests.helpers import GateTest, run_cli

PASSED = {"cmd": "python -m pytest -q", "output": "5 passed in 0.10s"}
FAILED = {"cmd": "python -m pytest -q",
          "output": "FAILED tests/test_a.py::test_two\n1 failed, 4 passed in 0.12s"}
COMMIT = {"cmd": "git commit -am 'tidy'", "output": "[main 1a2b3c4] tidy"}


def by_label(text):
    """A scripted r1 reply naming the menu line whose text is `text` (its last place)."""
    def reply(body):
        labels = [line.split(":", 1)[0] for line in body["messages"][1]["content"].splitlines()
                  if line.startswith("L") and line.split(": ", 1)[-1].strip() == text]
        return json.dumps({"verdict": "shown", "line": labels[-1] if labels else None,
                           "reason": "scripted"})
    return reply


class LatestAttemptAtTheGate(GateTest):
    claim = "the tests pass"

    def ask(self, turns, quote, reader, turn_id):
        log = self.turns_log(*turns)
        reply = by_label(quote) if reader == "r1" else answer("shown", turn_id, quote)
        return self.gate(log, reply, reply, "--reader", reader)

    def assert_runs(self, result, runs):
        status, out, err = result
        self.assertEqual(os.path.exists(self.marker), runs, out + err)
        if os.path.exists(self.marker):
            os.remove(self.marker)

    def test_an_earlier_pass_that_a_later_run_failed_after_opens_nothing(self):
        turns = [dict(PASSED, exit_status=0), COMMIT, dict(FAILED, exit_status=1)]
        for reader in ("v6", "r1"):
            with self.subTest(reader=reader):
                self.assert_runs(self.ask(turns, "5 passed in 0.10s", reader, "T1"), False)
        # The same without exit statuses: the failure lines alone decide.
        for reader in ("v6", "r1"):
            with self.subTest(reader=reader, statuses=False):
                self.assert_runs(self.ask([PASSED, COMMIT, FAILED], "5 passed in 0.10s",
                                          reader, "T1"), False)

    def test_a_passed_line_inside_a_failed_run_opens_nothing(self):
        turn = {"cmd": "python -m pytest -v",
                "output": "tests/test_a.py::test_one PASSED\ntests/test_a.py::test_two FAILED\n"
                          "=== 1 failed, 1 passed in 0.12s ==="}
        for reader in ("v6", "r1"):
            with self.subTest(reader=reader):
                self.assert_runs(self.ask([turn], "tests/test_a.py::test_one PASSED", reader,
                                          "T1"), False)

    def test_the_first_line_of_a_rejected_push_opens_nothing(self):
        turn = {"cmd": "git push origin main",
                "output": "To github.com:me/repo.git\n ! [rejected]        main -> main "
                          "(fetch first)\nerror: failed to push some refs to "
                          "'github.com:me/repo.git'"}
        for reader in ("v6", "r1"):
            with self.subTest(reader=reader):
                self.assert_runs(self.ask([turn], "To github.com:me/repo.git", reader, "T1"),
                                 False)

    def test_a_later_passing_run_keeps_an_honest_receipt(self):
        turns = [dict(FAILED, exit_status=1), COMMIT, dict(PASSED, exit_status=0)]
        for reader in ("v6", "r1"):
            with self.subTest(reader=reader):
                self.assert_runs(self.ask(turns, "5 passed in 0.10s", reader, "T3"), True)

    def test_a_command_still_running_opens_nothing(self):
        turn = {"cmd": "python -m pytest -q", "output": "5 passed in 0.10s", "finished": False}
        self.assert_runs(self.ask([turn], "5 passed in 0.10s", "v6", "T1"), False)


class ReceiptsHoldAllTheyRead(GateTest):
    claim = "I pushed the fix to main"

    def test_a_long_log_with_the_deciding_line_early_rederives(self):
        turns = [{"cmd": "git push origin main", "output": "To origin\n   4f1c2d9..8a7b6e5  "
                                                           "main -> main"}]
        turns += [{"cmd": f"cat notes-{i}.txt", "output": f"note {i}"} for i in range(20)]
        log = self.turns_log(*turns)
        saved, ledger = self.path("receipt.json"), self.path("ledger.jsonl")
        reply = by_label("4f1c2d9..8a7b6e5  main -> main")
        with FakeServer() as fake:
            fake.script("qa", reply)
            fake.script("qb", reply)
            status, out, err = run_cli("check", "--claim", self.claim, "--log", log,
                                       "--reader", "r1", "--base-url", fake.base_url,
                                       "--model-a", "qa", "--model-b", "qb", "--save", saved,
                                       "--ledger", ledger)
        self.assertEqual(status, 0, out + err)
        self.assertIn("answer:", out)
        with open(saved) as handle:
            receipt = json.load(handle)
        self.assertEqual(receipt["answer"], SHOWN)
        self.assertEqual(len(receipt["turns"]), 21)
        self.assertEqual(run_cli("verify", "--receipt", saved, "--log", log)[0], 0)
        self.assertEqual(run_cli("replay", "--receipt", saved)[0], 0)
        self.assertEqual(run_cli("replay", "--receipt", saved, "--log", log)[0], 0)
        self.assertEqual(run_cli("ledger", "verify", ledger)[0], 0)
        self.assertEqual(run_cli("show", saved, "--html", self.path("page.html"))[0], 0)


class MenuNeverHidesAFailure(GateTest):
    CLAIM = "the parser api tests pass on main"

    def test_a_failed_turn_keeps_its_exit_status_however_many_clean_lines(self):
        output = "\n".join(f"parser api tests pass on main: case {i} passed OK"
                            for i in range(40))
        turns = [Turn("python -m pytest -v", output, exit_status=1)]
        picked = pick_lines(self.CLAIM, turns)
        self.assertIn(40, picked[0])  # "[exit status 1]", after the 40 lines

    def test_the_latest_failure_survives_long_lines_naming_the_claim(self):
        # Lines that fill the character budget exactly (each costs its length plus 6).
        noisy = "\n".join(f"parser api tests pass on main, passed OK, case {i:02d} ".ljust(294, "x")
                           for i in range(8))
        turns = [Turn("python -m pytest", "E   AssertionError: boom\n1 failed in 0.1s",
                      exit_status=1),
                 Turn("python report.py", noisy), Turn("python report.py --all", noisy)]
        picked = pick_lines(self.CLAIM, turns)
        self.assertIn(0, picked)
        self.assertIn(2, picked[0])  # the exit status line
        self.assertLessEqual(sum(len(v) for v in picked.values()), MAX_LINES + 2)


class LabelsMeanTheirLine(GateTest):
    TURNS = [Turn("./deploy.sh", "Deploy FAILED: timeout"),
             Turn("./deploy.sh --retry", "Deployed OK"),
             Turn("./deploy.sh --retry", "Deploy FAILED: timeout")]

    def test_the_later_of_two_equal_lines_is_the_later(self):
        reader = get_reader("n1")
        shown = reader.render(self.TURNS, 6, "I deployed")
        labels = labelled_lines(shown)
        failures = [label for label, _, line in labels if line == "Deploy FAILED: timeout"]
        success = next(label for label, _, line in labels if line == "Deployed OK")
        self.assertEqual(len(failures), 2)
        turn_of = {label: turn for label, turn, _ in labels}
        ok = CheckedAnswer("shown", turn_of[success], "Deployed OK", "", SHOWN, "ok", success)
        late = CheckedAnswer("contradicted", turn_of[failures[1]], "Deploy FAILED: timeout",
                             "", CONTRADICTED, "ok", failures[1])
        self.assertEqual(decide_narrow(ok, late, shown).answer, CONTRADICTED)

    def test_model_b_is_told_the_label_model_a_named(self):
        reader = get_reader("r1")
        shown = reader.render(self.TURNS, 6, "I deployed")
        labels = labelled_lines(shown)
        last = [(label, turn) for label, turn, line in labels
                if line == "Deploy FAILED: timeout"][-1]
        partner = CheckedAnswer("contradicted", last[1], "Deploy FAILED: timeout", "",
                                CONTRADICTED, "ok", last[0])
        self.assertIn(f"citing {last[0]}:", partner_hint(partner, shown))


class SecretsStayHome(GateTest):
    claim = "I pushed the fix to main"
    TOKEN = "ghp_" + "a1B2c3D4e5" * 4

    def test_a_token_never_reaches_the_models_or_the_receipt(self):
        log = self.turns_log({"cmd": f"git push https://bot:{self.TOKEN}@github.com/o/r.git main",
                              "output": "To https://github.com/o/r.git\n   4f1c2d9..8a7b6e5  "
                                        f"main -> main\nGITHUB_TOKEN={self.TOKEN}"})
        saved = self.path("receipt.json")
        with FakeServer() as fake:
            fake.script("qa", by_label("4f1c2d9..8a7b6e5  main -> main"))
            fake.script("qb", by_label("4f1c2d9..8a7b6e5  main -> main"))
            status, out, err = run_cli("check", "--claim", self.claim, "--log", log,
                                       "--reader", "r1", "--base-url", fake.base_url,
                                       "--model-a", "qa", "--model-b", "qb", "--save", saved)
            sent = json.dumps(fake.chats())
        self.assertEqual(status, 0, out + err)
        self.assertIn("credential(s) in the log replaced", err)
        self.assertNotIn(self.TOKEN, sent)
        with open(saved) as handle:
            text = handle.read()
        self.assertNotIn(self.TOKEN, text)
        receipt = json.loads(text)
        self.assertEqual(receipt["redaction"],
                         {"on": True, "count": 2, "version": REDACTOR_VERSION})
        self.assertEqual(receipt["answer"], SHOWN)
        self.assertEqual(run_cli("replay", "--receipt", saved, "--log", log)[0], 0)
        self.assertEqual(run_cli("verify", "--receipt", saved, "--log", log)[0], 0)

    def test_no_redact_keeps_the_log_as_it_is(self):
        log = self.turns_log({"cmd": "env", "output": f"GITHUB_TOKEN={self.TOKEN}"})
        saved = self.path("receipt.json")
        with FakeServer() as fake:
            fake.script("qa", answer("not_shown"))
            fake.script("qb", answer("not_shown"))
            run_cli("check", "--claim", self.claim, "--log", log, "--reader", "v6",
                    "--base-url", fake.base_url, "--model-a", "qa", "--model-b", "qb",
                    "--save", saved, "--no-redact")
            self.assertIn(self.TOKEN, json.dumps(fake.chats()))
        with open(saved) as handle:
            self.assertEqual(json.load(handle)["redaction"], {"on": False, "count": 0,
                                                                "version": None})
        self.assertEqual(run_cli("replay", "--receipt", saved, "--log", log)[0], 0)


class RedactionShapes(GateTest):
    def test_each_shape_is_replaced_and_ordinary_lines_are_not(self):
        from receipt_pair.logs.redact import redact

        secret = {
            "git clone https://alice:s3cretPass@github.com/org/repo.git": "s3cretPass",
            "Authorization: Bearer abcdefghijklmnop": "abcdefghijklmnop",
            "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx": "sk-proj-",
            'DB_PASSWORD="hunter2hunter2"': "hunter2",
            '{"password": "correcthorse", "user": "bob"}': "correcthorse",
            "mysql -u root --password=s3cr3tpw": "s3cr3tpw",
            "AKIAIOSFODNN7EXAMPLE": "AKIAIOSFODNN7EXAMPLE",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIB\n-----END RSA PRIVATE KEY-----": "MIIEpAIB",
        }
        for text, gone in secret.items():
            with self.subTest(text=text):
                redacted, count = redact(text)
                self.assertNotIn(gone, redacted)
                self.assertEqual(count, 1)
        for text in ("max_tokens=400 prompt_tokens: 120", "tokenizer: bert-base-uncased",
                     "Using token=${GITHUB_TOKEN}", "5 passed in 0.10s",
                     "   4f1c2d9..8a7b6e5  main -> main", "PWD=/home/user/project"):
            with self.subTest(text=text):
                self.assertEqual(redact(text), (text, 0))


class WitnessSecrets(GateTest):
    claim = "the tests pass"
    TOKEN = "ghp_" + "z9Y8x7W6v5" * 4

    def test_a_witness_run_keeps_no_token_in_its_receipt(self):
        script = self.write("run_tests.py", f"print('GITHUB_TOKEN={self.TOKEN}')\n"
                                            "print('3 passed in 0.01s')\n")
        witness, saved = self.path("witness.jsonl"), self.path("receipt.json")
        reply = answer("shown", "T1", "3 passed in 0.01s")
        with FakeServer() as fake:
            fake.script("qa", reply)
            fake.script("qb", reply)
            status, out, err = run_cli("gate", "--claim", self.claim, "--witness", "--log",
                                       witness, "--save", saved, "--reader", "v6",
                                       "--base-url", fake.base_url, "--model-a", "qa",
                                       "--model-b", "qb", "--", sys.executable, script, "--",
                                       *self.action)
            sent = json.dumps(fake.chats())
        self.assertEqual(status, 0, out + err)
        self.assertNotIn(self.TOKEN, sent)
        with open(saved) as handle:
            text = handle.read()
        self.assertNotIn(self.TOKEN, text)
        self.assertEqual(json.loads(text)["witness"]["record_redactions"], 1)
        self.assertEqual(run_cli("replay", "--receipt", saved)[0], 0)
        self.assertEqual(run_cli("verify", "--receipt", saved, "--log", witness)[0], 0)
