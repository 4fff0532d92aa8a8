"""A witness log the agent cannot touch: run a command, keep what it printed.

`record_turn` runs an argument list with no shell, streams its combined output to the
terminal as it comes, and appends one turn to a JSON Lines log: the command, the output,
the exit status, UTC start and end times and the sha256 of the output bytes. The log is
only ever appended to, one whole line per record.
"""

import hashlib
import json
import os
import shlex
import subprocess
from dataclasses import dataclass

from . import errors
from .errors import InputError
from .logs import Turn
from .records import append_record, open_append, utc_now

RECORD_SCHEMA = "receipt-pair/record/1"


@dataclass
class Witness:
    """One recorded run: the turn the models will see and the record as it was written."""

    turn: Turn
    record: dict
    output_sha256: str
    record_sha256: str

    @property
    def problem(self):
        """Why this run cannot back a `shown`, whatever the models say; None if nothing."""
        status = self.turn.exit_status
        return f"exited with status {status}" if status else None

    def receipt_note(self):
        """The witness block of a receipt: the record itself (so its sha256 can be derived
        again), and what it says on its own."""
        status = self.turn.exit_status
        return {
            "record": self.record,
            "record_sha256": self.record_sha256,
            "problem": self.problem,
            "reading": (f"the recorded command exited with status {status}: the claim about "
                        "this run cannot be shown, whatever the models say" if status else
                        "the recorded command exited with status 0, which alone shows nothing"),
        }


def _check_appendable(path):
    """Refuse to append to a file that is not a JSON Lines log ending in a whole line."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not data.endswith(b"\n"):
        raise InputError(f"{path}: ends in an unfinished line; record only appends whole "
                         "lines to a JSON Lines log")
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            value = None
        if not isinstance(value, dict):
            raise InputError(f"{path} line {number}: not a JSON Lines turn; a witness record "
                             "is appended only to a JSON Lines log",
                             cli_hint="give a new --log file")


def _stream(process, echo):
    """Copy the process's output to `echo` as it arrives; return all of it as bytes."""
    chunks = []
    sink = getattr(echo, "buffer", None) if echo is not None else None
    if echo is not None:
        echo.flush()  # text already written must come before the command's bytes
    fd = process.stdout.fileno()
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
        if sink is not None:
            sink.write(chunk)
            sink.flush()
        elif echo is not None:
            echo.write(chunk.decode("utf-8", "replace"))
            echo.flush()
    return b"".join(chunks)


def record_turn(log_path, argv, echo=None, env=None):
    """Run `argv`, append its record to `log_path`, and return the Witness."""
    _check_appendable(log_path)
    started = utc_now()
    try:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=env)
    except FileNotFoundError:
        data, status = f"receipt-pair record: cannot start {argv[0]}: no such program\n", \
            errors.EXIT_NOT_FOUND
        data = data.encode("utf-8")
    except OSError as exc:
        data = f"receipt-pair record: cannot start {argv[0]}: {exc.strerror or exc}\n"
        data, status = data.encode("utf-8"), errors.EXIT_CANNOT_EXECUTE
    else:
        with process:
            data = _stream(process, echo)
            status = process.wait()
        status = 128 - status if status < 0 else status
    ended = utc_now()
    output = data.decode("utf-8", "replace")
    record = {
        "schema": RECORD_SCHEMA,
        "cmd": shlex.join(argv),
        "argv": list(argv),
        "output": output,
        "exit_status": status,
        "started": started,
        "ended": ended,
        "output_sha256": hashlib.sha256(data).hexdigest(),
        "output_was_utf8": output.encode("utf-8") == data,
    }
    fd = open_append(log_path)
    try:
        line = append_record(fd, record)
    finally:
        os.close(fd)
    return Witness(
        turn=Turn(cmd=record["cmd"], output=output, exit_status=status),
        record=record,
        output_sha256=record["output_sha256"],
        # The sha256 of the record's line in the log, as written (without its newline).
        record_sha256=hashlib.sha256(line.rstrip(b"\n")).hexdigest(),
    )
