"""The session file as a Stop hook waits for it: whether a path can be one, and the bounded
wait for the file to catch up, which leaves the file read once (logs.read_session: its
turns, sha256 and redactions, and the agent's final message and tool calls). What a
format's records hold is logs/transcripts/'s; nothing here parses one.

The agents write their session files on their own schedule, so the hook can start before
the final message (and the commands just before it) are on disk. Nothing here prints.
"""

import os
import stat
import time

from ..errors import InputError
from ..logs import read_session, session_bytes
from ..logs.redact import redact as redact_text
from ..store.files import display_name, sha256_bytes

DEFAULT_WAIT = 5.0  # seconds the session file may lag the hook
POLL = 0.1


def session_file_problem(path):
    """Why the session file at `path` cannot be read as one (a folder, a device, a pipe, a
    name too long, ...), or None: a file that is there, or one not written yet (the agent
    may still create it). Checked before waiting, so that nothing waits on a device or a
    pipe, and nothing is written beside a path that is not a session file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return getattr(exc, "strerror", None) or str(exc)
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if not stat.S_ISREG(mode):
        return "it is not a regular file (a device, a pipe or a socket)"
    return None


def same_message(expected, found):
    """Whether the session file's last message is the one the hook was told about."""
    if found is None:
        return False
    expected, found = " ".join(expected.split()), " ".join(found.split())
    return expected == found or (bool(expected) and expected in found)


# With the final message in the hook's input, a file that has not changed for this long
# is taken as written: a sub-agent's file may never show that message at all.
SETTLE = 0.5


class Waited(tuple):
    """(the session file read once as a logs.LogRead, or None; whether it caught up), with
    `problem`, why it could not be read when it could not, and `sha256`, that of the bytes
    read last (None: none could be read)."""

    def __new__(cls, read, caught_up, problem=None, sha256=None):
        waited = super().__new__(cls, (read, caught_up))
        waited.problem, waited.sha256 = problem, sha256
        return waited


class SessionFile(tuple):
    """(path, format, session id, redact): the file a session is read from, in its format
    (one of logs' SESSION_FORMATS), the session within it where one file holds many
    (OpenCode's database), and whether credentials in it are redacted (the hook's
    --no-redact says not)."""

    def __new__(cls, path, fmt, session_id=None, redact=True):
        return super().__new__(cls, (path, fmt, session_id, redact))


def wait_for_session(session, expected, wait, clock=time.monotonic, sleep=time.sleep):
    """The session file (a SessionFile) read once (a Waited) after at most `wait` seconds.

    The agent writes its session file on its own schedule, so the hook can start before
    the final message (and the commands just before it) are on disk. Caught up means: the
    file's last message is `expected` (both redacted where the file is read redacted), or,
    with no expected message, the file ends with a message of the agent. When `expected`
    is given (the hook's input carries the final message), a file that stays the same for
    SETTLE seconds is not waited for further. The file is read again only when its bytes
    change, and what it held last is what is kept.
    """
    path, fmt, session_id, redact = session
    if redact and expected is not None:
        # The file's message is read redacted: a token in it must not make the two differ.
        expected = redact_text(expected)[0]
    deadline = clock() + max(0.0, wait)
    data, since, read, problem = None, clock(), None, None
    while True:
        try:
            now = session_bytes(path, fmt, session_id)
        except InputError as exc:
            now, read, problem = None, None, str(exc)
        if now is not None and now != data:
            read, problem = _read(now, path, fmt, redact)
            since = clock()
        data = now
        found = read.session.final_message if read is not None else None
        caught_up = same_message(expected, found) if expected is not None else \
            (found is not None and read.session.final_is_last)
        settled = data is not None and expected is not None and clock() - since >= SETTLE
        if caught_up or settled or clock() >= deadline:
            sha256 = sha256_bytes(data) if data is not None else None
            return Waited(read, caught_up, problem, sha256)
        sleep(min(POLL, max(0.0, deadline - clock())))


def _read(data, path, fmt, redact):
    """(the LogRead of the session file's bytes, None) or (None, why it cannot be read)."""
    try:
        return read_session(data, display_name(path), fmt, redact), None
    except InputError as exc:
        return None, str(exc)
