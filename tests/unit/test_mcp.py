"""The MCP server (receipt_pair/mcp/) driven in-process over byte streams and pipes with raw
JSON-RPC: every method, every error, each tool both ways. No network: a log whose facts
settle its claim needs no model server, and the server is pointed at a closed port (a
model asked is a tool error) or at the fake loopback server."""

import dataclasses
import io
import json
import os
import subprocess
import sys
import threading
import unittest
from unittest import mock

from receipt_pair import __version__
from receipt_pair.mcp import PROTOCOL_VERSIONS, TOOLS, protocol, serve
from receipt_pair.pair.settings import Settings

from tests.fakeserver import FakeServer, Reply, answer
from tests.helpers import EXAMPLES, ROOT, TempDirTest, closed_port, run_asking, run_cli

PUSH_OK = os.path.join(EXAMPLES, "push-ok.json")
PUSH_REJECTED = os.path.join(EXAMPLES, "push-rejected.json")
CLAIM = "I pushed the parser fix to fix/parser"
NEEDS_MODELS = "I fixed the tokenizer bug"  # the facts of push-ok.json do not settle it
LINE = "3b2a6f1..9c41e07  fix/parser -> fix/parser"
GOOD = answer("shown", "T3", LINE)
TOKEN = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7c"
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {},
              "clientInfo": {"name": "test", "version": "1"}}


def request(request_id, method, params=None):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method, params=None):
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def call(request_id, name, **arguments):
    return request(request_id, "tools/call", {"name": name, "arguments": arguments})


def offline():
    """Settings whose model server is a closed port: any model asked is an error."""
    return Settings(base_url=f"http://127.0.0.1:{closed_port()}/v1")


def exchange(*messages, settings=None):
    """(the replies, the server's log lines) of a server fed `messages`, one a line (a
    dict as JSON, bytes as they are), until its input ends."""
    data = b"".join(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n"
                    for m in messages)
    out, notes = io.BytesIO(), []
    serve(io.BytesIO(data), out, settings or offline(), notes.append)
    written = out.getvalue()
    assert not written or written.endswith(b"\n"), written
    written.decode("ascii")  # every line written is ASCII JSON
    return [json.loads(line) for line in written.splitlines()], notes


def one(message, settings=None):
    """The one reply to one request."""
    replies, _ = exchange(message, settings=settings)
    assert len(replies) == 1, replies
    return replies[0]


def tool(name, settings=None, **arguments):
    """The result of one tools/call (after an initialize for the latest revision)."""
    replies, _ = exchange(request(0, "initialize", INITIALIZE), call(1, name, **arguments),
                          settings=settings)
    reply = replies[1]
    assert "result" in reply, reply
    return reply["result"]


