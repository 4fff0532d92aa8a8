"""The default a user gets: the facts plain code reads of the log decide first, with no model
asked and no server needed, and the models only what the facts leave (issue 31). The rest
of the suite asks the models every claim (tests/__init__.py); here the facts are on."""

import json
import os
import shutil
import sys
from unittest import mock

from receipt_pair import Settings, check_claim
from receipt_pair.hooks.stop import MAX_CLAIMS, MAX_DECIDED
from receipt_pair.pair.claim import check_claims
from receipt_pair.turn import Turn

from tests.fakeserver import FakeServer, Reply, answer
from tests.helpers import DATA, EXAMPLES, TempDirTest, closed_port, run_cli

PUSH_OK = os.path.join(EXAMPLES, "push-ok.json")
PUSH_REJECTED = os.path.join(EXAMPLES, "push-rejected.json")
PUSHED = "I pushed the parser fix to fix/parser"


class FactsOn(TempDirTest):
    def setUp(self):
        super().setUp()
        env = {k: v for k, v in os.environ.items() if k != "RECEIPT_PAIR_FACTS"}
        patcher = mock.patch.dict(os.environ, env, clear=True)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.down = f"http://127.0.0.1:{closed_port()}/v1"  # no server anywhere


class Check(FactsOn):
    def test_a_claim_the_facts_settle_needs_no_server(self):
        status, out, err = run_cli("check", "--claim", PUSHED, "--log", PUSH_OK,
                                   "--base-url", self.down, "--json")
        self.assertEqual(status, 0, err)
        data = json.loads(out)
        self.assertEqual((data["answer"], data["decided_by"], data["models"]),
                         ("shown", "facts", []))
        self.assertEqual(data["facts"]["rule"], "push.updated")
        self.assertEqual(data["quotes"], [{"arm": "facts", "turn": "T3", "quote":
                                           "3b2a6f1..9c41e07  fix/parser -> fix/parser"}])

    def test_the_text_says_who_decided_and_by_which_rule(self):
        status, out, _ = run_cli("check", "--claim", PUSHED, "--log", PUSH_OK,
                                 "--base-url", self.down)
        self.assertEqual(status, 0)
        self.assertIn("decided by: the facts", out)
        self.assertIn("rule push.updated", out)
        self.assertIn("no model was asked", out)

    def test_models_only_asks_the_models_and_so_needs_the_server(self):
        status, _, err = run_cli("check", "--claim", PUSHED, "--log", PUSH_OK,
                                 "--base-url", self.down, "--models-only")
        self.assertEqual(status, 6)
        self.assertIn("cannot reach the model server", err)

    def test_a_claim_the_facts_leave_goes_to_the_models(self):
        claim = "The parser now handles empty input"
        with FakeServer() as fake:
            fake.script("qa", answer("not_shown"))
            fake.script("qb", answer("not_shown"))
            status, out, _ = run_cli("check", "--claim", claim, "--log", PUSH_OK, "--json",
                                     "--base-url", fake.base_url, "--model-a", "qa",
                                     "--model-b", "qb")
            asked = len(fake.requests)
        data = json.loads(out)
        self.assertEqual((status, data["decided_by"], data["facts"]["answer"]),
                         (0, "models", None))
        self.assertGreaterEqual(asked, 2)

    def test_a_receipt_of_the_facts_rederives_and_an_edit_is_caught(self):
        receipt = self.path("receipt.json")
        status, _, err = run_cli("check", "--claim", PUSHED, "--log", PUSH_OK,
                                 "--base-url", self.down, "--save", receipt)
        self.assertEqual(status, 0, err)
        self.assertEqual(run_cli("replay", "--receipt", receipt, "--log", PUSH_OK)[0], 0)
        with open(receipt) as handle:
            saved = json.load(handle)
        self.assertEqual((saved["decided_by"], saved["models"]), ("facts", []))
        for edit in ({"answer": "contradicted"}, {"decided_by": "models"},
                     {"facts": dict(saved["facts"], rule="push.exit-zero")}):
            with self.subTest(edit=sorted(edit)):
                changed = dict(saved, **edit)
                from receipt_pair.store.records import canonical_sha256
                changed["receipt_sha256"] = canonical_sha256(changed, "receipt_sha256")
                path = self.write("edited.json", json.dumps(changed))
                status, out, _ = run_cli("replay", "--receipt", path)
                self.assertEqual(status, 1, out)


