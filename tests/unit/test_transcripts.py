"""Readers for agent session files: golden turns, detection, partial and bad files, fuzzing.

The fixtures under tests/data/transcripts follow the real on-disk shapes described, with
sources, in docs/formats.md. A fixture's name starts with its format; its golden turns sit
beside it as NAME.expected.json.
"""

import ast
import glob
import json
import os
import random
import shutil
import tempfile
import unittest

from receipt_pair.errors import InputError
from receipt_pair.store.files import decode
from receipt_pair.logs import Turn
from receipt_pair.logs.transcripts import FORMATS, detect, github_actions, read_transcript

from tests.helpers import DATA, ROOT, EXAMPLES, STDLIB, parsed

HERE = os.path.join(DATA, "transcripts")
BAD = os.path.join(HERE, "bad")
PACKAGE = os.path.join(ROOT, "receipt_pair", "logs", "transcripts")


def _fixtures():
    names = []
    for path in sorted(glob.glob(os.path.join(HERE, "*"))):
        name = os.path.basename(path)
        if os.path.isdir(path) or ".expected." in name or name.startswith("hook-") or \
                name in ("bad.json", "SOURCES.md"):
            continue
        names.append(name)
    return names


def _format_of(name):
    """The format a fixture's name starts with (the longest match)."""
    return max((f for f in FORMATS if name.startswith(f)), key=len)


def _text(path):
    with open(path, "rb") as handle:
        return decode(handle.read(), os.path.basename(path))


def _as_dicts(turns):
    """Turns as their JSON form: a turn's kind and an unfinished command are golden too."""
    return [t.to_json() for t in turns]


def _expected(name):
    with open(os.path.join(HERE, name.rsplit(".", 1)[0] + ".expected.json")) as handle:
        return json.load(handle)


FIXTURES = _fixtures()

# Words only the agents themselves say in the fixtures: they must never become output.
AGENT_WORDS = (
    "I pushed the parser fix", "I'll read the parser first", "Fixed the crash; all tests pass",
    "Inspecting the parser", "Pushed fix/parser; the suite is green", "The fix is in and all",
    "I'll look at the parser first", "Check how empty text is split", "Pushed fix/parser.",
    "The tests pass, so push the branch", "All tests pass.", "All done! The parser",
    "Pushed fix/parser and the tests pass", "Running the parser tests first", "THOUGHT:",
    "DISCUSSION", "Let me look at the parser",
)
# Headers that state an exit status are taken off; the number is in exit_status.
STATUS_HEADERS = ("Exit code ", "Process exited with code", "Exit Code:",
                  "##[error]Process completed with exit code", "<returncode>",
                  "<exited with exit code", "<system>")


class GoldenTurns(unittest.TestCase):
    def test_every_fixture_gives_its_golden_turns(self):
        self.assertGreaterEqual(len(FIXTURES), 19)
        for name in FIXTURES:
            with self.subTest(fixture=name):
                turns = read_transcript(_text(os.path.join(HERE, name)), name, _format_of(name))
                self.assertEqual(_as_dicts(turns), _expected(name))

    def test_every_format_has_a_fixture_with_a_passing_and_a_failing_command(self):
        for fmt in FORMATS:
            with self.subTest(format=fmt):
                names = [n for n in FIXTURES if _format_of(n) == fmt]
                self.assertTrue(names, f"no fixture for {fmt}")
                turns = [t for n in names for t in _expected(n)]
                self.assertTrue(any("3 passed" in t["output"] for t in turns))
                self.assertTrue(any("1 failed" in t["output"] or "[rejected]" in t["output"]
                                    for t in turns))

    def test_agent_words_never_become_output_or_commands(self):
        for name in FIXTURES:
            for turn in _expected(name):
                for words in AGENT_WORDS:
                    with self.subTest(fixture=name, words=words):
                        self.assertNotIn(words, turn["output"])
                        self.assertNotIn(words, turn["cmd"])

    def test_status_headers_are_taken_off_and_kept_as_numbers(self):
        statuses = set()
        for name in FIXTURES:
            for turn in _expected(name):
                statuses.add(turn["exit_status"])
                for header in STATUS_HEADERS:
                    with self.subTest(fixture=name, header=header):
                        self.assertNotIn(header, turn["output"])
        self.assertLessEqual({None, 0, 1}, statuses)

    def test_windows_line_ends_read_the_same(self):
        for name in FIXTURES:
            with self.subTest(fixture=name):
                text = _text(os.path.join(HERE, name)).replace("\r\n", "\n")
                crlf = text.replace("\n", "\r\n")
                if name.endswith(".jsonl") or name.endswith(".txt"):
                    turns = read_transcript(crlf, name, _format_of(name))
                    self.assertEqual(_as_dicts(turns), _expected(name))


class Detection(unittest.TestCase):
    def test_each_fixture_is_told_from_its_content(self):
        for name in FIXTURES:
            with self.subTest(fixture=name):
                self.assertEqual(detect(_text(os.path.join(HERE, name))), _format_of(name))

    def test_plain_turns_logs_are_never_taken_for_an_agent_format(self):
        plain = [
            '[{"cmd": "git push", "output": "ok"}]',
            '[{"cmd": "make", "output": "built", "exit_status": 0}, {"output": "done"}]',
            '{"turns": [{"cmd": "ls", "output": "a.txt"}]}',
            '{"cmd": "make", "output": "built"}\n{"cmd": "make test", "output": "3 passed"}\n',
            '{"cmd": "make", "output": "built"}\n',
            "[]", "{}", "[INFO] starting\n", "plain words\n", "", "\n\n",
            '<?xml version="1.0"?><testsuite name="t"><testcase name="a"/></testsuite>',
            '{"type": "user", "cmd": "ls", "output": "x"}\n',
            "2026-03-02T18:00:00.0000000Z Current runner version: '2.328.0'\n",
        ]
        for text in plain:
            with self.subTest(text=text[:40]):
                self.assertIsNone(detect(text))

    def test_the_projects_own_logs_and_examples_are_not_agent_formats(self):
        paths = sorted(glob.glob(os.path.join(DATA, "logs", "*")) +
                       glob.glob(os.path.join(EXAMPLES, "*.json")) +
                       glob.glob(os.path.join(EXAMPLES, "*.jsonl")))
        self.assertGreater(len(paths), 10)
        for path in paths:
            with self.subTest(path=os.path.relpath(path, ROOT)):
                self.assertIsNone(detect(_text(path)))

    def test_stop_hook_input_is_not_a_transcript(self):
        for name in ("hook-claude-code-stop.json", "hook-codex-stop.json"):
            with self.subTest(hook=name):
                self.assertIsNone(detect(_text(os.path.join(HERE, name))))


class StopHookInput(unittest.TestCase):
    def _load(self, name):
        return json.loads(_text(os.path.join(HERE, name)))

    def test_claude_code_stop_hook_fields(self):
        hook = self._load("hook-claude-code-stop.json")
        required = {"session_id", "transcript_path", "cwd", "hook_event_name", "stop_hook_active"}
        optional = {"permission_mode", "last_assistant_message"}
        self.assertLessEqual(required, set(hook))
        self.assertLessEqual(set(hook), required | optional)
        self.assertEqual(hook["hook_event_name"], "Stop")
        self.assertIs(hook["stop_hook_active"], False)
        self.assertTrue(hook["transcript_path"].endswith(hook["session_id"] + ".jsonl"))

    def test_codex_stop_hook_fields_are_exactly_the_schemas(self):
        hook = self._load("hook-codex-stop.json")
        # codex-rs/hooks/schema/generated/stop.command.input.schema.json: all required,
        # no others allowed.
        self.assertEqual(set(hook), {"cwd", "hook_event_name", "last_assistant_message", "model",
                                     "permission_mode", "session_id", "stop_hook_active",
                                     "transcript_path", "turn_id"})
        self.assertEqual(hook["hook_event_name"], "Stop")
        self.assertIn(hook["permission_mode"], ("default", "acceptEdits", "plan", "dontAsk",
                                                "bypassPermissions"))


class PartialAndBadFiles(unittest.TestCase):
    def test_every_bad_file_is_one_clear_error(self):
        with open(os.path.join(HERE, "bad.json")) as handle:
            expected = json.load(handle)
        self.assertEqual(sorted(expected), sorted(os.listdir(BAD)), "each bad file has a message")
        for name, (fmt, message) in sorted(expected.items()):
            with self.subTest(bad=name):
                with self.assertRaises(InputError) as caught:
                    read_transcript(_text(os.path.join(BAD, name)), name, fmt)
                self.assertIn(message, str(caught.exception))
                self.assertNotIn("\n", str(caught.exception))

    def test_a_half_written_last_line_is_ignored_but_a_finished_bad_line_is_an_error(self):
        for name in ("claude-code-partial.jsonl", "codex-rollout-partial.jsonl",
                     "gemini-cli-session-partial.jsonl"):
            with self.subTest(partial=name):
                text = _text(os.path.join(HERE, name))
                self.assertFalse(text.endswith("\n"))
                self.assertEqual(_as_dicts(read_transcript(text, name, _format_of(name))),
                                 _expected(name))
                last = text.count("\n") + 1
                with self.assertRaisesRegex(InputError, rf"^{name} line {last} column \d+: not valid JSON"):
                    read_transcript(text + "\n", name, _format_of(name))

    def test_unknown_record_types_are_skipped(self):
        unknown = '{"type": "from-a-later-version", "payload": {"type": "function_call"}, "x": [1]}\n'
        for name in FIXTURES:
            if not name.endswith(".jsonl") or "partial" in name:
                continue
            with self.subTest(fixture=name):
                text = _text(os.path.join(HERE, name))
                turns = read_transcript(unknown + text + unknown, name, _format_of(name))
                self.assertEqual(_as_dicts(turns), _expected(name))

    def test_a_call_without_its_result_is_dropped(self):
        commands = [t["cmd"] for t in _expected("claude-code-session.jsonl")]
        self.assertIn("git status --short",
                      _text(os.path.join(HERE, "claude-code-session.jsonl")))
        self.assertNotIn("git status --short", commands)

    def test_unknown_format_and_empty_file(self):
        with self.assertRaisesRegex(InputError, "^x.jsonl: unknown transcript format 'aider'"):
            read_transcript("{}", "x.jsonl", "aider")
        for fmt in FORMATS:
            with self.subTest(format=fmt):
                with self.assertRaisesRegex(InputError, "^x: the file is empty"):
                    read_transcript("\ufeff \n", "x", fmt)

    def test_claude_code_exit_line_counts_only_on_an_error_result(self):
        def session(is_error):
            use = {"type": "assistant", "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat notes"}}]}}
            result = {"type": "user", "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "Exit code 3\nnotes",
                 "is_error": is_error}]}}
            return json.dumps(use) + "\n" + json.dumps(result) + "\n"
        self.assertEqual(read_transcript(session(True), "s", "claude-code"),
                         [Turn("cat notes", "notes", 3)])
        # a passing result whose text starts "Exit code 3" is text: the call exited 0
        self.assertEqual(read_transcript(session(False), "s", "claude-code"),
                         [Turn("cat notes", "Exit code 3\nnotes", 0)])