class Transport(unittest.TestCase):
    def test_over_pipes_one_reply_a_line_until_the_input_ends(self):
        read_in, write_in = os.pipe()
        read_out, write_out = os.pipe()
        with os.fdopen(read_in, "rb") as stdin, os.fdopen(write_out, "wb") as stdout, \
                os.fdopen(write_in, "wb") as client, os.fdopen(read_out, "rb") as replies:
            server = threading.Thread(target=serve, args=(stdin, stdout, offline()))
            server.start()
            for message in (request(1, "initialize", INITIALIZE),
                            notification("notifications/initialized"), request(2, "ping"),
                            call(3, "check_claim", claim=CLAIM, log=PUSH_OK)):
                client.write(json.dumps(message).encode() + b"\n")
                client.flush()
            got = [json.loads(replies.readline()) for _ in range(3)]
            client.close()  # the host closes the server's input: it ends
            server.join(10)
            self.assertFalse(server.is_alive())
        self.assertEqual([reply["id"] for reply in got], [1, 2, 3])
        self.assertEqual(got[1]["result"], {})
        self.assertEqual(got[2]["result"]["structuredContent"]["answer"], "shown")

    def test_blank_lines_and_windows_line_ends_are_read(self):
        replies, _ = exchange(b"\n", b"  \r\n", json.dumps(request(1, "ping")).encode() +
                              b"\r\n", json.dumps(request(2, "ping")).encode())  # no last \n
        self.assertEqual([reply["id"] for reply in replies], [1, 2])

    def test_a_line_too_long_is_a_parse_error_and_the_next_is_answered(self):
        with mock.patch.object(protocol, "MAX_LINE_BYTES", 64):
            replies, _ = exchange(b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": '
                                  b'{"padding": "' + b"x" * 300 + b'"}}\n', request(2, "ping"))
        self.assertEqual(replies[0]["error"]["code"], -32700)
        self.assertIsNone(replies[0]["id"])
        self.assertEqual(replies[1], {"jsonrpc": "2.0", "id": 2, "result": {}})

    def test_a_client_that_went_away_ends_the_server_quietly(self):
        class Gone(io.BytesIO):
            def write(self, data):
                raise BrokenPipeError(32, "Broken pipe")

        lines = b"".join(json.dumps(request(n, "ping")).encode() + b"\n" for n in range(3))
        serve(io.BytesIO(lines), Gone(), offline())  # returns, raises nothing

    def test_frames_are_one_ascii_line_that_reads_back_as_the_same_strings(self):
        text = "esc \x1b[2K cr \r nl \n del \x7f rtl \u202e e \u00e9 smile \U0001F600 sep \u2028"
        data = protocol.frame({"s": text})
        self.assertTrue(data.endswith(b"\n"))
        self.assertEqual(data.count(b"\n"), 1)
        self.assertTrue(all(32 <= byte < 127 for byte in data[:-1]), data)
        self.assertEqual(json.loads(data), {"s": text})
        # A lone surrogate is no text: no client could read it back.
        self.assertEqual(json.loads(protocol.frame({"s": "a\ud800b"})), {"s": "a\ufffdb"})


