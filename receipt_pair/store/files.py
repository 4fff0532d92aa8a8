"""Reading the files a user names, safely: bounded, never hanging, never a traceback.

Every input (log, items, reply, answers, receipt, ledger) is read through `read_bytes`
and, where it is JSON, `loads_strict`. A file larger than MAX_INPUT_BYTES, a device that
never ends (`/dev/zero`), a named pipe nobody writes to, invalid UTF-8, JSON nested beyond
reason and text with a lone surrogate are each one clear `InputError`.
"""

import errno
import hashlib
import json
import os
import select
import stat
import sys
import time

from ..errors import InputError, UsageError

# No log, items or answers file a person would check is this large; past it, reading
# stops (a device that never ends, a runaway log) with an error naming the limit.
MAX_INPUT_BYTES = 128 * 1024 * 1024
# How long a named pipe may wait for its writer before it counts as having none.
PIPE_WRITER_WAIT = 5.0
_CHUNK = 1 << 20


def display_name(path):
    return "standard input" if path == "-" else str(path)


def _too_large(name):
    return InputError(f"{name}: larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB, the most "
                      "receipt-pair reads; give a shorter file (or the part that matters)")


def _read_stream(handle, name):
    chunks, size = [], 0
    while True:
        chunk = handle.read(_CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_INPUT_BYTES:
            raise _too_large(name)
        chunks.append(chunk)


def _read_pipe(path, name):
    """A named pipe, read without blocking on a writer that never comes."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        chunks, size, started, got_any = [], 0, time.monotonic(), False
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:  # a writer is there and has nothing yet
                select.select([fd], [], [], 0.5)
                continue
            if chunk:
                got_any = True
                size += len(chunk)
                if size > MAX_INPUT_BYTES:
                    raise _too_large(name)
                chunks.append(chunk)
                continue
            if got_any:
                return b"".join(chunks)
            # No writer yet: wait a little for one (`--log <(command)` opens it a moment late).
            if time.monotonic() - started > PIPE_WRITER_WAIT:
                raise InputError(f"{name}: a named pipe with no writer (waited "
                                 f"{PIPE_WRITER_WAIT:g} s)")
            time.sleep(0.05)
    finally:
        os.close(fd)


def path_problem(path):
    """Why `path` can name no file on this system (a NUL byte, text the file system cannot
    encode), or None. The system refuses such a name with a ValueError, not an OSError,
    so every path is asked this before it is used."""
    if "\x00" in str(path):
        return "it holds a NUL byte, which no file's name can"
    try:
        os.fsencode(path)
    except (UnicodeError, TypeError):
        return "the file system cannot encode it"
    return None


def check_path(path):
    """`path`, or a UsageError naming it when it can name no file (`path_problem`)."""
    problem = path_problem(path)
    if problem:
        raise UsageError(f"{path!r} is not a file's name: {problem}")
    return path


def read_bytes(path):
    """The bytes of `path`, or of standard input when `path` is "-", at most MAX_INPUT_BYTES."""
    name = display_name(path)
    if path == "-":
        return _read_stream(sys.stdin.buffer, name)
    check_path(path)
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{name}: is a directory, not a file")
        if stat.S_ISFIFO(mode) and hasattr(os, "O_NONBLOCK"):
            return _read_pipe(path, name)
        with open(path, "rb") as handle:
            return _read_stream(handle, name)
    except OSError as exc:
        if exc.errno == errno.EISDIR:
            raise InputError(f"{name}: is a directory, not a file") from None
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None


def decode(data, name):
    """UTF-8 text of `data` (a leading byte-order mark is dropped); bad bytes are an error."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{name} line {line}: not valid UTF-8 (byte {exc.start}: {data[exc.start]:#04x})"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def loads_strict(text):
    """One JSON value from `text`; ValueError for anything that is not plain JSON text:
    NaN and Infinity, nesting too deep to parse, a lone surrogate ("\\ud800") in a string."""

    def no_constants(value):
        raise ValueError(f"{value} is not JSON")

    try:
        value = json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if "\\u" in text or "\\U" in text:
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a string holds a lone surrogate, which is not text") from None
        except RecursionError:
            raise ValueError("nested too deeply") from None
    return value


def read_json(path):
    """The one JSON value of the file at `path` (a receipt, a saved reply): an InputError
    naming the file when it is not plain JSON text."""
    name = display_name(path)
    try:
        return loads_strict(decode(read_bytes(path), name))
    except ValueError as exc:
        raise InputError(f"{name}: not valid JSON: {exc}") from None


def json_lines(text):
    """(line number, line) for each line of a JSON Lines text, split at "\\n" only.

    JSON keeps U+2028, U+2029 and U+0085 inside strings; `str.splitlines` would cut a
    record at them, so they are never line breaks here.
    """
    for number, line in enumerate(text.split("\n"), 1):
        yield number, line.rstrip("\r")
