"""Pinned tests: how many tests a verifying run must report, fixed before it runs.

A green run over 3 of 10 tests is green. A pin says "10 tests, at most 0 skipped"; a
witness run that reports fewer tests, skips more, or prints no count that can be read,
cannot back a `shown`, whatever the models say (`witness_problem`). An expected failure
(xfail, expectedFailure) is not a pass: it counts with the skips against what the pin
allows, so tests turned into expected failures cannot stand in for passing ones. A pin comes from
`gate --expect-tests N` or from a pin file that `witness pin` writes from a JUnit report
or from pytest's collection (`pytest --collect-only -q`).
"""

import re
from dataclasses import asdict, dataclass
from typing import Optional

from .. import __version__
from ..errors import InputError
from ..store.files import decode, loads_strict, read_bytes, sha256_bytes
from ..check.testcounts import count_junit
from ..patterns import lazy

PIN_SCHEMA = "receipt-pair/pin/1"

_COLLECTED = lazy(r"^(?:=+ )?(\d+)(?:/\d+)? tests? collected\b")
_COLLECTED_VERBOSE = lazy(r"^collected (\d+) items?\b")
_COLLECT_ERRORS = lazy(r"\b\d+ errors?\b|^ERROR\b|^E\s", re.M)
_NODE_ID = lazy(r"^\S+::\S")
_FILE_COUNT = lazy(r"^(\S+\.py): (\d+)$")  # pytest --collect-only -qq


@dataclass(frozen=True)
class Pin:
    """What a verifying run must report: at least `tests` tests, at most `skipped` skipped."""

    tests: int
    skipped: int = 0  # skips and expected failures allowed, together
    source: str = ""  # where the numbers came from, for a person reading the receipt
    source_sha256: Optional[str] = None

    def to_dict(self):
        return asdict(self)

    def shortfall(self, counts):
        """How far a run's Counts (or None: no count read) fall short of the pin."""
        if counts is None:
            return {"tests": self.tests, "skipped": 0}
        return {"tests": max(self.tests - counts.tests, 0),
                "skipped": max(not_passing(counts) - self.skipped, 0)}


def not_passing(counts):
    """The tests of a run that neither passed nor failed: skipped, or expected to fail."""
    return counts.skipped + counts.expected_failures


def _tests(n):
    return f"{n} test" if n == 1 else f"{n} tests"


def pin_problem(pin, counts):
    """Why a run with `counts` does not meet `pin`, or None. Read as "the witness run ..."."""
    if pin is None:
        return None
    if counts is None:
        return (f"printed no test count that can be read, so it cannot meet the pin of "
                f"{_tests(pin.tests)}")
    problems = []
    if counts.tests < pin.tests:
        problems.append(f"reported {_tests(counts.tests)}, {pin.tests - counts.tests} fewer "
                        f"than the {pin.tests} pinned")
    if not_passing(counts) > pin.skipped:
        if not counts.expected_failures:
            problems.append(f"skipped {_tests(counts.skipped)}, more than the {pin.skipped} "
                            "the pin allows")
        else:
            what = [f"skipped {_tests(counts.skipped)}"] if counts.skipped else []
            what.append(f"expected {_tests(counts.expected_failures)} to fail")
            problems.append(f"{' and '.join(what)}, more than the {pin.skipped} the pin "
                            "allows to skip or to fail as expected")
    return ", and ".join(problems) or None


def witness_problem(exit_status, pin=None, counts=None):
    """Why a witness run cannot back a `shown` (its exit status, its pin), or None."""
    problems = []
    if exit_status:
        problems.append(f"exited with status {exit_status}")
    pinned = pin_problem(pin, counts)
    if pinned:
        problems.append(pinned)
    return ", and ".join(problems) or None


def pin_from_junit(data, name, allow_skipped=None):
    """A Pin from a JUnit report: its test cases, and as many skipped (or expected to fail)
    as it had."""
    counts = count_junit(data, name)
    if counts.tests < 1:
        raise InputError(f"{name}: the report holds no test cases; there is nothing to pin")
    skipped = not_passing(counts) if allow_skipped is None else allow_skipped
    return Pin(counts.tests, skipped, f"junit {name}", sha256_bytes(data))


def pin_from_collection(data, name, allow_skipped=None):
    """A Pin from `pytest --collect-only -q` (or -qq, or plain) output: the tests collected.

    A collection with errors pins nothing: the tests it could not import would be missing.
    """
    text = decode(data, name)
    lines = [line.strip() for line in text.splitlines()]
    if _COLLECT_ERRORS.search(text) or any(line.startswith("ERROR ") for line in lines):
        raise InputError(f"{name}: the collection reports errors; fix them before pinning, or "
                         "the tests that failed to import are left out of the pin")
    tests = None
    for line in lines:
        match = _COLLECTED.match(line) or _COLLECTED_VERBOSE.match(line)
        if match:
            tests = int(match.group(1))
    if tests is None:
        node_ids = sum(1 for line in lines if _NODE_ID.match(line))
        per_file = [int(m.group(2)) for m in map(_FILE_COUNT.match, lines) if m]
        tests = node_ids or sum(per_file) or None
    if not tests:
        raise InputError(f"{name}: no tests collected (or not pytest --collect-only output); "
                         "there is nothing to pin")
    return Pin(tests, allow_skipped or 0, f"pytest --collect-only {name}", sha256_bytes(data))


def pin_file_record(pin, time):
    """The pin file's JSON object."""
    return {"schema": PIN_SCHEMA, "tests": pin.tests, "skipped": pin.skipped,
            "source": pin.source, "source_sha256": pin.source_sha256, "time": time,
            "package_version": __version__}


def read_pin(path, name=None):
    """The Pin a pin file holds; an InputError naming the file when it is not one."""
    name = name or str(path)
    try:
        value = loads_strict(decode(read_bytes(path), name))
    except ValueError as exc:
        raise InputError(f"{name}: not valid JSON: {exc}") from None
    return pin_from_record(value, name)


def pin_from_record(value, name="pin"):
    """A Pin from a pin file's object or a receipt's witness block; InputError if malformed."""
    if not isinstance(value, dict):
        raise InputError(f"{name}: not a pin (a JSON object)")
    if "schema" in value and value["schema"] != PIN_SCHEMA:
        raise InputError(f"{name}: not a receipt-pair pin (schema must be {PIN_SCHEMA!r})")
    tests, skipped = value.get("tests"), value.get("skipped", 0)
    for key, number in (("tests", tests), ("skipped", skipped)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise InputError(f"{name}: '{key}' must be a whole number, 0 or more")
    if tests < 1:
        raise InputError(f"{name}: a pin of 0 tests pins nothing")
    source, sha = value.get("source", ""), value.get("source_sha256")
    if not isinstance(source, str) or not (sha is None or isinstance(sha, str)):
        raise InputError(f"{name}: 'source' and 'source_sha256' must be text")
    return Pin(tests, skipped, source, sha)
