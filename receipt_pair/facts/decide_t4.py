"""Decision table t4: table t3 (t2's rules on a claim with plain quotes, a cause, a pointed
part) on t4's reading of the log (reading_t4.py), with three more readings of the claim.

What t4 reads that t3 did not (set 6's claims, development data since run 6):
- words of a build or a commit the frame missed: "Build completes successfully", "Build:
  `npm run build` - SUCCESS", "El build compiló exitosamente", "Build exitoso", "Made two
  local commits", "Local commits are made"; and "unsuccessful" admits a failure;
- a group of tests named by the runner's own name ("`cargo test` ...", "the npm tests") is
  no group: it is the runner, and the runs say which of its suites ran;
- "the changes are already pushed" claims a push before the log: that no push ran in it
  does not settle it;
- a build known only by its summary line (reading_t4.py) decides only a claim about "the
  build": "the rustc_asan crate was compiled" is not settled by a CI script's failed build;
- a claim of tests that quotes a test command of the log (in backticks) is about that
  command: where t3 leaves the claim open, the latest run of exactly that command decides
  a `shown` (it passed after the last edit, with the count the claim gives); nothing else
  is taken from it, and a claim that says more than the command (`content`), hedges or
  gives a failing count is left open.
"""

import re
from dataclasses import replace

from . import decide_t2, events as ev
from .decision import Decision, SHOWN, edited_after
from .frame import (FAILURE, SUCCESS, _has_content, _plain, _without_paths, frame_of,
                    read_frame)
from ..patterns import lazy

VERSION = "t4"

_BUILD_WORDS = lazy(
    r"\bbuild(?:s)?\b\W{0,3}(?:[\w`'\"]+\W+){0,4}?(?:success(?:ful(?:ly)?)?|succeeded|"
    r"completes?|completed|exitos[oa]s?|exitosamente|compil[óo])\b|"
    r"\bcompil(?:ed|ó|ou)\s+(?:\w+\s+){0,2}?(?:successfully|exitosamente|correctamente)\b|"
    r"\bcompilation\s+(?:succeeded|successful|passed|completed)\b", re.I)
_COMMIT_WORDS = lazy(r"\b(?:made|created)\s+(?:\w+\s+){0,2}?commits?\b|\bcommits?\s+(?:are|"
                     r"were|have\s+been)\s+(?:made|created)\b|\bcommit\s+(?:y|e|and)\s+push\b",
                     re.I)
_UNSUCCESSFUL = lazy(r"\bunsuccessful(?:ly)?\b", re.I)
# Runners' and script runners' own names: "cargo test" names the runner, not a group.
_RUNNER_WORDS = {"cargo", "npm", "npx", "yarn", "pnpm", "bun", "deno", "go", "make", "dotnet",
                 "mvn", "maven", "gradle", "pytest", "jest", "vitest", "mocha", "rspec",
                 "phpunit", "ctest", "tox", "nox", "uv", "poetry", "python", "node"}


def read_frame_t4(plain, frame=None):
    """Table t4's frame of a claim with plain quotes: t3's frame (given as `frame`, or read)
    with the kinds and groups above."""
    frame = frame or read_frame(plain)
    text = _plain(plain)
    kinds = list(frame.kinds)
    bare = _without_paths(text)
    if ev.BUILD not in kinds and _BUILD_WORDS.search(bare):
        kinds.append(ev.BUILD)
    if ev.COMMIT not in kinds and _COMMIT_WORDS.search(bare):
        kinds.append(ev.COMMIT)
    if kinds != list(frame.kinds):
        # "made two commits": the verb is the commit's own, not other work it did
        frame = replace(frame_of(frame.claim, text, kinds),
                        content=_has_content(_COMMIT_WORDS.sub(" commits ", text), kinds))
    if frame.says == SUCCESS and _UNSUCCESSFUL.search(text):
        frame = replace(frame, says=FAILURE)
    groups = tuple(g for g in frame.groups if g.strip("`'\"") not in _RUNNER_WORDS)
    if groups != frame.groups:
        frame = replace(frame, groups=groups)
    return frame


def decide(claim, turns, log, frame):
    """The Decision table t4 gives for `claim` (with plain quotes; `frame`: t4's frame of
    it), or None. `log` is t4's reading of the turns (table.decide reads it once)."""
    decision = decide_t2.decide(claim, turns, log, frame)
    if decision is not None and decision.event is not None and \
            decision.event.key == "output:build" and not _THE_BUILD.search(claim):
        return None  # a CI script's build says nothing sure of a crate or file it compiles
    if decision is not None and decision.rule == "push.never-ran" and _ALREADY.search(claim):
        return None  # "already pushed": a push before the log, which a status may show
    if decision is None:
        decision = cited(frame, log)
    return decision


_ALREADY = lazy(r"\balready\b", re.I)


# A claim about the build itself, which a build's own summary line settles.
_THE_BUILD = lazy(r"\bbuild(?:s)?\b", re.I)


_CITED = lazy(r"`([^`\n]{3,300})`")


def cited(frame, log):
    """A `shown` for a claim of tests that quotes a test command of the log whose latest run
    passed after the last edit, or None."""
    if frame.says != SUCCESS or frame.content or ev.TESTS not in frame.kinds:
        return None
    quoted = {" ".join(m.group(1).split()) for m in _CITED.finditer(frame.claim)}
    if not quoted:
        return None
    runs = [e for e in log.of(ev.TESTS) if e.command and " ".join(e.command.split()) in quoted]
    if not runs:
        return None
    latest = runs[-1]
    if latest.outcome != ev.PASSED or edited_after(log, latest) is not None:
        return None
    if frame.count is not None and (latest.counts is None or latest.counts[0] != frame.count):
        return None
    if frame.failed_count:
        return None
    return Decision(SHOWN, "tests.cited", latest.turn, latest.line, latest)