class Methods(unittest.TestCase):
    def test_initialize_answers_with_the_clients_version_when_spoken_else_the_latest(self):
        for asked, agreed in [(v, v) for v in PROTOCOL_VERSIONS] + [("2099-01-01", "2025-11-25"),
                                                                    ("1.0", "2025-11-25")]:
            with self.subTest(asked=asked):
                result = one(request(1, "initialize", {**INITIALIZE,
                                                       "protocolVersion": asked}))["result"]
                self.assertEqual(result["protocolVersion"], agreed)
                self.assertEqual(result["serverInfo"], {"name": "receipt-pair",
                                                        "version": __version__})
                self.assertEqual(result["capabilities"], {"tools": {"listChanged": False}})
                self.assertIn("check_claim", result["instructions"])

    def test_initialize_needs_a_protocol_version(self):
        for params in ({}, {"protocolVersion": 20251125}, {"protocolVersion": None}):
            with self.subTest(params=params):
                self.assertEqual(one(request(1, "initialize", params))["error"]["code"], -32602)
        self.assertEqual(one(request(1, "initialize"))["error"]["code"], -32602)

    def test_ping(self):
        self.assertEqual(one(request("p", "ping")), {"jsonrpc": "2.0", "id": "p", "result": {}})
        self.assertEqual(one(request(7, "ping", {"_meta": {}}))["result"], {})

    def test_tools_list_describes_each_tool_with_its_schemas(self):
        replies, _ = exchange(request(1, "initialize", INITIALIZE), request(2, "tools/list"))
        tools = replies[1]["result"]["tools"]
        self.assertEqual([t["name"] for t in tools], ["check_claim", "verify_reply",
                                                      "rederive_receipt", "split_claims"])
        for described in tools:
            with self.subTest(tool=described["name"]):
                for key in ("inputSchema", "outputSchema"):
                    schema = described[key]
                    self.assertEqual(schema["type"], "object")
                    self.assertFalse(schema["additionalProperties"])
                    self.assertLessEqual(set(schema["required"]), set(schema["properties"]))
                    for name, field in schema["properties"].items():
                        self.assertTrue(field.get("description"), (key, name))
                self.assertTrue(described["title"] and described["description"])
                self.assertTrue(described["annotations"]["readOnlyHint"])
                self.assertFalse(described["annotations"]["destructiveHint"])
        check = tools[0]["inputSchema"]
        self.assertEqual(check["required"], ["claim", "log"])
        self.assertEqual(set(check["properties"]),
                         {"claim", "log", "format", "reader", "rule", "models_only"})

    def test_an_older_revision_gets_a_tool_in_its_own_words(self):
        for version, has in (("2024-11-05", set()), ("2025-03-26", {"annotations"}),
                             ("2025-06-18", {"annotations", "title", "outputSchema"})):
            with self.subTest(version=version):
                replies, _ = exchange(
                    request(1, "initialize", {**INITIALIZE, "protocolVersion": version}),
                    request(2, "tools/list"), call(3, "split_claims", message="Done."))
                for described in replies[1]["result"]["tools"]:
                    self.assertEqual(set(described) - {"name", "description", "inputSchema"},
                                     has)
                self.assertEqual("structuredContent" in replies[2]["result"],
                                 "outputSchema" in has)

    def test_requests_before_initialize_are_answered(self):
        replies, _ = exchange(request(1, "tools/list"), call(2, "split_claims", message="x"))
        self.assertEqual(len(replies[0]["result"]["tools"]), 4)
        self.assertFalse(replies[1]["result"]["isError"])

    def test_notifications_are_never_answered(self):
        replies, notes = exchange(
            request(1, "initialize", INITIALIZE),
            notification("notifications/initialized"),
            notification("notifications/cancelled", {"requestId": 1, "reason": "late"}),
            notification("notifications/cancelled", {"requestId": 99}),
            notification("notifications/cancelled", "not even an object"),
            notification("notifications/progress", {"progressToken": 1, "progress": 1}),
            notification("notifications/no-such-thing"),
            notification("ping"),  # a request's method, without an id: still a notification
            notification("tools/call", {"name": "check_claim",
                                        "arguments": {"claim": NEEDS_MODELS, "log": PUSH_OK}}),
            {"jsonrpc": "2.0", "id": 5, "result": {}},  # a reply: this server asked nothing
            {"jsonrpc": "2.0", "id": 6, "error": {"code": -1, "message": "no"}},
            request(2, "ping"))
        self.assertEqual([reply["id"] for reply in replies], [1, 2])
        self.assertEqual(notes, [])  # nothing ran: the tools/call notification asked nothing

    def test_a_cancelled_request_leaves_the_server_answering(self):
        replies, _ = exchange(call(1, "split_claims", message="Done."),
                              notification("notifications/cancelled", {"requestId": 1}),
                              request(2, "ping"))
        self.assertEqual([reply["id"] for reply in replies], [1, 2])


