"""Logs that are folders. Imports store and the top (through transcripts).

Two agents keep a log as a folder of files: OpenHands keeps one event per file in a
session's `events/` folder (V0 `<id>.json`, V1 `event-<index>-<uuid>.json`), and a GitHub
Actions log archive keeps each job's steps as `<job>/<n>_<step>.txt`. The files are read
in the agent's order (the event id, the step number), never in the order a directory
listing gives (`10.json` before `2.json`). Every file is read with `read_bytes` (bounded,
no devices, no hanging pipes), and all of them together are held to the size one log may
have. See docs/formats.md.
"""

import hashlib
import os
import re

from ..errors import InputError
from ..store.files import MAX_INPUT_BYTES, decode, read_bytes
from .transcripts import github_actions, openhands
from .transcripts._common import loads
from ..patterns import lazy

_V0_EVENT = lazy(r"\A(\d{1,12})\.json\Z")
_V1_EVENT = lazy(r"\Aevent-(\d{1,12})-[^/]*\.json\Z")
_STEP_FILE = lazy(r"\A(\d{1,6})_(.+)\.txt\Z")
FOLDER_FORMATS = ("openhands", "github-actions")


def read_folder(path, fmt=None):
    """(turns, sha256) of the log folder at `path`.

    The sha256 pins every file read, in order: for each, its name, its length and its bytes.
    """
    name = str(path)
    if fmt is not None and fmt not in FOLDER_FORMATS:
        raise InputError(f"{name}: a folder, which can be read only as "
                         f"{' or '.join(FOLDER_FORMATS)}, not {fmt}")
    events = _openhands_events(path) if fmt in (None, "openhands") else []
    if events:
        files = _read_all(events)
        numbered = [(file_name, loads(decode(data, file_name), file_name))
                    for file_name, data in files]
        if openhands.looks_like_events([event for _, event in numbered]):
            return openhands.read_events(numbered, name), _sha256(files)
    steps = _step_files(path) if fmt in (None, "github-actions") else []
    if steps:
        files = _read_all(steps)
        turns = [github_actions.read_step(decode(data, file_name), file_name)
                 for file_name, data in files]
        turns = [t for t in turns if t is not None]
        if not turns:
            raise InputError(f"{name}: the GitHub Actions step logs hold no commands (no "
                             "step file with a 'Run' step)")
        return turns, _sha256(files)
    wanted = {"openhands": "an OpenHands session (events/<id>.json, one event per file)",
              "github-actions": "a GitHub Actions job's step logs (<n>_<step>.txt)"}
    kinds = [wanted[fmt]] if fmt else list(wanted.values())
    raise InputError(f"{name}: a folder, but not {' or '.join(kinds)}; name a log file, "
                     "or the folder an agent wrote")


def _ordered(folder, pattern, keep=lambda match: True):
    """The files of `folder` whose names `pattern` matches (and `keep` accepts), ordered
    by the number the pattern's first group holds; [] when there are none."""
    try:
        entries = os.listdir(folder)
    except OSError as exc:
        raise InputError(f"{folder}: cannot read the folder: {exc.strerror or exc}") from None
    found = []
    for entry in entries:
        match = pattern.match(entry)
        if match and keep(match) and os.path.isfile(os.path.join(folder, entry)):
            found.append((int(match.group(1)), entry))
    return [os.path.join(folder, entry) for _, entry in sorted(found)]


def _openhands_events(path):
    """The event files of an OpenHands session folder (or of its events folder), ordered
    by event id: V0's `<id>.json`, else V1's `event-<index>-<uuid>.json`."""
    folder = os.path.join(path, "events")
    if not os.path.isdir(folder):
        folder = path
    return _ordered(folder, _V0_EVENT) or _ordered(folder, _V1_EVENT)


def _step_files(path):
    """The step files of a job's folder in a GitHub Actions log archive, ordered by step
    number. `<n>_<folder name>.txt` is the whole job's log (an archive unpacked into one
    folder), not a step."""
    job = os.path.basename(os.path.normpath(path))
    return _ordered(path, _STEP_FILE, lambda match: match.group(2) != job)


def _read_all(paths):
    """[(file name, bytes)], all of them together no larger than one log may be."""
    files, size = [], 0
    for file_path in paths:
        data = read_bytes(file_path)
        size += len(data)
        if size > MAX_INPUT_BYTES:
            raise InputError(f"{os.path.dirname(file_path)}: its files are larger than "
                             f"{MAX_INPUT_BYTES // (1024 * 1024)} MiB together, the most "
                             "receipt-pair reads")
        files.append((file_path, data))
    return files


def _sha256(files):
    digest = hashlib.sha256()
    for file_path, data in files:
        digest.update(f"{os.path.basename(file_path)}\0{len(data)}\0".encode("utf-8"))
        digest.update(data)
    return digest.hexdigest()
