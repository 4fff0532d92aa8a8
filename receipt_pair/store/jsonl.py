"""JSON Lines, the format of every file receipt-pair appends to (answers files, ledgers,
witness logs) and of the agents' session files it reads: the one place its rules live.

- Lines are split at "\n" only: JSON keeps U+2028, U+2029 and U+0085 inside strings, and
  `str.splitlines` would cut a record at them.
- A writer appends one whole line with one system call, under an exclusive lock, so two
  writers never interleave; every record is strict JSON the readers here read back.
- A last line with no line break after it is one a writer had not finished when the file
  was read (a kill, a session still being written). A reader takes it when it parses as a
  whole record and otherwise leaves it out and says so; a writer that appends after it
  first ends it (whole) or cuts it (torn), so it never joins the next record.
- Files that are replaced (a receipt, a pin, a page) are written to a temporary file and
  renamed; only a regular file is ever written or replaced (a device such as /dev/full, a
  pipe or a folder is refused, each one line).
"""

import contextlib
import json
import os
import stat
import tempfile

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

from ..errors import InputError
from .files import check_path, loads_strict


def split_lines(data):
    """([(line number, line)] of the lines that end in a line break, blank ones left out;
    the last line when it has none (number, line), or None). `data` is text or bytes."""
    newline = b"\n" if isinstance(data, bytes) else "\n"
    lines = data.split(newline)
    last = lines.pop()
    ended = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    return ended, ((len(lines) + 1, last) if last.strip() else None)


def whole_lines(data, parses, torn=None):
    """[(line number, line)] of `data`'s records: every ended line, and a last line with no
    line break only when `parses(line)` (a whole record written without its break); a last
    line that does not parse is left out and, when `torn` is a list, added to it."""
    lines, last = split_lines(data)
    if last is not None:
        if parses(last[1]):
            lines.append(last)
        elif torn is not None:
            torn.append(last)
    return lines


def is_record(line):
    """True if `line` (text or UTF-8 bytes) is one whole JSON object."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        return isinstance(loads_strict(text), dict)
    except (UnicodeDecodeError, ValueError):
        return False


def cannot_write(path, exc, what="", kept=""):
    """The one-line InputError for a write to `path` the system refused: `what` was being
    written, `kept` what is kept all the same."""
    folder = os.path.dirname(os.path.abspath(path))
    if isinstance(exc, IsADirectoryError):
        reason = "it is a directory, not a file"
    elif isinstance(exc, FileNotFoundError) and not os.path.isdir(folder):
        reason = (f"its folder {folder} does not exist; create it first (receipt-pair writes "
                  "into an existing folder, and creates none but a receipts folder)")
    else:
        reason = exc.strerror or str(exc)
    return InputError(f"{path}: cannot write{' ' + what if what else ''}: {reason}"
                      + (f"; {kept}" if kept else ""))


def make_folder(path, what="the folder"):
    """Create the folder `path` itself when it is not there, and never a folder above it:
    a folder whose parent does not exist is an InputError saying so. A hook is run with
    paths from an agent's input; creating their parents made folders anywhere, as root at
    the root of the disk."""
    check_path(path)
    if os.path.isdir(path):
        return path
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InputError(f"{path}: cannot create {what}: its parent folder {parent} does not "
                         "exist, and receipt-pair creates only the folder it was given, "
                         "never the folders above it")
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise InputError(f"{path}: cannot create {what}: a file of that name is "
                             "there") from None
    except OSError as exc:
        raise cannot_write(path, exc, what) from None
    return path


def record_bytes(value, path, what="the record", indent=None):
    """`value` as the UTF-8 JSON text of a record, which `files.loads_strict` reads back; an
    InputError naming `path` and `what` for a value JSON text cannot hold."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False,
                          indent=indent).encode("utf-8")
    except UnicodeEncodeError:
        problem = "a lone surrogate, which is not text"
    except ValueError:  # allow_nan=False: NaN or Infinity
        problem = "a number that is not finite (NaN or Infinity), which is not JSON"
    except RecursionError:
        problem = "values nested too deeply"
    raise InputError(f"{path}: nothing was written: {what} holds {problem}")