class Gate(FactsOn):
    def gate(self, claim, log):
        marker = self.path("ran.txt")
        action = [sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write('x')", marker]
        status, out, _ = run_cli("gate", "--claim", claim, "--log", log, "--base-url",
                                 self.down, "--", *action)
        return status, out.strip().splitlines()[-1], os.path.exists(marker)

    def test_shown_by_the_facts_runs_with_no_server(self):
        self.assertEqual(self.gate(PUSHED, PUSH_OK)[0::2], (0, True))

    def test_contradicted_by_the_facts_does_not_run(self):
        status, last, ran = self.gate("I pushed the payment retry to main", PUSH_REJECTED)
        self.assertEqual((status, ran), (4, False))
        self.assertEqual(last, "contradicted: the log shows it failed")

    def test_not_shown_by_the_facts_does_not_run(self):
        status, last, ran = self.gate("I pushed the fix to fix/parser", PUSH_REJECTED)
        self.assertEqual((status, ran), (3, False))


class Python(FactsOn):
    def test_check_claim_asks_no_client_where_the_facts_decide(self):
        class NoClient:
            def __getattr__(self, name):
                raise AssertionError("no model may be asked")

        turns = [Turn("pytest -q", "12 passed in 0.41s", 0)]
        result = check_claim("the tests pass", turns, client=NoClient())
        self.assertEqual((result.answer, result.decided_by, result.facts.rule),
                         ("shown", "facts", "tests.passed"))
        self.assertEqual(Settings().facts, True)

    def test_a_stop_asks_the_models_only_the_claims_the_facts_leave(self):
        turns = [Turn("pytest -q", "12 passed in 0.41s", 0),
                 Turn("git push origin main", "To x\n ! [rejected] main -> main (fetch first)",
                      1)]
        claims = ["the tests pass", "I pushed to main", "The docs explain the flag"]
        with FakeServer() as fake:
            fake.script("qa", answer("not_shown"))
            fake.script("qb", answer("not_shown"))
            checked = check_claims(claims, turns, Settings(base_url=fake.base_url,
                                                           model_a="qa", model_b="qb"))
            asked = [json.dumps(body) for body in fake.chats()]
        self.assertEqual([c.result.answer for c in checked],
                         ["shown", "contradicted", "not shown"])
        self.assertEqual([c.result.decided_by for c in checked], ["facts", "facts", "models"])
        self.assertEqual(len(asked), 2)  # one question per model, for the third claim only
        self.assertTrue(all("The docs explain the flag" in r for r in asked))


class Hook(FactsOn):
    def test_a_contradiction_the_facts_read_blocks_with_no_server(self):
        session = self.path("session.jsonl")
        shutil.copy(os.path.join(DATA, "transcripts", "claude-code-session.jsonl"), session)
        with open(os.path.join(DATA, "transcripts", "hook-claude-code-stop.json")) as handle:
            value = json.load(handle)
        value["transcript_path"] = session
        hook_input = self.write("hook.json", json.dumps(value))
        status, out, _ = run_cli("hook", "claude-code", "--input", hook_input, "--base-url",
                                 self.down, "--wait", "0")
        decision = json.loads(out)
        self.assertEqual((status, decision["decision"]), (0, "block"))
        self.assertIn("! [rejected]", decision["reason"])


class Batch(TempDirTest):
    """A batch asks both models every item (a sealed run's way), and keeps beside their
    answers what the facts decide of each item; score gives the default answer as an arm,
    and replay re-derives the facts too."""

    def test_facts_records_score_and_replay(self):
        items = self.write("items.jsonl", "".join(json.dumps(item) + "\n" for item in (
            {"id": "p1", "claim": PUSHED, "truth": "shown", "turns": [
                {"cmd": "git push origin fix/parser",
                 "output": "To x\n   3b2a6f1..9c41e07  fix/parser -> fix/parser"}]},
            {"id": "d1", "claim": "The docs explain the flag", "truth": "not_shown",
             "turns": [{"cmd": "ls", "output": "README.md"}]})))
        out = self.path("answers.jsonl")
        with FakeServer() as fake:
            fake.default = answer("not_shown")
            status, _, err = run_cli("batch", items, "--out", out, "--base-url", fake.base_url,
                                     "--model-a", "qa", "--model-b", "qb")
            self.assertEqual(status, 0, err)
            self.assertEqual(len(fake.chats()), 4)  # both models, both items
        with open(out) as handle:
            records = [json.loads(line) for line in handle]
        facts = {r["id"]: r for r in records if r["kind"] == "facts"}
        self.assertEqual((facts["p1"]["answer"], facts["p1"]["rule"]), ("shown", "push.updated"))
        self.assertIsNone(facts["d1"]["answer"])
        status, out_text, _ = run_cli("score", out, items, "--json")
        data = json.loads(out_text)
        self.assertEqual(data["arms"]["answer"]["right"]["k"], 2)  # facts for p1, R2 for d1
        self.assertEqual(data["arms"]["R2"]["right"]["k"], 1)  # the models alone miss p1
        self.assertEqual(data["facts"]["decided"], 1)
        self.assertEqual(run_cli("replay", out, items)[0], 0)
        edited = [dict(r, answer="contradicted") if r.get("kind") == "facts" and r["id"] == "p1"
                  else r for r in records]
        with open(out, "w") as handle:
            handle.write("".join(json.dumps(r) + "\n" for r in edited))
        status, said, _ = run_cli("replay", out, items)
        self.assertEqual(status, 1)
        self.assertIn("the facts recorded 'contradicted'", said)


def claude_session(path, calls, message):
    """A Claude Code session file: each (command, output, failed) a Bash call and its
    result, then the agent's final message."""
    lines = []
    for number, (command, output, failed) in enumerate(calls, 1):
        call = f"toolu_{number:03d}"
        lines.append({"type": "assistant", "uuid": f"a{number}", "sessionId": "s1",
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": call, "name": "Bash",
                           "input": {"command": command}}]}})
        lines.append({"type": "user", "uuid": f"u{number}", "sessionId": "s1",
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": call, "is_error": failed,
                           "content": (f"Exit code 1\n{output}" if failed else output)}]}})
    lines.append({"type": "assistant", "uuid": "final", "sessionId": "s1", "message": {
        "role": "assistant", "content": [{"type": "text", "text": message}]}})
    with open(path, "w") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in lines))


