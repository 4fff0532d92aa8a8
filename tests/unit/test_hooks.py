"""The Stop hooks of Claude Code and Codex, driven end to end with the fake model server.

Each test copies a real-shaped session file (tests/data/transcripts, tests/data/hooks) into
a temporary folder, writes the hook's JSON input naming it, runs `hook AGENT` in this
process and reads what the agent would read: the JSON on standard output and the exit
status. The fake models judge by the claim they are asked about and quote a real line of
the log as they saw it, so the quote check passes exactly when the line is really there.
"""

import dataclasses
import io
import json
import os
import shlex
import shutil
import sys
import threading
import time
from unittest import mock

from receipt_pair import Settings
from receipt_pair.cli import build_parser
from receipt_pair.cli.hook import hook_options
from receipt_pair.hooks import records as hook_records
from receipt_pair.hooks import run as hook_run
from receipt_pair.hooks import session as hook_session
from receipt_pair.hooks.options import HookOptions, hook_command, install_snippet
from receipt_pair.errors import InputError
from receipt_pair.hooks.agents import AGENTS
from receipt_pair.hooks.stop import MAX_CLAIMS, HookState, StopDecision, parse_hook_input
from tests.fakeserver import FakeServer, Reply, answer
from tests.helpers import (CLAIM, DATA, EXAMPLES, GREEN_RULES, RED_RULES, REJECTED, TempDirTest,
                           closed_port, judge, make_items, read_json, run_cli, users_reader)

TRANSCRIPTS = os.path.join(DATA, "transcripts")
HOOKS = os.path.join(DATA, "hooks")
RED = {  # sessions whose push was rejected and whose suite failed
    "claude-code": (os.path.join(TRANSCRIPTS, "claude-code-session.jsonl"),
                    os.path.join(TRANSCRIPTS, "hook-claude-code-stop.json")),
    "codex": (os.path.join(TRANSCRIPTS, "codex-rollout-exec-command.jsonl"),
              os.path.join(TRANSCRIPTS, "hook-codex-stop.json")),
    "gemini-cli": (os.path.join(TRANSCRIPTS, "gemini-cli-session.jsonl"),
                   os.path.join(HOOKS, "hook-gemini-cli-afteragent.json")),
}
GREEN = {  # sessions whose suite passed and whose push went through
    "claude-code": (os.path.join(HOOKS, "claude-code-green.jsonl"),
                    os.path.join(HOOKS, "hook-claude-code-green.json")),
    "codex": (os.path.join(HOOKS, "codex-green.jsonl"),
              os.path.join(HOOKS, "hook-codex-green.json")),
    "gemini-cli": (os.path.join(HOOKS, "gemini-cli-green.jsonl"),
                   os.path.join(HOOKS, "hook-gemini-cli-green.json")),
}
NO_TOOLS = {  # sessions with no tool call, whose final message claims work all the same
    agent: (os.path.join(HOOKS, f"{agent}-no-tools.jsonl"), GREEN[agent][1])
    for agent in ("claude-code", "codex", "gemini-cli")}
NO_TOOLS_MESSAGE = "I ran the tests, all pass."
MESSAGE_KEY = {"claude-code": "last_assistant_message", "codex": "last_assistant_message",
               "gemini-cli": "prompt_response"}
# The hook inputs of agents whose session file receipt-pair cannot read yet.
UNREAD = {"cursor": os.path.join(HOOKS, "hook-cursor-stop.json"),
          "copilot": os.path.join(HOOKS, "hook-copilot-agentstop.json")}
class HookTest(TempDirTest):
    # How long a session file that does not show the input's final message is waited on
    # before it is taken as written (hooks/session.SETTLE, 0.5 s): shorter here, where every
    # file is written before the hook starts; a class whose files are written late keeps
    # the real wait (None).
    settle = 0.05

    def setUp(self):
        super().setUp()
        if self.settle is not None:
            patcher = mock.patch.object(hook_session, "SETTLE", self.settle)
            patcher.start()
            self.addCleanup(patcher.stop)
        self.fake = FakeServer()
        self.fake.__enter__()
        self.addCleanup(self.fake.__exit__, None, None, None)
        self.receipts = self.path("receipt-pair")

    def session(self, agent, which=RED, path_key="transcript_path", **changes):
        """Copy a session file here; return the path of a hook input naming it."""
        source, hook = which[agent]
        path = self.path(os.path.basename(source))
        shutil.copy(source, path)
        with open(hook, encoding="utf-8") as handle:
            value = json.load(handle)
        value[path_key] = path
        value.update(changes)
        return self.write(f"hook-{len(os.listdir(self.dir))}.json", json.dumps(value))

    def hook(self, agent, hook_input, *options, models=None):
        self.fake.default = models or judge(RED_RULES)
        status, out, err = run_cli("hook", agent, "--input", hook_input, "--base-url",
                                   self.fake.base_url, "--model-a", "A", "--model-b", "B",
                                   "--wait", "5", *options)
        return status, (json.loads(out) if out.strip() else None), err

    def records(self):
        if not os.path.isdir(self.receipts):
            return []
        return [read_json(os.path.join(self.receipts, name))
                for name in sorted(os.listdir(self.receipts)) if not name.endswith("state.json")]


class Blocks(HookTest):
    def test_a_contradicted_claim_blocks_with_the_quote(self):
        for agent in ("claude-code", "codex"):
            with self.subTest(agent):
                status, out, err = self.hook(agent, self.session(agent))
                self.assertEqual(status, 0)
                self.assertEqual(out["decision"], "block")
                self.assertIn("Your log contradicts", out["reason"])
                self.assertIn(REJECTED, out["reason"])
                self.assertIn("git push origin fix/parser", out["reason"])
                self.assertIn("blocked the stop", err)

    def test_codex_both_claims_and_both_quotes(self):
        status, out, _ = self.hook("codex", self.session("codex"))
        self.assertIn('"Pushed fix/parser"', out["reason"])
        self.assertIn('"the suite is green"', out["reason"])
        self.assertIn("1 failed, 6 passed in 0.31s", out["reason"])

    def test_each_claim_comes_with_what_to_do_next(self):
        _, out, _ = self.hook("claude-code", self.session("claude-code"))
        self.assertRegex(out["reason"], r'- "I pushed the parser fix to fix/parser": the push '
                                        r'was rejected: pull, then push again\.\n  T\d+ `git '
                                        r'push origin fix/parser` printed: ! \[rejected\]')
        _, out, _ = self.hook("codex", self.session("codex"))
        self.assertIn('"the suite is green": the tests failed: fix them, run them again.',
                      out["reason"])
        # The tests ran, then the agent edited a file: a claim that they pass is not shown.
        claims = self.write("claims.txt", "all 3 tests pass\n")
        _, out, _ = self.hook("gemini-cli", self.session("gemini-cli"), "--claims-from",
                              claims, "--not-shown", "block-once",
                              models=lambda body: answer("not_shown"))
        self.assertIn('"all 3 tests pass": the last test run (`python -m pytest '
                      'tests/test_parser.py -q`) came before your last edit (`replace '
                      '/home/dev/parser/CHANGELOG.md`): run the tests again.', out["reason"])

    def test_receipts_are_saved_and_re_derive(self):
        self.hook("claude-code", self.session("claude-code"))
        records = self.records()
        self.assertEqual(len(records), 1)
        receipt = records[0]
        self.assertEqual((receipt["made_by"], receipt["answer"]), ("hook", "contradicted"))
        self.assertEqual(receipt["hook"]["decision"], "block")
        self.assertEqual(receipt["hook"]["claim"]["text"], "I pushed the parser fix to fix/parser")
        self.assertEqual(receipt["hook"]["claim"]["start"], 0)
        name = [n for n in os.listdir(self.receipts) if not n.endswith("state.json")][0]
        status, out, _ = run_cli("verify", "--receipt", os.path.join(self.receipts, name))
        self.assertEqual(status, 0, out)

    def test_receipts_go_to_the_ledger_too(self):
        ledger = self.path("ledger.jsonl")
        self.hook("codex", self.session("codex"), "--ledger", ledger)
        status, out, _ = run_cli("ledger", "verify", ledger)
        self.assertEqual(status, 0, out)
        status, out, _ = run_cli("ledger", "show", ledger, "--json")
        self.assertEqual(len(json.loads(out)), len(self.records()))

    def test_exit2_protocol(self):
        status, out, err = self.hook("claude-code", self.session("claude-code"),
                                     "--block-with", "exit2")
        self.assertEqual(status, 2)
        self.assertIsNone(out)
        self.assertIn(REJECTED, err)
        self.assertTrue(err.startswith("receipt-pair checked this claim"), err)
        self.assertNotIn("blocked the stop", err)  # the agent reads all of it: the reason only

    def test_receipts_folder_can_be_named(self):
        folder = self.path("elsewhere")
        self.hook("codex", self.session("codex"), "--receipts", folder)
        self.assertEqual(len([n for n in os.listdir(folder) if n.endswith(".json")]), 3)


