"""One exception family; each error's str() is the line a user reads.

`cli.main` catches `ReceiptPairError` once and maps its `exit_code` to the process exit
status, so no traceback reaches a user for bad input, a down server or a bad file. Messages
name no command-line flags (Python callers read them too); an error may carry a
`cli_hint` ("pass --allow-remote") that the command line adds after the message.
"""

from typing import Any, Optional

# Exit statuses: each number means one thing, whatever the command (README, "Exit statuses").
EXIT_OK = 0
# No receipt to rely on: the gate could not check (a model call failed, the log could not
# be read), or a recorded receipt or answer does not re-derive (replay, verify, ledger).
EXIT_NO_RECEIPT = 1
EXIT_USAGE = 2  # the arguments, or the files they name, do not fit together
EXIT_NOT_SHOWN = 3  # the gate: the pair says not shown
EXIT_CONTRADICTED = 4  # the gate: the pair says contradicted
EXIT_INPUT = 5  # a log, items, reply, receipt or answers file that cannot be read
EXIT_SERVER = 6  # the model server is down, refused, timed out or answered an error
EXIT_SELFTEST_FAILED = 7  # a probe of the quote check or the pair rules failed
EXIT_SETUP = 8  # doctor: a check of the set-up found a problem
EXIT_CANNOT_EXECUTE = 126  # the gate: shown, but the command cannot be started
EXIT_NOT_FOUND = 127  # the gate: shown, but the command cannot be found
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as shells report it


class ReceiptPairError(Exception):
    """Base class: a message for the user and the exit status that goes with it."""

    exit_code = EXIT_USAGE
    cli_hint: Optional[str] = None  # what to do about it on the command line, if anything

    def __init__(self, message: str = "", cli_hint: Optional[str] = None) -> None:
        super().__init__(message)
        if cli_hint is not None:
            self.cli_hint = cli_hint


class UsageError(ReceiptPairError):
    """The call, or a combination of options, cannot be acted on."""

    exit_code = EXIT_USAGE


class InputError(ReceiptPairError):
    """A file the user gave cannot be read as what it should be (log, items, reply...)."""

    exit_code = EXIT_INPUT


class MismatchError(ReceiptPairError):
    """Files that must belong together do not (an answers file made for other items)."""

    exit_code = EXIT_USAGE


class ServerError(ReceiptPairError):
    """The model server could not be reached or answered with an error."""

    exit_code = EXIT_SERVER


class ServerUnreachable(ServerError):
    """Nothing was asked: the server is not there (refused, unresolvable, gone)."""


class ModelCallFailed(ServerError):
    """A model could not be asked; `result` holds the pair's result with that model's row."""

    def __init__(self, message: str, result: Any = None,
                 cli_hint: Optional[str] = None) -> None:
        super().__init__(message, cli_hint)
        self.result = result
