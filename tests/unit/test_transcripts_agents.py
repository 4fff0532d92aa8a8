"""The session readers added in issue 33, each probed both ways on the shapes its agent
writes (docs/formats.md): a failure keeps a failed status and a success its own, what
still runs is unfinished, a model's or a sub-agent's words never become output or the
final message, and a record of the wrong shape is one clear error. The golden files and
the fuzzing of every reader are in test_transcripts.py."""

import json
import os
import sqlite3
import tempfile
import unittest

from receipt_pair.errors import InputError
from receipt_pair.logs import read_log
from receipt_pair.logs.transcripts import detect, opencode, read_session, read_transcript


def jsonl(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


def copilot(*calls, final="Done.", agent_id=None):
    """Copilot events of (tool, arguments, completion data) calls, then a final message."""
    events = [{"type": "session.start", "id": "e0", "data": {"producer": "copilot-agent",
                                                              "sessionId": "s"}}]
    for i, (tool, arguments, done) in enumerate(calls):
        events.append({"type": "tool.execution_start", "id": f"a{i}", "data": {
            "toolCallId": f"c{i}", "toolName": tool, "arguments": arguments}})
        events.append({"type": "tool.execution_complete", "id": f"b{i}",
                       "data": dict({"toolCallId": f"c{i}"}, **done)})
    message = {"type": "assistant.message", "id": "m", "data": {"messageId": "m",
                                                                "content": final}}
    if agent_id:
        message["agentId"] = agent_id
    return jsonl(*events, message)


class Copilot(unittest.TestCase):
    def read(self, *calls, **more):
        return read_session(copilot(*calls, **more), "events.jsonl", "copilot")

    def test_the_exit_line_is_the_status_and_leaves_the_output(self):
        for content, status in (("ok\n<exited with exit code 0>", 0),
                                ("1 failed\n<exited with exit code 1>", 1),
                                ("ok\n<shellId: 3 completed with exit code 2>\n", 2)):
            with self.subTest(content):
                turn, = self.read(("bash", {"command": "make"},
                                   {"success": True, "result": {"content": content}})).turns
                self.assertEqual(turn.exit_status, status)
                self.assertNotIn("exit code", turn.output)

    def test_a_printed_exit_line_in_the_middle_is_output(self):
        turn, = self.read(("bash", {"command": "cat log"}, {"success": True, "result": {
            "content": "<exited with exit code 0>\nFAILED\n<exited with exit code 1>"}})).turns
        self.assertEqual((turn.exit_status, turn.output),
                         (1, "<exited with exit code 0>\nFAILED"))

    def test_a_failed_call_is_a_failure_and_an_async_one_is_unfinished(self):
        turns = self.read(
            ("bash", {"command": "deploy"}, {"success": False,
                                             "error": {"message": "Denied", "code": "denied"}}),
            ("bash", {"command": "npm start", "mode": "async"},
             {"success": True, "result": {"content": "started"}})).turns
        self.assertEqual((turns[0].exit_status, turns[0].output), (1, "Denied"))
        self.assertEqual((turns[1].finished, turns[1].exit_status), (False, None))

    def test_a_completion_without_a_result_gives_no_turn(self):
        session = self.read(("run_in_terminal", {"command": "npm test"}, {"success": True}))
        self.assertEqual(session.turns, [])
        self.assertEqual(session.tool_calls, 1)
        with self.assertRaisesRegex(InputError, "holds no commands"):
            read_transcript(copilot(("bash", {"command": "x"}, {"success": True})), "t",
                            "copilot")

    def test_a_sub_agents_report_and_words_are_not_the_agents(self):
        session = self.read(("task", {"prompt": "check"}, {"success": True, "result": {
            "content": "Deployed to production."}}), final="sub-agent words",
            agent_id="sub-1")
        self.assertEqual(session.turns[0].output, "")  # a model's report backs nothing
        self.assertIsNone(session.final_message)

    def test_arguments_as_json_text_and_a_wrong_type(self):
        turn, = self.read(("bash", json.dumps({"command": "make"}), {
            "success": True, "result": {"content": "ok\n<exited with exit code 0>"}})).turns
        self.assertEqual(turn.cmd, "make")
        with self.assertRaisesRegex(InputError, "'arguments' must be an object"):
            self.read(("bash", ["make"], {"success": True}))


class Droid(unittest.TestCase):
    def read(self, tool, args, result):
        return read_transcript(jsonl(
            {"type": "session_start", "id": "s", "cwd": "/p"},
            {"type": "message", "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": tool, "input": args}]}},
            {"type": "message", "message": {"role": "user", "content": [
                dict({"type": "tool_result", "tool_use_id": "t1"}, **result)]}}),
            "droid.jsonl", "droid")

    def test_an_error_result_is_a_failure_and_a_silent_one_says_nothing_of_its_status(self):
        failed, = self.read("Execute", {"command": "make"}, {"content": "boom", "is_error": True})
        self.assertEqual(failed.exit_status, 1)
        passed, = self.read("Execute", {"command": "make"}, {"content": "ok"})
        self.assertEqual((passed.exit_status, passed.finished), (None, True))
        named, = self.read("Execute", {"cmd": "make"}, {"content": "ok"})
        self.assertEqual(named.cmd, "make")

    def test_a_sub_agents_report_is_not_output(self):
        turn, = self.read("Task", {"prompt": "deploy"}, {"content": "Deployed."})
        self.assertEqual(turn.output, "")