class Passes(HookTest):
    def test_shown_claims_let_the_agent_stop_silently(self):
        for agent in ("claude-code", "codex"):
            with self.subTest(agent):
                status, out, err = self.hook(agent, self.session(agent, GREEN),
                                             models=judge(GREEN_RULES))
                self.assertEqual((status, out), (0, None))
                self.assertIn("shown", err)
                self.assertIn("the agent may stop", err)

    def test_every_claim_is_asked_and_recorded(self):
        self.hook("claude-code", self.session("claude-code", GREEN), models=judge(GREEN_RULES))
        claims = [CLAIM.search(b["messages"][-1]["content"]).group(1)
                  for b in self.fake.chats("A")]
        self.assertEqual(claims, ["Fixed the empty-input crash in `parse()`", "all 7 tests pass",
                                  "I pushed fix/parser"])
        self.assertEqual([r["answer"] for r in self.records()], ["shown"] * 3)
        self.assertEqual({r["hook"]["decision"] for r in self.records()}, {"allow"})

    def test_a_message_without_claims_asks_nothing(self):
        hook_input = self.session("claude-code", last_assistant_message="Want me to push it?")
        status, out, err = self.hook("claude-code", hook_input, "--wait", "0")
        self.assertEqual((status, out), (0, None))
        self.assertEqual(self.fake.chats(), [])
        self.assertIn("no claims", err)

    def test_claims_can_be_given(self):
        claims = self.write("claims.txt", "the suite is green\n")
        status, out, _ = self.hook("codex", self.session("codex"), "--claims-from", claims)
        self.assertEqual(out["decision"], "block")
        self.assertNotIn("Pushed fix/parser", out["reason"])
        self.assertEqual(self.records()[0]["hook"]["claim"]["source"], "given")


class NotShown(HookTest):
    MESSAGE = "I deployed the parser to staging."

    def stop(self, *options, active=False, folder=None):
        hook_input = self.session("claude-code", last_assistant_message=self.MESSAGE,
                                  stop_hook_active=active)
        # --wait 0: this message is not in the session file, which will never catch up.
        return self.hook("claude-code", hook_input, "--receipts", folder or self.receipts,
                         "--wait", "0", *options)

    def test_block_once_blocks_the_first_stop_of_a_session_only(self):
        status, out, _ = self.stop("--not-shown", "block-once")
        self.assertEqual(out["decision"], "block")
        self.assertIn("Your log does not show 1 claim", out["reason"])
        self.assertIn(self.MESSAGE[:-1], out["reason"])
        # the agent was sent back and stops again
        _, out, _ = self.stop("--not-shown", "block-once", active=True)
        self.assertNotIn("decision", out)
        self.assertIn("already sent back once", out["systemMessage"])
        _, out, _ = self.stop("--not-shown", "block-once")  # a later turn of the same session
        self.assertIn("already told once", out["systemMessage"])

    def test_by_default_a_models_not_shown_is_told_not_blocked(self):
        status, out, _ = self.stop()
        self.assertEqual(status, 0)
        self.assertNotIn("decision", out)
        self.assertIn("does not show", out["systemMessage"])
        self.assertIn("--not-shown block-empty", out["systemMessage"])

    def test_block_blocks_every_turn_but_never_a_continuation(self):
        self.assertEqual(self.stop("--not-shown", "block")[1]["decision"], "block")
        self.assertNotIn("decision", self.stop("--not-shown", "block", active=True)[1])
        self.assertEqual(self.stop("--not-shown", "block")[1]["decision"], "block")

    def test_allow_never_blocks_and_says_so(self):
        status, out, _ = self.stop("--not-shown", "allow")
        self.assertEqual(status, 0)
        self.assertNotIn("decision", out)
        self.assertIn("does not show", out["systemMessage"])

    def test_stop_hook_active_never_blocks_for_not_shown(self):
        for policy in ("block-once", "block", "allow"):
            with self.subTest(policy):
                _, out, _ = self.stop("--not-shown", policy, active=True,
                                      folder=self.path(f"r-{policy}"))
                self.assertNotIn("decision", out or {})


class NeverLoops(HookTest):
    def test_contradicted_blocks_at_most_max_blocks_in_a_row(self):
        decisions = []
        for active in (False, True, True, True):
            _, out, _ = self.hook("codex", self.session("codex", stop_hook_active=active),
                                  "--max-blocks", "2", "--receipts", self.receipts)
            decisions.append(out.get("decision", "allow"))
        self.assertEqual(decisions, ["block", "block", "allow", "allow"])
        _, out, _ = self.hook("codex", self.session("codex"), "--max-blocks", "2",
                              "--receipts", self.receipts)
        self.assertEqual(out["decision"], "block")  # a new turn starts a new count

    def test_a_lost_state_file_cannot_trap(self):
        self.hook("codex", self.session("codex"), "--receipts", self.receipts)
        for name in os.listdir(self.receipts):
            if name.endswith("state.json"):
                with open(os.path.join(self.receipts, name), "w") as handle:
                    handle.write("{torn")
        status, out, _ = self.hook("codex", self.session("codex", stop_hook_active=True),
                                   "--receipts", self.receipts)
        self.assertEqual((status, out["decision"]), (0, "block"))  # counted afresh: 1 of 3