class ProtocolErrors(unittest.TestCase):
    def test_unknown_methods(self):
        for method in ("server/discover", "resources/list", "prompts/list",
                       "notifications/initialized", "logging/setLevel", ""):
            with self.subTest(method=method):
                reply = one(request(1, method))
                self.assertEqual(reply["error"]["code"], -32601)
                self.assertEqual(reply["id"], 1)

    def test_what_is_not_json_is_a_parse_error_and_the_server_goes_on(self):
        for line in (b"{", b"nonsense", b'{"jsonrpc": "2.0", "id": 1, "method": "ping", '
                     b'"params": {"x": NaN}}', b"\xff\xfe{}", b"[" * 100000 + b"]" * 100000,
                     b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}'):
            with self.subTest(line=line[:40]):
                replies, _ = exchange(line + b"\n", request(2, "ping"))
                self.assertEqual(replies[0]["error"]["code"], -32700)
                self.assertIsNone(replies[0]["id"])
                self.assertEqual(replies[1]["result"], {})

    def test_what_is_not_a_request_is_an_invalid_request(self):
        cases = [(42, None), ("text", None), (None, None), ({"id": 1, "method": "ping"}, 1),
                 ({"jsonrpc": "1.0", "id": 1, "method": "ping"}, 1),
                 ({"jsonrpc": "2.0", "id": 3}, 3), ({"jsonrpc": "2.0", "id": 1, "method": 5}, 1),
                 (request(True, "ping"), None), (request(1.5, "ping"), None),
                 (request(None, "ping"), None), (request([1], "ping"), None),
                 (request({"n": 1}, "ping"), None)]
        for message, expected_id in cases:
            with self.subTest(message=message):
                replies, _ = exchange(json.dumps(message).encode() + b"\n", request(9, "ping"))
                self.assertEqual(replies[0]["error"]["code"], -32600)
                self.assertEqual(replies[0]["id"], expected_id)
                self.assertEqual(replies[1]["id"], 9)

    def test_params_that_are_not_an_object(self):
        for method in ("ping", "tools/list", "tools/call", "initialize"):
            for params in ([], "x", 3):
                with self.subTest(method=method, params=params):
                    self.assertEqual(one(request(1, method, params))["error"]["code"], -32602)

    def test_a_tools_call_that_names_no_known_tool(self):
        for params in ({}, {"name": 3}, {"name": "no_such_tool", "arguments": {}},
                       {"name": "check_claim", "arguments": "claim=x"},
                       {"name": "check_claim", "arguments": [CLAIM, PUSH_OK]}):
            with self.subTest(params=params):
                reply = one(request(1, "tools/call", params))
                self.assertEqual(reply["error"]["code"], -32602, reply)
                self.assertEqual(reply["id"], 1)

    def test_batches(self):
        replies, _ = exchange([request(1, "ping"), notification("notifications/initialized"),
                               request(2, "tools/list"), 7])
        self.assertEqual(len(replies), 1)
        self.assertEqual([r.get("id") for r in replies[0]], [1, 2, None])
        self.assertEqual(replies[0][2]["error"]["code"], -32600)
        empty, _ = exchange([], request(3, "ping"))
        self.assertEqual(empty[0]["error"]["code"], -32600)
        only_notes, _ = exchange([notification("notifications/initialized")])
        self.assertEqual(only_notes, [])

    def test_a_fault_of_the_server_fails_that_request_only(self):
        with mock.patch.object(protocol.Server, "list_tools", side_effect=KeyError("bug")):
            replies, notes = exchange(request(1, "tools/list"), request(2, "ping"))
        self.assertEqual(replies[0]["error"]["code"], -32603)
        self.assertEqual(replies[1]["result"], {})
        self.assertIn("KeyError", "\n".join(notes))

    def test_a_tool_that_fails_unexpectedly_is_a_tool_error(self):
        broken = dataclasses.replace(TOOLS["split_claims"], run=lambda a, s: 1 / 0)
        with mock.patch.dict(TOOLS, {"split_claims": broken}):
            replies, notes = exchange(call(1, "split_claims", message="Done."),
                                      request(2, "ping"))
        self.assertTrue(replies[0]["result"]["isError"])
        self.assertIn("ZeroDivisionError", replies[0]["result"]["content"][0]["text"])
        self.assertEqual(replies[1]["result"], {})
        self.assertIn("Traceback", "\n".join(notes))


