"""Reading an agent's log into plain turns. Imports store and the top.

A log is a list of turns, oldest first. The format is told from the content, never from
the file's name: an agent's session file (Claude Code, Codex, Gemini CLI, OpenHands,
mini-swe-agent, SWE-agent, GitHub Actions; see transcripts/), JUnit XML (one turn per test
case, nested suites included, then one summary turn per suite, an error where the suite's
own counts disagree with its cases), JSON (a list of turns or an object with a "turns"
list), JSON Lines (one turn per line), or plain text (the whole file is one turn's output).
`fmt` forces one. Anything malformed is an `InputError` naming the file and, where it
applies, the line. A JSON Lines log still being written (a torn last line) is read up to
its last whole record, and the torn line is reported.
"""

import json
import os
import re
from dataclasses import replace
from typing import List, Optional, Union

from . import transcripts
from ..errors import InputError
from ..store.files import decode, display_name, json_lines, loads_strict, read_bytes, sha256_bytes
from ..store.jsonl import whole_lines
from .folders import read_folder
from .redact import REDACTOR_VERSION, redact as redact_text, redact_turns
from ..turn import Turn, kind_of, turn_from_json  # noqa: F401 (read from here too)
from ..patterns import lazy

# A JSON log starts with a list of objects or an object with a quoted key. Plain text that
# merely starts with a bracket ("[INFO] starting") stays plain text.
_JSON_START = lazy(r'\A\s*(?:\[\s*(?:\{|\]|\Z)|\{\s*(?:"|\}|\Z))')
_XML_START = lazy(r"\A\s*<(?:\?xml|testsuites?[\s>/])")
# The formats a user may name with --format, besides the agents' own.
TURN_FORMATS = ("turns", "junit", "text")
FORMATS = TURN_FORMATS + transcripts.FORMATS


class LogRead(tuple):
    """(turns, sha256 of the file's bytes), with `redactions`, how many secrets were replaced
    in the turns (redact.py), and `name`, the file's as a receipt names it. Read by
    `read_session` from an agent's session file, it also has `session`, what else that one
    read found (a transcripts.Session: the agent's final message, whether anything came
    after it, its tool calls; its turns are these)."""

    redactions: int
    name: Optional[str]
    session: Optional["transcripts.Session"]
    redactor: Optional[str]

    def __new__(cls, turns: List[Turn], sha256: str, redactions: int = 0,
                name: Optional[str] = None, session: Optional["transcripts.Session"] = None,
                redactor: Optional[str] = None) -> "LogRead":
        read = super().__new__(cls, (turns, sha256))
        read.redactions, read.name, read.session = redactions, name, session
        read.redactor = redactor  # the redactor version that read it (None: not redacted)
        return read

    @property
    def turns(self) -> List[Turn]:
        return self[0]

    @property
    def sha256(self) -> str:
        return self[1]



def read_log(path: str, fmt: Optional[str] = None, warnings: Optional[List[str]] = None,
             redact: Union[bool, str] = True) -> LogRead:
    """Read the log at `path` ("-" for standard input, or a folder an agent writes its log
    in); return (turns, sha256 of its bytes) as a LogRead, which also says how many secrets
    were redacted. A folder's sha256 pins its files read in order (folders.py).

    `fmt` forces a format (one of FORMATS); `warnings`, a list, gets a line for anything
    skipped (a torn last line of a log still being written). `redact`: replace credentials
    in the turns before anything else sees them (the sha256 is still the file's own): True
    with the current redactor, or a redactor version (a receipt's log read again as it was
    read then), or False.
    """
    if path != "-" and os.path.isdir(path):
        # An agent that keeps its log as a folder (OpenHands' events, a GitHub Actions
        # archive's step files): read in the agent's order, never the listing's.
        turns, sha256 = read_folder(path, fmt)
    else:
        data = read_bytes(path)
        turns, sha256 = parse_log(data, display_name(path), fmt, warnings), sha256_bytes(data)
    version = redactor_version(redact)
    count = 0
    if version:
        turns, count = redact_turns(turns, version)
    return LogRead(turns, sha256, count, display_name(path), redactor=version)


def redactor_version(redact):
    """The redactor version `redact` names: True the current one, False none."""
    if redact is True:
        return REDACTOR_VERSION
    return redact or None


def log_notes(read, warnings=()):
    """The lines a person is told of a log read (a LogRead): anything skipped (`warnings`,
    as read_log gave them) and how many credentials were replaced."""
    lines = list(warnings)
    if read.redactions:
        lines.append(f"{read.redactions} credential(s) in the log replaced by [REDACTED] "
                     "before the models saw it")
    return lines