class Lagging(HookTest):
    settle = None  # these sessions reach the disk after the hook starts

    def lagging_session(self, agent, held_back):
        """A session whose last `held_back` lines reach the disk after the hook starts."""
        hook_input = self.session(agent)
        path = read_json(hook_input)["transcript_path"]
        with open(path, encoding="utf-8") as handle:
            lines = handle.readlines()
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(lines[:-held_back])

        def write_the_rest():
            time.sleep(0.15)
            with open(path, "a", encoding="utf-8") as handle:
                handle.write("".join(lines[-held_back:]))

        writer = threading.Thread(target=write_the_rest)
        self.addCleanup(writer.join)
        return hook_input, writer

    def test_the_hook_waits_for_the_push_and_the_final_message(self):
        # Claude Code: the rejected push's result and the final message come late.
        hook_input, writer = self.lagging_session("claude-code", 3)
        writer.start()
        status, out, err = self.hook("claude-code", hook_input, "--wait", "30")
        self.assertEqual(out["decision"], "block", err)
        self.assertIn(REJECTED, out["reason"])
        self.assertNotIn("did not show the final message", err)

    def test_without_the_message_in_the_input_it_is_read_from_the_session(self):
        hook_input, writer = self.lagging_session("codex", 3)
        value = read_json(hook_input)
        del value["last_assistant_message"]
        with open(hook_input, "w") as handle:
            json.dump(value, handle)
        writer.start()
        status, out, err = self.hook("codex", hook_input, "--wait", "30")
        self.assertEqual(out["decision"], "block", err)
        self.assertIn('"Pushed fix/parser"', out["reason"])

    def test_a_session_that_never_catches_up_is_checked_as_it_is(self):
        hook_input = self.session("claude-code", last_assistant_message="I tagged v9.9.9.")
        status, out, err = self.hook("claude-code", hook_input, "--wait", "0")
        self.assertIn("did not show the final message", err)
        self.assertEqual(status, 0)


class CannotCheck(HookTest):
    def test_a_server_that_is_down_blocks_nothing_and_says_so(self):
        for agent in ("claude-code", "codex"):
            with self.subTest(agent):
                status, out, err = run_cli(
                    "hook", agent, "--input", self.session(agent), "--base-url",
                    f"http://127.0.0.1:{closed_port()}/v1", "--wait", "0", "--receipts",
                    self.path(f"down-{agent}"))
                self.assertEqual(status, 0)
                self.assertNotIn("decision", json.loads(out))
                self.assertIn("could not check", json.loads(out)["systemMessage"])
                self.assertIn("could not check", err)
                notes = [read_json(os.path.join(self.path(f"down-{agent}"), n))
                         for n in os.listdir(self.path(f"down-{agent}"))
                         if not n.endswith("state.json")]
                self.assertTrue(notes)
                for note in notes:
                    self.assertEqual(note["schema"], hook_records.NOTE_SCHEMA)
                    self.assertIsNone(note["answer"])
                    self.assertIn("server down", note["hook"]["error"])
                    self.assertEqual(note["hook"]["decision"], "allow")

    def test_a_failed_model_call_blocks_nothing(self):
        hook_input = self.session("claude-code")
        self.fake.script("A", Reply(500, {"error": "model crashed"}))
        status, out, err = self.hook("claude-code", hook_input)
        self.assertEqual(status, 0)
        self.assertNotIn("decision", out)
        self.assertIn("model crashed", out["systemMessage"])
        self.assertIsNotNone(self.records()[0]["models"][0]["error"])

    def test_a_block_also_tells_the_person_what_could_not_be_checked(self):
        claims = self.write("claims.txt", "the suite is green\nI tagged v2\n")
        self.fake.script("A", judge(RED_RULES), Reply(500, {"error": "model crashed"}))
        status, out, _ = self.hook("codex", self.session("codex"), "--claims-from", claims)
        self.assertEqual(out["decision"], "block")
        self.assertIn("could not be checked", out["reason"])
        self.assertIn("model crashed", out["systemMessage"])

    def test_bad_input_lets_the_agent_stop(self):
        for text in ("not json", "[]", '{"stop_hook_active": "yes"}'):
            with self.subTest(text):
                status, out, err = self.hook("claude-code", self.write("bad.json", text))
                self.assertEqual(status, 0)
                self.assertIn("could not check", out["systemMessage"])

    def test_other_events_and_missing_sessions_are_not_checked(self):
        for changes in ({"hook_event_name": "PreToolUse"}, {"transcript_path": None}):
            with self.subTest(changes):
                status, out, _ = self.hook("codex", self.session("codex", **changes))
                self.assertEqual(status, 0)
                self.assertNotIn("decision", out)
                self.assertEqual(self.fake.chats(), [])

    def test_an_unreadable_session_blocks_nothing(self):
        hook_input = self.session("claude-code")
        path = read_json(hook_input)["transcript_path"]
        with open(path, "a") as handle:
            handle.write('["not a record"]\n')
        status, out, _ = self.hook("claude-code", hook_input, "--wait", "0")
        self.assertEqual(status, 0)
        self.assertIn("cannot be read", out["systemMessage"])

    def test_usage_errors_never_exit_2(self):
        for argv in (["hook", "claude-code", "--not-shown", "sometimes"],
                     ["hook", "cline"],  # no stop hook that can send it back
                     ["hook", "codex", "--claims-from", "-"]):
            with self.subTest(argv):
                status, _, _ = run_cli(*argv)
                self.assertEqual(status, 1)



class GeminiCli(HookTest):
    """Gemini CLI's AfterAgent hook: `prompt_response` is the final message, a block is
    `{"decision": "deny", "reason"}` (or exit status 2), `systemMessage` reaches the person
    (docs/agents.md has the source)."""

    def test_a_contradicted_claim_is_denied_with_the_quote(self):
        status, out, err = self.hook("gemini-cli", self.session("gemini-cli"))
        self.assertEqual(status, 0, err)
        self.assertEqual(out["decision"], "deny")
        self.assertIn(REJECTED, out["reason"])
        self.assertIn("git push origin fix/parser", out["reason"])
        self.assertEqual(self.records()[0]["hook"]["agent"], "gemini-cli")
        self.assertEqual(self.records()[0]["hook"]["event"], "AfterAgent")

    def test_shown_claims_let_it_stop_with_an_empty_object(self):
        status, out, err = self.hook("gemini-cli", self.session("gemini-cli", GREEN),
                                     models=judge(GREEN_RULES))
        self.assertEqual((status, out), (0, {}), err)
        self.assertEqual([r["answer"] for r in self.records()], ["shown"] * 2)

    def test_the_final_message_is_read_from_the_session_when_the_input_has_none(self):
        hook_input = self.session("gemini-cli", prompt_response=None)
        status, out, err = self.hook("gemini-cli", hook_input)
        self.assertEqual(out["decision"], "deny", err)
        self.assertNotIn("did not show the final message", err)

    def test_exit2_and_a_continuation(self):
        status, out, err = self.hook("gemini-cli", self.session("gemini-cli"),
                                     "--block-with", "exit2")
        self.assertEqual((status, out), (2, None))
        self.assertIn(REJECTED, err)
        hook_input = self.session("gemini-cli", stop_hook_active=True,
                                  prompt_response="I deployed the parser to staging.")
        status, out, _ = self.hook("gemini-cli", hook_input, "--wait", "0",
                                   "--receipts", self.path("r"), "--not-shown", "block-once")
        self.assertNotIn("decision", out)  # not shown, already sent back: told, not blocked
        self.assertIn("already sent back once", out["systemMessage"])

    def test_other_events_are_not_checked(self):
        status, out, _ = self.hook("gemini-cli", self.session(
            "gemini-cli", hook_event_name="BeforeAgent"))
        self.assertIn("checks AfterAgent, not 'BeforeAgent'", out["systemMessage"])
        self.assertEqual(self.fake.chats(), [])


