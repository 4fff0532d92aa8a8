"""The command that serves the Model Context Protocol: `mcp`, over standard input and
output, its log on standard error (receipt_pair/mcp/ is the server)."""

import contextlib
import sys

from .. import errors
from ..mcp import PROTOCOL_VERSIONS, TOOLS, serve
from .options import add_model_options, print_flush, settings_from


def add_mcp(commands):
    p = commands.add_parser(
        "mcp", help="serve the Model Context Protocol over stdio: tools an agent asks "
                    "before it claims",
        description="Serve the Model Context Protocol over standard input and output, for "
                    "an agent's host to start (docs/mcp.md): tools to check a claim against "
                    "a log, verify a saved reply, re-derive a receipt and split a message "
                    "into claims. The options give what every check starts from; a call may "
                    "name its reader and rule. Files are only read.")
    add_model_options(p)
    p.set_defaults(func=_cmd_mcp)


def _cmd_mcp(args):
    settings = settings_from(args).checked()  # a bad option stops it here, not in a call
    note(f"serving {', '.join(TOOLS)} over standard input and output (MCP "
         f"{PROTOCOL_VERSIONS[0]}); this log is on standard error")
    # Standard output carries the protocol alone: anything else printed goes to the log.
    with contextlib.redirect_stdout(sys.stderr):
        serve(sys.stdin.buffer, sys.__stdout__.buffer, settings, note)
    return errors.EXIT_OK


def note(line):
    print_flush(f"receipt-pair mcp: {line}", sys.stderr)