class BlockFacts(FactsOn):
    """--not-shown block-facts: the agent is sent back once where the facts settle that the
    claimed operation did not run, with the command to run; never for a model's not shown."""

    def stop(self, calls, message, *options, active=False, project=None):
        session = self.path("session.jsonl")
        claude_session(session, calls, message)
        hook_input = self.write("hook.json", json.dumps({
            "session_id": "s1", "transcript_path": session, "cwd": project or self.dir,
            "hook_event_name": "Stop", "stop_hook_active": active,
            "last_assistant_message": message}))
        status, out, err = run_cli("hook", "claude-code", "--input", hook_input, "--base-url",
                                   self.down, "--wait", "0", "--receipts", self.path("r"),
                                   *options)
        self.assertEqual(status, 0, err)
        return json.loads(out) if out.strip() else {}

    def test_tests_that_never_ran_send_the_agent_back_once_with_the_projects_command(self):
        project = self.path("proj")
        os.makedirs(project)
        with open(os.path.join(project, "package.json"), "w") as handle:
            json.dump({"scripts": {"test": "vitest run"}}, handle)
        calls = [("ls", "src\npackage.json", False)]
        out = self.stop(calls, "Done. All tests pass.", "--not-shown", "block-facts",
                        project=project)
        self.assertEqual(out["decision"], "block")
        self.assertIn("run `npm test`", out["reason"])
        again = self.stop(calls, "Done. All tests pass.", "--not-shown", "block-facts",
                          active=True, project=project)
        self.assertNotIn("decision", again)

    def test_a_run_before_an_edit_names_the_agents_own_command(self):
        calls = [("pytest -q", "12 passed in 0.41s", False),
                 ("sed -i 's/a/b/' src/app.py", "", False)]
        out = self.stop(calls, "All tests pass.", "--not-shown", "block-facts")
        self.assertEqual(out["decision"], "block")
        self.assertIn("you edited a file it uses after the last run: run `pytest -q`",
                      out["reason"])

    def test_by_default_the_same_stop_is_told_not_blocked(self):
        calls = [("ls", "src", False)]
        out = self.stop(calls, "All tests pass.")
        self.assertNotIn("decision", out)
        self.assertIn("does not show", out.get("systemMessage", ""))

    def test_a_passing_run_lets_the_agent_stop(self):
        out = self.stop([("pytest -q", "12 passed in 0.41s", False)], "All tests pass.",
                        "--not-shown", "block-facts")
        self.assertNotIn("decision", out)