class Arguments(unittest.TestCase):
    """Arguments that do not fit a tool's inputSchema are its error, which the model reads
    to fix its call (not a protocol error)."""

    def test_each_problem_is_one_line_naming_the_argument(self):
        cases = [
            ("check_claim", {"log": PUSH_OK}, "'claim'"),
            ("check_claim", {"claim": CLAIM}, "'log'"),
            ("check_claim", {"claim": CLAIM, "log": PUSH_OK, "save": "r.json"}, "'save'"),
            ("check_claim", {"claim": "", "log": PUSH_OK}, "'claim'"),
            ("check_claim", {"claim": 3, "log": PUSH_OK}, "'claim'"),
            ("check_claim", {"claim": CLAIM, "log": PUSH_OK, "models_only": "yes"},
             "'models_only'"),
            ("check_claim", {"claim": CLAIM, "log": PUSH_OK, "rule": "r9"}, "'rule'"),
            ("check_claim", {"claim": CLAIM, "log": PUSH_OK, "reader": "v1"}, "'reader'"),
            ("check_claim", {"claim": CLAIM, "log": PUSH_OK, "format": "docx"}, "'format'"),
            ("check_claim", {"claim": CLAIM, "log": None}, "'log'"),
            ("verify_reply", {"reply": GOOD, "log": PUSH_OK, "max_turns": 0}, "'max_turns'"),
            ("verify_reply", {"reply": GOOD, "log": PUSH_OK, "max_turns": True},
             "'max_turns'"),
            ("verify_reply", {"reply": GOOD, "log": PUSH_OK, "max_turns": 2.5}, "'max_turns'"),
            ("rederive_receipt", {}, "'receipt'"),
            ("split_claims", {"message": ["Done."]}, "'message'"),
        ]
        for name, arguments, named in cases:
            with self.subTest(tool=name, arguments=arguments):
                result = tool(name, **arguments)
                self.assertTrue(result["isError"])
                self.assertNotIn("structuredContent", result)
                line = result["content"][0]["text"]
                self.assertIn(named, line)
                self.assertNotIn("\n", line)

    def test_no_arguments_at_all(self):
        replies, _ = exchange(request(1, "tools/call", {"name": "split_claims"}),
                              request(2, "tools/call", {"name": "split_claims",
                                                        "arguments": None}))
        for reply in replies:
            self.assertTrue(reply["result"]["isError"])
            self.assertIn("'message'", reply["result"]["content"][0]["text"])

    def test_paths_that_name_no_file_to_read(self):
        for log, says in (("-", "standard input"), ("", "standard input"),
                          ("a\0b", "NUL"), ("/no/such/log.json", "cannot read"),
                          (EXAMPLES, "")):
            with self.subTest(log=log):
                result = tool("check_claim", claim=CLAIM, log=log)
                self.assertTrue(result["isError"], result)
                self.assertIn(says, result["content"][0]["text"])


