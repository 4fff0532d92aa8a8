"""The command line: parsing and printing only. Imports everything below it.

`main(argv) -> int` and the parser are here; each command lives in a module of this folder
as one small `add_x` (its options) and `_cmd_x` (its I/O) pair, which parses, calls the
library and prints.

Every error of the ReceiptPairError family is caught once in `main` and becomes one line on
stderr and its named exit status; under `--json` (every command that has it), also one JSON
object on standard output, `{"error": {"kind", "message", "exit_status"}}`, usage errors
argparse raises among them. Whatever a command prints goes through `MarkedStream`, the
last guard: no raw control character but a line break or a tab reaches the terminal.
"""

import argparse
import functools
import io
import os
import sys
from typing import Optional, Sequence

import importlib

from .. import __version__, errors
from ..errors import ReceiptPairError
from .visible import StreamFailed, marked_streams, message, print_json, visible

# Commands whose arguments after the first "--" are a command to run, not options.
_RUNS_A_COMMAND = ("gate", "record")

# Each command, in the order `--help` lists them: its module in this folder and the function
# that adds it. A run imports only its own command's module (and what that module uses), so
# the hook an agent runs at every stop does not load the batch, the page or the MCP server.
_COMMANDS = (("check", "check", "add_check"), ("batch", "runs", "add_batch"),
             ("score", "runs", "add_score"), ("verify", "check", "add_verify"),
             ("replay", "runs", "add_replay"), ("gate", "check", "add_gate"),
             ("record", "check", "add_record"), ("witness", "ledger", "add_witness"),
             ("ledger", "ledger", "add_ledger"), ("show", "ledger", "add_show"),
             ("hook", "hook", "add_hook"), ("install", "install", "add_install"),
             ("uninstall", "install", "add_uninstall"), ("claims", "hook", "add_claims"),
             ("doctor", "doctor", "add_doctor"), ("mcp", "mcp", "add_mcp"),
             ("ci", "ci", "add_ci"), ("selftest", "runs", "add_selftest"))
_NAMES = tuple(name for name, _, _ in _COMMANDS)
# Commands an agent runs as its hook: for them exit status 2 means "block", so a usage
# error exits 1 instead (the agent shows it and stops), never trapping the agent.
_RUN_AS_HOOK = ("hook",)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage error keeps its message (`usage_error` on the
    SystemExit) for the JSON error object; what it prints is argparse's own."""

    def error(self, message):
        try:
            super().error(message)
        except SystemExit as exc:
            exc.usage_error = message
            raise


def build_parser(only=None):
    """The command line's parser; with `only` (a command's name), one that knows that command
    alone, built without importing any other command's module."""
    parser = _Parser(
        prog="receipt-pair",
        description="Does the agent's own log show that it is done? Two local models quote "
                    "the deciding output line; plain code checks every quote.")
    parser.add_argument("--version", action="version", version=f"receipt-pair {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for name, module, add in _COMMANDS:
        if only is None or name == only:
            getattr(importlib.import_module(f".{module}", __name__), add)(commands)
    _describe(parser)
    return parser


def _subcommands(parser):
    """The subparsers action of `parser`, or None."""
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                None)


def _describe(parser):
    """Give every subcommand that has no description of its own the one line its parent
    lists it with, so that `COMMAND --help` says what the command does."""
    commands = _subcommands(parser)
    if commands is None:
        return
    helps = {choice.dest: choice.help for choice in commands._choices_actions}
    for name, sub in commands.choices.items():
        if not sub.description:
            sub.description = helps.get(name)
        _describe(sub)


@functools.lru_cache(maxsize=None)
def _parser(only=None):
    """The parser, built once (for one command, or all): nothing in it reads the environment
    (the settings are read when a command runs, pair.Settings.from_environment)."""
    return build_parser(only)


def _parser_for(argv):
    """The parser for `argv`: the named command's alone when argv starts with one, else the
    whole command line's (for --help, --version and usage errors)."""
    return _parser(argv[0] if argv and argv[0] in _NAMES else None)