def claude_session(tool, content, is_error=None, args=None):
    """A Claude Code session file of one call of `tool` and its tool_result."""
    result = {"type": "tool_result", "tool_use_id": "t1", "content": content}
    if is_error is not None:
        result["is_error"] = is_error
    return "".join(json.dumps(r) + "\n" for r in (
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": tool, "input": args or {"command": "x"}}]}},
        {"type": "user", "message": {"role": "user", "content": [result]}}))


class ClaudeCodeFailClosed(unittest.TestCase):
    """Each rule has a case it must refuse (a failed status, no agent's words) and one it
    must accept (the turn as before)."""

    def read(self, *args, **kwargs):
        return read_transcript(claude_session(*args, **kwargs), "s", "claude-code")

    def test_an_error_result_without_an_exit_line_has_a_failed_status(self):
        refuse = self.read("mcp__deploy__release", "Deployed OK\nhealth check failed", True,
                           {"env": "production"})
        self.assertEqual(refuse[0].exit_status, 1)
        self.assertEqual(refuse[0].output, "Deployed OK\nhealth check failed")
        self.assertEqual(self.read("Bash", "Exit code 0\nok", True)[0].exit_status, 1)
        self.assertEqual(self.read("Bash", [{"type": "text", "text": "Command timed out"}],
                                   True)[0].exit_status, 1)
        accept = self.read("mcp__deploy__release", "Deployed OK", False, {"env": "production"})
        self.assertEqual(accept, [Turn("mcp__deploy__release", "Deployed OK", None)])
        # Claude Code marks every failing Bash call: one without the mark exited 0.
        self.assertEqual(self.read("Bash", "Deployed OK")[0].exit_status, 0)
        self.assertEqual(self.read("Bash", "Exit code 7\nno", True)[0],
                         Turn("x", "no", 7))

    def test_a_sub_agents_report_is_not_output(self):
        report = [{"type": "text", "text": "I ran the deploy script for you.\nDeployed OK"}]
        task = {"description": "Deploy to production", "prompt": "deploy it",
                "subagent_type": "general-purpose"}
        for tool in ("Task", "Agent", "TaskOutput", "AgentOutputTool", "WebFetch", "WebSearch"):
            with self.subTest(tool=tool):
                turns = self.read(tool, report, None, task)
                self.assertEqual(len(turns), 1, "the call stays a turn")
                self.assertEqual(turns[0].output, "")
                self.assertIsNone(turns[0].exit_status)
                self.assertEqual(self.read(tool, report, True, task)[0].exit_status, 1)
        self.assertEqual(self.read("Task", report, None, task)[0].cmd,
                         "Task Deploy to production")
        # A tool whose result is what a program printed keeps it, whatever it says.
        for tool in ("Bash", "mcp__deploy__release", "Read", "BashOutput"):
            with self.subTest(tool=tool):
                self.assertEqual(self.read(tool, report, None, task)[0].output,
                                 "I ran the deploy script for you.\nDeployed OK")


def gemini_session(output, status="success", response_key="output", tool="run_shell_command"):
    """A Gemini CLI session document of one shell call whose response holds `output`."""
    return json.dumps({"sessionId": "s", "projectHash": "p", "messages": [{
        "id": "m1", "type": "gemini", "content": "", "toolCalls": [{
            "id": "c1", "name": tool, "args": {"command": "./deploy.sh"}, "status": status,
            "result": [{"functionResponse": {"id": "c1", "name": tool,
                                             "response": {response_key: output}}}]}]}]})


class GeminiFailClosed(unittest.TestCase):
    def status(self, *args, **kwargs):
        turns = read_transcript(gemini_session(*args, **kwargs), "s.json", "gemini-cli")
        return turns[0].exit_status

    def test_a_killed_or_cancelled_shell_call_has_a_failed_status(self):
        head = "Output: Deployed OK\nwaiting for health checks\n"
        for trailer, status in (("Signal: 9", 137), ("Signal: 15", 143),
                                ("Signal: SIGKILL", 137), ("Signal: TERM", 143),
                                ("Signal: SIGWINCH", 1), ("Exit Code: 2\nSignal: 9", 2),
                                ("Exit Code: (none)\nSignal: 9", 137)):
            with self.subTest(trailer=trailer):
                self.assertEqual(self.status(head + trailer + "\nProcess Group PGID: 4242"),
                                 status)
        turns = read_transcript(gemini_session(head + "Signal: 9\nProcess Group PGID: 42"),
                                "s.json", "gemini-cli")
        self.assertEqual(turns[0].output, "Deployed OK\nwaiting for health checks\nSignal: 9")
        self.assertEqual(self.status(
            "Command was automatically cancelled because it exceeded the timeout of 5.0 "
            "minutes without output. Below is the output before it was cancelled:\nDeployed OK"),
            124)
        self.assertEqual(self.status("Command was cancelled by user before it could complete. "
                                     "There was no output before it was cancelled."), 130)

    def test_a_call_recorded_as_failed_has_a_failed_status(self):
        self.assertEqual(self.status("Output: Deployed OK\nProcess Group PGID: 7", "error"), 1)
        self.assertEqual(self.status("Output: Deployed OK\nProcess Group PGID: 7", "cancelled"),
                         130)
        self.assertEqual(self.status("Output: ok\nExit Code: 3\nProcess Group PGID: 7",
                                     "error"), 3)
        self.assertEqual(self.status("Failed to edit, could not find the string to replace.",
                                     "error", "error", tool="replace"), 1)
        self.assertEqual(self.status("spawn ENOENT", "success", "error"), 1)
        checkpoint = json.dumps([
            {"role": "model", "parts": [{"functionCall": {
                "id": "c1", "name": "write_file", "args": {"file_path": "a.txt"}}}]},
            {"role": "user", "parts": [{"functionResponse": {
                "id": "c1", "name": "write_file", "response": {"error": "permission denied"}}}]}])
        self.assertEqual(read_transcript(checkpoint, "c.json", "gemini-cli")[0].exit_status, 1)

    def test_a_shell_call_that_exited_keeps_its_status(self):
        self.assertIsNone(self.status("Output: Deployed OK\nProcess Group PGID: 4242"))
        self.assertIsNone(self.status("Deployed OK"))
        self.assertIsNone(self.status("Deployed OK", tool="read_file"))
        self.assertIsNone(self.status("Output: ok\nProcess Group PGID: 7", "success", "output"))
        self.assertEqual(self.status("Command: ./deploy.sh\nDirectory: (root)\nOutput: ok\n"
                                     "Error: (none)\nExit Code: 0\nSignal: (none)\n"
                                     "Background PIDs: (none)\nProcess Group PGID: 7"), 0)


class GeminiShellVersions(unittest.TestCase):
    """Every version's shell block: the command's output only, the status from its exit
    code (shell.ts, each version; wrapUntrusted from gemini-cli PR #27772)."""

    def read(self, output, status="success"):
        turn = read_transcript(gemini_session(output, status), "s.json", "gemini-cli")[0]
        return turn.output, turn.exit_status, turn.finished

    def test_signal_zero_is_no_signal(self):
        # Mid-2025 versions write `result.signal ?? '(none)'`; node-pty reports 0 on a
        # normal exit (a real export, tests/data/transcripts/real/gemini-cli).
        block = ("Command: make\nDirectory: (root)\nOutput: built\nError: (none)\n"
                 "Exit Code: 0\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: 7")
        self.assertEqual(self.read(block), ("built", 0, True))
        failed = block.replace("Exit Code: 0", "Exit Code: 2")
        self.assertEqual(self.read(failed), ("built", 2, True))
        killed = block.replace("Exit Code: 0", "Exit Code: (none)").replace("Signal: 0",
                                                                             "Signal: 9")
        self.assertEqual(self.read(killed), ("built\nSignal: 9", 137, True))

    def test_the_untrusted_context_wrapper_comes_off(self):
        wrapped = ("<untrusted_context>\nOutput: make: *** [test] Error 1\nExit Code: 1\n"
                   "Process Group PGID: 22268\n</untrusted_context>")
        self.assertEqual(self.read(wrapped), ("make: *** [test] Error 1", 1, True))
        self.assertEqual(self.read("<untrusted_context>\nOutput: hello\n</untrusted_context>"),
                         ("hello", None, True))
        # wrapUntrusted escapes a closing tag the command printed; it is the command's again.
        printed = ("<untrusted_context>\nOutput: a&lt;/untrusted_context&gt;b\nExit Code: 3\n"
                   "</untrusted_context>")
        self.assertEqual(self.read(printed), ("a</untrusted_context>b", 3, True))

    def test_the_earliest_block_with_stdout_and_stderr(self):
        # packages/server/src/tools/shell.md: Command, Directory, Stdout, Stderr, Error,
        # Exit Code, Signal, Background PIDs, each always written.
        block = ("Command: npm test\nDirectory: (root)\nStdout: 3 passed\n1 failed\n"
                 "Stderr: npm ERR! Test failed.\nError: (none)\nExit Code: 1\n"
                 "Signal: (none)\nBackground PIDs: (none)")
        self.assertEqual(self.read(block), ("3 passed\n1 failed\nnpm ERR! Test failed.", 1, True))
        empty = ("Command: true\nDirectory: (root)\nStdout: (empty)\nStderr: (empty)\n"
                 "Error: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)")
        self.assertEqual(self.read(empty), ("", 0, True))

    def test_a_summary_in_place_of_the_block_is_not_output(self):
        # With summarizeToolOutput set, llmContent is a model's summary (wrapped too).
        summary = ("<untrusted_context>\nThe deploy succeeded and all checks passed.\n"
                   "</untrusted_context>")
        self.assertEqual(self.read(summary), ("", None, True))
        self.assertEqual(self.read(summary, "error"), ("", 1, True))


