"""`receipt-pair mcp` driven by the official MCP Python SDK's stdio client, as a real MCP
host drives it: the server started as a subprocess, the handshake, the tools listed, each
called, every result validated by the SDK against the tool's own outputSchema.

The SDK (`mcp` on PyPI, Python 3.10 or newer) is a test-only dependency: .ci/run installs
the version pinned there; receipt_pair/ never imports it. Without it this test skips and
says why. No model server is needed: the facts of examples/push-ok.json settle its claim,
and the server is pointed at a closed port, so a model asked would be an error.
"""

import json
import os
import re
import sys
import tempfile
import unittest

from tests.helpers import EXAMPLES, ROOT, closed_port, run_cli, users_reader



def pinned_version():
    """The SDK version .ci/run installs (MCP_SDK_VERSION=...), the one pin."""
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as handle:
        return re.search(r"^MCP_SDK_VERSION=(\S+)$", handle.read(), re.M).group(1)


try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    import anyio
except ImportError as exc:  # not installed, or a Python older than the SDK needs
    SDK_MISSING = (f"the MCP Python SDK is not importable here ({exc}); .ci/run installs "
                   f"it: pip install 'mcp=={pinned_version()}' (Python 3.10 or newer)")
else:
    SDK_MISSING = None

PUSH_OK = os.path.join(EXAMPLES, "push-ok.json")
CLAIM = "I pushed the parser fix to fix/parser"
MESSAGE = ("I pushed the parser fix to fix/parser and the tests pass.\n\n"
           "Next I will look at the tokenizer's docs.")
# How long the whole session may take: the SDK waits for ever on a server that hangs.
DEADLINE = 120


@unittest.skipIf(SDK_MISSING, SDK_MISSING or "")
class McpSdkClient(unittest.TestCase):
    def setUp(self):
        self.nowhere = f"http://127.0.0.1:{closed_port()}/v1"  # no model server there

    def session(self, body):
        """Run `body(session)` in a ClientSession over stdio with `python -m receipt_pair
        mcp` started the way a host starts it; return what it returns."""
        server = StdioServerParameters(
            command=sys.executable, args=["-m", "receipt_pair", "mcp"], cwd=ROOT,
            env={"RECEIPT_PAIR_BASE_URL": self.nowhere,
                 "PYTHONPATH": ROOT})

        async def run():
            with anyio.fail_after(DEADLINE):
                with open(os.devnull, "w") as errlog:  # the server's log, not the test's
                    async with stdio_client(server, errlog=errlog) as (read, write):
                        async with ClientSession(read, write) as session:
                            return await body(session)

        return anyio.run(run)

    def test_a_host_initializes_lists_and_calls_the_tools(self):
        async def body(session):
            init = await session.initialize()
            tools = await session.list_tools()
            checked = await session.call_tool(
                "check_claim", {"claim": CLAIM, "log": PUSH_OK})
            split = await session.call_tool("split_claims", {"message": MESSAGE})
            await session.send_ping()
            return init, tools, checked, split

        init, tools, checked, split = self.session(body)
        self.assertEqual(init.server_info.name, "receipt-pair")
        self.assertEqual(init.protocol_version, "2025-11-25")
        self.assertIsNotNone(init.capabilities.tools)
        named = {tool.name: tool for tool in tools.tools}
        self.assertEqual(set(named), {"check_claim", "verify_reply", "rederive_receipt",
                                      "split_claims"})
        for tool in named.values():
            with self.subTest(tool=tool.name):
                self.assertEqual(tool.input_schema["type"], "object")
                self.assertEqual(tool.output_schema["type"], "object")
                self.assertTrue(tool.description)

        # The facts settle it: shown, no model asked, though no model server is there.
        self.assertFalse(checked.is_error, checked.content)
        result = checked.structured_content
        self.assertEqual((result["answer"], result["decided_by"], result["rule"]),
                         ("shown", "facts", "push.updated"))
        self.assertEqual(result["quotes"], [{"arm": "facts", "turn": "T3", "quote":
                                             "3b2a6f1..9c41e07  fix/parser -> fix/parser"}])
        self.assertEqual(result["models"], [])
        self.assertEqual(json.loads(checked.content[0].text), result)

        self.assertFalse(split.is_error, split.content)
        texts = [claim["text"] for claim in split.structured_content["claims"]]
        self.assertTrue(texts and any("pushed the parser fix" in text for text in texts),
                        texts)
        self.assertFalse(any("Next I will" in text for text in texts), texts)

    def test_the_offline_tools_answer_in_their_schemas(self):
        with tempfile.TemporaryDirectory() as folder:
            receipt = os.path.join(folder, "receipt.json")
            with users_reader(facts=True):  # the facts decide it: no server is asked
                status, _, err = run_cli("check", "--claim", CLAIM, "--log", PUSH_OK,
                                         "--save", receipt, "--base-url", self.nowhere)
            self.assertEqual(status, 0, err)
            with open(os.path.join(EXAMPLES, "reply-real-quote.json"), encoding="utf-8") as f:
                reply = f.read()

            async def body(session):
                await session.initialize()
                return [await session.call_tool(name, arguments) for name, arguments in (
                    ("verify_reply", {"reply": reply, "log": PUSH_OK, "reader": "v6"}),
                    ("rederive_receipt", {"receipt": receipt, "log": PUSH_OK}),
                    ("rederive_receipt", {"receipt": receipt,
                                          "log": os.path.join(EXAMPLES, "push-rejected.json")}),
                    ("rederive_receipt", {"receipt": os.path.join(folder, "none.json")}))]

            verified, holds, other_log, missing = self.session(body)
        self.assertEqual((verified.structured_content["answer"],
                          verified.structured_content["quote"]),
                         ("shown", "3b2a6f1..9c41e07  fix/parser -> fix/parser"))
        self.assertEqual(holds.structured_content, {"holds": True, "differences": [],
                                                    "receipt": receipt, "log": PUSH_OK})
        self.assertFalse(other_log.structured_content["holds"])
        self.assertTrue(missing.is_error)
        self.assertIn("cannot read", missing.content[0].text)

    def test_a_claim_that_needs_the_models_is_a_tool_error_not_a_crash(self):
        async def body(session):
            await session.initialize()
            needs_models = await session.call_tool(
                "check_claim", {"claim": "I fixed the tokenizer bug",
                                "log": PUSH_OK})
            still_there = await session.call_tool("split_claims", {"message": "Done."})
            return needs_models, still_there

        needs_models, still_there = self.session(body)
        self.assertTrue(needs_models.is_error)
        self.assertIn("cannot reach the model server", needs_models.content[0].text)
        self.assertFalse(still_there.is_error)


class Pin(unittest.TestCase):
    def test_the_docs_name_the_version_ci_installs(self):
        version = pinned_version()
        for page in ("docs/mcp.md", "docs/contributing.md"):
            with open(os.path.join(ROOT, page), encoding="utf-8") as handle:
                text = handle.read()
            with self.subTest(page=page):
                self.assertRegex(text, rf"mcp(==|` ){re.escape(version)}\b")


if __name__ == "__main__":
    unittest.main()