class NoCommands(HookTest):
    """A session with no tool call whose final message claims work is the very case the
    tool exists for: `not shown`, decided in plain code without asking a model, and held
    against the agent as the not-shown policy says."""

    def stop(self, agent, *options, active=False):
        hook_input = self.session(agent, NO_TOOLS, stop_hook_active=active,
                                  **{MESSAGE_KEY[agent]: NO_TOOLS_MESSAGE})
        return self.hook(agent, hook_input, "--receipts", self.receipts, *options)

    def test_not_shown_and_sent_back_without_asking_a_model(self):
        for agent in NO_TOOLS:
            with self.subTest(agent):
                status, out, err = self.stop(agent)
                self.assertEqual(status, 0, err)
                self.assertEqual(self.fake.chats(), [])
                self.assertEqual(out["decision"], "deny" if agent == "gemini-cli" else "block")
                self.assertIn("Your log does not show 1 claim", out["reason"])
                self.assertIn('"I ran the tests, all pass": your log holds no command at '
                              'all: run the tests', out["reason"])
                self.assertIn("1 not shown; blocked the stop", err)
                self.assertNotIn("could not check", err + json.dumps(out))
                note, = [r for r in self.records() if r["hook"]["agent"] == agent]
                self.assertEqual((note["schema"], note["answer"], note["code"]),
                                 (hook_records.NOTE_SCHEMA, "not shown", "no_commands"))
                self.assertIsNone(note["hook"]["error"])
                self.assertEqual(len(note["log"]["sha256"]), 64)

    def test_the_not_shown_policy_decides(self):
        _, out, _ = self.stop("claude-code", "--not-shown", "allow")
        self.assertNotIn("decision", out)
        self.assertIn("does not show 1 claim", out["systemMessage"])
        _, out, _ = self.stop("codex", active=True)
        self.assertNotIn("decision", out)
        self.assertIn("already sent back once", out["systemMessage"])
        # the default sends an agent back for an empty log once in a session: the stop
        # after the block is its continuation whatever the input says, and a later one
        # (a new turn) is not sent back again
        self.assertEqual(self.stop("gemini-cli")[1]["decision"], "deny")
        _, out, _ = self.stop("gemini-cli")
        self.assertNotIn("decision", out)
        self.assertIn("already sent back once", out["systemMessage"])
        _, out, _ = self.stop("gemini-cli")
        self.assertNotIn("decision", out)
        self.assertIn("already told once (--not-shown block-empty)", out["systemMessage"])

    def test_a_file_that_is_no_session_of_the_agent_is_still_could_not_check(self):
        hook_input = self.session("claude-code", last_assistant_message=NO_TOOLS_MESSAGE)
        with open(read_json(hook_input)["transcript_path"], "w") as handle:
            handle.write("not a session\n")
        status, out, _ = self.hook("claude-code", hook_input, "--wait", "0")
        self.assertEqual(status, 0)
        self.assertNotIn("decision", out)
        self.assertIn("cannot be read", out["systemMessage"])


class NotReadYet(HookTest):
    """Cursor's stop can send the agent back, but its transcripts hold no command output:
    the hook lets the agent stop and says so. Copilot CLI's agentStop reads the session's
    events (test_hooks_agents.py); its input is parsed here with Cursor's."""

    def hook_input(self, agent, **changes):
        with open(UNREAD[agent], encoding="utf-8") as handle:
            value = json.load(handle)
        key = "transcriptPath" if agent == "copilot" else "transcript_path"
        value[key] = self.write(f"{agent}-session.jsonl", '{"role": "user"}\n')
        value.update(changes)
        return self.write(f"hook-{agent}.json", json.dumps(value))

    def test_the_documented_input_is_read_and_the_agent_is_let_stop(self):
        status, out, err = self.hook("cursor", self.hook_input("cursor"))
        self.assertEqual((status, out), (0, {}), err)
        self.assertIn("Cursor's transcripts hold the commands the agent asked for but none "
                      "of their output or exit status, so no claim can be checked", err)
        self.assertEqual(self.fake.chats(), [])

    def test_a_cursor_loop_that_did_not_complete_is_not_checked(self):
        status, out, err = self.hook("cursor", self.hook_input("cursor", status="aborted"))
        self.assertEqual((status, out), (0, {}))
        self.assertIn("ended with status 'aborted'", err)

    def test_what_each_agent_sends_is_parsed_with_its_own_keys(self):
        with open(UNREAD["cursor"], "rb") as handle:
            cursor = parse_hook_input(handle.read(), agent=AGENTS["cursor"])
        self.assertEqual((cursor.event, cursor.session_id, cursor.status,
                          cursor.stop_hook_active), ("stop", "cdefee2d-2727-4b73-bf77-"
                                                     "d9d830f31d2a", "completed", False))
        again = parse_hook_input(b'{"loop_count": 2, "transcript_path": "/t.jsonl"}',
                                 agent=AGENTS["cursor"])
        self.assertTrue(again.stop_hook_active)
        for bad in (b'{"loop_count": -1}', b'{"loop_count": true}', b'{"loop_count": "1"}'):
            with self.subTest(bad), self.assertRaises(InputError):
                parse_hook_input(bad, agent=AGENTS["cursor"])
        with open(UNREAD["copilot"], "rb") as handle:
            copilot = parse_hook_input(handle.read(), agent=AGENTS["copilot"])
        self.assertEqual((copilot.event, copilot.session_id, copilot.cwd),
                         ("agentStop", "01HW2X3Y4Z5A6B7C8D9E0F1G2H", "/home/dev/parser"))
        self.assertEqual(copilot.transcript_path, "/path/to/transcript.jsonl")
        with open(RED["gemini-cli"][1], "rb") as handle:
            gemini = parse_hook_input(handle.read(), agent=AGENTS["gemini-cli"])
        self.assertEqual((gemini.event, gemini.last_assistant_message),
                         ("AfterAgent", "Pushed fix/parser."))

    def test_each_agent_blocks_in_its_own_words(self):
        decision = StopDecision(True, reason="fix it", notice="told")
        self.assertEqual(AGENTS["cursor"].reply(decision), {"followup_message": "fix it"})
        self.assertEqual(AGENTS["copilot"].reply(decision),
                         {"decision": "block", "reason": "fix it"})
        self.assertEqual(AGENTS["gemini-cli"].reply(decision),
                         {"decision": "deny", "reason": "fix it", "systemMessage": "told"})
        self.assertEqual(AGENTS["codex"].reply(StopDecision(False)), None)
        self.assertEqual(AGENTS["cursor"].reply(StopDecision(False, notice="told")), {})

    def test_exit2_only_where_the_agent_documents_it(self):
        for agent in ("cursor", "copilot"):
            with self.subTest(agent):
                status, out, err = self.hook(agent, self.hook_input(agent),
                                             "--block-with", "exit2")
                self.assertEqual((status, out), (1, None))
                self.assertIn("exit status 2", err)

    def test_cursor_is_sent_back_by_a_follow_up_message(self):
        # Were Cursor's session file readable, a contradicted claim would come back as the
        # next user message, and loop_count above 0 would be a continuation.
        readable = dataclasses.replace(AGENTS["cursor"], session_format="codex")
        with mock.patch.dict(AGENTS, {"cursor": readable}):
            outs = []
            for count in (0, 1, 2):
                hook_input = self.session("codex", conversation_id="c1", status="completed",
                                          loop_count=count, hook_event_name="stop")
                claims = self.write("claims.txt", "Pushed fix/parser\n")
                status, out, err = self.hook("cursor", hook_input, "--max-blocks", "2",
                                             "--receipts", self.receipts, "--claims-from",
                                             claims)
                self.assertEqual(status, 0, err)
                outs.append(out)
        self.assertEqual(list(outs[0]), ["followup_message"])
        self.assertIn("the push was rejected: pull, then push again", outs[0]["followup_message"])
        self.assertIn("followup_message", outs[1])
        self.assertEqual(outs[2], {})  # the third in a row is let go; Cursor shows no notice

    def test_an_agent_that_says_nothing_of_continuations_is_counted_by_the_state(self):
        # Copilot CLI's input has no stop_hook_active: were its session file readable, a
        # stop after a block would still count toward --max-blocks.
        readable = dataclasses.replace(AGENTS["copilot"], session_format="codex")
        outs = []
        with mock.patch.dict(AGENTS, {"copilot": readable}):
            for _ in range(4):
                hook_input = self.session("codex", path_key="transcriptPath", sessionId="s1")
                _, out, err = self.hook("copilot", hook_input, "--max-blocks", "2",
                                        "--receipts", self.receipts)
                outs.append((out or {}).get("decision", "allow"))
        self.assertEqual(outs, ["block", "block", "allow", "allow"])


