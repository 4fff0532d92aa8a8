"""The pure parts of the Stop hook: its input, the final message read from a session file
and what can be one, the bounded wait (on a fake clock), and the policy table of `decide`."""

import json
import os
import unittest
from types import SimpleNamespace

from receipt_pair.answers import SHOWN_DRY_RUN, SHOWN_OTHER_TARGET
from receipt_pair.hooks.advice import NO_COMMANDS, next_step
from receipt_pair.hooks.claims import Claim
from receipt_pair.turn import EDIT, Turn
from receipt_pair.errors import InputError
from receipt_pair.check.rules import Quote
from receipt_pair.hooks.session import (SessionFile as Session, same_message, session_file_problem,
                                        wait_for_session)
from receipt_pair.logs.transcripts import read_session
from receipt_pair.hooks.stop import (MAX_CLAIMS, MAX_NOTICE_CHARS, HookState, Outcome,
                                    bounded, decide, parse_hook_input, unrecorded)
from tests.helpers import DATA, TempDirTest

TRANSCRIPTS = os.path.join(DATA, "transcripts")
HOOKS = os.path.join(DATA, "hooks")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def final_message(text, fmt):
    """The agent's last message in a session file, and whether nothing came after it, as
    the one read of the file gives them."""
    session = read_session(text, "session", fmt)
    return session.final_message, session.final_is_last


def tool_calls(text, fmt):
    return read_session(text, "session", fmt).tool_calls


def outcome(answer, text="I pushed it", failed=()):
    """An Outcome whose result says `answer` (None: the claim could not be checked)."""
    if answer is None:
        return Outcome(Claim(text), error="server down: refused")
    shown = [SimpleNamespace(id="T1", cmd="git push")]
    quotes = (Quote("A", "T1", "! [rejected] main -> main"),) if answer != "not shown" else ()
    return Outcome(Claim(text), SimpleNamespace(answer=answer, failed=list(failed),
                                                quotes=quotes, shown=shown))


class Input(unittest.TestCase):
    def test_the_fixtures_of_both_agents(self):
        for name in ("hook-claude-code-stop.json", "hook-codex-stop.json"):
            with self.subTest(name):
                with open(os.path.join(TRANSCRIPTS, name), "rb") as handle:
                    hook = parse_hook_input(handle.read())
                self.assertEqual(hook.event, "Stop")
                self.assertFalse(hook.stop_hook_active)
                self.assertTrue(hook.last_assistant_message)
                self.assertEqual(hook.session_path, hook.transcript_path)

    def test_subagent_stop_prefers_the_subagents_file(self):
        hook = parse_hook_input(json.dumps({
            "session_id": "s", "transcript_path": "/main.jsonl", "hook_event_name":
            "SubagentStop", "agent_id": "a", "agent_transcript_path": "/sub.jsonl"}).encode())
        self.assertEqual((hook.session_path, hook.key), ("/sub.jsonl", "s.a"))

    def test_codex_null_fields(self):
        hook = parse_hook_input(b'{"session_id": "s", "transcript_path": null, '
                                b'"last_assistant_message": null, "stop_hook_active": true}')
        self.assertIsNone(hook.session_path)
        self.assertIsNone(hook.last_assistant_message)
        self.assertTrue(hook.stop_hook_active)

    def test_bad_inputs_are_input_errors(self):
        for data in (b"", b"{", b"[]", b'{"stop_hook_active": 1}', b'{"transcript_path": 3}',
                     b"\xff"):
            with self.subTest(data):
                with self.assertRaises(InputError):
                    parse_hook_input(data)

    def test_paths_that_name_no_file_and_fields_too_long_are_input_errors(self):
        for fields in ({"transcript_path": "s.jsonl\x00x"}, {"agent_transcript_path": "\x00"},
                       {"transcript_path": "x" * 5000}, {"session_id": "s" * 2000},
                       {"agent_id": "a" * 2000}, {"hook_event_name": "S" * 2000},
                       {"cwd": "/" * 5000}, {"last_assistant_message": "x" * 1_000_001}):
            with self.subTest(field=list(fields)[0]):
                with self.assertRaises(InputError) as caught:
                    parse_hook_input(json.dumps(fields).encode())
                self.assertLess(len(str(caught.exception)), 200)
        hook = parse_hook_input(json.dumps({"transcript_path": "/a/s.jsonl",
                                            "last_assistant_message": "x" * 100000}).encode())
        self.assertEqual(hook.transcript_path, "/a/s.jsonl")