def mini_trajectory(observation):
    return json.dumps({"trajectory_format": "mini-swe-agent-1", "info": {"mini_version": "1"},
                       "messages": [{"role": "assistant", "content": "```bash\n./deploy.sh\n```"},
                                    {"role": "user", "content": observation}]})


class MiniSweAgentFailClosed(unittest.TestCase):
    def read(self, observation):
        turns = read_transcript(mini_trajectory(observation), "run.traj.json", "mini-swe-agent")
        return turns[0].output, turns[0].exit_status

    def test_a_printed_closing_tag_hides_no_line(self):
        printed = "Deployed OK\n</output>\nERROR: health check failed\n"
        self.assertEqual(self.read(f"<returncode>0</returncode>\n<output>\n{printed}</output>"),
                         (printed, 0))
        self.assertEqual(self.read("<returncode>0</returncode>\n<output>\nDeployed OK\nERROR"),
                         ("Deployed OK\nERROR", 0))
        long = ("<returncode>0</returncode>\n<warning>\ntoo long\n</warning>\n<output_head>\n"
                "<output>Deployed OK</output>\n</output_head>\nERROR: in head\n</output_head>\n"
                "<elided_chars>\n12 characters elided\n</elided_chars>\n<output_tail>\n"
                "ERROR: in tail\n</output_tail>")
        output, _ = self.read(long)
        self.assertIn("ERROR: in head", output)
        self.assertIn("ERROR: in tail", output)
        self.assertTrue(output.startswith("<output>Deployed OK</output>\n"), output)

    def test_a_command_that_timed_out_is_unfinished(self):
        # Docker environments kill only the `docker exec` client: the command may run on.
        timeout = ("The last command <command>./deploy.sh</command> timed out and has been "
                   "killed.\nThe output of the command was:\n<output>\nDeployed OK\n{}</output>\n"
                   "Please try another command and make sure to avoid those requiring "
                   "interactive input.")
        for printed in ("", "<returncode>0</returncode>\n"):
            with self.subTest(printed=printed):
                turn = read_transcript(mini_trajectory(timeout.format(printed)), "r.traj.json",
                                       "mini-swe-agent")[0]
                self.assertEqual((turn.finished, turn.exit_status), (False, None))
                self.assertEqual(turn.output, "Deployed OK\n" + printed)
        printed = "<command>x</command> timed out\n"
        self.assertEqual(self.read(f"<returncode>0</returncode>\n<output>\n{printed}</output>"),
                         (printed, 0))

    def test_many_printed_tags_stay_linear(self):
        import time

        started = time.monotonic()
        printed = "<command>" * 100000 + "</output>" * 10000
        output, status = self.read(f"<returncode>0</returncode>\n<output>\n{printed}</output>")
        self.assertEqual((output, status), (printed, 0))
        self.assertLess(time.monotonic() - started, 5, "quadratic in the printed tags")

    def test_an_observation_without_printed_tags_reads_as_before(self):
        self.assertEqual(self.read("<returncode>1</returncode>\n<output>\nDeployed OK\n</output>"),
                         ("Deployed OK\n", 1))
        self.assertEqual(self.read(
            "<returncode>0</returncode>\n<warning>\ntoo long\n</warning>\n<output_head>\n"
            "first\n</output_head>\n<elided_chars>\n12 characters elided\n</elided_chars>\n"
            "<output_tail>\nlast\n</output_tail>"),
            ("first\n[... 12 characters elided ...]\nlast", 0))


def mini_v2(*messages, fmt="mini-swe-agent-1.1"):
    """A mini-swe-agent 2.x trajectory document of `messages`."""
    return json.dumps({"info": {"mini_version": "2.1.0", "exit_status": "Submitted"},
                       "messages": [{"role": "system", "content": "x"}, *messages],
                       "trajectory_format": fmt})


def mini_call(call_id, command):
    """A 2.x tool-calling assistant message asking for `command`."""
    return {"role": "assistant", "content": "", "tool_calls": [{
        "id": call_id, "type": "function",
        "function": {"name": "bash", "arguments": json.dumps({"command": command})}}],
        "extra": {"actions": [{"command": command, "tool_call_id": call_id}]}}


def mini_result(call_id, content, returncode, raw, **extra):
    """A 2.x tool message as format_toolcall_observation_messages writes it."""
    return {"role": "tool", "tool_call_id": call_id, "content": content,
            "extra": dict({"raw_output": raw, "returncode": returncode,
                           "timestamp": 1760000000.0}, **extra)}