def append_record(fd, record, path="the file"):
    """Append one record as one whole line with a single write; return the line's bytes.

    A record that cannot be written as JSON is an InputError before anything is written; a
    write the system refuses (a full disk) is an OSError for the caller to name."""
    line = record_bytes(record, path) + b"\n"
    written = os.write(fd, line)
    if written != len(line):  # a regular file takes it all; anything else is an error
        raise OSError(f"short write ({written} of {len(line)} bytes)")
    return line


def _not_a_file(path, what=""):
    """The InputError for a `path` that exists and is not a regular file, else None: a
    record is never written to a folder, a device (/dev/full, /dev/zero) or a pipe, which
    could not be read back, and never replaces one. A name that can be no file's (a NUL
    byte) is a UsageError."""
    check_path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return cannot_write(path, exc, what)
    if stat.S_ISREG(mode):
        return None
    return cannot_write(path, IsADirectoryError() if stat.S_ISDIR(mode) else OSError(
        "it is not a regular file (a device or a pipe); give a file name"), what)


def open_append(path):
    """A file descriptor appending to `path` (created if missing); an InputError saying why
    not (a directory, a device, a folder that does not exist, no permission)."""
    problem = _not_a_file(path)
    if problem:
        raise problem
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise cannot_write(path, exc) from None


@contextlib.contextmanager
def locked(fd, path, wait=False):
    """Hold an exclusive lock on the open file `fd` (two writers never interleave).

    With `wait`, block until the lock is free (two hooks appending to one ledger); without,
    a file another process holds is an InputError at once (two batch runs on one file would
    ask every question twice).
    """
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise InputError(f"{path}: another receipt-pair process is writing to it; let it "
                             "finish (or stop it), then run this again") from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    else:  # Windows: lock the first byte, the same for every writer
        mode = msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK
        position = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, mode, 1)
        except OSError:
            raise InputError(f"{path}: another receipt-pair process is writing to it") from None
        finally:
            os.lseek(fd, position, os.SEEK_SET)
        try:
            yield
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def mend_last_line(path):
    """Make a file of records end in a whole line: a complete last record written without its
    newline gets one; an unfinished one (a write cut by a kill) is cut off. Return what was
    done ("", "ended", "cut"). A path that cannot be mended (a folder) is an InputError."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return ""
    if size == 0:
        return ""
    try:
        return _mend(path)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def _mend(path):
    with open(path, "rb+") as handle:
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) == b"\n":
            return ""
        handle.seek(0)
        data = handle.read()
        start = data.rfind(b"\n") + 1
        if is_record(data[start:]):
            handle.seek(0, os.SEEK_END)
            handle.write(b"\n")
            return "ended"
        handle.truncate(start)
    return "cut"


def write_atomic(path, data, what):
    """Replace `path` with `data` (bytes) through a temporary file and a rename; an
    InputError naming `what` ("the receipt") when it cannot be done, with nothing left
    behind. Only a regular file (or a new one) is replaced."""
    problem = _not_a_file(path, what)
    if problem:
        raise problem
    try:
        fd, temp = tempfile.mkstemp(prefix=".receipt-pair-", dir=os.path.dirname(
            os.path.abspath(path)))
    except OSError as exc:
        raise cannot_write(path, exc, what) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException as exc:
        if os.path.exists(temp):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise cannot_write(path, exc, what) from None
        raise


def write_json_atomic(path, value, what="the record"):
    """Write `value` as JSON to `path` through a temporary file and a rename (`write_atomic`);
    a value that cannot be written is an InputError before anything is."""
    write_atomic(path, record_bytes(value, path, what, indent=2) + b"\n", what)


def append_text(path, text, what="the text"):
    """Append `text` as UTF-8 to `path` (created if missing), as the files a CI runner hands
    a step take it (GitHub's step summary and step outputs); an InputError naming `what`
    when it cannot be written. Only a regular file (or a new one) is written."""
    fd = open_append(path)
    data = text.encode("utf-8", "backslashreplace")
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError as exc:
        raise cannot_write(path, exc, what) from None
    finally:
        os.close(fd)