class QwenCode(unittest.TestCase):
    def read(self, output, status="success", args=None, tool="run_shell_command"):
        call = {"id": "c1", "name": tool, "args": args or {"command": "make"}}
        return read_transcript(jsonl(
            {"uuid": "1", "parentUuid": None, "type": "assistant", "message": {
                "role": "model", "parts": [{"functionCall": call}]}},
            {"uuid": "2", "parentUuid": "1", "type": "tool_result", "message": {
                "role": "user", "parts": [{"functionResponse": {
                    "id": "c1", "name": tool, "response": {"output": output}}}]},
             "toolCallResult": {"callId": "c1", "status": status}}), "q.jsonl", "qwen-code")

    def test_the_labelled_block_gives_the_output_and_the_status(self):
        turn, = self.read("Command: make\nDirectory: (root)\nOutput: 1 failed\nError: (none)\n"
                          "Exit Code: 2\nSignal: (none)\nBackground PIDs: (none)\n"
                          "Process Group PGID: 7")
        self.assertEqual((turn.output, turn.exit_status), ("1 failed", 2))

    def test_text_of_another_shape_is_kept_and_a_failed_call_fails(self):
        kept, = self.read("plain output")
        self.assertEqual((kept.output, kept.exit_status), ("plain output", None))
        for status, code in (("error", 1), ("cancelled", 130)):
            with self.subTest(status):
                turn, = self.read("Exit Code: 0", status=status)
                self.assertEqual(turn.exit_status, code)

    def test_thoughts_and_a_sub_agents_words_are_not_the_final_message(self):
        session = read_session(jsonl(
            {"uuid": "1", "parentUuid": None, "type": "assistant", "message": {
                "role": "model", "parts": [{"text": "Pushed it.", "thought": True},
                                           {"text": "Not done yet."}]}},
            {"uuid": "2", "parentUuid": "1", "type": "assistant", "isSidechain": True,
             "message": {"role": "model", "parts": [{"text": "Sub-agent: all green."}]}}),
            "q.jsonl", "qwen-code")
        self.assertEqual(session.final_message, "Not done yet.")


class KimiCli(unittest.TestCase):
    def read(self, text, tool="Shell", args=None):
        return read_transcript(jsonl(
            {"role": "_system_prompt", "content": "You are Kimi."},
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "id": "t1",
                "function": {"name": tool, "arguments": json.dumps(args or {"command": "make"})}}]},
            {"role": "tool", "content": [{"type": "text", "text": text}], "tool_call_id": "t1"}),
            "context.jsonl", "kimi-cli")

    def test_the_harness_line_is_the_status_and_not_output(self):
        for text, status in (("<system>Command executed successfully.</system>\nok", 0),
                             ("<system>ERROR: Command failed with exit code: 2.</system>\nx", 2),
                             ("<system>ERROR: Command killed by timeout (60s)</system>", 124),
                             ("<system>ERROR: Command execution failed: boom</system>", 1)):
            with self.subTest(text):
                turn, = self.read(text)
                self.assertEqual(turn.exit_status, status)
                self.assertNotIn("<system>", turn.output)

    def test_a_background_task_is_unfinished_and_printed_harness_lines_are_output(self):
        turn, = self.read("<system>Background task started.</system>",
                          args={"command": "npm start", "run_in_background": True})
        self.assertEqual((turn.finished, turn.exit_status), (False, None))
        turn, = self.read("ok\n<system>ERROR: Command failed with exit code: 1.</system>")
        self.assertIsNone(turn.exit_status)  # only the harness's first part says a status

    def test_thinking_is_not_what_the_agent_said(self):
        session = read_session(jsonl(
            {"role": "assistant", "content": [{"type": "think", "think": "Pushed."},
                                              {"type": "text", "text": "Working on it."}]}),
            "context.jsonl", "kimi-cli")
        self.assertEqual(session.final_message, "Working on it.")