class SessionFile(TempDirTest):
    def test_what_cannot_be_a_session_file(self):
        for path in self.not_session_files():
            with self.subTest(path=path[:30]):
                self.assertTrue(session_file_problem(path))
        self.assertIsNone(session_file_problem(self.write("s.jsonl", "{}\n")))
        self.assertIsNone(session_file_problem(self.path("not-yet.jsonl")))


class FinalMessage(unittest.TestCase):
    def test_each_fixture(self):
        cases = [
            (os.path.join(TRANSCRIPTS, "claude-code-session.jsonl"), "claude-code",
             "I pushed the parser fix to fix/parser.", False),  # a tool call came after it
            (os.path.join(HOOKS, "claude-code-green.jsonl"), "claude-code",
             "Fixed the empty-input crash in `parse()`; all 7 tests pass and I pushed "
             "fix/parser.", True),
            (os.path.join(TRANSCRIPTS, "codex-rollout-exec-command.jsonl"), "codex",
             "Pushed fix/parser; the suite is green.", True),
            (os.path.join(HOOKS, "codex-green.jsonl"), "codex",
             "Pushed fix/parser; the suite is green (7 passed).", True),
            # JSON Lines: the last copy of a message wins, a rewound message is gone
            (os.path.join(TRANSCRIPTS, "gemini-cli-session.jsonl"), "gemini-cli",
             "Pushed fix/parser.", True),
            (os.path.join(TRANSCRIPTS, "gemini-cli-legacy-session.json"), "gemini-cli",
             "The fix is in and all tests pass.", True),
            (os.path.join(HOOKS, "gemini-cli-green.jsonl"), "gemini-cli",
             "All 7 tests pass and I pushed fix/parser.", True),
        ]
        for path, fmt, message, last in cases:
            with self.subTest(os.path.basename(path)):
                self.assertEqual(final_message(read(path), fmt), (message, last))

    def test_tool_calls_are_counted_per_format(self):
        for name, fmt, count in (("claude-code-no-tools.jsonl", "claude-code", 0),
                                 ("codex-no-tools.jsonl", "codex", 0),
                                 ("gemini-cli-no-tools.jsonl", "gemini-cli", 0),
                                 ("codex-green.jsonl", "codex", 3),
                                 ("gemini-cli-green.jsonl", "gemini-cli", 3)):
            with self.subTest(name):
                self.assertEqual(tool_calls(read(os.path.join(HOOKS, name)), fmt), count)
        self.assertIsNone(tool_calls("{}", "cursor"))

    def test_a_format_it_cannot_walk_has_no_message(self):
        self.assertEqual(final_message('{"role": "assistant"}\n', "cursor"), (None, False))

    def test_one_message_split_over_lines_is_joined(self):
        lines = [{"type": "assistant", "message": {"id": "m1", "content": [
            {"type": "text", "text": part}]}} for part in ("Pushed main.", "Tests pass.")]
        text = "\n".join(json.dumps(line) for line in lines)
        self.assertEqual(final_message(text, "claude-code"), ("Pushed main.\nTests pass.", True))

    def test_sidechain_words_are_not_the_main_agents(self):
        lines = [{"type": "assistant", "message": {"id": "m1", "content": "Main done."}},
                 {"type": "assistant", "isSidechain": True,
                  "message": {"id": "m2", "content": [{"type": "text", "text": "Sub done."}]}}]
        text = "\n".join(json.dumps(line) for line in lines)
        self.assertEqual(final_message(text, "claude-code")[0], "Main done.")

    def test_nothing_yet_and_torn_lines(self):
        self.assertEqual(final_message("", "codex"), (None, False))
        torn = read(os.path.join(HOOKS, "codex-green.jsonl"))[:-40]
        self.assertEqual(final_message(torn, "codex")[0],
                         "Pushed fix/parser; the suite is green (7 passed).")

    def test_same_message_ignores_whitespace_only(self):
        self.assertTrue(same_message("Pushed  main.\n", "Pushed main."))
        self.assertTrue(same_message("Pushed main.", "Pushed main.\n\nTests pass."))
        self.assertFalse(same_message("Pushed main.", "Pushed dev."))
        self.assertFalse(same_message("Pushed main.", None))


