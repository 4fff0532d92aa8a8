"""A witness log the agent cannot touch: run a command, keep what it printed.

`record_turn` runs an argument list with no shell, streams its combined output to the
terminal as it comes, and appends one turn to a JSON Lines log: the command, the output,
the exit status, UTC start and end times and the sha256 of the output bytes. The log is
only ever appended to, one whole line per record.
"""

import codecs
import hashlib
import os
import queue
import shlex
import subprocess
import threading
from dataclasses import dataclass
from typing import Optional

from .. import errors
from ..errors import InputError
from ..turn import Turn
from ..store.files import loads_strict, read_bytes
from .pins import Pin, witness_problem
from ..store.jsonl import append_record, locked, mend_last_line, open_append
from ..store.records import utc_now
from ..check.testcounts import count_tests
from ..logs.redact import redact

RECORD_SCHEMA = "receipt-pair/record/1"


def redact_record(record):
    """(a witness record with credentials in its command, argv and output replaced, how
    many were replaced)."""
    out, total = dict(record), 0
    for key in ("cmd", "output"):
        if isinstance(out.get(key), str):
            out[key], count = redact(out[key])
            total += count
    if isinstance(out.get("argv"), list):
        # The words read together, as the command line they make: `curl -u user:pass` and
        # `mysql -p secret` are secrets only beside their option.
        words = [w if isinstance(w, str) else "" for w in out["argv"]]
        joined, count = redact(shlex.join(words)) if words else ("", 0)
        if count:
            try:
                out["argv"] = shlex.split(joined)
            except ValueError:
                out["argv"] = joined.split()
            total += count
    return out, total


@dataclass
class Witness:
    """One recorded run: the turn the models will see and the record as it was written."""

    turn: Turn
    record: dict
    output_sha256: str
    record_sha256: str
    pin: Optional[Pin] = None  # the tests the run must report, when pinned

    @property
    def counts(self):
        """The tests the run's output reports (testcounts.Counts), or None if unreadable."""
        return count_tests(self.turn.output)

    @property
    def problem(self):
        """Why this run cannot back a `shown`, whatever the models say (its exit status, or
        a shortfall against its pin); None if nothing."""
        return witness_problem(self.turn.exit_status, self.pin,
                               self.counts if self.pin else None)

    def receipt_note(self, redact=True):
        """The witness block of a receipt: the record itself (so its sha256 can be derived
        again), what it says on its own, and with a pin, the counts read and the shortfall.

        With `redact`, credentials in the record's command and output are replaced as in any
        log the models see (logs/redact.py); the block then says how many, and its sha256
        is checked against the witness log rather than derived from the block."""
        status = self.turn.exit_status
        record, count = (redact_record(self.record) if redact else (self.record, 0))
        note = {
            "record": record,
            "record_sha256": self.record_sha256,
            "record_redactions": count,
            "problem": self.problem,
            "reading": (f"the recorded command exited with status {status}: the claim about "
                        "this run cannot be shown, whatever the models say" if status else
                        "the recorded command exited with status 0, which alone shows nothing"),
        }
        if self.pin is not None:
            counts = self.counts
            note.update(pin=self.pin.to_dict(), counts=counts and counts.to_dict(),
                        shortfall=self.pin.shortfall(counts))
        return note


# Output kept in a record: the first and the last half of this many bytes (what a test run
# prints first and how it ends); the middle of anything longer is left out, and says so.
MAX_RECORDED_BYTES = 16 * 1024 * 1024
# After the command exits, how long to wait for output still in the pipe. A background
# child that keeps the pipe open (`server & echo started`) does not hold `record` up.
DRAIN_SECONDS = 0.5


