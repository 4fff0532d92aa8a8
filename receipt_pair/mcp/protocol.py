"""The Model Context Protocol over a pair of byte streams: JSON-RPC 2.0, one message a line
(the stdio transport), answered one request at a time, in order.

    from receipt_pair.mcp import serve
    serve(sys.stdin.buffer, sys.stdout.buffer)   # until standard input ends

What it answers: `initialize` (the client's protocol version where this server speaks it,
else its latest), `ping`, `tools/list` and `tools/call`; any other request is -32601, so a
client that probes a newer revision first (`server/discover`) falls back to `initialize`.
Notifications are never answered: `notifications/initialized` needs nothing, and a
`notifications/cancelled` can only name a request already answered, since requests are
answered in order. A line that is not JSON is -32700, a message that is not a request
-32600, params that do not fit -32602; a tool's own failure (a file it cannot read, a
model server that is down) is its result with `isError` true and the error's line. No
request's failure stops the server: only the end of its input does.

Everything written is ASCII JSON, one message a line, so a string from a log reaches the
client as the same string and no terminal ever sees a control character of it.
"""

import json
import re
import traceback
from typing import BinaryIO, Callable, Optional

from .. import __version__
from ..errors import ReceiptPairError
from ..pair.settings import Settings
from ..store.files import loads_strict
from .arguments import argument_problem
from .tools import TOOLS
from ..patterns import lazy

NAME = "receipt-pair"
# The revisions this server speaks, newest first: each begins with initialize and has
# tools/list and tools/call. A later revision only adds what a tool says and returns.
PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
LATEST = PROTOCOL_VERSIONS[0]
ANNOTATIONS_SINCE = "2025-03-26"
STRUCTURED_SINCE = "2025-06-18"  # a tool's title and outputSchema, a result's structuredContent

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

# No request this server takes is near this long; past it a line is refused, not held.
MAX_LINE_BYTES = 16 * 1024 * 1024

INSTRUCTIONS = (
    "Before you tell the user that work is finished, check each claim against your own "
    "log: split_claims finds the claims of finished work in the message you are about to "
    "send, check_claim says whether the log or session file shows each one (shown), "
    "contradicts it, or does not show it, with the lines that decide. Claim only what is "
    "shown; fix or rerun what is contradicted; say plainly what is not shown.")