class ContradictedPolicy(HookTest):
    """--contradicted: every contradiction blocks (block, the default), only those plain
    code settled (block-facts), or none (allow); what does not block is told."""

    def setUp(self):
        super().setUp()
        # The facts decide first, as for a user (the suite asks the models alone).
        patcher = mock.patch.dict(os.environ, {"RECEIPT_PAIR_FACTS": "on"})
        patcher.start()
        self.addCleanup(patcher.stop)

    def stop(self, *options):
        return self.hook("claude-code", self.session("claude-code"), "--receipts",
                         self.receipts, *options)

    def test_by_default_the_models_contradiction_blocks(self):
        _, out, _ = self.stop("--models-only")
        self.assertEqual(out["decision"], "block")
        self.assertIn(REJECTED, out["reason"])

    def test_block_facts_blocks_for_the_facts_contradiction(self):
        _, out, _ = self.stop("--contradicted", "block-facts")
        self.assertEqual(out["decision"], "block")
        self.assertIn(REJECTED, out["reason"])
        self.assertEqual([(r["answer"], r["decided_by"]) for r in self.records()],
                         [("contradicted", "facts")])

    def test_block_facts_tells_the_models_contradiction(self):
        status, out, _ = self.stop("--contradicted", "block-facts", "--models-only")
        self.assertEqual(status, 0)
        self.assertNotIn("decision", out)
        self.assertIn("contradicts", out["systemMessage"])
        self.assertIn("--contradicted block-facts", out["systemMessage"])

    def test_allow_never_blocks_for_a_contradiction(self):
        status, out, _ = self.stop("--contradicted", "allow")
        self.assertNotIn("decision", out)
        self.assertIn("--contradicted allow", out["systemMessage"])

    def test_the_policy_goes_into_the_installed_command(self):
        options = dataclasses.replace(HookOptions("claude-code"), contradicted="block-facts")
        self.assertIn("--contradicted block-facts", hook_command(options))
        self.assertNotIn("--contradicted", hook_command(HookOptions("claude-code")))
        only_facts = dataclasses.replace(HookOptions("claude-code"), settings=Settings(
            contradictions="facts"))
        self.assertIn("--contradictions facts", hook_command(only_facts))
        self.assertNotIn("--contradictions", hook_command(HookOptions("claude-code")))


def decisions(outs):
    return [(out or {}).get("decision", "allow") for out in outs]


class NeverTraps(HookTest):
    """Whatever fails, at most --max-blocks blocks in a row; a block whose count cannot be
    recorded does not happen (the agent may stop, and the person is told why)."""

    def stops(self, *options, count=5, **changes):
        """`count` stops of the red Codex session, each after the one before was blocked."""
        outs = []
        for number in range(count):
            status, out, err = self.hook("codex", self.session(
                "codex", stop_hook_active=number > 0, **changes), "--max-blocks", "2",
                *options)
            self.assertEqual(status, 0, err)
            self.assertNotIn("Traceback", err)
            outs.append(out)
        return outs

    def test_a_state_that_cannot_be_saved_never_blocks(self):
        blocker = self.write("a-file", "")
        state_folder = self.path("state-is-a-folder")
        os.makedirs(os.path.join(state_folder, "019c4f10-2a7b-7d31-9e55-1b3c8a0f6e24.state.json"))
        for name, receipts in (("under a file", os.path.join(blocker, "sub")),
                               ("is a file", blocker), ("state path is a folder", state_folder)):
            with self.subTest(name):
                outs = self.stops("--receipts", receipts)
                self.assertEqual(decisions(outs), ["allow"] * 5)
                self.assertIn("could not record", outs[0]["systemMessage"])
                self.assertIn("contradicts", outs[0]["systemMessage"])

    def test_a_state_write_that_fails_never_blocks(self):
        with mock.patch.object(hook_records, "write_json_atomic",
                               side_effect=PermissionError(13, "Permission denied")):
            outs = self.stops("--receipts", self.receipts, count=3)
        self.assertEqual(decisions(outs), ["allow"] * 3)
        self.assertIn("Permission denied", outs[0]["systemMessage"])

    def test_a_state_that_does_not_read_back_never_blocks(self):
        with mock.patch.object(hook_records, "load_state", return_value=HookState()):
            outs = self.stops("--receipts", self.receipts, count=3)
        self.assertEqual(decisions(outs), ["allow"] * 3)

    def test_a_ledger_that_fails_still_counts_the_blocks(self):
        not_a_ledger = self.write("notes.txt", "my notes\n")
        folder = self.path("ledger-folder")
        os.makedirs(folder)
        for name, ledger in (("not a ledger", not_a_ledger), ("a folder", folder),
                             ("standard output", "-"), ("under a file",
                                                        os.path.join(not_a_ledger, "x"))):
            with self.subTest(name):
                outs = self.stops("--receipts", self.path(f"r-{len(os.listdir(self.dir))}"),
                                  "--ledger", ledger)
                self.assertEqual(decisions(outs), ["block", "block", "allow", "allow", "allow"])
                self.assertIn("not saved", outs[0]["systemMessage"])
        with open(not_a_ledger) as handle:
            self.assertEqual(handle.read(), "my notes\n")

    def test_receipts_that_cannot_be_written_but_a_state_that_can(self):
        real_keep = hook_records.keep

        def refuse(directory, path, record, ledger=None):
            raise hook_records.InputError(f"{directory}: cannot save the hook's receipt: full")

        with mock.patch.object(hook_records, "keep", side_effect=refuse):
            outs = self.stops("--receipts", self.receipts, count=4)
        self.assertIs(hook_records.keep, real_keep)
        self.assertEqual(decisions(outs), ["block", "block", "allow", "allow"])
        self.assertIn("not saved", outs[0]["systemMessage"])


HOSTILE_VALUES = [None, True, 0, -1, 1.5, 10 ** 40, [], {}, ["x"], {"a": {"b": {"c": []}}},
                  "", "\x00", "a\x00b", "x" * 100000, "\u202e\x1b[2J", "../../etc/passwd",
                  "/", "/dev/zero", "\ud800x"]