class CheckClaim(TempDirTest):
    def test_the_facts_settle_it_with_no_model_server(self):
        result = tool("check_claim", claim=CLAIM, log=PUSH_OK)
        self.assertFalse(result["isError"])
        data = result["structuredContent"]
        self.assertEqual(json.loads(result["content"][0]["text"]), data)
        self.assertEqual(data["answer"], "shown")
        self.assertEqual(data["decided_by"], "facts")
        self.assertEqual(data["rule"], "push.updated")
        self.assertEqual(data["why"], "git reported the claimed branch updated on the remote")
        self.assertEqual(data["pair_rule"], "r3")
        self.assertEqual(data["quotes"], [{"arm": "facts", "turn": "T3", "quote": LINE}])
        self.assertEqual(data["models"], [])
        self.assertEqual(data["log"]["name"], PUSH_OK)
        self.assertEqual(data["log"]["turns"], 3)
        self.assertEqual(len(data["log"]["sha256"]), 64)
        self.assertEqual(set(data), set(TOOLS["check_claim"].output_schema["required"]))

    def test_a_claim_the_models_must_decide_with_the_server_down_is_a_tool_error(self):
        for arguments in ({"claim": NEEDS_MODELS}, {"claim": CLAIM, "models_only": True}):
            with self.subTest(arguments=arguments):
                replies, notes = exchange(call(1, "check_claim", log=PUSH_OK, **arguments),
                                          request(2, "ping"))
                result = replies[0]["result"]
                self.assertTrue(result["isError"])
                line = result["content"][0]["text"]
                self.assertIn("cannot reach the model server", line)
                self.assertNotIn("\n", line)
                self.assertEqual(replies[1]["result"], {})  # still serving
                self.assertTrue(any("check_claim: cannot reach" in note for note in notes))

    def test_the_models_decide_what_the_facts_do_not(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD, GOOD)
            fake.script("qb", GOOD, answer("not_shown"))
            settings = Settings(base_url=fake.base_url, model_a="qa", model_b="qb")
            replies, _ = exchange(
                request(0, "initialize", INITIALIZE),
                call(1, "check_claim", claim=NEEDS_MODELS, log=PUSH_OK, reader="v6"),
                call(2, "check_claim", claim=NEEDS_MODELS, log=PUSH_OK, reader="v6",
                     rule="r1"), settings=settings)
        both, r1 = (reply["result"]["structuredContent"] for reply in replies[1:])
        self.assertEqual((both["answer"], both["decided_by"], both["rule"], both["why"]),
                         ("shown", "models", "r3", None))
        self.assertEqual(both["reader"], "v6")
        self.assertEqual([(m["arm"], m["model"], m["answer"], m["code"], m["quote"])
                          for m in both["models"]],
                         [("A", "qa", "shown", "ok", LINE), ("B", "qb", "shown", "ok", LINE)])
        self.assertEqual(both["quotes"][0]["quote"], LINE)
        self.assertEqual((r1["rule"], r1["pair_rule"]), ("r1", "r1"))
        self.assertEqual([m["answer"] for m in r1["models"]], ["shown", "not shown"])

    def test_a_model_that_cannot_be_asked_cannot_vouch(self):
        with FakeServer() as fake:
            fake.script("qa", GOOD)
            fake.script("qb", Reply(500, {"error": "out of memory"}))
            result = tool("check_claim", Settings(base_url=fake.base_url, model_a="qa",
                                                  model_b="qb", reader="v6"),
                          claim=NEEDS_MODELS, log=PUSH_OK)
        self.assertTrue(result["isError"])
        self.assertIn("model B (qb) could not be asked", result["content"][0]["text"])

    def test_credentials_never_go_back(self):
        log = self.write("log.json", json.dumps({"turns": [
            {"cmd": f"git push https://x:{TOKEN}@github.com/a/b fix/parser",
             "output": f"To github.com/a/b\n   {LINE}"}]}))
        data = tool("check_claim", claim=f"I pushed the parser fix to fix/parser (token {TOKEN})",
                    log=log)["structuredContent"]
        self.assertNotIn(TOKEN, json.dumps(data))
        self.assertIn("[REDACTED]", data["claim"])
        self.assertTrue(any("credential" in note for note in data["log"]["notes"]))

    def test_strings_from_a_log_come_back_whole_as_json(self):
        line = "3b2a6f1..9c41e07  fix/caf\u00e9 -> fix/caf\u00e9"
        log = self.write("log.json", json.dumps({"turns": [
            {"cmd": "git push origin fix/caf\u00e9", "output": f"To origin\n   {line}"}]}))
        data = tool("check_claim", claim="I pushed the fix to fix/caf\u00e9",
                    log=log)["structuredContent"]
        self.assertEqual((data["answer"], data["quotes"][0]["quote"]), ("shown", line))