class ProtocolError(Exception):
    """A request this server cannot act on: a JSON-RPC error code and its message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def error_reply(request_id, code, message):
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _is_id(value):
    # MCP: a string or an integer, never null; a bool is no integer to JSON.
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _id_of(message):
    value = message.get("id") if isinstance(message, dict) else None
    return value if _is_id(value) else None


class Server:
    """One client's session: the protocol version it agreed, and the settings every check
    starts from (the server's command line and environment; a call may change its reader,
    its rule and whether the facts decide first)."""

    def __init__(self, settings=None, note=None):
        self.settings = (settings or Settings()).checked()
        self.version = LATEST
        self.note = note or (lambda line: None)
        self.methods = {"initialize": self.initialize, "ping": self.ping,
                        "tools/list": self.list_tools, "tools/call": self.call_tool}

    def receive(self, line):
        """The replies to one line of input (bytes, without its line break): none, one
        message, or one batch of them."""
        try:
            message = loads_strict(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            return [error_reply(None, PARSE_ERROR, f"Parse error: {exc}")]
        if not isinstance(message, list):
            reply = self.handle(message)
            return [] if reply is None else [reply]
        if not message:
            return [error_reply(None, INVALID_REQUEST, "Invalid Request: an empty batch")]
        replies = [reply for reply in map(self.handle, message) if reply is not None]
        return [replies] if replies else []

    def handle(self, message):
        """The reply to one JSON-RPC message, or None for a notification or a reply."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return error_reply(_id_of(message), INVALID_REQUEST,
                               "Invalid Request: not a JSON-RPC 2.0 message")
        if "method" not in message:
            if "id" in message and ("result" in message or "error" in message):
                return None  # a reply, and this server sends no request to match it to
            return error_reply(_id_of(message), INVALID_REQUEST, "Invalid Request: no method")
        method = message["method"]
        if not isinstance(method, str):
            return error_reply(_id_of(message), INVALID_REQUEST,
                               "Invalid Request: the method must be a string")
        if "id" not in message:
            return None  # a notification is never answered, whatever it names
        request_id = message["id"]
        if not _is_id(request_id):
            return error_reply(None, INVALID_REQUEST,
                               "Invalid Request: the id must be a string or an integer")
        handler = self.methods.get(method)
        if handler is None:
            return error_reply(request_id, METHOD_NOT_FOUND, f"Method not found: {method}")
        params = message.get("params", {})
        if not isinstance(params, dict):
            return error_reply(request_id, INVALID_PARAMS,
                               "Invalid params: params must be an object")
        try:
            return {"jsonrpc": "2.0", "id": request_id, "result": handler(params)}
        except ProtocolError as exc:
            return error_reply(request_id, exc.code, str(exc))
        except Exception:  # a fault of this server's own: that request fails, not the server
            self.note(f"{method} failed:\n{traceback.format_exc().rstrip()}")
            return error_reply(request_id, INTERNAL_ERROR,
                               "Internal error (the server's standard error says where)")

    # -- the methods ----------------------------------------------------------------------

    def initialize(self, params):
        asked = params.get("protocolVersion")
        if not isinstance(asked, str):
            raise ProtocolError(INVALID_PARAMS, "Invalid params: initialize needs "
                                                "protocolVersion, a string")
        self.version = asked if asked in PROTOCOL_VERSIONS else LATEST
        return {"protocolVersion": self.version,
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": NAME, "version": __version__},
                "instructions": INSTRUCTIONS}

    def ping(self, params):
        return {}

    def list_tools(self, params):
        return {"tools": [self.describe(tool) for tool in TOOLS.values()]}  # one page: all

    def describe(self, tool):
        """What tools/list says of `tool`, in the words the agreed revision has."""
        described = {"name": tool.name, "description": tool.description,
                     "inputSchema": tool.input_schema}
        if self.version >= ANNOTATIONS_SINCE:  # the revisions are dates: they sort
            described["annotations"] = {"title": tool.title, "readOnlyHint": True,
                                        "destructiveHint": False, "idempotentHint": True,
                                        "openWorldHint": False}
        if self.version >= STRUCTURED_SINCE:
            described.update(title=tool.title, outputSchema=tool.output_schema)
        return described

    def call_tool(self, params):
        name = params.get("name")
        if not isinstance(name, str):
            raise ProtocolError(INVALID_PARAMS, "Invalid params: tools/call needs name, a "
                                                "string")
        tool = TOOLS.get(name)
        if tool is None:
            raise ProtocolError(INVALID_PARAMS, f"Unknown tool: {name!r}; known: "
                                                f"{', '.join(TOOLS)}")
        arguments = params.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            raise ProtocolError(INVALID_PARAMS, "Invalid params: arguments must be an object")
        problem = argument_problem(tool.input_schema, arguments)
        if problem:
            return self.tool_error(name, problem)
        try:
            structured = tool.run(arguments, self.settings)
        except ReceiptPairError as exc:  # its line is what the agent reads
            return self.tool_error(name, str(exc))
        except Exception as exc:  # a fault of this server's own: said, never a crash
            self.note(f"{name} failed:\n{traceback.format_exc().rstrip()}")
            return self.tool_error(name, f"internal error: {type(exc).__name__}: {exc}")
        result = {"content": [{"type": "text", "text": json.dumps(structured, indent=2,
                                                                  ensure_ascii=False)}],
                  "isError": False}
        if self.version >= STRUCTURED_SINCE:
            result["structuredContent"] = structured
        return result

    def tool_error(self, name, line):
        self.note(f"{name}: {line}")
        return {"content": [{"type": "text", "text": line}], "isError": True}


# -- the stdio transport ------------------------------------------------------------------

_LONE_SURROGATE = lazy("[\ud800-\udfff]")
_NOT_ASCII = lazy("[^\x00-\x7e]")  # DEL too, which JSON would leave raw


def _escape(match):
    code = ord(match.group(0))
    if code > 0xFFFF:  # JSON spells a character past the BMP as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def frame(message):
    """`message` as one line of ASCII JSON, its line break included: json.dumps escapes
    the line breaks and C0 controls, and every other character past ASCII is written as its
    \\u escape (outside strings JSON is ASCII, so only strings hold one). A lone surrogate
    (no text, and no client reads it) becomes U+FFFD."""
    text = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    text = _LONE_SURROGATE.sub("\ufffd", text)
    return _NOT_ASCII.sub(_escape, text).encode("ascii") + b"\n"


def read_lines(stdin):
    """Each non-blank line of `stdin` (a byte stream), without its line break; None for a
    line longer than MAX_LINE_BYTES, which is skipped to its end."""
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stdin.readline(MAX_LINE_BYTES)
            yield None
            continue
        line = line.rstrip(b"\r\n")
        if line.strip():
            yield line


def serve(stdin: BinaryIO, stdout: BinaryIO, settings: Optional[Settings] = None,
          note: Optional[Callable[[str], None]] = None) -> None:
    """Serve the Model Context Protocol on `stdin` and `stdout` (byte streams) until the
    input ends or the client goes away. `settings`: what every check starts from (default:
    Settings()); `note(line)`: where the server's log goes (never `stdout`)."""
    server = Server(settings, note)
    for line in read_lines(stdin):
        if line is None:
            replies = [error_reply(None, PARSE_ERROR, f"Parse error: a message longer than "
                                                      f"{MAX_LINE_BYTES} bytes")]
        else:
            replies = server.receive(line)
        for reply in replies:
            try:
                data = frame(reply)
            except (TypeError, ValueError):  # a fault of this server's own, said
                server.note(f"a reply could not be written:\n{traceback.format_exc()}")
                data = frame(error_reply(_id_of(reply), INTERNAL_ERROR, "Internal error"))
            try:
                stdout.write(data)
                stdout.flush()
            except (OSError, ValueError):  # the client closed its end: nobody to answer
                return
