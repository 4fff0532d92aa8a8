"""Reading an agent's log into plain turns.

A log is a list of turns, oldest first. The format is told from the content, never from
the file's name: JSON (a list of turns or an object with a "turns" list), JSON Lines (one
turn per line), JUnit XML (one turn per test case, then one summary turn per suite), or
plain text (the whole file is one turn's output). Anything malformed is an `InputError`
naming the file and, where it applies, the line.
"""

import hashlib
import json
import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Optional

from .errors import InputError

# A JSON log starts with a list of objects or an object with a quoted key. Plain text that
# merely starts with a bracket ("[INFO] starting") stays plain text.
_JSON_START = re.compile(r'\A\s*(?:\[\s*(?:\{|\]|\Z)|\{\s*(?:"|\}|\Z))')
_XML_START = re.compile(r"\A\s*<(?:\?xml|testsuites?[\s>/])")


@dataclass(frozen=True)
class Turn:
    """One step of the agent: the command it ran and what the command printed."""

    cmd: str = ""
    output: str = ""
    exit_status: Optional[int] = None  # only a witness record (`record`) knows it


def read_bytes(path):
    """The bytes of `path`, or of standard input when `path` is "-"."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def display_name(path):
    return "standard input" if path == "-" else str(path)


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


def read_log(path):
    """Read the log at `path` ("-" for standard input); return (turns, sha256 of its bytes)."""
    data = read_bytes(path)
    name = display_name(path)
    return parse_log(data, name), sha256_bytes(data)


def parse_log(data, name="log"):
    """Turns from the bytes of a log file, whatever its format."""
    text = decode(data, name)
    if not text.strip():
        raise InputError(f"{name}: the log is empty")
    if _XML_START.match(text):
        turns = _parse_junit(data, name)
    elif _JSON_START.match(text):
        turns = _parse_json_log(text, name)
    else:
        turns = [Turn(output=text)]
    if not turns:
        raise InputError(f"{name}: the log holds no turns")
    return turns


def _json_error(name, exc, line_offset=0):
    line = exc.lineno + line_offset
    return InputError(f"{name} line {line} column {exc.colno}: not valid JSON: {exc.msg}")


def loads_strict(text):
    """json.loads that refuses NaN and Infinity, which are not JSON."""

    def no_constants(value):
        raise ValueError(f"{value} is not JSON")

    return json.loads(text, parse_constant=no_constants)


def _parse_json_log(text, name):
    try:
        data = loads_strict(text)
    except ValueError as whole_error:
        lines = text.splitlines()
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        try:
            first_value = loads_strict(lines[first]) if first is not None else None
        except ValueError:
            first_value = None
        if not isinstance(first_value, dict):
            if isinstance(whole_error, json.JSONDecodeError):
                raise _json_error(name, whole_error) from None
            raise InputError(f"{name}: not valid JSON: {whole_error}") from None
        return _parse_json_lines(lines, name)
    if isinstance(data, list):
        return [turn_from_json(t, f"{name} turn {i}") for i, t in enumerate(data, 1)]
    if isinstance(data, dict):
        if "turns" in data:
            if not isinstance(data["turns"], list):
                raise InputError(f"{name}: 'turns' must be a list of turns")
            return [turn_from_json(t, f"{name} turn {i}") for i, t in enumerate(data["turns"], 1)]
        if set(data) & {"cmd", "output"}:  # JSON Lines with a single turn
            return [turn_from_json(data, f"{name} line 1")]
        raise InputError(f"{name}: a JSON object log needs a 'turns' list")
    raise InputError(f"{name}: a JSON log must be a list of turns or an object with 'turns'")


def _parse_json_lines(lines, name):
    turns = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            value = loads_strict(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where} column {exc.colno}: not valid JSON: {exc.msg}") from None
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON: {exc}") from None
        turns.append(turn_from_json(value, where))
    return turns


def kind_of(value):
    return {dict: "an object", list: "a list", bool: "true/false", int: "a number", str: "a string",
            float: "a number"}.get(type(value), type(value).__name__)


def turn_from_json(value, where):
    """A `Turn` from one decoded JSON value; `where` names it in errors."""
    if not isinstance(value, dict):
        raise InputError(f"{where}: a turn must be an object with 'cmd' and 'output', "
                         f"not {kind_of(value)}")
    fields = {}
    for key in ("cmd", "output"):
        text = value.get(key)
        if text is None:  # missing or null: an empty field
            text = ""
        if not isinstance(text, str):
            raise InputError(f"{where}: '{key}' must be a string, not {kind_of(text)}")
        fields[key] = text
    status = value.get("exit_status")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
        raise InputError(f"{where}: 'exit_status' must be a whole number, not {kind_of(status)}")
    return Turn(cmd=fields["cmd"], output=fields["output"], exit_status=status)


def _parse_junit(data, name):
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, column = exc.position
        message = str(exc).split(":")[0]
        raise InputError(f"{name} line {line} column {column + 1}: not valid XML: {message}")
    if root.tag not in ("testsuites", "testsuite"):
        raise InputError(f"{name}: XML, but not JUnit XML (the root is <{root.tag}>, "
                         "not <testsuites> or <testsuite>)")
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    turns = []
    for suite in suites:
        counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
        cases = [child for child in suite if child.tag == "testcase"]
        for case in cases:
            turn, outcome = _junit_case(case)
            counts[outcome] += 1
            turns.append(turn)
        if cases:
            suite_name = suite.get("name") or "testsuite"
            total = len(cases)
            turns.append(Turn(
                cmd=f"junit summary of {suite_name}",
                output=(f"{total} tests: {counts['passed']} passed, {counts['failed']} failed, "
                        f"{counts['errors']} errors, {counts['skipped']} skipped"),
            ))
    return turns


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