class Wait(TempDirTest):
    def clock(self):
        now = [0.0]
        return (lambda: now[0]), (lambda seconds: now.__setitem__(0, now[0] + seconds)), now

    def test_returns_at_once_when_caught_up(self):
        path = self.write("s.jsonl", read(os.path.join(HOOKS, "codex-green.jsonl")))
        clock, sleep, now = self.clock()
        text, caught_up = wait_for_session(Session(path, "codex"), "Pushed fix/parser; the "
                                           "suite is green (7 passed).", 5, clock=clock,
                                           sleep=sleep)
        self.assertTrue(caught_up)
        self.assertEqual(now[0], 0.0)

    def test_with_the_message_in_hand_a_file_that_settles_is_not_waited_for(self):
        # A sub-agent's file may never show the final message the input carries: once the
        # file stops changing, the hook reads what there is instead of waiting it out.
        path = self.write("s.jsonl", read(os.path.join(HOOKS, "codex-green.jsonl")))
        clock, sleep, now = self.clock()
        log, caught_up = wait_for_session(Session(path, "codex"), "Something else.", 30,
                                          clock=clock, sleep=sleep)
        self.assertFalse(caught_up)
        self.assertEqual(log.session.final_message,  # what the file held is what was read
                         "Pushed fix/parser; the suite is green (7 passed).")
        self.assertGreaterEqual(now[0], 0.5)
        self.assertLess(now[0], 0.8)

    def test_without_the_message_it_gives_up_after_the_wait(self):
        first = read(os.path.join(HOOKS, "codex-green.jsonl")).split("\n", 1)[0]
        path = self.write("s.jsonl", first + "\n")  # the session's start, no message yet
        clock, sleep, now = self.clock()
        text, caught_up = wait_for_session(Session(path, "codex"), None, 2, clock=clock,
                                           sleep=sleep)
        self.assertFalse(caught_up)
        self.assertGreaterEqual(now[0], 2.0)
        self.assertLess(now[0], 2.2)

    def test_a_file_that_does_not_exist_yet(self):
        clock, sleep, _ = self.clock()
        self.assertEqual(wait_for_session(Session(self.path("none.jsonl"), "codex"), None,
                                          1, clock=clock, sleep=sleep), (None, False))

    def test_the_file_appears_while_waiting(self):
        path = self.path("late.jsonl")
        content = read(os.path.join(HOOKS, "claude-code-green.jsonl"))
        clock, tick, now = self.clock()

        def sleep(seconds):
            tick(seconds)
            if now[0] >= 0.5 and not os.path.exists(path):
                self.write("late.jsonl", content)

        text, caught_up = wait_for_session(Session(path, "claude-code"), None, 5,
                                           clock=clock, sleep=sleep)
        self.assertTrue(caught_up)
        self.assertLess(now[0], 1.0)