class HostileInput(HookTest):
    """Every field of the hook's input, given hostile values: the hook exits 0 and lets the
    agent stop, with the notice where the value is one it uses; never a traceback."""

    FIELDS = ("session_id", "transcript_path", "cwd", "hook_event_name", "stop_hook_active",
              "last_assistant_message", "agent_id", "agent_transcript_path", "turn_id",
              "model", "permission_mode", "agent_type")

    def run_input(self, text, *options):
        path = self.write("input.json", text)
        status, out, err = run_cli("hook", "codex", "--input", path, "--base-url",
                                   f"http://127.0.0.1:{closed_port()}/v1", "--wait", "0",
                                   *options)
        self.assertEqual(status, 0, err)
        self.assertNotIn("Traceback", err)
        value = json.loads(out) if out.strip() else {}
        self.assertNotIn("decision", value)
        return value, err

    def test_every_field_with_every_hostile_value(self):
        with open(self.session("codex"), encoding="utf-8") as handle:
            base = json.load(handle)
        for field in self.FIELDS:
            for value in HOSTILE_VALUES:
                with self.subTest(field=field, value=repr(value)[:40]):
                    hook = dict(base, **{field: value})
                    text = json.dumps(hook, ensure_ascii=True)
                    out, err = self.run_input(text, "--receipts", self.receipts)
                    self.assertLess(len(err), 20000)
                    self.assertLess(len(out.get("systemMessage", "")), 10000)

    def test_odd_session_paths_are_the_notice(self):
        for path in ["s.jsonl\x00x", "x" * 5000, ("d/" * 3000) + "s.jsonl"] + \
                self.not_session_files():
            with self.subTest(path=path[:40]):
                started = time.monotonic()
                out, _ = self.run_input(json.dumps({
                    "session_id": "s", "transcript_path": path, "hook_event_name": "Stop",
                    "stop_hook_active": False, "last_assistant_message": "I pushed it."}))
                self.assertIn("receipt-pair", out["systemMessage"])
                self.assertLess(time.monotonic() - started, 4)
        # No receipts folder is made beside a path that is not a session file.
        for where in (self.dir, os.getcwd(), "/"):
            self.assertFalse(os.path.exists(os.path.join(where, hook_records.RECEIPTS_FOLDER)),
                             where)

    def test_bytes_that_are_not_a_hook_input(self):
        for data in (b"\xff\xfe", b'{"transcript_path": "\xff"}', b"[" * 100000,
                     b'{"a":' * 50000 + b"1" + b"}" * 50000, b"\x00", b"{}" * 10):
            with self.subTest(data=data[:20]):
                out, _ = self.run_input(data)
                self.assertIn("could not check", out["systemMessage"])


class WritesOnlyWhereTold(HookTest):
    """Issue 32 item 2: the hook creates the receipts folder it was given, or the default
    one beside a session file it read, and never a folder above either; with no readable
    session there is no default folder, and the notice says nothing was saved."""

    def stop(self, transcript_path, *options):
        hook_input = self.write(f"in-{len(os.listdir(self.dir))}.json", json.dumps({
            "session_id": "s1", "transcript_path": transcript_path, "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": "I pushed fix/parser."}))
        status, out, err = run_cli("hook", "claude-code", "--input", hook_input, "--wait",
                                   "0.05", "--base-url", f"http://127.0.0.1:{closed_port()}/v1",
                                   *options)
        self.assertEqual(status, 0, err)
        self.assertNotIn("Traceback", err)
        return json.loads(out) if out.strip() else {}, err

    def tree(self):
        return sorted(os.path.relpath(os.path.join(root, name), self.dir)
                      for root, dirs, files in os.walk(self.dir) for name in dirs)

    def test_a_missing_session_file_makes_no_folder_and_says_so(self):
        before = self.tree()
        not_a_session = self.write("notes.txt", "my notes\n")  # any file the input names
        for missing in (self.path("gone/deeper/session.jsonl"), self.path("session.jsonl"),
                        not_a_session):
            with self.subTest(missing=missing):
                out, _ = self.stop(missing)
                self.assertNotIn("decision", out)
                self.assertIn("could not check", out["systemMessage"])
                self.assertIn("nothing was saved", out["systemMessage"])
                self.assertIn("--receipts DIR", out["systemMessage"])
                self.assertEqual(self.tree(), before)
        # Given --receipts, the note of the stop is kept there, and only that folder made.
        out, _ = self.stop(self.path("gone/session.jsonl"), "--receipts", self.receipts)
        self.assertNotIn("nothing was saved", out["systemMessage"])
        self.assertEqual(self.tree(), sorted(before + ["receipt-pair"]))
        self.assertEqual([r["schema"] for r in self.records()], [hook_records.NOTE_SCHEMA])

    def test_a_session_file_that_was_read_gets_its_folder_beside_it(self):
        session = read_json(self.session("claude-code"))["transcript_path"]
        self.stop(session)
        self.assertEqual(self.tree(), ["receipt-pair"])
        self.assertTrue(self.records())

    def test_never_a_folder_above_the_one_given(self):
        deep = self.path("no/such/receipts")
        session = read_json(self.session("claude-code"))["transcript_path"]
        out, err = self.stop(session, "--receipts", deep)
        self.assertEqual(self.tree(), [])
        self.assertIn("parent folder", err)
        self.assertIn("does not exist", err)
        # the folder named is made when its parent is there
        os.makedirs(self.path("no/such"))
        self.stop(session, "--receipts", deep)
        self.assertIn("no/such/receipts", self.tree())

    def test_files_are_written_into_existing_folders_only(self):
        log = os.path.join(EXAMPLES, "push-ok.json")
        items = self.write("items.jsonl", make_items(1))
        missing, receipt = self.path("missing"), self.path("r.json")
        self.fake.default = judge(GREEN_RULES)
        status, _, err = run_cli("check", "--claim", "c", "--log", log, "--save", receipt,
                                 "--base-url", self.fake.base_url, "--model-a", "A",
                                 "--model-b", "B")  # the honest case: a folder that is there
        self.assertTrue(os.path.isfile(receipt), err)
        for argv in (("check", "--claim", "c", "--log", log, "--save",
                      os.path.join(missing, "r.json")),
                     ("check", "--claim", "c", "--log", log, "--ledger",
                      os.path.join(missing, "ledger.jsonl")),
                     ("batch", items, "--out", os.path.join(missing, "a.jsonl")),
                     ("show", receipt, "--html", os.path.join(missing, "p.html")),
                     ("record", "--log", os.path.join(missing, "run.jsonl"), "--", "true"),
                     ("witness", "pin", "--collect", self.write("c.txt", "t.py::a\n"),
                      "--out", os.path.join(missing, "pin.json"))):
            with self.subTest(argv=argv[:3]):
                status, out, err = run_cli(*argv, *(
                    ("--base-url", self.fake.base_url, "--model-a", "A", "--model-b", "B")
                    if argv[0] in ("check", "batch") else ()))
                self.assertNotEqual(status, 0, out + err)
                self.assertIn(f"its folder {missing} does not exist; create it first", err)
                self.assertFalse(os.path.exists(missing))