class VerifyReply(unittest.TestCase):
    def read(self, name):
        with open(os.path.join(EXAMPLES, name), encoding="utf-8") as handle:
            return handle.read()

    def test_a_real_quote_passes_and_an_invented_one_is_refused(self):
        real = tool("verify_reply", reply=self.read("reply-real-quote.json"), log=PUSH_OK,
                    reader="v6")["structuredContent"]
        self.assertEqual((real["answer"], real["code"], real["turn"], real["quote"]),
                         ("shown", "ok", "T3", LINE))
        invented = tool("verify_reply", reply=self.read("reply-invented-quote.json"),
                        log=PUSH_OK, reader="v6")["structuredContent"]
        self.assertEqual((invented["answer"], invented["code"]),
                         ("not shown", "quote_not_found"))
        self.assertIn("not in the log", invented["code_text"])
        self.assertEqual(set(invented), set(TOOLS["verify_reply"].output_schema["required"]))

    def test_a_whole_chat_response_and_a_retired_reader(self):
        chat = json.dumps({"choices": [{"message": {"role": "assistant", "content": GOOD}}]})
        data = tool("verify_reply", reply=chat, log=PUSH_OK, reader="v6",
                    max_turns=3)["structuredContent"]
        self.assertEqual(data["answer"], "shown")
        self.assertEqual(tool("verify_reply", reply=GOOD, log=PUSH_OK,
                              reader="v5")["structuredContent"]["reader"], "v5")

    def test_a_reader_that_picks_lines_by_the_claim_needs_it(self):
        result = tool("verify_reply", reply=GOOD, log=PUSH_OK, reader="f2")
        self.assertTrue(result["isError"])
        self.assertIn("by the claim", result["content"][0]["text"])
        self.assertNotIn("--", result["content"][0]["text"])
        given = tool("verify_reply", reply=GOOD, log=PUSH_OK, reader="f2", claim=CLAIM)
        self.assertFalse(given["isError"], given)


class RederiveReceipt(TempDirTest):
    def setUp(self):
        super().setUp()
        self.receipt = self.path("receipt.json")
        status, _, err = run_asking("check", "--claim", NEEDS_MODELS, "--log", PUSH_OK,
                                    "--save", self.receipt, a=GOOD, b=GOOD)
        self.assertEqual(status, 0, err)

    def test_a_receipt_that_holds_alone_and_against_its_log(self):
        before = os.stat(self.receipt), os.stat(PUSH_OK)
        for arguments in ({}, {"log": PUSH_OK}, {"log": PUSH_OK, "format": "turns"}):
            with self.subTest(arguments=arguments):
                data = tool("rederive_receipt", receipt=self.receipt,
                            **arguments)["structuredContent"]
                self.assertEqual((data["holds"], data["differences"]), (True, []))
                self.assertEqual(data["log"], arguments.get("log"))
        after = os.stat(self.receipt), os.stat(PUSH_OK)
        self.assertEqual([(s.st_mtime_ns, s.st_size) for s in before],
                         [(s.st_mtime_ns, s.st_size) for s in after])  # read, not written

    def test_a_receipt_that_does_not_hold(self):
        other = tool("rederive_receipt", receipt=self.receipt,
                     log=PUSH_REJECTED)["structuredContent"]
        self.assertFalse(other["holds"])
        self.assertTrue(any("not the one this receipt was made from" in line
                            for line in other["differences"]), other)
        with open(self.receipt, encoding="utf-8") as handle:
            receipt = json.load(handle)
        receipt["answer"] = "contradicted"
        edited = self.write("edited.json", json.dumps(receipt))
        data = tool("rederive_receipt", receipt=edited)["structuredContent"]
        self.assertFalse(data["holds"])
        self.assertTrue(data["differences"])
        not_one = tool("rederive_receipt", receipt=PUSH_OK)["structuredContent"]
        self.assertEqual(not_one["holds"], False)
        self.assertIn("not a receipt", not_one["differences"][0])

    def test_a_receipt_that_cannot_be_read_is_a_tool_error(self):
        for receipt, says in ((self.path("none.json"), "cannot read"),
                              (self.write("bad.json", "{"), "not valid JSON"),
                              ("-", "standard input")):
            with self.subTest(receipt=receipt):
                result = tool("rederive_receipt", receipt=receipt)
                self.assertTrue(result["isError"])
                self.assertIn(says, result["content"][0]["text"])


