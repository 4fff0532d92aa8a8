"""The Model Context Protocol server over stdio. Imports hooks and below, never cli.

`serve(stdin, stdout, settings)` answers an MCP client (an agent's host) on two byte
streams: protocol.py (JSON-RPC 2.0, one message a line, the protocol's methods and errors),
tools.py (the tools: check_claim, verify_reply, rederive_receipt, split_claims, each a
library call), arguments.py (a tool's arguments checked against its own schema).
`cli/mcp.py` only gives it standard input and output.
"""

from .protocol import PROTOCOL_VERSIONS, Server, serve
from .tools import TOOLS

__all__ = ["PROTOCOL_VERSIONS", "Server", "TOOLS", "serve"]