def session_bytes(path, fmt, session_id=None):
    """The bytes of the session at `path` in format `fmt`, as read_session reads them: the
    file's own, or, for an agent that keeps its sessions in a database (OpenCode), the
    session `session_id` exported from it."""
    exported = transcripts.exported(fmt, path, session_id)
    return exported if exported is not None else read_bytes(path)


def read_session(data, name, fmt, redact=True):
    """An agent's session file (its bytes) in format `fmt` (one of transcripts'
    SESSION_FORMATS), read once: a LogRead of its turns whose `session` says what else the
    read found. Its turns may be none: the agent made no tool call at all
    (`session.holds_no_command`), or `session.problem` says why. Anything malformed is an
    InputError."""
    if fmt not in FORMATS:
        raise InputError(f"unknown log format {fmt!r}; known: {', '.join(FORMATS)}")
    text = decode(data, name)
    if not text.strip():
        raise InputError(f"{name}: the log is empty")
    session = transcripts.read_session(text, name, fmt)
    version = redactor_version(redact)
    turns, count = redact_turns(session.turns, version) if version else (session.turns, 0)
    final = session.final_message
    if version and final:  # the agent's own words reach the models and the notice too
        final, more = redact_text(final, version)
        count += more
    return LogRead(turns, sha256_bytes(data), count, name,
                   replace(session, turns=turns, final_message=final), version)


def detect_format(text):
    """The format of a log's text, told from its content."""
    if _XML_START.match(text):
        return "junit"
    agent = transcripts.detect(text)
    if agent:
        return agent
    return "turns" if _JSON_START.match(text) else "text"


def parse_log(data, name="log", fmt=None, warnings=None):
    """Turns from the bytes of a log file, whatever its format."""
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown log format {fmt!r}; known: {', '.join(FORMATS)}")
    text = decode(data, name)
    if not text.strip():
        raise InputError(f"{name}: the log is empty")
    fmt = fmt or detect_format(text)
    if fmt == "junit":
        turns = _parse_junit(data, name)
    elif fmt == "turns":
        turns = _parse_json_log(text, name, warnings)
    elif fmt == "text":
        turns = [Turn(output=text)]
    else:
        turns = transcripts.read_transcript(text, name, fmt)
    if not turns:
        raise InputError(f"{name}: the log holds no turns")
    return turns


def _json_error(name, exc):
    return InputError(f"{name} line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}")


def _parse_json_log(text, name, warnings):
    try:
        data = loads_strict(text)
    except ValueError as whole_error:
        first = next((line for _, line in json_lines(text) if line.strip()), "")
        try:
            first_value = loads_strict(first)
        except ValueError:
            first_value = None
        if not isinstance(first_value, dict):
            if isinstance(whole_error, json.JSONDecodeError):
                raise _json_error(name, whole_error) from None
            raise InputError(f"{name}: not valid JSON: {whole_error}") from None
        return _parse_json_lines(text, name, warnings)
    if isinstance(data, list):
        return [turn_from_json(t, f"{name} turn {i}") for i, t in enumerate(data, 1)]
    if isinstance(data, dict):
        if "turns" in data:
            if not isinstance(data["turns"], list):
                raise InputError(f"{name}: 'turns' must be a list of turns")
            return [turn_from_json(t, f"{name} turn {i}") for i, t in enumerate(data["turns"], 1)]
        if set(data) & {"cmd", "output"}:  # JSON Lines with a single turn
            return [turn_from_json(data, f"{name} line 1")]
        raise InputError(f"{name}: a JSON object log needs a 'turns' list (or, for an agent's "
                         f"session file, a format it can be read as: {', '.join(FORMATS)})")
    raise InputError(f"{name}: a JSON log must be a list of turns or an object with 'turns'")


def _parse_json_lines(text, name, warnings):
    turns = []
    torn = []
    for number, line in whole_lines(text, _parses, torn):
        where = f"{name} line {number}"
        line = line.rstrip("\r")
        try:
            value = loads_strict(line)
        except ValueError as exc:
            if isinstance(exc, json.JSONDecodeError):
                raise InputError(f"{where} column {exc.colno}: not valid JSON: {exc.msg}") \
                    from None
            raise InputError(f"{where}: not valid JSON: {exc}") from None
        turns.append(turn_from_json(value, where))
    if torn and warnings is not None:
        # The writer was stopped mid-line (a kill, or a session still being written).
        warnings.append(f"{name} line {torn[0][0]}: an unfinished last line was skipped")
    return turns


def _parses(line):
    try:
        loads_strict(line.rstrip("\r"))
        return True
    except ValueError:
        return False


# The suite's own counts, checked against the test cases read (outcome each one counts).
_JUNIT_COUNTS = (("tests", None), ("failures", "failed"), ("errors", "errors"),
                 ("skipped", "skipped"))