def _split_command(argv):
    """Split off the command to run (after the first --) for gate and record."""
    if argv and argv[0] in _RUNS_A_COMMAND and "--" in argv:
        split = argv.index("--")
        return argv[:split], argv[split + 1:]
    return argv, []


def _not_two(code):
    return errors.EXIT_NO_RECEIPT if code == errors.EXIT_USAGE else code


def _not_text(argv):
    """Why the first argument that is not valid text is not, or None: a byte that was not
    UTF-8 reaches Python as a lone surrogate; a NUL byte, which no argument a shell passes
    can hold, reaches `main` only from Python, and would be a file's name the system
    refuses with a ValueError."""
    for number, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "backslashreplace").decode("ascii")
            return f"argument {number} ({shown}) is not valid UTF-8 text"
        if "\x00" in arg:
            shown = arg.encode("unicode_escape").decode("ascii")[:200]
            return (f"argument {number} ({shown}) holds a NUL byte, which no file's name or "
                    "other argument can")
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: run `argv` (default: sys.argv[1:]); return the exit status."""
    with marked_streams():
        try:
            status = _main(list(sys.argv[1:] if argv is None else argv))
            sys.stdout.flush()
            return status
        except StreamFailed as exc:
            return _stream_failed(exc)


def _stream_failed(exc):
    """Standard output or error refused a write: one line where one can still be written
    (none for a reader that went away, as `| head` does), and exit status 5."""
    if exc.name == "standard output" and not isinstance(exc.error, BrokenPipeError):
        try:
            print(f"receipt-pair: {exc}", file=sys.stderr, flush=True)
        except StreamFailed:
            pass
    try:  # what is still buffered for it must not fail again when Python exits
        fd = exc.stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
    return errors.EXIT_INPUT


def _command_parser(parser, argv):
    """The parser of the (sub)command `argv` names: `ledger verify` descends twice."""
    for word in argv:
        commands = _subcommands(parser)
        if commands is None or word not in commands.choices:
            if commands is None or not word.startswith("-"):
                break
            continue  # an option before the command's name (--version)
        parser = commands.choices[word]
    return parser


def _json_asked(argv):
    """True when `argv` gives --json to a command that has it: its error is then a JSON
    object on standard output too, even when argparse refused the rest of `argv`."""
    command = _command_parser(_parser_for(argv), argv)
    return "--json" in argv and "--json" in command._option_string_actions


def _failed(status, kind, text, json_error):
    """One error: its line on standard error (argparse has printed its own), and with
    `json_error` the JSON object on standard output; return the exit status."""
    if text is not None:
        print(f"receipt-pair: {text}", file=sys.stderr)
    if json_error:
        print_json({"error": {"kind": kind, "message": json_error, "exit_status": status}})
    return status


def _main(argv):
    bad = _not_text(argv)
    if bad:
        as_hook = bool(argv) and argv[0] in _RUN_AS_HOOK
        code = _not_two(errors.EXIT_USAGE) if as_hook else errors.EXIT_USAGE
        return _failed(code, "UsageError", bad, _json_asked(argv) and bad)
    argv, command_argv = _split_command(argv)
    as_hook = bool(argv) and argv[0] in _RUN_AS_HOOK
    try:
        args = _parser_for(argv).parse_args(argv)
    except SystemExit as exc:  # argparse: --help is 0, a usage error is 2
        code = exc.code if isinstance(exc.code, int) else errors.EXIT_USAGE
        code = _not_two(code) if as_hook else code
        usage = getattr(exc, "usage_error", None)
        return _failed(code, "UsageError", None, usage is not None and _json_asked(argv)
                       and visible(usage))
    args.command_argv = command_argv
    as_json = getattr(args, "json", False) is True
    try:
        return args.func(args)
    except ReceiptPairError as exc:
        code = _not_two(exc.exit_code) if as_hook else exc.exit_code
        return _failed(code, type(exc).__name__, message(exc), as_json and message(exc))
    except KeyboardInterrupt:
        return _failed(errors.EXIT_INTERRUPTED, "Interrupted",
                       "interrupted; anything already written is kept",
                       as_json and "interrupted; anything already written is kept")