class OpenCode(unittest.TestCase):
    def read(self, *states):
        parts = [{"type": "tool", "callID": f"c{i}", "tool": tool, "state": state}
                 for i, (tool, state) in enumerate(states)]
        document = [{"info": {"id": "m1", "role": "assistant"}, "parts": parts}]
        return read_transcript(json.dumps(document), "ses.json", "opencode")

    def test_a_non_zero_exit_is_completed_and_still_a_failure(self):
        turns = self.read(
            ("bash", {"status": "completed", "input": {"command": "make"}, "output": "boom",
                      "metadata": {"exit": 2}}),
            ("bash", {"status": "error", "input": {"command": "make"}, "error": "aborted"}),
            ("bash", {"status": "running", "input": {"command": "npm start"},
                      "metadata": {"output": "listening"}}),
            ("bash", {"status": "pending", "input": {"command": "later"}}))
        self.assertEqual([(t.cmd, t.exit_status, t.finished) for t in turns],
                         [("make", 2, True), ("make", 1, True), ("npm start", None, False)])

    def test_the_database_is_read_only_for_the_session_asked(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(lambda: __import__("shutil").rmtree(folder, True))
        path = os.path.join(folder, "opencode.db")
        connection = sqlite3.connect(path)
        with connection:
            connection.execute("CREATE TABLE message (id TEXT, session_id TEXT, data TEXT)")
            connection.execute("CREATE TABLE part (id TEXT, message_id TEXT, session_id TEXT, "
                               "data TEXT)")
            for session in ("ses_a", "ses_b"):
                connection.execute("INSERT INTO message VALUES (?, ?, ?)", (
                    f"msg_{session}", session, json.dumps({"role": "assistant"})))
                connection.execute("INSERT INTO part VALUES (?, ?, ?, ?)", (
                    f"prt_{session}", f"msg_{session}", session, json.dumps(
                        {"type": "text", "text": f"words of {session}"})))
        connection.close()
        before = os.stat(path).st_mtime_ns
        session = read_session(opencode.export(path, "ses_b"), "db", "opencode")
        self.assertEqual(session.final_message, "words of ses_b")
        self.assertEqual(os.stat(path).st_mtime_ns, before)
        with self.assertRaisesRegex(InputError, "not OpenCode's database"):
            empty = os.path.join(folder, "empty.db")
            sqlite3.connect(empty).close()
            opencode.export(empty, "ses_a")

    def test_an_export_and_the_sdks_list_are_both_told_from_their_content(self):
        document = [{"info": {"id": "m1", "role": "user"}, "parts": []}]
        self.assertEqual(detect(json.dumps(document)), "opencode")
        self.assertEqual(detect(json.dumps({"info": {"id": "ses"}, "messages": document})),
                         "opencode")
        self.assertIsNone(detect(json.dumps([{"cmd": "ls", "output": "x"}])))


class ReadAsLogs(unittest.TestCase):
    def test_check_reads_each_new_format_from_a_file_told_by_content(self):
        here = os.path.join(os.path.dirname(__file__), "..", "data", "transcripts")
        for name in ("copilot-events.jsonl", "droid-session.jsonl", "qwen-code-session.jsonl",
                     "kimi-cli-context.jsonl", "opencode-session.json"):
            with self.subTest(name):
                turns = read_log(os.path.join(here, name)).turns
                self.assertTrue(any("[rejected]" in t.output for t in turns))