class NoToolCallInTheInputOnly(HookTest):
    """A session of the agent with no tool call, whose last message is only in the hook's
    input (the file holds the person's prompt alone): `not shown`, sent back as such
    sessions are (issue 32 item 2); a file that is missing, unreadable or another agent's
    stays could not check."""

    PROMPT_ONLY = {"claude-code": 1, "codex": 5, "gemini-cli": 2}  # the lines before the reply

    def prompt_only(self, agent, lines=None):
        source = NO_TOOLS[agent][0]
        with open(source, encoding="utf-8") as handle:
            kept = handle.read().splitlines()[:lines or self.PROMPT_ONLY[agent]]
        path = self.path(f"{agent}-prompt-only.jsonl")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(kept) + "\n")
        return path

    def stop(self, agent, session):
        hook_input = self.session(agent, NO_TOOLS, **{MESSAGE_KEY[agent]: NO_TOOLS_MESSAGE})
        value = read_json(hook_input)
        value["transcript_path"] = session
        self.write(os.path.basename(hook_input), json.dumps(value))
        return self.hook(agent, hook_input, "--receipts", self.receipts, "--wait", "0.05")

    def test_not_shown_and_sent_back_without_asking_a_model(self):
        for agent in NO_TOOLS:
            with self.subTest(agent):
                status, out, err = self.stop(agent, self.prompt_only(agent))
                self.assertEqual(status, 0, err)
                self.assertEqual(self.fake.chats(), [])
                self.assertEqual(out["decision"], "deny" if agent == "gemini-cli" else "block")
                self.assertIn("your log holds no command at all", out["reason"])
                self.assertNotIn("could not check", err + json.dumps(out))

    def test_a_missing_unreadable_or_foreign_file_stays_could_not_check(self):
        foreign = self.prompt_only("codex")  # a Codex rollout named as Claude Code's
        garbage = self.write("garbage.jsonl", "not a session\n")
        for name, session in (("missing", self.path("nowhere.jsonl")), ("unreadable", garbage),
                              ("another agent's", foreign)):
            with self.subTest(name):
                status, out, err = self.stop("claude-code", session)
                self.assertEqual(status, 0, err)
                self.assertNotIn("decision", out)
                self.assertIn("could not check", out["systemMessage"])


class SplitWithinTheBudget(HookTest):
    def test_the_split_model_counts_against_the_budget(self):
        # --budget 5.5 leaves about 0.5 s for calls (5 s are kept back, and the split model
        # is asked with 0.2 s or more left here); the split model would take 30: its call is
        # bounded by what is left, then the split falls back to plain code.
        self.fake.script("S", Reply(200, {"claims": []}, delay=30))
        started = time.monotonic()
        with mock.patch.object(hook_run, "MIN_SPLIT_SECONDS", 0.2):
            status, out, err = self.hook("codex", self.session("codex"), "--split", "model",
                                         "--split-model", "S", "--budget", "5.5")
        self.assertLess(time.monotonic() - started, 3)
        self.assertEqual(status, 0, err)
        self.assertIn("split in plain code instead", err)
        # No time left at all: the split model is not asked.
        status, out, err = self.hook("codex", self.session("codex"), "--split", "model",
                                     "--split-model", "S", "--budget", "5")
        self.assertIn("no time was left in --budget for the split model", err)
        self.assertEqual(len([c for c in self.fake.chats() if c["model"] == "S"]), 1)


class BlocksBoundedWhateverTheInputSays(HookTest):
    """The state's count bounds the blocks in a row, whether the input carries
    `stop_hook_active` or not, or always says false (issue 32 item 2)."""

    def stops(self, count, **changes):
        outs = []
        for _ in range(count):
            hook_input = self.session("claude-code", **changes)
            if "stop_hook_active" not in changes:
                value = read_json(hook_input)
                del value["stop_hook_active"]
                self.write(os.path.basename(hook_input), json.dumps(value))
            _, out, _ = self.hook("claude-code", hook_input, "--max-blocks", "2",
                                  "--receipts", self.receipts)
            outs.append(out)
        return decisions(outs)

    def test_without_the_flag(self):
        self.assertEqual(self.stops(5), ["block", "block", "allow", "block", "block"])

    def test_with_the_flag_always_false(self):
        self.assertEqual(self.stops(5, stop_hook_active=False),
                         ["block", "block", "allow", "block", "block"])

    def test_a_state_saved_before_the_last_block_was_kept(self):
        hook = parse_hook_input(json.dumps({"session_id": "s1"}).encode())
        os.makedirs(self.receipts)
        for blocks, last in ((2, True), (0, False)):
            with open(hook_records.state_path(self.receipts, hook), "w") as handle:
                json.dump({"schema": hook_records.STATE_SCHEMA, "blocks_in_a_row": blocks,
                           "not_shown_blocked": False}, handle)
            state = hook_records.load_state(self.receipts, hook, HookState)
            self.assertEqual((state.blocks_in_a_row, state.last_blocked), (blocks, last))

    def test_with_the_flag_as_the_agent_sends_it(self):
        outs = []
        for active in (False, True, True, False):
            _, out, _ = self.hook("claude-code",
                                  self.session("claude-code", stop_hook_active=active),
                                  "--max-blocks", "2", "--receipts", self.receipts)
            outs.append(out)
        self.assertEqual(decisions(outs), ["block", "block", "allow", "block"])


class ClaimCap(HookTest):
    def test_thousands_of_claims_check_twelve_and_name_the_rest(self):
        message = "\n".join(f"- Deployed service-{n} to production." for n in range(3000))
        status, out, err = self.hook("codex", self.session(
            "codex", last_assistant_message=message), "--wait", "0",
            "--receipts", self.receipts, models=lambda body: answer("not_shown"))
        self.assertEqual(status, 0, err)
        asked = [CLAIM.search(b["messages"][-1]["content"]).group(1)
                 for b in self.fake.chats("A")]
        self.assertEqual(len(asked), MAX_CLAIMS)
        self.assertEqual(len(self.records()), MAX_CLAIMS)
        said = out.get("systemMessage", "") + out.get("reason", "")
        self.assertIn(f"{3000 - MAX_CLAIMS} more claims were not checked", said)
        self.assertIn("service-12 ", said.replace('"', " "))
        self.assertLess(len(said), 12000)
        self.assertLess(len(err), 20000)

    def test_given_claims_are_capped_too(self):
        claims = self.write("claims.txt", "".join(f"I pushed v{n}\n" for n in range(40)))
        self.hook("codex", self.session("codex"), "--claims-from", claims,
                  "--receipts", self.receipts, models=lambda body: answer("not_shown"))
        self.assertEqual(len(self.fake.chats("A")), MAX_CLAIMS)


class Shapes(HookTest):
    def test_standard_input(self):
        with open(self.session("codex", GREEN), "rb") as handle:
            stdin = io.TextIOWrapper(io.BytesIO(handle.read()))
        self.fake.default = judge(GREEN_RULES)
        with mock.patch.object(sys, "stdin", stdin):
            status, out, _ = run_cli("hook", "codex", "--base-url", self.fake.base_url,
                                     "--model-a", "A", "--model-b", "B")
        self.assertEqual((status, out), (0, ""))

    def test_the_session_file_is_read_once(self):
        # Its turns, the final message, the count of tool calls and the sha256 all come
        # from one read (a file that has caught up is not read again).
        hook_input = self.session("codex", GREEN)
        path = read_json(hook_input)["transcript_path"]
        real_open, opened = open, []

        def counting_open(file, *args, **kwargs):
            if file == path:
                opened.append(args)
            return real_open(file, *args, **kwargs)

        with mock.patch("builtins.open", counting_open):
            status, out, err = self.hook("codex", hook_input, models=judge(GREEN_RULES))
        self.assertEqual((status, out), (0, None), err)
        self.assertEqual(opened, [("rb",)])

    def test_subagent_stop_reads_the_subagents_own_session(self):
        green = self.path("agent.jsonl")
        shutil.copy(GREEN["claude-code"][0], green)
        with open(GREEN["claude-code"][1]) as handle:
            message = json.load(handle)["last_assistant_message"]
        hook_input = self.session("claude-code", hook_event_name="SubagentStop",
                                  agent_id="a1b2", agent_type="general-purpose",
                                  agent_transcript_path=green, last_assistant_message=message)
        status, out, _ = self.hook("claude-code", hook_input, models=judge(GREEN_RULES))
        self.assertEqual((status, out), (0, None))
        self.assertEqual(self.records()[0]["hook"]["agent_id"], "a1b2")
        self.assertEqual(self.records()[0]["hook"]["session_file"], green)

    def test_a_model_may_split_but_only_pieces_of_the_message_are_checked(self):
        self.fake.script("S", json.dumps({"claims": ["the suite is green",
                                                     "I also deployed to prod"]}))
        status, out, err = self.hook("codex", self.session("codex"), "--split", "model",
                                     "--split-model", "S")
        self.assertEqual(out["decision"], "block")
        self.assertNotIn('"Pushed fix/parser"', out["reason"])
        self.assertIn("not in the message", err)
        self.assertEqual(self.records()[0]["hook"]["claim"]["source"], "model")

    def test_a_split_model_that_fails_falls_back_to_plain_code(self):
        self.fake.script("S", Reply(500, {"error": "no such model"}))
        status, out, err = self.hook("codex", self.session("codex"), "--split", "model",
                                     "--split-model", "S")
        self.assertIn("split in plain code instead", err)
        self.assertIn('"Pushed fix/parser"', out["reason"])


