"""The command line: parsing and printing only. Imports everything below it.

`main(argv) -> int` and the parser are here; each command lives in a module of this folder
as one small `add_x` (its options) and `_cmd_x` (its I/O) pair, which parses, calls the
library and prints.

Every error of the ReceiptPairError family is caught once in `main` and becomes one line on
stderr and its named exit status. Whatever a command prints goes through `MarkedStream`, the
last guard: no raw control character but a line break or a tab reaches the terminal.
"""

import argparse
import functools
import io
import os
import sys

from .. import __version__, errors
from .check import add_check, add_gate, add_record, add_verify
from .doctor import add_doctor
from .hook import add_claims, add_hook
from .ledger import add_ledger, add_show, add_witness
from .options import message
from .runs import add_batch, add_replay, add_score, add_selftest
from ..errors import ReceiptPairError
from .visible import StreamFailed, marked_streams

# Commands whose arguments after the first "--" are a command to run, not options.
_RUNS_A_COMMAND = ("gate", "record")

_COMMANDS = (add_check, add_batch, add_score, add_verify, add_replay, add_gate,
             add_record, add_witness, add_ledger, add_show, add_hook, add_claims,
             add_doctor, add_selftest)
# Commands an agent runs as its hook: for them exit status 2 means "block", so a usage
# error exits 1 instead (the agent shows it and stops), never trapping the agent.
_RUN_AS_HOOK = ("hook",)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="receipt-pair",
        description="Does the agent's own log show that it is done? Two local models quote "
                    "the deciding output line; plain code checks every quote.")
    parser.add_argument("--version", action="version", version=f"receipt-pair {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for add in _COMMANDS:
        add(commands)
    return parser


@functools.lru_cache(maxsize=None)
def _parser():
    """The parser, built once: nothing in it reads the environment (the settings are read
    when a command runs, pair.Settings.from_environment)."""
    return build_parser()


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


def main(argv=None):
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


def _main(argv):
    bad = _not_text(argv)
    if bad:
        print(f"receipt-pair: {bad}", file=sys.stderr)
        as_hook = bool(argv) and argv[0] in _RUN_AS_HOOK
        return _not_two(errors.EXIT_USAGE) if as_hook else errors.EXIT_USAGE
    argv, command_argv = _split_command(argv)
    parser = _parser()
    as_hook = bool(argv) and argv[0] in _RUN_AS_HOOK
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help is 0, a usage error is 2
        code = exc.code if isinstance(exc.code, int) else errors.EXIT_USAGE
        return _not_two(code) if as_hook else code
    args.command_argv = command_argv
    try:
        return args.func(args)
    except ReceiptPairError as exc:
        print(f"receipt-pair: {message(exc)}", file=sys.stderr)
        return _not_two(exc.exit_code) if as_hook else exc.exit_code
    except KeyboardInterrupt:
        print("receipt-pair: interrupted; anything already written is kept", file=sys.stderr)
        return errors.EXIT_INTERRUPTED
