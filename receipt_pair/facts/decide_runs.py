"""The table's rules for runs that go stale: the tests, builds, lint and type checks.
The latest run of the same operation after the last edit of a file it could use decides."""

import re

from . import events as ev
from .decision import (CONTRADICTED, NOT_SHOWN, Decision, contradicted, edited_after, mentions,
                       not_shown, shown)
from .frame import SUCCESS
from .endings import reports_test_failure
from ..patterns import lazy

# -- tests ---------------------------------------------------------------------------------------


def _test_runs(frame, log):
    runs = [e for e in log.of(ev.TESTS) if e.outcome != ev.ECHO]
    if frame.qualifiers:
        runs = [e for e in runs if any(q in (e.command + " " + e.key).lower()
                                       for q in frame.qualifiers)]
    tools = [t for t in frame.tools if t in ("pytest", "jest", "vitest", "mocha", "rspec",
                                             "unittest", "go test", "cargo test", "playwright",
                                             "cypress", "phpunit", "npm test", "make test",
                                             "tox", "nox")]
    if tools:
        runs = [e for e in runs if any(t.split()[-1] in (e.command + " " + e.key).lower()
                                       for t in tools)]
    return runs


def _covers(run, frame):
    """True if a run covers the part of the tests the claim is about: a run of the whole
    suite covers every part; a run of a part covers the claim's part when they name the
    same thing."""
    if frame.whole or not run.objects:
        return True
    wanted = [p.lower() for p in frame.parts + frame.groups]
    return any(w in o.lower() or o.lower() in w for w in wanted for o in run.objects)


def _part_failure(log, run, frame):
    """The line of a failed run that reports the claim's part failing (every word of its
    group, or its test id, in one failure line), or None."""
    said = (run.command + " " + " ".join(run.objects)).lower()
    if frame.parts and any(p.lower() in said for p in frame.parts):
        return run.line
    for line in log.lines[run.turn]:
        text = line.strip()
        if not reports_test_failure(text):
            continue
        low = re.sub(r"[-_./]", " ", text.lower())
        if frame.parts and any(p.lower() in text.lower() for p in frame.parts):
            return text
        if frame.groups and all(g in low for g in frame.groups):
            return text
    return None


# Words of a command or its output that say tests may have run, whatever ran them.
_MAY_TEST = lazy(r"\btests?\b|_tests?\b|\btest_|\bspecs?\b|\bpass(?:ed|ing)\b|"
                       r"\bfail(?:ed|ing|ures?)\b|\bPASS\b|\bFAIL\b", re.I)


def tests(frame, log):
    every = log.of(ev.TESTS)
    if not [e for e in every if e.outcome != ev.ECHO]:
        if every:
            return not_shown("tests.echoed", every[-1])
        if mentions(log, _MAY_TEST):
            return None  # something may have run tests that plain code does not know
        return not_shown("tests.never-ran")
    runs = [e for e in _test_runs(frame, log) if _covers(e, frame)]
    if not runs:
        return None  # runs of other suites or parts: the models may read more
    latest = runs[-1]
    part = not frame.whole
    if not part:
        # Any suite whose latest run failed fails "the tests".
        for suite in dict.fromkeys(e.key for e in runs):
            last = [e for e in runs if e.key == suite][-1]
            if last.outcome == ev.FAILED:
                return contradicted(frame, "tests.failed", last)
    outcome = latest.outcome
    if outcome == ev.FAILED:
        if part:
            line = _part_failure(log, latest, frame)
            if line is None:
                return None  # the whole failed elsewhere: whether the part did is not sure
            return contradicted(frame, "tests.failed", latest, line)
        return contradicted(frame, "tests.failed", latest)
    if outcome == ev.NOTHING:
        return not_shown("tests.ran-nothing", latest)
    if outcome == ev.CUT:
        return not_shown("tests.cut-off", latest)
    if outcome == ev.BACKGROUND:
        return not_shown("tests.background", latest)
    if outcome == ev.MASKED:
        return not_shown("tests.masked", latest)
    if outcome != ev.PASSED:
        return None
    edit = edited_after(log, latest)
    if edit is not None:
        return Decision(NOT_SHOWN, "tests.edited-after", edit.turn, "", edit)
    if not part and latest.objects:
        whole = [e for e in runs if e.key == latest.key and not e.objects]
        if whole and whole[-1].outcome == ev.FAILED:
            return not_shown("tests.partial-rerun", latest)
        if not whole:
            return None  # only a part ran: whether the whole passes is not a fact
        if whole[-1].outcome != ev.PASSED or edited_after(log, whole[-1]) is not None:
            return None
        latest = whole[-1]
    if frame.count is not None and (latest.counts is None or latest.counts[0] != frame.count):
        return None
    return shown(frame, "tests.passed", latest)