class MiniSweAgentV2(unittest.TestCase):
    """2.x messages (actions_toolcall.py, environments/local.py and docker.py, the configs'
    observation templates): the status from extra.returncode, the output without tags."""

    def read(self, *messages):
        return read_transcript(mini_v2(*messages), "r.traj.json", "mini-swe-agent")

    def test_a_tool_message_in_the_text_template_keeps_its_status(self):
        text = "<returncode>1</returncode>\n<output>\nERROR: health check failed\n</output>"
        turns = self.read(mini_call("c1", "./deploy.sh"),
                          mini_result("c1", text, 1, "ERROR: health check failed\n"))
        self.assertEqual(turns, [Turn("./deploy.sh", "ERROR: health check failed\n", 1)])
        # The same without extra (a template alone): still read from the tags.
        bare = {"role": "tool", "tool_call_id": "c1", "content": text}
        self.assertEqual(self.read(mini_call("c1", "./deploy.sh"), bare),
                         [Turn("./deploy.sh", "ERROR: health check failed\n", 1)])

    def test_the_tags_never_reach_the_output(self):
        long = ("<returncode>0</returncode>\n<warning>\ntoo long\n</warning>\n<output_head>\n"
                "first\n</output_head>\n<elided_chars>\n12 characters elided\n</elided_chars>\n"
                "<output_tail>\nlast\n</output_tail>")
        swebench = "Deployed OK\n[exit code 0]"  # benchmarks/swebench.yaml's template
        turns = self.read(mini_call("c1", "make"), mini_result("c1", long, 0, "first..last"),
                          mini_call("c2", "./deploy.sh"),
                          mini_result("c2", swebench, 0, "Deployed OK\n"))
        self.assertEqual([(t.output, t.exit_status) for t in turns],
                         [("first..last", 0), ("Deployed OK\n", 0)])
        for turn in turns:
            self.assertNotIn("<", turn.output)
            self.assertNotIn("[exit code", turn.output)

    def test_a_timeout_or_an_action_not_run_is_unfinished(self):
        timeout = ("<exception>An error occurred while executing the command: Command "
                   "'./deploy.sh' timed out after 60 seconds</exception>\n"
                   "<returncode>-1</returncode>\n<output>\nDeployed OK\n</output>")
        turns = self.read(
            mini_call("c1", "./deploy.sh"),
            mini_result("c1", timeout, -1, "Deployed OK\n",
                        exception_info="An error occurred while executing the command: "
                                       "Command './deploy.sh' timed out after 60 seconds",
                        exception_type="TimeoutExpired"),
            mini_call("c2", "npm test"),
            mini_result("c2", "<returncode>-1</returncode>\n<output>\n</output>", -1, "",
                        exception_info="action was not executed"))
        for turn in turns:
            self.assertEqual((turn.finished, turn.exit_status), (False, None), turn.cmd)
        # A return code of -1 the command itself gave (killed by SIGHUP) is a failure.
        killed = self.read(mini_call("c1", "./deploy.sh"),
                           mini_result("c1", "<returncode>-1</returncode>\n<output>\n</output>",
                                       -1, ""))
        self.assertEqual((killed[0].finished, killed[0].exit_status), (True, -1))

    def test_text_based_observations_and_the_exit_message(self):
        text_call = {"role": "assistant",
                     "content": "THOUGHT: deploy.\n\n```mswea_bash_command\n./deploy.sh\n```",
                     "extra": {"actions": [{"command": "./deploy.sh"}]}}
        observation = {"role": "user",
                       "content": "<returncode>2</returncode>\n<output>\nno\n</output>",
                       "extra": {"raw_output": "no\n", "returncode": 2}}
        submit = mini_call("c9", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
        exit_message = {"role": "exit", "content": DEPLOYED,
                        "extra": {"exit_status": "Submitted", "submission": DEPLOYED}}
        turns = self.read(text_call, observation, submit, exit_message)
        self.assertEqual(turns, [Turn("./deploy.sh", "no\n", 2)])

    def test_parallel_tool_calls_pair_by_id(self):
        both = {"role": "assistant", "content": "", "tool_calls": [
            {"id": "a", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": "make"})}},
            {"id": "b", "type": "function",
             "function": {"name": "bash", "arguments": json.dumps({"command": "make test"})}}]}
        turns = self.read(
            both,
            mini_result("b", "<returncode>1</returncode>\n<output>\n1 failed\n</output>", 1,
                        "1 failed\n"),
            mini_result("a", "<returncode>0</returncode>\n<output>\nbuilt\n</output>", 0,
                        "built\n"))
        self.assertEqual(sorted((t.cmd, t.exit_status) for t in turns),
                         [("make", 0), ("make test", 1)])

    def test_a_submission_that_prints_tags_is_not_a_turn(self):
        text = json.dumps({"trajectory_format": "mini-swe-agent-1", "info": {}, "messages": [
            {"role": "assistant", "content": "```bash\n./deploy.sh\n```"},
            {"role": "user", "content": "<returncode>1</returncode>\n<output>\nERROR\n</output>"},
            {"role": "assistant", "content": "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
                                             " && cat summary.txt\n```"},
            {"role": "user", "content": f"<returncode>0</returncode>\n<output>\n{DEPLOYED}\n"
                                        "</output>"}]})
        turns = read_transcript(text, "r.traj.json", "mini-swe-agent")
        self.assertEqual([t.cmd for t in turns], ["./deploy.sh"])


def openhands_v1(answer):
    """A V1 event stream of one terminal action and `answer`, the event answering it."""
    action = {"id": "a1", "source": "agent", "kind": "ActionEvent", "tool_name": "terminal",
              "tool_call_id": "c1", "action": {"kind": "TerminalAction", "command": "./deploy.sh"}}
    return "".join(json.dumps(e) + "\n" for e in (
        action, dict({"id": "o1", "source": "environment", "tool_call_id": "c1"}, **answer)))


class OpenHandsFailClosed(unittest.TestCase):
    def status(self, answer):
        return read_transcript(openhands_v1(answer), "e.jsonl", "openhands")[0].exit_status

    def observation(self, **fields):
        return {"kind": "ObservationEvent", "tool_name": "terminal", "observation": dict(
            {"kind": "TerminalObservation", "content": [{"type": "text", "text": "Deployed OK"}]},
            **fields)}

    def test_an_error_a_timeout_or_a_rejection_has_a_failed_status(self):
        self.assertEqual(self.status(self.observation(is_error=True)), 1)
        self.assertEqual(self.status(self.observation(is_error=True, exit_code=0)), 1)
        self.assertEqual(self.status(self.observation(is_error=True, exit_code=2)), 2)
        self.assertEqual(self.status({"kind": "AgentErrorEvent", "error": "runtime gone"}), 1)
        self.assertEqual(self.status({"kind": "UserRejectObservation",
                                      "rejection_reason": "no"}), 1)
        v0 = json.dumps([{"id": 1, "action": "run", "args": {"command": "./deploy.sh"}},
                         {"id": 2, "cause": 1, "observation": "error", "content": "Deployed OK",
                          "extras": {}}])
        self.assertEqual(read_transcript(v0, "t.json", "openhands")[0].exit_status, 1)

    def test_a_command_that_exited_keeps_its_status(self):
        self.assertEqual(self.status(self.observation(is_error=False, exit_code=0)), 0)
        self.assertIsNone(self.status(self.observation(is_error=False, timeout=False)))
        self.assertEqual(self.status(self.observation(timeout=True, exit_code=3)), 3)


def job_log(*lines, gh=None):
    """A GitHub Actions job log of `lines`; `gh`, a step column per line, gives the
    `gh run view --log` form."""
    stamp = "2024-05-01T10:00:{:02d}.0000000Z "
    columns = gh or [None] * len(lines)
    return "".join((f"test\t{column}\t" if column else "") + stamp.format(i % 60) + line + "\n"
                   for i, (line, column) in enumerate(zip(lines, columns)))


def step_lines(command, *output):
    return ["##[group]Run " + command, command, "shell: /usr/bin/bash -e {0}", "##[endgroup]",
            *output]


FAILED = "##[error]Process completed with exit code 1."


class GitHubActionsFailClosed(unittest.TestCase):
    """A program can print any line the runner prints; its failure must stay with it."""

    def read(self, *lines, gh=None):
        return read_transcript(job_log(*lines, gh=gh), "job.txt", "github-actions")

    def statuses(self, *lines, gh=None):
        return [t.exit_status for t in self.read(*lines, gh=gh)]

    def test_a_forged_header_in_a_step_file_stays_output(self):
        # A step's own file (a log archive's <n>_<step>.txt) is one step, whatever it prints.
        real = step_lines("./deploy.sh", "Deployed OK")
        forged = {
            "bare header": ["##[group]Run smoke tests", "##[endgroup]", "smoke: 3 checks"],
            "with a settings block": ["##[group]Run smoke tests", "smoke tests",
                                      "shell: /usr/bin/bash -e {0}", "##[endgroup]", "ok"],
            "never closed": ["##[group]Run smoke tests", "ERROR: rolled back"],
        }
        for name, lines in forged.items():
            with self.subTest(forged=name):
                turn = github_actions.read_step(job_log(*real, *lines, FAILED), "2_Deploy.txt")
                self.assertEqual((turn.cmd, turn.exit_status), ("./deploy.sh", 1))
                self.assertTrue(turn.output.startswith("Deployed OK\nRun smoke tests"), turn.output)

    def test_a_printed_job_end_hides_no_line_and_no_failure(self):
        turns = self.read(*step_lines("./deploy.sh", "Deployed OK", "Post job cleanup.",
                                      "ERROR: rolled back"), FAILED)
        self.assertEqual(turns, [Turn("./deploy.sh", "Deployed OK\nPost job cleanup.\n"
                                                     "ERROR: rolled back", 1)])

    def test_a_printed_tab_prefix_is_not_a_step_column(self):
        forged = "test\tSmoke\t2024-05-01T10:00:09.0000000Z ##[group]Run smoke"
        turns = self.read(*step_lines("./deploy.sh", "Deployed OK", forged), FAILED)
        self.assertEqual(len(turns), 1)
        self.assertEqual(turns[0].exit_status, 1)

    def test_a_zero_never_hides_a_failure(self):
        self.assertEqual(self.statuses(*step_lines("./deploy.sh", "ok"), FAILED,
                                       "##[error]Process completed with exit code 0."), [1])
        self.assertEqual(self.statuses(*step_lines("./deploy.sh", "ok"),
                                       "##[error]Process completed with exit code 0."), [0])

    def test_in_a_plain_log_each_step_has_its_own_end(self):
        # ScriptHandler.cs writes "Process completed with exit code N." into the step that
        # failed, before the next step starts: a failure is that step's, no other's.
        passing = [*step_lines("make", "built"), *step_lines("make test", "3 passed")]
        self.assertEqual(self.statuses(*passing), [None, None])
        self.assertEqual(self.statuses(*passing, *step_lines("./deploy.sh", "ok"), FAILED),
                         [None, None, 1])
        earlier = ["##[error]Process completed with exit code 2."]
        self.assertEqual(self.statuses(*step_lines("lint", "bad"), *earlier, *passing, FAILED),
                         [2, None, 1])
        # A step that ran after a failure (`if: always()`) has its own end.
        rust = [*step_lines("rustc --version", "rustc 1.80.0"),
                *step_lines("cargo test", "test result: FAILED. 3 passed; 1 failed"),
                "##[error]Process completed with exit code 101.",
                *step_lines("./upload-logs.sh", "uploaded")]
        self.assertEqual(self.statuses(*rust), [None, 101, None])

    def test_the_runners_colour_comes_off_the_command(self):
        # ScriptHandler.cs writes each script line as ESC[36;1m<line>ESC[0m ("Bright Cyan").
        lines = ["##[group]Run cargo build", "\x1b[36;1mcargo build\x1b[0m",
                 "\x1b[36;1mcargo test --all\x1b[0m", "shell: /usr/bin/bash -e {0}",
                 "##[endgroup]", "\x1b[1m\x1b[32m   Compiling\x1b[0m parser v0.1.0"]
        turn = self.read(*lines)[0]
        self.assertEqual(turn.cmd, "cargo build\ncargo test --all")
        self.assertEqual(turn.output, "\x1b[1m\x1b[32m   Compiling\x1b[0m parser v0.1.0",
                         "output is made readable where the models see it, as for every log")

    def test_gh_lines_of_an_unknown_step_are_read_as_a_plain_log(self):
        # gh prints UNKNOWN STEP when the archive lacks the step files (cli/cli#10740).
        lines = [*step_lines("make", "built"), *step_lines("make test", "1 failed"), FAILED]
        turns = self.read(*lines, gh=["UNKNOWN STEP"] * len(lines))
        self.assertEqual([(t.cmd, t.exit_status) for t in turns],
                         [("make", None), ("make test", 1)])

    def test_a_cancelled_or_timed_out_step_has_a_failed_status(self):
        deploy = step_lines("./deploy.sh", "Deployed OK", "waiting for health checks")
        for line, status in (
                ("##[error]The operation was canceled.", 130),
                ("##[error]The job running on runner GitHub Actions 2 has exceeded the maximum "
                 "execution time of 360 minutes.", 124),
                ("##[error]The action has timed out.", 124),
                ("##[error]Unable to find Node version '99' for platform linux.", 1)):
            with self.subTest(line=line):
                self.assertEqual(self.statuses(*deploy, line), [status])
        for line in ("##[warning]Node.js 16 actions are deprecated.", "The operation was canceled.",
                     "Error: The operation was canceled.", "##[notice]timed out after 3 tries"):
            with self.subTest(line=line):
                self.assertEqual(self.read(*deploy, line)[0].exit_status, None)

    def test_the_gh_form_is_told_past_leading_blank_lines(self):
        lines = [*step_lines("./deploy.sh", "Deployed OK"), FAILED]
        text = "\n\n" + job_log(*lines, gh=["Deploy"] * len(lines))
        self.assertEqual(read_transcript(text, "job.txt", "github-actions"),
                         [Turn("./deploy.sh", "Deployed OK", 1)])

    def test_many_steps_and_status_lines_stay_linear(self):
        import time

        started = time.monotonic()
        turns = self.read(*[line for _ in range(10000) for line in step_lines("x")],
                          *[FAILED] * 10000)
        self.assertEqual(len(turns), 10000)
        self.assertEqual((turns[0].exit_status, turns[-1].exit_status), (None, 1))
        printed = self.read(*["##[group]Run x"] * 30000, *[FAILED] * 10000)
        self.assertEqual([t.exit_status for t in printed], [1])
        self.assertLess(time.monotonic() - started, 5, "quadratic in the status lines")

    def test_in_gh_output_the_step_column_keeps_a_failure_with_its_step(self):
        lines = [*step_lines("make test", "3 passed"), *step_lines("./deploy.sh", "Deployed OK"),
                 "##[group]Run smoke tests", "##[endgroup]", FAILED, "Post job cleanup.",
                 "git version 2.51.0"]
        columns = ["Run make test"] * 5 + ["Deploy"] * 8 + ["Post Run actions/checkout@v5"] * 2
        turns = self.read(*lines, gh=columns)
        self.assertEqual([(t.output, t.exit_status) for t in turns],
                         [("3 passed", None), ("Deployed OK\nRun smoke tests", 1)])
        # A step column of its own is one runner step: the failure stays there.
        columns = ["Run make test"] * 5 + ["Deploy"] * 5 + ["Smoke"] * 5
        self.assertEqual([t.exit_status for t in self.read(*lines, gh=columns)], [None, None, 1])

    def test_in_a_plain_log_a_printed_header_is_output_unless_it_is_the_runners(self):
        # A Run header opens a step only when the runner's settings close its group
        # (ScriptHandler.cs: shell:, env:; actions: with:); a bare or unclosed one is what
        # the step printed, and the failure after it is the step's.
        real = step_lines("./deploy.sh", "Deployed OK")
        for name, lines in (("bare header", ["##[group]Run smoke tests", "##[endgroup]",
                                             "smoke: 3 checks"]),
                            ("never closed", ["##[group]Run smoke tests", "ERROR: rolled back"])):
            with self.subTest(forged=name):
                turns = self.read(*real, *lines, FAILED)
                self.assertEqual([(t.cmd, t.exit_status) for t in turns], [("./deploy.sh", 1)])
                self.assertTrue(turns[0].output.startswith("Deployed OK\nRun smoke tests"))
        # A header printed whole, settings and all, cannot be told from the runner's in a
        # plain log (docs/formats.md): it reads as a step of its own.
        whole = ["##[group]Run smoke tests", "smoke tests", "shell: /usr/bin/bash -e {0}",
                 "##[endgroup]", "ok"]
        self.assertEqual(self.statuses(*real, *whole, FAILED), [None, 1])

    def test_a_printed_header_without_the_runners_whole_shape_stays_output(self):
        # ScriptHandler.cs: "##[group]Run <first line>", the script (its first line the
        # header's), "shell: ...", then "env:" or nothing; Handler.cs: an action's reference
        # and "with:" or "env:". A step that prints a header with only some of it keeps
        # its failure (issue 32 item 5).
        real = step_lines("./deploy.sh", "Deploying web")
        header = "##[group]Run ./deploy web production"
        for name, lines in (
                ("shell only", [header, "shell: /usr/bin/bash -e {0}", "##[endgroup]"]),
                ("env only", [header, "env:", "  TARGET: production", "##[endgroup]"]),
                ("with, not an action", [header, "with:", "  target: production",
                                         "##[endgroup]"]),
                ("another script", [header, "echo hi", "shell: /usr/bin/bash -e {0}",
                                    "##[endgroup]"]),
                ("settings then more", [header, "./deploy web production",
                                        "shell: /usr/bin/bash -e {0}", "target: production",
                                        "##[endgroup]"]),
                ("an action with a shell", ["##[group]Run actions/deploy@v1",
                                            "shell: /usr/bin/bash -e {0}", "##[endgroup]"])):
            with self.subTest(printed=name):
                turns = self.read(*real, *lines, "deploy: OK", FAILED)
                self.assertEqual([(t.cmd, t.exit_status) for t in turns], [("./deploy.sh", 1)])
                self.assertIn("Run actions/deploy@v1" if name == "an action with a shell"
                              else "Run ./deploy web production\n", turns[0].output)
        # A header with no timestamp of its own, in a log whose lines have one, is printed.
        text = job_log(*real, "deploy: OK", FAILED)
        text = text.replace("deploy: OK", "deploy: OK\n##[group]Run smoke\nsmoke\n"
                            "shell: /usr/bin/bash -e {0}\n##[endgroup]")
        turns = read_transcript(text, "job.txt", "github-actions")
        self.assertEqual([(t.cmd, t.exit_status) for t in turns], [("./deploy.sh", 1)])

    def test_the_runners_own_headers_still_open_steps(self):
        coloured = ["##[group]Run make test", "\x1b[36;1m\x1b[0m", "\x1b[36;1m  make test\x1b[0m",
                    "\x1b[36;1mmake lint\x1b[0m", "shell: /usr/bin/bash -e {0}", "env:",
                    "  CI: true", "  NOTE: a value", "over two lines", "##[endgroup]", "ok"]
        action = ["##[group]Run actions/upload-artifact@v4", "with:", "  path: dist",
                  "env:", "  CI: true", "##[endgroup]", "uploaded"]
        local = ["##[group]Run ./.github/actions/publish", "with:", "  tag: v1",
                 "##[endgroup]", "published"]
        turns = self.read(*step_lines("./deploy.sh", "ok"), *coloured, *action, *local, FAILED)
        self.assertEqual([(t.cmd, t.exit_status) for t in turns],
                         [("./deploy.sh", None), ("make test\nmake lint", None),
                          ("actions/upload-artifact@v4", None),
                          ("./.github/actions/publish", 1)])


class LogFolders(unittest.TestCase):
    """`--log` may name a folder: an OpenHands session, or a GitHub Actions job's step logs."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, relative, text):
        path = os.path.join(self.tmp, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    def test_step_files_of_a_log_archive_read_as_one_step_each(self):
        from receipt_pair.logs import read_log

        job = os.path.join(self.tmp, "test")
        self.write("test/1_Set up job.txt", job_log("Current runner version: '2.328.0'",
                                                    "Complete job name: test"))
        self.write("test/2_Run make.txt", job_log(*step_lines("make", "built")))
        self.write("test/10_Run tests.txt", job_log(
            *step_lines("./test.sh", "3 passed"), "##[group]Run smoke", "shell: x",
            "##[endgroup]", "1 failed", FAILED))
        self.write("test/3_Run lint.txt", job_log(*step_lines("ruff check", "All checks passed!")))
        self.write("test/11_Post Run actions-checkout@v5.txt", job_log("Post job cleanup.",
                                                                        FAILED))
        self.write("test/0_test.txt", job_log(*step_lines("make", "built"),
                                              *step_lines("./test.sh", "x"), FAILED))
        self.write("test/system.txt", "2024-05-01T10:00:00.0000000Z Requested labels: x\n")
        read = read_log(job)
        self.assertEqual([(t.cmd, t.exit_status) for t in read.turns],
                         [("make", None), ("ruff check", None), ("./test.sh", 1)])
        self.assertIn("Run smoke", read.turns[2].output)
        self.assertEqual(read, read_log(job + os.sep), "the same folder, the same sha256")

    def test_an_openhands_session_folder_is_read_in_event_order(self):
        from receipt_pair.logs import read_log

        # V0 writes sessions/<sid>/events/<id>.json, one event per file (stream.py); in the
        # shell's order 10.json comes before 2.json.
        events = {0: {"id": 0, "source": "user", "action": "message",
                      "args": {"content": "build it"}},
                  1: {"id": 1, "source": "agent", "action": "run", "args": {"command": "make"}},
                  2: {"id": 2, "cause": 1, "observation": "run", "content": "built",
                      "extras": {"metadata": {"exit_code": 0}}},
                  10: {"id": 10, "source": "agent", "action": "run",
                       "args": {"command": "make test"}},
                  11: {"id": 11, "cause": 10, "observation": "run", "content": "1 failed",
                       "extras": {"metadata": {"exit_code": 1}}}}
        for number in range(3, 10):
            events[number] = {"id": number, "observation": "agent_state_changed", "cause": None,
                              "content": "", "extras": {"agent_state": "running"}}
        for number, event in events.items():
            self.write(f"sessions/abc/events/{number}.json", json.dumps(event))
        self.write("sessions/abc/metadata.json", json.dumps({"title": "x"}))
        self.write("sessions/abc/event_cache/0-25.json", json.dumps(list(events.values())))
        session = os.path.join(self.tmp, "sessions", "abc")
        expected = [Turn("make", "built", 0), Turn("make test", "1 failed", 1)]
        for path in (session, os.path.join(session, "events")):
            with self.subTest(path=os.path.relpath(path, self.tmp)):
                self.assertEqual(read_log(path).turns, expected)
                self.assertEqual(read_log(path, fmt="openhands").turns, expected)
        with self.assertRaises(InputError):
            read_log(session, fmt="github-actions")
        # V1 (software agent SDK): events/event-<index>-<uuid>.json, ordered by the index.
        v1 = [json.loads(line) for line in openhands_v1_calls(
            terminal("make", "built", exit_code=0), terminal("make test", "1 failed",
                                                             exit_code=1)).splitlines()]
        for index, event in enumerate(v1):
            self.write(f"conv/events/event-{index:05d}-{9 - index}aa.json", json.dumps(event))
        self.assertEqual(read_log(os.path.join(self.tmp, "conv")).turns, expected)

    def test_a_bad_event_file_is_named_in_the_error(self):
        from receipt_pair.logs import read_log

        self.write("s/events/0.json", json.dumps({"id": 0, "action": "run",
                                                  "args": {"command": "make"}}))
        self.write("s/events/1.json", "[1, 2")
        with self.assertRaises(InputError) as caught:
            read_log(os.path.join(self.tmp, "s"))
        self.assertIn("1.json", str(caught.exception))

    def test_a_folder_that_is_neither_is_one_clear_error(self):
        from receipt_pair.logs import read_log

        self.write("notes/readme.txt", "hello\n")
        self.write("notes/1.json", "{}")
        with self.assertRaises(InputError) as caught:
            read_log(os.path.join(self.tmp, "notes"))
        self.assertIn("notes", str(caught.exception))
        self.assertIn("OpenHands", str(caught.exception))
        self.assertNotIn("\n", str(caught.exception))
        with self.assertRaises(InputError):
            read_log(os.path.join(self.tmp, "notes"), fmt="turns")


def read_as(fmt, text, name="session"):
    return read_transcript(text, name, fmt)


def codex_rollout(*calls):
    """A Codex rollout of (call id, tool name, arguments, output) function calls; an output
    of None leaves the call unanswered, a dict is an exec_command_end event's payload."""
    lines = []
    for call_id, tool, arguments, output in calls:
        lines.append({"type": "response_item", "payload": {
            "type": "function_call", "name": tool, "call_id": call_id,
            "arguments": json.dumps(arguments)}})
        if isinstance(output, dict):
            lines.append({"type": "event_msg", "payload": dict(
                {"type": "exec_command_end", "call_id": call_id}, **output)})
        elif output is not None:
            lines.append({"type": "response_item", "payload": {
                "type": "function_call_output", "call_id": call_id, "output": output}})
    return "".join(json.dumps(line) + "\n" for line in lines)


def exec_output(body, exited=None, session=None):
    """An exec_command/write_stdin output as Codex formats it (format_response)."""
    header = ["Chunk ID: 1a2b", "Wall time: 10.0021 seconds"]
    if exited is not None:
        header.append(f"Process exited with code {exited}")
    if session is not None:
        header.append(f"Process running with session ID {session}")
    return "\n".join(header + ["Original token count: 9", "Output:", body])


def gemini_calls(*calls):
    """A Gemini CLI session document of (tool, args, output text) calls."""
    return json.dumps({"sessionId": "s", "projectHash": "p", "messages": [{
        "id": "m1", "type": "gemini", "content": "", "toolCalls": [{
            "id": f"c{i}", "name": tool, "args": args, "status": "success",
            "result": [{"functionResponse": {"id": f"c{i}", "name": tool,
                                             "response": {"output": output}}}]}
            for i, (tool, args, output) in enumerate(calls)]}]})


def openhands_v1_calls(*calls):
    """V1 events of (tool name, action, observation) calls, one per line."""
    events = []
    for i, (tool, action, observation) in enumerate(calls):
        events.append({"id": f"a{i}", "source": "agent", "kind": "ActionEvent",
                       "tool_name": tool, "tool_call_id": f"c{i}", "action": action})
        events.append({"id": f"o{i}", "source": "environment", "kind": "ObservationEvent",
                       "tool_name": tool, "tool_call_id": f"c{i}", "observation": observation})
    return "".join(json.dumps(e) + "\n" for e in events)


def terminal(command, text, **fields):
    return ("terminal", {"kind": "TerminalAction", "command": command},
            dict({"kind": "TerminalObservation", "content": [{"type": "text", "text": text}]},
                 **fields))


def claude_calls(*calls):
    """A Claude Code session of (tool, input, result content, is_error) calls."""
    lines = []
    for i, (tool, args, content, is_error) in enumerate(calls):
        lines.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": tool, "input": args}]}})
        result = {"type": "tool_result", "tool_use_id": f"t{i}", "content": content}
        if is_error is not None:
            result["is_error"] = is_error
        lines.append({"type": "user", "message": {"role": "user", "content": [result]}})
    return "".join(json.dumps(line) + "\n" for line in lines)


DEPLOYED = "Deployed to production. All health checks green."


class ModelTextIsNotOutput(unittest.TestCase):
    """Text a model wrote (a sub-agent's report, a web page summarised by a model, the
    agent's own message echoed back) never becomes output; the call stays a turn."""

    def assert_no_output(self, turns, cmd_start):
        turn = next(t for t in turns if t.cmd.startswith(cmd_start))
        self.assertEqual(turn.output, "", cmd_start)
        for other in turns:
            self.assertNotIn("Deployed to production", other.output)

    def assert_after_a_failed_deploy(self, fmt, tools, session, name="session"):
        """For each tool, `session(tool)` is a failed deploy and then the tool saying
        DEPLOYED: the deploy keeps its failure, the tool's words are no output."""
        for tool in tools:
            with self.subTest(tool=tool):
                turns = read_as(fmt, session(tool), name)
                self.assertEqual(turns[0].exit_status, 1)
                self.assert_no_output(turns, tool)

    def test_openhands_v1_finish_does_not_back_a_failed_deploy(self):
        text = openhands_v1_calls(
            terminal("./deploy.sh", "ERROR: deploy failed: health check timed out",
                     exit_code=1),
            ("finish", {"kind": "FinishAction", "message": DEPLOYED},
             {"kind": "FinishObservation", "content": [{"type": "text", "text": DEPLOYED}]}))
        turns = read_as("openhands", text)
        self.assertEqual(turns[0].exit_status, 1)
        self.assert_no_output(turns, "finish")

    def test_openhands_v1_think_and_sub_agents(self):
        kinds = {"think": "ThinkObservation", "task": "TaskObservation",
                 "task_output": "TaskOutputObservation", "delegate": "DelegateObservation",
                 "my_tool": "FinishObservation"}
        self.assert_after_a_failed_deploy("openhands", kinds, lambda tool: openhands_v1_calls(
            terminal("./deploy.sh", "ERROR: deploy failed", exit_code=1),
            (tool, {"kind": "SomeAction", "thought": "x"},
             {"kind": kinds[tool], "content": [{"type": "text", "text": DEPLOYED}]})))
        kept = read_as("openhands", openhands_v1_calls(
            ("grep", {"kind": "GrepAction", "pattern": "Deployed"},
             {"kind": "GrepObservation", "content": [{"type": "text", "text": DEPLOYED}]})))
        self.assertEqual(kept[0].output, DEPLOYED)

    def test_openhands_v0_finish_and_message_are_not_turns(self):
        text = json.dumps([
            {"id": 1, "action": "run", "args": {"command": "./deploy.sh"}},
            {"id": 2, "cause": 1, "observation": "run", "content": "ERROR: deploy failed",
             "extras": {"metadata": {"exit_code": 1}}},
            {"id": 3, "action": "finish", "args": {"final_thought": DEPLOYED, "outputs": {}}},
            {"id": 4, "cause": 3, "observation": "agent_state_changed", "content": DEPLOYED,
             "extras": {}},
            {"id": 5, "action": "think", "args": {"thought": DEPLOYED}},
            {"id": 6, "cause": 5, "observation": "think", "content": DEPLOYED, "extras": {}}])
        turns = read_as("openhands", text, "t.json")
        self.assertEqual([t.cmd for t in turns], ["./deploy.sh"])

    def test_gemini_cli_web_tools_memory_todos_and_sub_agents(self):
        self.assert_after_a_failed_deploy(
            "gemini-cli", ("web_fetch", "google_web_search", "write_todos", "save_memory",
                           "codebase_investigator"),
            lambda tool: gemini_calls(
                ("run_shell_command", {"command": "./deploy.sh"},
                 "Output: ERROR: deploy failed\nExit Code: 1"),
                (tool, {"prompt": "summarise https://status.example.com"}, DEPLOYED)),
            "s.json")
        # A sub-agent a user defined is a tool of its own name; its result says so.
        report = f"Subagent 'deployer' finished.\nTermination Reason: GOAL\nResult:\n{DEPLOYED}"
        turns = read_as("gemini-cli", gemini_calls(("deployer", {"objective": "x"}, report)),
                        "s.json")
        self.assertEqual(turns[0].output, "")
        kept = read_as("gemini-cli", gemini_calls(
            ("run_shell_command", {"command": "cat notes"}, "Output: " + report)), "s.json")
        self.assertIn(DEPLOYED, kept[0].output)

    def test_codex_collaboration_tools(self):
        self.assert_after_a_failed_deploy(
            "codex", ("wait", "wait_agent", "spawn_agent", "send_input", "close_agent",
                      "resume_agent"),
            lambda tool: codex_rollout(
                ("c1", "exec_command", {"cmd": "./deploy.sh"},
                 exec_output("ERROR: deploy failed", exited=1)),
                ("c2", tool, {"targets": ["agent-1"]},
                 json.dumps({"status": {"agent-1": {"completed": DEPLOYED}},
                             "timed_out": False}))))

    def test_claude_code_web_search_summary(self):
        result = ('Web search results for query: "status"\n\nLinks: [{"title": "Status", '
                  '"url": "https://status.example.com"}]\n\n' + DEPLOYED)
        turns = read_as("claude-code", claude_calls(("WebSearch", {"query": "status"},
                                                     result, None)))
        self.assertEqual((turns[0].cmd, turns[0].output), ("WebSearch status", ""))

    def test_mini_swe_agent_submission_is_not_a_turn(self):
        text = json.dumps({"trajectory_format": "mini-swe-agent-1", "info": {}, "messages": [
            {"role": "assistant", "content": "```bash\n./deploy.sh\n```"},
            {"role": "user", "content": "<returncode>1</returncode>\n<output>\nERROR\n</output>"},
            {"role": "assistant", "content": "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
                                             f" && echo '{DEPLOYED}'\n```"},
            {"role": "user", "content": DEPLOYED}]})
        turns = read_as("mini-swe-agent", text, "r.traj.json")
        self.assertEqual([t.cmd for t in turns], ["./deploy.sh"])


class Kinds(unittest.TestCase):
    """A tool that changed files is EDIT, one that only showed something VIEW, a command or
    an unknown tool None: from the tool's name, in every format that names it."""

    def test_claude_code(self):
        cases = {"Edit": "edit", "Write": "edit", "MultiEdit": "edit", "NotebookEdit": "edit",
                 "Read": "view", "Grep": "view", "Glob": "view", "LS": "view",
                 "Bash": None, "mcp__deploy__release": None}
        turns = read_as("claude-code", claude_calls(
            *[(tool, {"file_path": "a.py", "command": "ls"}, "ok", None) for tool in cases]))
        self.assertEqual([t.kind for t in turns], list(cases.values()))

    def test_codex(self):
        text = codex_rollout(
            ("c1", "apply_patch", {"input": "*** Begin Patch"}, "Success."),
            ("c2", "exec_command", {"cmd": "apply_patch <<'EOF'\n*** Begin Patch\nEOF"},
             exec_output("Success.", exited=0)),
            ("c3", "read_file", {"file_path": "a.py"}, "L1: x"),
            ("c4", "list_dir", {"dir_path": "."}, "a.py"),
            ("c5", "grep_files", {"pattern": "x"}, "a.py"),
            ("c6", "exec_command", {"cmd": "cat a.py"}, exec_output("x", exited=0)))
        text += json.dumps({"type": "response_item", "payload": {
            "type": "custom_tool_call", "name": "apply_patch", "call_id": "c7",
            "input": "*** Begin Patch\n*** Update File: a.py\n*** End Patch"}}) + "\n"
        text += json.dumps({"type": "response_item", "payload": {
            "type": "custom_tool_call_output", "call_id": "c7", "output": "Success."}}) + "\n"
        self.assertEqual([t.kind for t in read_as("codex", text)],
                         ["edit", "edit", "view", "view", "view", None, "edit"])

    def test_gemini_cli(self):
        cases = {"replace": "edit", "write_file": "edit", "read_file": "view",
                 "read_many_files": "view", "list_directory": "view", "glob": "view",
                 "search_file_content": "view", "grep_search": "view", "run_shell_command": None}
        turns = read_as("gemini-cli", gemini_calls(
            *[(tool, {"file_path": "a.py", "command": "ls"}, "Output: ok") for tool in cases]),
            "s.json")
        self.assertEqual([t.kind for t in turns], list(cases.values()))

    def test_openhands_v0_and_v1(self):
        v0 = [("read", {"path": "a.py"}, "view"), ("edit", {"path": "a.py", "command": "view"},
                                                      "view"),
              ("edit", {"path": "a.py", "command": "str_replace"}, "edit"),
              ("write", {"path": "a.py"}, "edit"), ("run", {"command": "ls"}, None)]
        events = []
        for i, (action, args, _) in enumerate(v0):
            events += [{"id": 2 * i + 1, "action": action, "args": args},
                       {"id": 2 * i + 2, "cause": 2 * i + 1, "observation": action,
                        "content": "ok", "extras": {}}]
        turns = read_as("openhands", json.dumps(events), "t.json")
        self.assertEqual([t.kind for t in turns], [kind for _, _, kind in v0])
        v1 = [("file_editor", "view", "view"), ("file_editor", "create", "edit"),
              ("file_editor", "str_replace", "edit"), ("file_editor", "insert", "edit"),
              ("file_editor", "undo_edit", "edit"), ("str_replace_editor", "view", "view"),
              ("str_replace_editor", "create", "edit"), ("glob", None, "view"),
              ("grep", None, "view"), ("terminal", "ls", None)]
        turns = read_as("openhands", openhands_v1_calls(
            *[(tool, {"kind": "X", "command": command, "path": "a.py"},
               {"kind": "XObservation", "content": [{"type": "text", "text": "ok"}]})
              for tool, command, _ in v1]))
        self.assertEqual([t.kind for t in turns], [kind for _, _, kind in v1])

    def test_swe_agent(self):
        actions = {"open src/app.py": "view", "goto 40": "view", "scroll_down": "view",
                   "scroll_up": "view", "find_file app.py": "view",
                   "search_dir parse": "view", "search_file parse": "view",
                   "create notes.txt": "edit", "edit 2:2\n    x = 1\nend_of_edit": "edit",
                   "str_replace_editor view /testbed/a.py": "view",
                   "str_replace_editor str_replace /testbed/a.py --old_str a": "edit",
                   "str_replace_editor create /testbed/b.py --file_text x": "edit",
                   "python -m pytest": None, "submit": None}
        text = json.dumps({"trajectory": [{"action": a, "observation": "ok"} for a in actions],
                           "history": [], "info": {}})
        turns = read_as("swe-agent", text, "r.traj")
        self.assertEqual([t.kind for t in turns], list(actions.values()))


class Unfinished(unittest.TestCase):
    """A command still running when the log was written: finished=False and no exit status
    (it had not failed, it had not ended), whatever it printed so far."""

    def assert_running(self, turn):
        self.assertFalse(turn.finished, turn.cmd)
        self.assertIsNone(turn.exit_status, turn.cmd)

    def test_openhands_exit_code_minus_one(self):
        v0 = json.dumps([{"id": 1, "action": "run", "args": {"command": "./deploy.sh"}},
                         {"id": 2, "cause": 1, "observation": "run", "content": "Deployed OK",
                          "extras": {"metadata": {"exit_code": -1}}}])
        self.assert_running(read_as("openhands", v0, "t.json")[0])
        for fields in ({"exit_code": -1}, {"exit_code": -1, "timeout": True},
                       {"timeout": True}):
            with self.subTest(fields=fields):
                turns = read_as("openhands", openhands_v1_calls(
                    terminal("./deploy.sh", "Deployed OK", **fields)))
                self.assert_running(turns[0])
                self.assertEqual(turns[0].output, "Deployed OK")
        # A call OpenHands marked as an error failed, whatever ran on.
        turns = read_as("openhands", openhands_v1_calls(
            terminal("./deploy.sh", "x", exit_code=-1, is_error=True)))
        self.assertEqual((turns[0].finished, turns[0].exit_status), (True, 1))
        done = read_as("openhands", openhands_v1_calls(terminal("./deploy.sh", "ok",
                                                                exit_code=0)))
        self.assertEqual((done[0].finished, done[0].exit_status), (True, 0))

    def test_codex_process_running(self):
        turns = read_as("codex", codex_rollout(
            ("c1", "exec_command", {"cmd": "npm run deploy"},
             exec_output("Deployed OK", session=42)),
            ("c2", "write_stdin", {"session_id": 42, "chars": ""},
             exec_output("still deploying", session=42)),
            ("c3", "write_stdin", {"session_id": 42, "chars": ""},
             exec_output("ERROR: health check failed", exited=1))))
        self.assert_running(turns[0])
        self.assertEqual(turns[0].output, "Deployed OK")
        self.assert_running(turns[1])
        self.assertEqual(turns[1].cmd, "write_stdin session 42 (npm run deploy)")
        # The call that reports the exit is the command itself, with all it printed.
        self.assertEqual(turns[2], Turn("npm run deploy", "Deployed OK\nstill deploying\n"
                                        "ERROR: health check failed", 1))
        passed = read_as("codex", codex_rollout(
            ("c1", "exec_command", {"cmd": "npm test"}, exec_output("7 passed", session=3)),
            ("c2", "exec_command", {"cmd": "git status"}, exec_output("clean", exited=0)),
            ("c3", "write_stdin", {"session_id": 3, "chars": ""}, exec_output("", exited=0))))
        self.assertEqual(passed[2], Turn("npm test", "7 passed", 0))
        # The command's end event, later in the file, has all it printed and its status.
        ended = read_as("codex", codex_rollout(
            ("c1", "exec_command", {"cmd": "npm test"}, exec_output("running", session=7))) +
            json.dumps({"type": "event_msg", "payload": {
                "type": "exec_command_end", "call_id": "c1", "exit_code": 0,
                "aggregated_output": "running\n7 passed"}}) + "\n")
        self.assertEqual((ended[0].finished, ended[0].exit_status, ended[0].output),
                         (True, 0, "running\n7 passed"))

    def test_codex_a_session_belongs_to_the_command_that_announced_it_last(self):
        turns = read_as("codex", codex_rollout(
            ("c1", "exec_command", {"cmd": "npm start"}, exec_output("listening", session=5)),
            ("c2", "exec_command", {"cmd": "npm test"}, exec_output("running", session=5)),
            ("c3", "write_stdin", {"session_id": 5, "chars": ""},
             exec_output("1 failed", exited=1))))
        self.assert_running(turns[0])
        self.assertEqual(turns[2], Turn("npm test", "running\n1 failed", 1))

    def test_codex_an_end_event_leaves_no_second_turn_of_the_command(self):
        turns = read_as("codex", codex_rollout(
            ("c1", "exec_command", {"cmd": "npm test"}, exec_output("running", session=7)),
            ("c2", "write_stdin", {"session_id": 7, "chars": ""},
             exec_output("7 passed", exited=0))) +
            json.dumps({"type": "event_msg", "payload": {
                "type": "exec_command_end", "call_id": "c1", "exit_code": 0,
                "aggregated_output": "running\n7 passed"}}) + "\n")
        self.assertEqual(turns[0], Turn("npm test", "running\n7 passed", 0))
        self.assertEqual([t.cmd for t in turns].count("npm test"), 1)

    def test_gemini_cli_background(self):
        cases = [({"command": "npm start", "is_background": True},
                  "Command moved to background (PID: 4242). Output hidden. Press Ctrl+B to view."),
                 ({"command": "npm start"},
                  "Command moved to background (PID: 4242). Output hidden. Press Ctrl+B to view."),
                 ({"command": "npm start &"},
                  "Output: listening on :3000\nBackground PIDs: 4242\nProcess Group PGID: 4241")]
        for args, output in cases:
            with self.subTest(output=output[:30]):
                turns = read_as("gemini-cli", gemini_calls(("run_shell_command", args, output)),
                                "s.json")
                self.assert_running(turns[0])
        failed = read_as("gemini-cli", gemini_calls(
            ("run_shell_command", {"command": "make && (./serve &)"},
             "Output: make: *** error\nExit Code: 2\nBackground PIDs: 4242\n"
             "Process Group PGID: 4241")), "s.json")
        self.assertEqual((failed[0].finished, failed[0].exit_status), (True, 2))
        done = read_as("gemini-cli", gemini_calls(
            ("run_shell_command", {"command": "make"},
             "Output: ok\nBackground PIDs: (none)\nProcess Group PGID: 7")), "s.json")
        self.assertTrue(done[0].finished)

    def test_claude_code_background_bash(self):
        started = ("Command running in background with ID: b7f2a1. Output is being written "
                   "to: /tmp/claude/tasks/b7f2a1.output. You will be notified when it completes.")
        moved = ("Command did not complete within its 120s timeout and was moved to the "
                 "background (ID: b7f2a1). Output is being written to: /tmp/x/tasks/b7f2a1.output.")
        budget = ("Command exceeded the assistant-mode blocking budget (15s) and was moved to "
                  "the background with ID: b1. Output is being written to: /tmp/b1.output")
        by_hand = "Command was manually backgrounded by user with ID: b2."
        for result in (budget, by_hand):
            with self.subTest(result=result[:30]):
                self.assert_running(read_as("claude-code", claude_calls(
                    ("Bash", {"command": "npm run deploy"}, result, None)))[0])
        turns = read_as("claude-code", claude_calls(
            ("Bash", {"command": "npm run deploy", "run_in_background": True}, started, None),
            ("Bash", {"command": "npm run deploy"}, moved, None),
            ("Bash", {"command": "npm run deploy", "run_in_background": True},
             "Exit code 127\nnpm: not found", True),
            ("Bash", {"command": "echo done"}, "done", None)))
        self.assert_running(turns[0])
        self.assert_running(turns[1])
        self.assertEqual((turns[2].finished, turns[2].exit_status), (True, 127))
        self.assertTrue(turns[3].finished)


REAL = os.path.join(HERE, "real")


def _real_fixtures():
    """(format, name, path) of every real cut-down under real/<format>/."""
    found = []
    for fmt in sorted(os.listdir(REAL)):
        for name in sorted(os.listdir(os.path.join(REAL, fmt))):
            if ".expected." in name or name == "SOURCES.md":
                continue
            found.append((fmt, name, os.path.join(REAL, fmt, name)))
    return found


class RealFiles(unittest.TestCase):
    """Cut-downs of real session files (whole records, verbatim), each named with its
    source in its folder's SOURCES.md: told from their content, read to their golden turns."""

    def test_every_real_file_gives_its_golden_turns(self):
        from receipt_pair.logs import read_log

        fixtures = _real_fixtures()
        self.assertGreaterEqual(len(fixtures), 1)
        for fmt, name, path in fixtures:
            with self.subTest(fixture=f"{fmt}/{name}"):
                with open(os.path.join(REAL, fmt, name.rsplit(".", 1)[0] + ".expected.json")
                          if os.path.isfile(path) else path + ".expected.json") as handle:
                    expected = json.load(handle)
                if os.path.isdir(path):
                    turns = read_log(path, redact=False).turns
                else:
                    text = _text(path)
                    self.assertEqual(detect(text), fmt)
                    turns = read_transcript(text, name, fmt)
                self.assertEqual(_as_dicts(turns), expected)

    def test_every_real_file_names_its_source(self):
        for fmt, name, _ in _real_fixtures():
            with self.subTest(fixture=f"{fmt}/{name}"):
                with open(os.path.join(REAL, fmt, "SOURCES.md"), encoding="utf-8") as handle:
                    self.assertIn(f"`{name}`", handle.read())


def notification(task_id, summary, status="completed", tool_use_id=None):
    """A <task-notification> as Claude Code hands it back for a background command."""
    use = f"<tool-use-id>{tool_use_id}</tool-use-id>\n" if tool_use_id else ""
    return (f"<task-notification>\n<task-id>{task_id}</task-id>\n{use}"
            f"<output-file>/tmp/claude/tasks/{task_id}.output</output-file>\n"
            f"<status>{status}</status>\n<summary>{summary}</summary>\n</task-notification>\n"
            f"Read the output file to retrieve the result: /tmp/claude/tasks/{task_id}.output")


STARTED = ("Command running in background with ID: {}. Output is being written to: "
           "/tmp/claude/tasks/{}.output. You will be notified when it completes.")


class BackgroundEnds(unittest.TestCase):
    """A background command's end arrives later in a record of the harness: where the file
    holds it, the command's turn takes its status and is finished."""

    def session(self, *records):
        text = claude_calls(
            ("Bash", {"command": "npm test", "run_in_background": True},
             STARTED.format("b7f2a1", "b7f2a1"), None),
            ("Bash", {"command": "npm run deploy", "run_in_background": True},
             STARTED.format("c9d0e2", "c9d0e2"), None))
        return read_as("claude-code", text + "".join(json.dumps(r) + "\n" for r in records))

    def test_a_notification_with_an_exit_code_ends_the_command(self):
        failed = notification("b7f2a1", 'Background command "Run the tests" completed '
                                         "(exit code 1)", tool_use_id="t0")
        # The same notice reaches the file up to three ways (queue, attachment, user line).
        for record in ({"type": "user", "message": {"role": "user", "content": failed}},
                       {"type": "queue-operation", "operation": "enqueue", "content": failed},
                       {"type": "attachment", "attachment": {
                           "type": "queued_command", "prompt": failed,
                           "origin": {"kind": "task-notification"}}}):
            with self.subTest(record=record["type"]):
                turns = self.session(record)
                self.assertEqual((turns[0].finished, turns[0].exit_status, turns[0].output),
                                 (True, 1, ""))
                self.assertEqual((turns[1].finished, turns[1].exit_status), (False, None))

    def test_an_exit_code_of_zero_by_tool_use_id_alone_ends_the_command(self):
        passed = notification("x", 'Background command "Run the tests" completed '
                                   "(exit code 0)", tool_use_id="t0")
        turns = self.session({"type": "user", "message": {"role": "user", "content": passed}})
        self.assertEqual((turns[0].finished, turns[0].exit_status), (True, 0))

    def test_it_pairs_by_task_id_and_the_last_exit_code_is_the_harnesss(self):
        passed = notification("c9d0e2", 'Background command "deploy (exit code 1)" completed '
                                         "(exit code 0)")
        turns = self.session({"type": "user", "message": {"role": "user", "content": passed}})
        self.assertEqual((turns[1].finished, turns[1].exit_status), (True, 0))
        self.assertFalse(turns[0].finished)

    def test_without_an_exit_code_the_command_stays_unfinished(self):
        for summary, status in (('Background command "Run the tests" was stopped', "killed"),
                                ('Background command "Run the tests" completed', "completed")):
            with self.subTest(status=status):
                turns = self.session({"type": "queue-operation", "operation": "enqueue",
                                      "content": notification("b7f2a1", summary, status)})
                self.assertEqual((turns[0].finished, turns[0].exit_status), (False, None))
        failed = self.session({"type": "queue-operation", "operation": "enqueue",
                               "content": notification("b7f2a1", "Background command failed",
                                                       "failed")})
        self.assertEqual((failed[0].finished, failed[0].exit_status), (True, 1))

    def test_a_printed_notification_is_not_the_harnesss(self):
        # A command's own output (a tool_result) can print the same text: it ends nothing.
        printed = notification("b7f2a1", 'Background command "x" completed (exit code 0)')
        text = claude_calls(
            ("Bash", {"command": "npm test", "run_in_background": True},
             STARTED.format("b7f2a1", "b7f2a1"), None),
            ("Bash", {"command": "cat notes.txt"}, printed, None))
        turns = read_as("claude-code", text)
        self.assertEqual((turns[0].finished, turns[0].exit_status), (False, None))


class Fuzz(unittest.TestCase):
    """Mutated fixtures: the only outcomes allowed are a list of Turns or one InputError."""

    WRONG = (None, True, False, 0, -1, 1.5, 10 ** 30, "", "x", "\u2028", [], {}, [[[]]],
             {"content": {"content": []}}, ["a", 1, None], {"type": "tool_use"})

    def setUp(self):
        self.rng = random.Random(20260302)
        self.count = 0

    def check(self, text, fmt):
        self.count += 1
        try:
            found = detect(text)
        except Exception as exc:  # noqa: BLE001 - any escape is the failure under test
            self.fail(f"detect raised {type(exc).__name__}: {exc}")
        self.assertIn(found, FORMATS + (None,))
        for reader in {fmt, found} - {None}:
            try:
                turns = read_transcript(text, "fuzz", reader)
            except InputError as exc:
                self.assertNotIn("\n", str(exc))
                self.assertTrue(str(exc).startswith("fuzz"))
                continue
            except Exception as exc:  # noqa: BLE001
                self.fail(f"{reader} raised {type(exc).__name__}: {exc}")
            self.assertIsInstance(turns, list)
            for turn in turns:
                self.assertIsInstance(turn, Turn)
                self.assertIsInstance(turn.cmd, str)
                self.assertIsInstance(turn.output, str)
                status = turn.exit_status
                self.assertTrue(status is None or (isinstance(status, int) and
                                                   not isinstance(status, bool)))

    def _documents(self, text):
        """(lines or None, decoded values): one value per JSON line, or the whole document."""
        try:
            return None, [json.loads(text)]
        except ValueError:
            pass
        lines = text.split("\n")
        values = []
        for line in lines:
            try:
                values.append(json.loads(line) if line.strip() else None)
            except ValueError:
                values.append(None)
        return lines, values

    def _paths(self, value, prefix=(), depth=0):
        yield prefix
        if depth > 12:
            return
        items = value.items() if isinstance(value, dict) else \
            enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            yield from self._paths(child, prefix + (key,), depth + 1)

    def _replace(self, value, path, new):
        if not path:
            return new
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = new
        return value

    def _mutate(self, text, new_value):
        lines, values = self._documents(text)
        candidates = [i for i, v in enumerate(values) if v is not None]
        if not candidates:
            return text
        index = self.rng.choice(candidates)
        value = values[index]
        path = self.rng.choice(list(self._paths(value)))
        mutated = json.dumps(self._replace(value, path, new_value))
        if lines is None:
            return mutated
        lines[index] = mutated
        return "\n".join(lines)

    def test_mutated_fixtures_give_turns_or_one_input_error(self):
        for name in FIXTURES:
            fmt = _format_of(name)
            text = _text(os.path.join(HERE, name))
            with self.subTest(fixture=name):
                for _ in range(6):  # cut off anywhere
                    self.check(text[:self.rng.randrange(len(text))], fmt)
                for _ in range(10):  # a value of the wrong type
                    new = self.rng.choice(self.WRONG)
                    self.check(self._mutate(text, json.loads(json.dumps(new))), fmt)
                deep = [0]
                for _ in range(60):
                    deep = [deep]
                for new in (deep, {"content": deep}, {"output": deep, "metadata": deep}):
                    self.check(self._mutate(text, new), fmt)  # nested deeper than the cap
                self.check("[" * 100000 + "]" * 100000, fmt)  # deeper than the stack
                self.check('{"a":' * 50000 + "1" + "}" * 50000 + "\n" + text, fmt)
                for other in FORMATS:  # every reader on every fixture
                    self.check(text, other)
        self.assertGreaterEqual(self.count, 200)


class Code(unittest.TestCase):
    def test_imports_only_the_standard_library_turn_and_input_error(self):
        stdlib = STDLIB
        allowed_relative = {("turn", "Turn"), ("turn", "EDIT"), ("turn", "VIEW"),
                            ("errors", "InputError"), ("store.files", "loads_strict"),
                            ("store.jsonl", "whole_lines"), ("patterns", "lazy")}
        paths = sorted(glob.glob(os.path.join(PACKAGE, "*.py")))
        self.assertGreaterEqual(len(paths), 9, "the readers' folder moved: point PACKAGE at it")
        for path in paths:
            for node in ast.walk(parsed(path)):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                with self.subTest(module=os.path.basename(path), line=node.lineno):
                    if isinstance(node, ast.Import):
                        for alias in node.names:
                            self.assertIn(alias.name.split(".")[0], stdlib)
                    elif isinstance(node, ast.ImportFrom):
                        if node.level == 0:
                            self.assertIn(node.module.split(".")[0], stdlib)
                        elif node.level >= 2:  # the package's top, past the logs layer
                            for alias in node.names:
                                self.assertIn((node.module, alias.name), allowed_relative)

    def test_modules_stay_short(self):
        paths = sorted(glob.glob(os.path.join(PACKAGE, "*.py")))
        self.assertGreaterEqual(len(paths), 9)
        for path in paths:
            with self.subTest(module=os.path.basename(path)):
                with open(path, encoding="utf-8") as handle:
                    self.assertLess(len(handle.read().splitlines()), 300)


if __name__ == "__main__":
    unittest.main()