class Policy(unittest.TestCase):
    def test_the_table(self):
        # (answers, stop_hook_active, policy, state before) -> blocked for
        cases = [
            (["shown"], False, "block-once", HookState(), []),
            (["contradicted"], False, "block-once", HookState(), ["contradicted"]),
            (["contradicted"], True, "block-once", HookState(2, False), ["contradicted"]),
            (["contradicted"], True, "block-once", HookState(3, False), []),
            (["contradicted"], False, "block-once", HookState(3, False), ["contradicted"]),
            (["not shown"], False, "block-once", HookState(), ["not shown"]),
            (["not shown"], False, "block-once", HookState(0, True), []),
            (["not shown"], False, "block", HookState(0, True), ["not shown"]),
            (["not shown"], False, "allow", HookState(), []),
            (["not shown"], True, "block", HookState(), []),
            (["not shown"], True, "block-once", HookState(), []),
            ([None], False, "block", HookState(), []),
            (["contradicted", None, "not shown"], False, "block-once", HookState(),
             ["contradicted", "not shown"]),
        ]
        for answers, active, policy, state, blocked_for in cases:
            with self.subTest(answers=answers, active=active, policy=policy, state=state):
                decision = decide([outcome(a) for a in answers], active, policy, 3, state)
                self.assertEqual(decision.blocked_for, blocked_for)
                self.assertEqual(decision.block, bool(blocked_for))
                self.assertEqual(bool(decision.reason), bool(blocked_for))

    def test_a_failed_model_is_could_not_check(self):
        failed = outcome("contradicted", failed=[SimpleNamespace(arm="B", error="timed out")])
        decision = decide([failed], False)
        self.assertFalse(decision.block)
        self.assertIn("timed out", decision.notice)

    def test_the_state_it_leaves(self):
        self.assertEqual(decide([outcome("contradicted")], True, state=HookState(1)).state,
                         HookState(2, False, last_blocked=True))
        self.assertEqual(decide([outcome("shown")], True, state=HookState(2)).state,
                         HookState(0, False))
        capped = decide([outcome("contradicted")], True, state=HookState(3))
        self.assertEqual(capped.state.blocks_in_a_row, 3)  # stays let stop
        self.assertIn("let stop", capped.notice)
        self.assertTrue(decide([outcome("not shown")], False,
                               "block-once").state.not_shown_blocked)
        # the default holds a model's not shown against no one: nothing to remember
        self.assertFalse(decide([outcome("not shown")], False).state.not_shown_blocked)

    def test_a_stop_after_a_block_is_its_continuation_whatever_the_input_says(self):
        contradicted = [outcome("contradicted")]
        state = HookState()
        for number in range(1, 4):  # the input never says it continues
            state = decide(contradicted, False, max_blocks=2, state=state).state
            self.assertEqual((state.blocks_in_a_row, state.last_blocked),
                             ((1, True), (2, True), (2, False))[number - 1])
        # let stop: the next stop that does not say it continues is a new turn
        self.assertTrue(decide(contradicted, False, max_blocks=2, state=state).block)
        self.assertFalse(decide(contradicted, True, max_blocks=2, state=state).block)

    def test_the_reason_lists_claims_and_quotes(self):
        decision = decide([outcome("contradicted", "I pushed main"),
                           outcome("not shown", "the tests pass"), outcome(None, "I tagged")],
                          False, "block-once")
        self.assertIn('- "I pushed main"', decision.reason)
        self.assertIn("T1 `git push` printed:", decision.reason)
        self.assertIn("! [rejected] main -> main", decision.reason)
        self.assertIn('- "the tests pass"', decision.reason)
        self.assertIn("could not be checked", decision.reason)
        self.assertIn("server down", decision.notice)

    def test_the_reason_is_bounded(self):
        many = [outcome("not shown", "I pushed " + "x" * 400 + str(i)) for i in range(40)]
        self.assertLessEqual(len(decide(many, False).reason), 6000)

    def test_unknown_policy(self):
        with self.assertRaises(ValueError):
            decide([], False, "sometimes")

    def test_claims_over_the_cap_are_named_not_held(self):
        over = [Claim(f"I deployed service-{n}") for n in range(MAX_CLAIMS, 3000)]
        decision = decide([outcome("contradicted")], False, not_checked=over)
        self.assertTrue(decision.block)
        for text in (decision.notice, decision.reason):
            self.assertIn(f"{len(over)} more claims were not checked", text)
            self.assertIn('"I deployed service-12"', text)
            self.assertIn(f"and {len(over) - 20} more", text)
            self.assertNotIn("service-40", text)
        self.assertIn("Not held against you", decision.reason)
        self.assertFalse(decide([outcome("shown")], False, not_checked=over).block)

    def test_a_block_that_cannot_be_recorded_becomes_a_notice(self):
        decision = decide([outcome("contradicted", "I pushed main")], True,
                          state=HookState(1))
        self.assertTrue(decision.block)
        opened = unrecorded(decision, "x.state.json: Permission denied")
        self.assertFalse(opened.block)
        self.assertEqual(opened.reason, "")
        self.assertIn("could not record a block (x.state.json: Permission denied)",
                      opened.notice)
        self.assertIn("! [rejected] main -> main", opened.notice)
        allowed = decide([outcome("shown")], False)
        self.assertIs(unrecorded(allowed, "any"), allowed)

    def test_bounded(self):
        self.assertEqual(bounded("short"), "short")
        long = bounded("x" * 100000)
        self.assertLessEqual(len(long), MAX_NOTICE_CHARS)
        self.assertTrue(long.endswith("[... the rest left out ...]"))


