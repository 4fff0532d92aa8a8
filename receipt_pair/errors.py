"""One exception family; each error's str() is the line a user reads.

`cli.main` catches `ReceiptPairError` once and maps its `exit_code` to the process exit
status, so no traceback reaches a user for bad input, a down server or a bad file.
"""

# Exit statuses, named once. check and gate share the answer codes (0 / 3 / 4) so that a
# script can act on either the same way.
EXIT_OK = 0
EXIT_DIFFERS = 1  # replay found a difference
EXIT_USAGE = 2  # bad arguments, or a file that does not fit the run (score's pinned items)
EXIT_NOT_SHOWN = 3
EXIT_CONTRADICTED = 4
EXIT_SELFTEST_FAILED = 4
EXIT_INPUT = 5  # a log, items, reply or answers file that cannot be read
EXIT_SERVER = 6  # the model server is down, refused, timed out or answered an error
EXIT_GATE_COULD_NOT_CHECK = 1  # spec section 5: the gate says "could not check" with 1
EXIT_CANNOT_EXECUTE = 126
EXIT_NOT_FOUND = 127


class ReceiptPairError(Exception):
    """Base class: a message for the user and the exit status that goes with it."""

    exit_code = EXIT_USAGE


class UsageError(ReceiptPairError):
    """The command line, or a combination of options, cannot be acted on."""

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