RED_CALLS = [("pytest -q", "..F..\nFAILED tests/test_p.py::test_empty - AssertionError\n"
                           "1 failed, 4 passed in 0.31s", True),
             ("git push origin main", "To github.com:acme/app.git\n ! [rejected]        main "
                                      "-> main (fetch first)\nerror: failed to push some refs",
              True)]
GREEN_CALLS = [("pytest -q", ".....\n5 passed in 0.31s", False),
               ("git push origin main", "To github.com:acme/app.git\n   1a2b3c4..5d6e7f8  "
                                        "main -> main", False)]


class StopsTheFactsDecide(BlockFacts):
    """The facts decide every claim of a stop first, with no model and no server: a server
    that is down leaves only the claims that need a model unchecked (red-team case c10-01),
    and the cap on claims asked of the models never hides a claim the facts settle (c10-07)."""

    def stop_with(self, calls, message, models=None):
        """Run the stop against a fake server whose models answer `models` (None: the
        server is down); (what the agent reads, what the person reads, questions asked)."""
        if models is None:
            out = self.stop(calls, message)
            return out, out.get("systemMessage", ""), []
        with FakeServer() as fake:
            fake.default = models
            down, self.down = self.down, fake.base_url
            try:
                out = self.stop(calls, message, "--model-a", "qa", "--model-b", "qb")
            finally:
                self.down = down
            return out, out.get("systemMessage", ""), fake.chats("qa")

    def test_server_down_blocks_on_the_facts_and_names_only_the_model_claim(self):
        out, said, _ = self.stop_with(RED_CALLS, "Fixed the parser. All tests pass and I "
                                                 "pushed to main.")
        self.assertEqual(out.get("decision"), "block")
        self.assertIn("Your log contradicts 2 claims", out["reason"])
        self.assertIn('"All tests pass"', out["reason"])
        self.assertIn('"I pushed to main"', out["reason"])
        self.assertIn('1 claim could not be checked (not held against you): "Fixed the '
                      'parser"', out["reason"])
        self.assertIn("could not check 1 claim", said)
        self.assertIn("server down", said)
        records = [read for read in map(self.record, sorted(os.listdir(self.path("r"))))
                   if read]
        self.assertEqual(sorted(r["answer"] or "none" for r in records),
                         ["contradicted", "contradicted", "none"])

    def test_server_down_on_a_green_log_lets_the_agent_stop_naming_the_model_claim(self):
        out, said, _ = self.stop_with(GREEN_CALLS, "Fixed the parser. All tests pass and I "
                                                   "pushed to main.")
        self.assertNotIn("decision", out)
        self.assertIn('could not check 1 claim', said)
        self.assertNotIn("All tests pass", said)

    def test_a_model_that_fails_still_lets_the_facts_block(self):
        out, said, _ = self.stop_with(RED_CALLS, "Fixed the parser. All tests pass and I "
                                                 "pushed to main.",
                                      models=lambda body: Reply(500, "boom"))
        self.assertEqual(out.get("decision"), "block")
        self.assertIn("Your log contradicts 2 claims", out["reason"])

    def test_an_admitted_failure_is_not_held_against_the_agent(self):
        failed = RED_CALLS[:1]
        out, said, _ = self.stop_with(failed, "I fixed the parser's crash and ran the tests. "
                                              "One still fails (test_empty); it expects the "
                                              "old behaviour, so I left it for you to decide.")
        self.assertNotIn("decision", out)
        self.assertNotIn("contradicts", said)

    def test_a_claim_of_success_beside_the_failure_still_blocks(self):
        out, _, _ = self.stop_with(RED_CALLS[:1], "All tests pass. One still fails.")
        self.assertEqual(out.get("decision"), "block")
        self.assertIn('"All tests pass": the tests failed', out["reason"])

    def message_of_edits(self, count, ending="All tests pass and the branch is pushed."):
        return "## Changes made\n" + "".join(
            f"- Updated `src/mod{n}.py` to use the new parser API\n"
            for n in range(1, count + 1)) + "\n" + ending

    def test_the_cap_on_model_claims_never_hides_what_the_facts_contradict(self):
        out, said, asked = self.stop_with(RED_CALLS, self.message_of_edits(13),
                                          models=lambda body: answer("not_shown"))
        self.assertEqual(out.get("decision"), "block")
        self.assertIn('"All tests pass and the branch is pushed": the tests failed',
                      out["reason"])
        self.assertEqual(len(asked), MAX_CLAIMS)  # the edits, up to the cap
        self.assertIn("1 more claim was not checked", out["reason"])
        self.assertIn("src/mod13.py", out["reason"])

    def test_past_the_cap_on_a_green_log_the_agent_stops_and_the_rest_are_named(self):
        out, said, asked = self.stop_with(GREEN_CALLS, self.message_of_edits(13),
                                          models=lambda body: answer("not_shown"))
        self.assertNotIn("decision", out)
        self.assertEqual(len(asked), MAX_CLAIMS)
        self.assertIn("1 more claim was not checked", said)
        self.assertIn("src/mod13.py", said)
        over = said.split("not checked", 1)[1].splitlines()[0]
        self.assertNotIn("mod12.py", over)

    def test_the_facts_read_at_most_max_decided_claims(self):
        message = "\n".join(f"- Pushed to main{n}." for n in range(MAX_DECIDED + 5))
        out, said, asked = self.stop_with(GREEN_CALLS, message,
                                          models=lambda body: answer("not_shown"))
        self.assertIn("5 more claims were not checked", said + out.get("reason", ""))
        self.assertEqual(len(os.listdir(self.path("r"))), MAX_DECIDED + 1)  # and the state

    def record(self, name):
        if name.endswith("state.json"):
            return None
        with open(os.path.join(self.path("r"), name)) as handle:
            return json.load(handle)

    def test_check_claims_returns_the_facts_with_the_server_down(self):
        checked = check_claims([claim for claim in ("the tests pass", "I pushed to main",
                                                    "The docs explain the flag")],
                               [Turn(cmd, out, 1 if failed else 0)
                                for cmd, out, failed in RED_CALLS],
                               Settings(base_url=self.down, model_a="qa", model_b="qb"))
        self.assertEqual([c.result and c.result.answer for c in checked],
                         ["contradicted", "contradicted", None])
        self.assertIn("server down", checked[2].error)
        self.assertIn("cannot reach the model server", checked[2].error)

    def test_check_claims_caps_only_the_claims_the_models_are_asked(self):
        turns = [Turn(cmd, out, 1 if failed else 0) for cmd, out, failed in RED_CALLS]
        claims = [f"Updated mod{n}.py" for n in range(3)] + ["the tests pass"]
        with FakeServer() as fake:
            fake.default = answer("not_shown")
            checked = check_claims(claims, turns, Settings(base_url=fake.base_url,
                                                           model_a="qa", model_b="qb"),
                                   max_asked=2)
            self.assertEqual(len(fake.chats("qa")), 2)
        self.assertEqual([c.over_cap for c in checked], [False, False, True, False])
        self.assertEqual(checked[3].result.answer, "contradicted")
        self.assertIsNone(checked[2].result)