def checked(quotes=(), codes=()):
    """A pair's result holding these deciding quotes and these reason codes."""
    return SimpleNamespace(quotes=[Quote("A", "T1", q) for q in quotes],
                           models=[SimpleNamespace(checked=SimpleNamespace(code=c))
                                   for c in codes])


class NextStep(unittest.TestCase):
    """The line that tells the agent what to do, picked in plain code from what was found."""

    def test_the_table(self):
        ran = Turn("python -m pytest -q", "7 passed in 0.29s")
        edited = Turn("Edit src/parser.py", "The file src/parser.py has been updated.",
                      kind=EDIT)
        cases = [
            ("I pushed fix/parser", "contradicted",
             checked([" ! [rejected]        fix/parser -> fix/parser (non-fast-forward)"]), (),
             None, "the push was rejected: pull, then push again"),
            ("Pushed to main", "contradicted",
             checked([" ! [remote rejected] main -> main (protected branch hook declined)"]),
             (), None, "the branch is protected: push to another branch and open a pull "
                       "request, or tell the user it is not pushed"),
            ("I pushed main", "contradicted",
             checked(["fatal: unable to access 'https://x/': The requested URL returned "
                      "error: 403"]), (), None,
             "the push was refused access: tell the user, who must fix the access"),
            ("all 7 tests pass", "contradicted", checked(["1 failed, 6 passed in 0.31s"]), (),
             None, "the tests failed: fix them, run them again"),
            ("the build compiles cleanly", "contradicted", checked(["error[E0308]: x"]), (),
             None, "the build failed: fix the errors, build again"),
            ("Deployed to staging", "contradicted", checked(["Error: rollout failed"]), (),
             None, "the deploy failed: fix what that line says, deploy again"),
            ("I ran the tests, all pass.", "not shown", None, (), NO_COMMANDS,
             "your log holds no command at all: run the tests, so that the log shows the "
             "result, or tell the user it was not done"),
            ("the tests pass", "not shown", checked(), (ran, edited), None,
             "the last test run (`python -m pytest -q`) came before your last edit (`Edit "
             "src/parser.py`): run the tests again"),
            ("the tests pass", "not shown", checked(), (edited, ran), None,
             "no line of the last test run shows it: run the tests again and read what they "
             "print"),
            ("the tests pass", "not shown", checked(), (Turn("ls", "a.py"),), None,
             "your log has no test run: run the tests"),
            ("I pushed main", "not shown", checked(), (ran,), None,
             "your log has no git push: push, or tell the user it is not pushed"),
            ("I pushed main", "not shown", checked(codes=["model_not_shown", SHOWN_DRY_RUN]),
             (Turn("git push -n origin main", "To x\n   1a..2b  main -> main"),), None,
             "that was a dry run: run it for real"),
            ("I deployed to prod", "not shown", checked(codes=[SHOWN_OTHER_TARGET]), (), None,
             "that went to another branch or place than you said: do it where you said, or "
             "tell the user where it went"),
            ("I sent the invoice", "not shown", checked(), (ran,), None,
             "no output line shows it: do it, so that the log shows the result, or tell the "
             "user it is not done"),
        ]
        for claim, answer, result, turns, why, expected in cases:
            with self.subTest(claim=claim, answer=answer, why=why):
                self.assertEqual(next_step(claim, answer, result, turns, why), expected)

    def test_the_reason_gives_each_claim_its_line(self):
        held = outcome("contradicted", "I pushed main")
        held.advice = "the push was rejected: pull, then push again"
        unbacked = outcome("not shown", "the tests pass")
        unbacked.advice = "your log has no test run: run the tests"
        reason = decide([held, unbacked], False, "block-once").reason
        self.assertIn('- "I pushed main": the push was rejected: pull, then push again.\n'
                      '  T1 `git push` printed: ! [rejected] main -> main', reason)
        self.assertIn('- "the tests pass": your log has no test run: run the tests.', reason)


if __name__ == "__main__":
    unittest.main()