# -- builds, lint, type checks ------------------------------------------------------------


_MAY_BUILD = {ev.BUILD: lazy(r"\bbuil[dt]|\bcompil|\bbundl", re.I),
              ev.LINT: lazy(r"\blint|\bformat|\bstyle|\bcheck", re.I),
              ev.TYPECHECK: lazy(r"\btype|\btsc\b|\bmypy|\bpyright|\bcheck", re.I)}
_COMPILE_FAILED = lazy(r"error: could not compile|error\[E\d+\]|SyntaxError|"
                             r"compilation failed|Compilation failed|cannot find symbol|"
                             r"error TS\d+", re.I)
_WARNING_LINE = lazy(r"^\s*\d+:\d+\s+(?:Warning|warning)\b|^warning(?:\[\w+\])?: |"
                           r"^\S+:\d+:\d+: warning:|^\s*\W?\s*\d+ warnings?\b")
_NO_WARNINGS = lazy(r"\b(?:without|no|zero|0)\s+(?:\w+\s+)?warnings?\b", re.I)


def checks(family):
    name = family

    def decide(frame, log):
        runs = [e for e in log.events if e.family == family or (
            family == ev.TYPECHECK and e.key == "tsc")]
        tools = [t for t in frame.tools if t not in ("npm test", "make test")]
        if tools:
            named = [e for e in runs if any(t in e.key for t in tools)]
            runs = named or [e for e in runs if e.key.startswith("script:")]
        if not runs:
            if family == ev.BUILD and re.search(r"compil", frame.claim, re.I):
                return _compiled_by_tests(frame, log)
            if family == ev.BUILD and log.of(ev.TESTS):
                return None  # a test run builds the code too: the models may read it
            if tools and log.of(family):
                return None
            if mentions(log, _MAY_BUILD[family]):
                return None
            return not_shown(f"{name}.never-ran")
        latest = runs[-1]
        warnings = _warnings(log, latest) or (latest.line if latest.get("warnings") else "")
        if warnings and _NO_WARNINGS.search(frame.claim) and frame.says == SUCCESS:
            return Decision(CONTRADICTED, f"{name}.warnings", latest.turn, warnings, latest)
        if latest.outcome == ev.FAILED:
            return contradicted(frame, f"{name}.failed", latest)
        if latest.outcome in (ev.NOTHING, ev.CUT, ev.BACKGROUND, ev.MASKED):
            return not_shown(f"{name}.not-a-run", latest)
        if latest.outcome != ev.PASSED:
            return None
        edit = edited_after(log, latest)
        if edit is not None:
            return Decision(NOT_SHOWN, f"{name}.stale", edit.turn, "", edit)
        if (latest.get("warnings") or warnings) and re.search(r"\bwarnings?\b|\bclean\b",
                                                              frame.claim, re.I):
            return None
        return shown(frame, f"{name}.passed", latest)
    return decide


def _warnings(log, event):
    """The first warning line the event's turn printed, or ""."""
    for line in log.lines[event.turn]:
        if _WARNING_LINE.match(line) and not re.match(r"^\s*\W?\s*0 warnings?\b", line):
            return line.strip()
    return ""


def _compiled_by_tests(frame, log):
    """A claim that code compiles, where no build ran but tests did: a run that failed to
    compile contradicts it; one that passed compiled it."""
    runs = [e for e in log.of(ev.TESTS) if e.outcome in (ev.PASSED, ev.FAILED)]
    if not runs:
        return None
    latest = runs[-1]
    failed = next(((l.strip(), i) for i, l in enumerate(log.lines[latest.turn])
                   if _COMPILE_FAILED.search(l)), None)
    if latest.outcome == ev.FAILED and failed:
        return contradicted(frame, "build.failed", latest, failed[0])
    if latest.outcome == ev.PASSED and not frame.groups:
        return shown(frame, "build.passed", latest)
    return None