def _check_appendable(path, note):
    """Refuse to append to a file that is not a JSON Lines log; mend a torn last line."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    mended = mend_last_line(path)
    if mended:
        note(f"{path}: " + ("ended a complete last record that had no line break"
                            if mended == "ended" else
                            "cut an unfinished last line (a record torn by a kill)"))
    data = read_bytes(path)
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = loads_strict(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            value = None
        if not isinstance(value, dict):
            raise InputError(f"{path} line {number}: not a JSON Lines turn; a witness record "
                             "is appended only to a JSON Lines log",
                             cli_hint="give a new --log file")


class _Capture:
    """The bytes a command printed: all of them while small, else its head and its tail."""

    def __init__(self):
        self.head, self.tail, self.left_out = bytearray(), bytearray(), 0

    def add(self, chunk):
        half = MAX_RECORDED_BYTES // 2
        room = half - len(self.head)
        self.head += chunk[:max(room, 0)]
        self.tail += chunk[max(room, 0):]
        if len(self.tail) > half:
            self.left_out += len(self.tail) - half
            del self.tail[:len(self.tail) - half]

    def data(self):
        if not self.left_out:
            return bytes(self.head + self.tail)
        marker = f"\n[... {self.left_out:,} bytes left out by record ...]\n".encode()
        return bytes(self.head) + marker + bytes(self.tail)


def _stream(process, echo):
    """Copy the process's output to `echo` as it arrives; return what was captured.

    The pipe is read by a helper thread, so that once the command has exited, output a
    background child keeps writing (or a pipe it keeps open) stops the wait after
    DRAIN_SECONDS of quiet instead of holding `record` until the child ends.
    """
    chunks = queue.Queue()
    fd = process.stdout.fileno()

    def pump():
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            chunks.put(chunk)
            if not chunk:
                return

    threading.Thread(target=pump, daemon=True).start()
    capture = _Capture()
    sink = getattr(echo, "buffer", None) if echo is not None else None
    # A text stream (the command line's marked one) gets whole characters, however the
    # chunks split them.
    text = codecs.getincrementaldecoder("utf-8")("replace")
    if echo is not None:
        echo.flush()  # text already written must come before the command's bytes
    while True:
        exited = process.poll() is not None
        try:
            chunk = chunks.get(timeout=DRAIN_SECONDS if exited else 0.1)
        except queue.Empty:
            if exited:
                break
            continue
        if not chunk:
            break
        capture.add(chunk)
        if sink is not None:
            sink.write(chunk)
            sink.flush()
        elif echo is not None:
            echo.write(text.decode(chunk))
            echo.flush()
    if sink is None and echo is not None:
        echo.write(text.decode(b"", final=True))
    return capture.data()


def _run(argv, echo, env):
    """(output bytes, exit status) of `argv`, run with no shell, output and errors joined."""
    try:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=env)
    except FileNotFoundError:
        return (f"receipt-pair record: cannot start {argv[0]}: no such program\n".encode(),
                errors.EXIT_NOT_FOUND)
    except OSError as exc:
        return (f"receipt-pair record: cannot start {argv[0]}: {exc.strerror or exc}\n"
                .encode(), errors.EXIT_CANNOT_EXECUTE)
    try:
        data = _stream(process, echo)
        status = process.wait()
    finally:
        process.stdout.close()
    return data, (128 - status if status < 0 else status)


def record_turn(log_path, argv, echo=None, env=None, note=None, pin=None):
    """Run `argv`, append its record to `log_path`, and return the Witness (holding `pin`,
    the tests it must report, if given).

    The log is opened (and locked) before the command runs: a log that cannot be written
    stops here, before anything runs. If the record cannot be written after the command ran
    (a full disk), the error says the command ran and with what status.
    """
    note = note or (lambda message: None)
    _check_appendable(log_path, note)
    fd = open_append(log_path)
    try:
        with locked(fd, log_path, wait=True):
            started = utc_now()
            data, status = _run(argv, echo, env)
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
                "output_was_utf8": output.encode("utf-8", "surrogatepass") == data,
            }
            try:
                line = append_record(fd, record, log_path)
            except OSError as exc:
                raise InputError(f"{log_path}: the command ran (exit status {status}) but its "
                                 f"record could not be written: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return Witness(
        turn=Turn(cmd=record["cmd"], output=output, exit_status=status),
        record=record,
        output_sha256=record["output_sha256"],
        # The sha256 of the record's line in the log, as written (without its newline).
        record_sha256=hashlib.sha256(line.rstrip(b"\n")).hexdigest(),
        pin=pin,
    )