class Snippets(TempDirTest):
    def snippet(self, agent, *options, reader=None):
        """The snippet printed with `options`, and RECEIPT_PAIR_READER as `reader` (unset
        by default: the suite sets it for the fake server's replies)."""
        with users_reader(reader):
            status, out, err = run_cli("hook", agent, "--install-snippet", *options)
        self.assertEqual(status, 0)
        return json.loads(out), err

    def test_a_reader_that_cannot_run_makes_no_snippet(self):
        for reader in ("zz", "v1"):  # unknown; retired
            with self.subTest(reader), users_reader(reader):
                status, out, err = run_cli("hook", "codex", "--install-snippet")
            self.assertNotEqual(status, 0)
            self.assertEqual(out, "")
            self.assertIn("reader", err)

    def test_a_reader_from_the_environment_is_carried_into_the_command(self):
        value, _ = self.snippet("codex", reader="v6")
        command = value["hooks"]["Stop"][0]["hooks"][0]["command"]
        self.assertTrue(command.endswith("hook codex --reader v6"), command)

    def test_the_hooks_shape_for_each_agent(self):
        for agent, settings in (("claude-code", "settings.json"), ("codex", "hooks.json")):
            with self.subTest(agent):
                value, where = self.snippet(agent)
                self.assertEqual(list(value), ["hooks"])
                self.assertEqual(sorted(value["hooks"]), ["Stop", "SubagentStop"])
                for event in ("Stop", "SubagentStop"):
                    groups = value["hooks"][event]
                    self.assertEqual(len(groups), 1)
                    self.assertNotIn("matcher", groups[0])
                    handler, = groups[0]["hooks"]
                    self.assertEqual(handler["type"], "command")
                    self.assertEqual(handler["timeout"], 600)
                    self.assertTrue(handler["command"].endswith(f"hook {agent}"))
                self.assertIn(settings, where)

    def test_options_given_are_carried_into_the_command(self):
        value, _ = self.snippet("codex", "--base-url", "http://127.0.0.1:18080/v1",
                                "--model-a", "qwen2.5-coder-0.5b", "--not-shown", "allow")
        command = value["hooks"]["Stop"][0]["hooks"][0]["command"]
        self.assertIn("--base-url http://127.0.0.1:18080/v1", command)
        self.assertIn("--model-a qwen2.5-coder-0.5b", command)
        self.assertIn("--not-shown allow", command)
        self.assertNotIn("--model-b", command)

    def test_the_ledger_and_max_turns_given_are_carried_too(self):
        ledger = self.path("ledger.jsonl")
        value, _ = self.snippet("codex", "--ledger", ledger, "--max-turns", "9")
        command = value["hooks"]["Stop"][0]["hooks"][0]["command"]
        self.assertIn(f"--ledger {shlex.quote(os.path.abspath(ledger))}", command)
        self.assertIn("--max-turns 9", command)

    def test_the_command_gives_back_every_option_it_was_made_from(self):
        options = HookOptions(
            "gemini-cli", Settings(model_a="qa", model_b="qb", extra_a={"top_k": 1},
                                   reader="v6", rule="r3", max_turns=9,
                                   base_url="http://127.0.0.1:18080/v1", timeout=30.0,
                                   allow_remote=True),
            not_shown="allow", max_blocks=2, receipts=self.path("r"),
            ledger=self.path("ledger.jsonl"), wait=1.5, budget=60.0, split="model",
            split_model="S", block_with="exit2", claims_from=self.path("claims.txt"))
        for facts in (True, False):
            with self.subTest(facts=facts), mock.patch.dict(os.environ, {}, clear=False):
                os.environ.pop("RECEIPT_PAIR_FACTS", None)  # the agent's own environment
                given = dataclasses.replace(options, settings=options.settings.replace(facts=facts))
                words = shlex.split(hook_command(given))
                args = build_parser().parse_args(words[words.index("hook"):])
                self.assertEqual(hook_options(args), given)

    def test_nothing_given_is_dropped_in_silence(self):
        # --input names one stop's input, and claims from standard input cannot reach an
        # installed hook (standard input carries the agent's JSON): each is refused by name.
        for argv, words in ((("--input", self.write("in.json", "{}")), "--input"),
                            (("--claims-from", "-"), "standard input")):
            with self.subTest(argv=argv):
                status, out, err = run_cli("hook", "codex", "--install-snippet", *argv)
                self.assertEqual((status, out), (1, ""))
                self.assertIn(words, err)
        claims = self.path("claims.txt")
        value, _ = self.snippet("codex", "--claims-from", claims)
        command = value["hooks"]["Stop"][0]["hooks"][0]["command"]
        self.assertIn(f"--claims-from {shlex.quote(os.path.abspath(claims))}", command)

    def test_install_snippet_is_a_pure_function(self):
        self.assertEqual(install_snippet("codex", "x")["hooks"]["Stop"][0]["hooks"][0],
                         {"type": "command", "command": "x", "timeout": 600})

    def test_the_documented_shape_for_each_other_agent(self):
        value, where = self.snippet("gemini-cli")
        handler, = value["hooks"]["AfterAgent"][0]["hooks"]
        self.assertEqual(list(value["hooks"]), ["AfterAgent"])
        self.assertEqual((handler["name"], handler["type"], handler["timeout"]),
                         ("receipt-pair", "command", 600000))  # milliseconds
        self.assertTrue(handler["command"].endswith("hook gemini-cli"))
        self.assertIn("~/.gemini/settings.json", where)
        value, where = self.snippet("cursor", "--max-blocks", "2")
        self.assertEqual(value["version"], 1)
        handler, = value["hooks"]["stop"]
        self.assertEqual((handler["timeout"], handler["loop_limit"]), (600, 2))
        self.assertTrue(handler["command"].endswith("hook cursor --max-blocks 2"))
        self.assertIn("~/.cursor/hooks.json", where)
        self.assertIn("Cursor's transcripts hold the commands the agent asked for but none of "
                      "their output", where)
        value, where = self.snippet("copilot")
        handler, = value["hooks"]["agentStop"]
        self.assertEqual((value["version"], handler["type"], handler["timeoutSec"]),
                         (1, "command", 600))
        self.assertTrue(handler["bash"].endswith("hook copilot"))
        self.assertIn(".github/hooks/", where)

    def test_no_snippet_blocks_by_exit_status_where_the_agent_does_not_document_it(self):
        status, out, err = run_cli("hook", "copilot", "--install-snippet",
                                   "--block-with", "exit2")
        self.assertEqual((status, out), (1, ""))
        self.assertIn("exit status 2", err)