class SplitClaims(unittest.TestCase):
    def test_claims_are_spans_of_the_message(self):
        message = ("I pushed the parser fix to fix/parser and the tests pass.\n\n"
                   "Next I will look at the docs.")
        claims = tool("split_claims", message=message)["structuredContent"]["claims"]
        self.assertEqual([c["text"] for c in claims], [CLAIM, "the tests pass"])
        for claim in claims:
            self.assertEqual(message[claim["start"]:claim["end"]], claim["text"])

    def test_a_plan_or_a_question_is_no_claim(self):
        for message in ("I will push the fix next. Should I also bump the version?", ""):
            with self.subTest(message=message):
                self.assertEqual(tool("split_claims", message=message)["structuredContent"],
                                 {"claims": [], "redactions": 0})

    def test_credentials_in_the_message_never_go_back(self):
        # red-team case c8-03: the message is redacted before it is split; the spans are
        # positions in the message so redacted
        token = "ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"
        message = f"I pushed to main with GITHUB_TOKEN={token}; all tests pass."
        result = tool("split_claims", message=message)
        self.assertNotIn(token, json.dumps(result))
        found = result["structuredContent"]
        self.assertEqual(found["redactions"], 1)
        redacted = message.replace(token, "[REDACTED]")
        self.assertEqual([redacted[c["start"]:c["end"]] for c in found["claims"]],
                         ["I pushed to main with GITHUB_TOKEN=[REDACTED]", "all tests pass"])


class CommandLine(unittest.TestCase):
    """`receipt-pair mcp` as a host starts it: a process of its own where its standard
    input and output are what is tested, in this process where only its options are."""

    def run_mcp(self, *argv, lines=()):
        env = {k: v for k, v in os.environ.items() if k != "RECEIPT_PAIR_FACTS"}
        env["RECEIPT_PAIR_BASE_URL"] = f"http://127.0.0.1:{closed_port()}/v1"
        data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
        return subprocess.run([sys.executable, "-m", "receipt_pair", "mcp", *argv], cwd=ROOT,
                              input=data, capture_output=True, env=env, timeout=60)

    def test_standard_output_carries_the_protocol_alone(self):
        done = self.run_mcp(lines=[request(1, "initialize", INITIALIZE),
                                   notification("notifications/initialized"),
                                   call(2, "check_claim", claim=CLAIM, log=PUSH_OK),
                                   call(3, "check_claim", claim=NEEDS_MODELS, log=PUSH_OK)])
        self.assertEqual(done.returncode, 0, done.stderr)
        replies = [json.loads(line) for line in done.stdout.decode("ascii").splitlines()]
        self.assertEqual([reply["id"] for reply in replies], [1, 2, 3])
        self.assertEqual(replies[1]["result"]["structuredContent"]["decided_by"], "facts")
        self.assertTrue(replies[2]["result"]["isError"])
        self.assertIn(b"receipt-pair mcp: serving check_claim", done.stderr)

    @unittest.skipUnless(os.path.exists("/dev/stdin"), "no /dev/stdin here")
    def test_its_own_standard_input_is_no_log(self):
        done = self.run_mcp(lines=[call(1, "check_claim", claim=CLAIM, log="/dev/stdin"),
                                   call(2, "rederive_receipt", receipt="/dev/fd/0"),
                                   request(3, "ping")])
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual([reply["id"] for reply in replies], [1, 2, 3])
        for reply in replies[:2]:
            self.assertTrue(reply["result"]["isError"])
            self.assertIn("standard input", reply["result"]["content"][0]["text"])

    def test_a_bad_option_stops_it_before_it_serves(self):
        # Its standard input is empty: had it started serving, it would have read that,
        # said so on standard error and ended with status 0.
        with mock.patch("sys.stdin", io.TextIOWrapper(io.BytesIO(b""))):
            status, out, err = run_cli("mcp", "--reader", "v9")
        self.assertEqual(status, 2)
        self.assertEqual(out, "")
        self.assertIn("v9", err)
        self.assertNotIn("serving", err)

    def test_help_says_what_it_is_in_one_line(self):
        status, out, _ = run_cli("--help")
        self.assertEqual(status, 0)
        line = next(line for line in out.splitlines() if line.strip().startswith("mcp"))
        self.assertIn("Model Context Protocol", line)


if __name__ == "__main__":
    unittest.main()