_WHOLE_NUMBER = lazy(r"\A\d{1,9}\Z")
# The status of a summary whose suite's counts disagree with its test cases: the file is
# incomplete or altered, so it must not pass for a clean run.
JUNIT_MISMATCH_STATUS = 1


def _parse_junit(data, name):
    import xml.etree.ElementTree as ET  # only a JUnit report is XML: a hook's start skips it

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, column = exc.position
        message = str(exc).split(":")[0]
        raise InputError(f"{name} line {line} column {column + 1}: not valid XML: {message}")
    if root.tag not in ("testsuites", "testsuite"):
        raise InputError(f"{name}: XML, but not JUnit XML (the root is <{root.tag}>, "
                         "not <testsuites> or <testsuite>)")
    turns = []
    frames = []  # one per open <testsuite>/<testsuites>: [element, counts, direct cases]
    for event, element in _junit_walk(root):
        if element.tag == "testcase":
            turn, outcome = _junit_case(element)
            turns.append(turn)
            if frames:
                frames[-1][1][outcome] += 1
                frames[-1][2] += 1
            continue
        if element.tag not in ("testsuite", "testsuites"):
            continue  # properties, system-out, a wrapper: its test cases count for the suite
        if event == "start":
            frames.append([element, {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}, 0])
            continue
        suite, counts, direct = frames.pop()
        if frames:  # a nested suite's cases count for every suite around it too
            for outcome, number in counts.items():
                frames[-1][1][outcome] += number
        summary = _junit_summary(suite, counts, direct)
        if summary is not None:
            turns.append(summary)
    return turns


def _junit_walk(root):
    """("start" | "end", element) in document order, test cases as one "start" each, with
    no recursion: a suite nested thousands deep is read, not a RecursionError."""
    yield "start", root
    path, children = [root], [iter(root)]
    while children:
        child = next(children[-1], None)
        if child is None:
            children.pop()
            yield "end", path.pop()
        else:
            yield "start", child
            if child.tag != "testcase":
                path.append(child)
                children.append(iter(child))


def _junit_summary(suite, counts, direct):
    """The summary turn of a suite, or None: after a <testsuite>'s cases (its nested suites'
    included), after a <testsuites> only when it holds cases itself; always when the suite's
    own counts disagree with the cases read."""
    suite_name = suite.get("name") or suite.tag
    total = sum(counts.values())
    disagree = _junit_disagreements(suite, counts, total)
    if disagree:
        return Turn(cmd=f"junit summary of {suite_name}", exit_status=JUNIT_MISMATCH_STATUS,
                    output=(f"ERROR: the counts of {suite_name} disagree with its test cases: "
                            f"it says {', '.join(disagree)}; the file holds {total} tests "
                            f"({counts['passed']} passed, {counts['failed']} failed, "
                            f"{counts['errors']} errors, {counts['skipped']} skipped)"))
    if not (direct if suite.tag == "testsuites" else total):
        return None
    return Turn(cmd=f"junit summary of {suite_name}",
                output=(f"{total} tests: {counts['passed']} passed, {counts['failed']} failed, "
                        f"{counts['errors']} errors, {counts['skipped']} skipped"))


def _junit_disagreements(suite, counts, total):
    """The suite's count attributes that differ from the cases read, as 'tests=3'."""
    found = []
    for attribute, outcome in _JUNIT_COUNTS:
        value = suite.get(attribute)
        if value is None:
            continue
        expected = total if outcome is None else counts[outcome]
        value = value.strip()
        if not _WHOLE_NUMBER.match(value):
            found.append(f"{attribute}={value[:20]!r}")
        elif int(value) != expected:
            found.append(f"{attribute}={value}")
    return found


def _junit_case(case):
    """One test case as a turn: the command names the test, the output holds its outcome."""
    classname = case.get("classname") or ""
    test = f"{classname}::{case.get('name', '')}" if classname else case.get("name", "")
    seconds = case.get("time")
    timing = f" ({seconds}s)" if seconds else ""
    for tag, word, outcome in (("failure", "FAILED", "failed"), ("error", "ERROR", "errors"),
                               ("skipped", "SKIPPED", "skipped")):
        child = case.find(tag)
        if child is not None:
            message = (child.get("message") or "").strip()
            lines = [f"{word} {test}{timing}" + (f": {message}" if message else "")]
            body = (child.text or "").strip("\n")
            if body.strip():
                lines.append(body)
            return Turn(cmd=f"test {test}", output="\n".join(lines)), outcome
    return Turn(cmd=f"test {test}", output=f"PASSED {test}{timing}"), "passed"


def __getattr__(name):
    # receipts/dev-pair-choice/pairs.py, a sealed file, imports read_items from here; items
    # files now have their own module, reached lazily so the two modules do not import
    # each other.
    if name == "read_items":
        from .items import read_items

        return read_items
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