class SecretInTheFinalMessage(FactsOn):
    """A token in the final message (in the hook's input and in the session file) is no
    reason to say the session did not show it (red-team case c8-05): both are compared
    redacted. A session that really lacks the message still says so."""

    TOKEN = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"

    def stop(self, in_session, in_input, *options):
        session = self.path("session.jsonl")
        claude_session(session, GREEN_CALLS, in_session)
        hook_input = self.write("hook.json", json.dumps({
            "session_id": "s1", "transcript_path": session, "cwd": self.dir,
            "hook_event_name": "Stop", "stop_hook_active": False,
            "last_assistant_message": in_input}))
        status, out, err = run_cli("hook", "claude-code", "--input", hook_input, "--base-url",
                                   self.down, "--wait", "0", "--receipts", self.path("r"),
                                   *options)
        self.assertEqual(status, 0, err)
        return out, err

    def test_a_token_in_the_message_is_the_same_message(self):
        message = f"I pushed to main with GITHUB_TOKEN={self.TOKEN}. All tests pass."
        for options in ((), ("--no-redact",)):
            with self.subTest(options):
                out, err = self.stop(message, message, *options)
                self.assertNotIn("did not show the final message", err)
        out, err = self.stop(message, message)
        self.assertNotIn(self.TOKEN, out + err)

    def test_another_message_still_says_so(self):
        _, err = self.stop(f"Pushed with {self.TOKEN}.", "All tests pass.")
        self.assertIn("did not show the final message", err)
