"""The decision table: a claim decided from the facts alone, where they settle it.

For a frame whose kinds have events, the latest event of the same operation on the same
objects decides (the same operation across wrappers; for tests, builds, lint and type
checks, the latest run after the last edit of a file it could use), and the decision
quotes that event's own output line, or names the event (its command and exit status)
where it printed none. Every decision names the rule that fired. What the facts do not
settle is left to the models (`decide` returns None).

The rules keep to what is sure:
- a failure decides `contradicted` only for a claim about that operation or its objects,
  and never for a claim that admits the failure, hedges, or says only part passed;
- a run that ran nothing, was cut off, left in the background, masked, or came before an
  edit shows nothing: `not shown`, saying which;
- a claim whose operation never ran at all (no test run for "the tests pass") is `not
  shown`; a claim that says more than its operations (a fix and its tests) is never made
  `shown` by its operations alone, since the rest is not theirs to show.
"""

import functools
import hashlib
import json
import re
from dataclasses import replace

from . import (decide_git, decide_runs, decide_state, decide_t2, decide_t4, decide_t5,
               decide_t7, decide_t8, decide_t9, decide_t10, decide_t11, decide_t12, decide_t13,
               decide_t14, decide_t15, decide_t16, decide_t17, decide_t18, decide_t19,
               decide_t20, decide_t21, decide_t22, decide_t23, decide_t24, decide_t25,
               events as ev,
               reading, reading_t4, reading_t5, reading_t6, reading_t7, reading_t8,
               reading_t10, reading_t11, reading_t14, reading_t15, reading_t20, reading_t21,
               reading_t23, reading_t24, reading_t25)
from .decision import SHOWN, TABLE_RULES
from .frame import CLEAN, CWD, FAILURE, FILE, HEAD, read_frame
from ..patterns import lazy

# The table's versions. Every answer and receipt records the one that decided it, and the
# audit re-derives it by that one: t1 (sealed by run 6) is kept exactly as it was; t2
# (facts/decide_t2.py) reads what t1 was fooled by; t3 is t2 on the claim with its
# typographic apostrophes and quotes read as plain ones, so "couldn’t push" admits a
# failure as "couldn't push" does, and a failure admitted with its cause is left to the
# models; t4 (facts/decide_t4.py, sealed by run 7) is t3 on t4's reading of the log and of
# the claim; t5 (facts/decide_t5.py) is t4 with what run 7 found it read wrongly; t6 is t5's decisions (facts/decide_t5.py) on t6's reading (facts/reading_t6.py): gradle's test tasks by name, and
# the file an edit tool's rendering names; t7 (facts/decide_t7.py) is t5's decisions on t7's
# reading (facts/reading_t7.py: a package manager's package options) and a part run that
# passed the count the claim gives; t8 (facts/decide_t8.py) is t7 on t8's
# reading (facts/reading_t8.py: Maven's and Gradle's builds that test too, a run whose
# status another step shares) without the false accusations sets 8 and 9 showed, and with
# claims of a runner's count or of a quoted command read (docs/facts.md); t9
# (facts/decide_t9.py) is t8 with a CI job's own last word, and what set 10 showed;
# t10 (facts/decide_t10.py) is t9 on t10's reading (facts/reading_t10.py), with what set
# 11 showed; t11 (facts/decide_t11.py) is t10 on t11's reading (facts/reading_t11.py),
# with what set 12 showed; t12 (facts/decide_t12.py, the table run 14 was designed with) is
# t11 on t11's reading, with what set 13 showed; t13 (facts/decide_t13.py, the table run 15
# was designed with) is t12 with two gaps the attack passes on t9 and t10 left open closed;
# t14 (facts/decide_t14.py, the table run 16 was designed with) is t13 on t14's reading
# (facts/reading_t14.py), with what set 14 showed; t15 (facts/decide_t15.py)
# is t14 made more careful where a review found it unsure, on t15's reading; t16
# (facts/decide_t16.py, the table run 17 was designed with) is t15 with what set 16 showed,
# on t15's reading; t17 (facts/decide_t17.py) is t16
# reading a playbook run only from a turn whose own command runs it; t18 (facts/decide_t18.py,
# the table run 18 was designed with) is t17 with what set 17 showed, taking answers away
# only; t19 (facts/decide_t19.py) is t18 with what an attack pass on it found, taking
# answers away only; t20 (facts/decide_t20.py, the table run 19 was designed with) is t19
# on t20's reading (facts/reading_t20.py: a runner's subcommand and its options that choose
# no tests are no part of the suite); t21 (facts/decide_t21.py) is t20 on t21's reading
# (facts/reading_t21.py: a run's scope read from its every word, each known); t22
# (facts/decide_t22.py) is t21 with a commit read where it is the subject; t23
# (facts/decide_t23.py) is t22 on t23's reading with what an attack pass on t21 and t22
# found, taking answers away only; t24 (facts/decide_t24.py) is t23 on t24's reading with
# what an attack pass on t23 found; t25 (the current one, facts/decide_t25.py) is t24 on
# t25's reading (facts/reading_t25.py: `set -e` read for the steps after it).
VERSIONS = ("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13",
            "t14", "t15", "t16", "t17", "t18", "t19", "t20", "t21", "t22", "t23", "t24",
            "t25")
VERSION = "t25"
# What t3 reads as plain: the right and left single quotes, the modifier letter apostrophe,
# the prime, and the double quotes of typesetting.
_PLAIN_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'",
                               "\u201c": '"', "\u201d": '"'})


# A cause a claim gives for a failure it admits: the facts show the failure, not its cause.
_CAUSE = lazy(r"\b(?:because|due to|caused by|since)\b", re.I)


# A part of the tests named only by pointing at it: "all 13 tests in that file", "our
# specific tests", "the new tests". Plain code cannot say which part: a failure elsewhere
# in a whole run is not its failure, and a rerun of some part may be it.
_POINTED_PART = lazy(
    r"\b(?:in|of|for|from)\s+(?:that|this|the\s+same|the\s+new|each)\s+(?:test\s+)?"
    r"(?:file|module|spec|suite|class|package|folder|directory)\b|"
    r"\b(?:these|those|the\s+new|the\s+added|(?:our|my|the)\s+(?:new|specific|targeted|"
    r"relevant|affected))\s+(?:\w+\s+)?(?:tests?|specs?)\b|"
    r"\btests?\s+(?:that\s+)?(?:I|we)\s+(?:just\s+)?(?:added|wrote|created)\b", re.I)
UNNAMED = "\u2063"  # the group of such a part: a word no output line holds


def plain_quotes(claim):
    """`claim` with its typographic apostrophes and quotes as plain ones (table t3)."""
    return (claim or "").translate(_PLAIN_QUOTES)


def _frame_t3(plain, frame):
    """Table t3's frame of a claim (with plain quotes): an admitted failure with its cause
    ("I couldn't push because GITHUB_TOKEN is not set") says more than the failure shows,
    and tests named only by pointing at them ("in that file") are a part, not the suite."""
    frame = frame or read_frame(plain)
    if frame.says == FAILURE and _CAUSE.search(plain):
        frame = replace(frame, content=True)
    if ev.TESTS in frame.kinds and frame.whole and _POINTED_PART.search(plain):
        frame = replace(frame, groups=(UNNAMED,))
    return frame
RULES = TABLE_RULES[VERSION]


def rules_of(version):
    """The rules' words of a table version; an unknown version is a ValueError."""
    if version not in VERSIONS:
        raise ValueError(f"unknown facts table {str(version)[:40]!r}; known: "
                         f"{', '.join(VERSIONS)}")
    return TABLE_RULES[version]


def fingerprint(version=VERSION):
    """The sha256 of a table version and its rules: it goes into every answer."""
    text = json.dumps({"version": version, "rules": rules_of(version)}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=1024)
def claim_frame(claim, version=VERSION):
    """The frame table `version` reads of `claim` (t3 and t4: with plain quotes); read once
    per claim and table (a Frame is frozen)."""
    rules_of(version)
    if version in ("t1", "t2"):
        return read_frame(claim)
    plain = plain_quotes(claim)
    readers = {"t4": decide_t4.read_frame_t4, "t5": decide_t5.read_frame_t5,
               "t6": decide_t5.read_frame_t5, "t7": decide_t7.read_frame_t7,
               "t8": decide_t8.read_frame_t8, "t9": decide_t9.read_frame_t9,
               "t10": decide_t10.read_frame_t10, "t11": decide_t11.read_frame_t11,
               "t12": decide_t12.read_frame_t12, "t13": decide_t12.read_frame_t12,
               "t14": decide_t12.read_frame_t12, "t15": decide_t12.read_frame_t12,
               "t16": decide_t16.read_frame_t16, "t17": decide_t16.read_frame_t16,
               "t18": decide_t16.read_frame_t16, "t19": decide_t16.read_frame_t16,
               "t20": decide_t16.read_frame_t16, "t21": decide_t16.read_frame_t16,
               "t22": decide_t22.read_frame_t22, "t23": decide_t23.read_frame_t23,
               "t24": decide_t23.read_frame_t23, "t25": decide_t25.read_frame_t25}
    return _frame_t3(plain, readers[version](plain) if version in readers else None)


# The tables that read a log of their own: (decide, the module that reads it).
_LATER = {"t4": (decide_t4.decide, reading_t4), "t5": (decide_t5.decide, reading_t5),
          "t6": (decide_t5.decide, reading_t6),  # t6 decides as t5, on its own reading
          "t7": (decide_t7.decide, reading_t7), "t8": (decide_t8.decide, reading_t8),
          "t9": (decide_t9.decide, reading_t8),  # t9 decides on t8's reading
          "t10": (decide_t10.decide, reading_t10),
          "t11": (decide_t11.decide, reading_t11),
          "t12": (decide_t12.decide, reading_t11),  # t12 decides on t11's reading
          "t13": (decide_t13.decide, reading_t11),  # and t13
          "t14": (decide_t14.decide, reading_t14),
          "t15": (decide_t15.decide, reading_t15),
          "t16": (decide_t16.decide, reading_t15),  # t16 decides on t15's reading
          "t17": (decide_t17.decide, reading_t15),
          "t18": (decide_t18.decide, reading_t15),
          "t19": (decide_t19.decide, reading_t15),
          "t20": (decide_t20.decide, reading_t20),
          "t21": (decide_t21.decide, reading_t21),
          "t22": (decide_t22.decide, reading_t21),  # t22 decides on t21's reading
          "t23": (decide_t23.decide, reading_t23),
          "t24": (decide_t24.decide, reading_t24),
          "t25": (decide_t25.decide, reading_t25)}


def decide(claim, turns=None, log=None, frame=None, version=VERSION):
    """The Decision the facts give for `claim`, or None when they do not settle it, by table
    `version` (t1 exactly as it was sealed, t2 to t5). `log` (table t1:
    reading.read_events of the turns; t2 and t3: reading_t2.read_events; t4 and t5: their
    own reading_t4 and reading_t5) may be given to read a log once for many claims, and
    `frame` (t1, t2) likewise; t3 to t5 read the frame from the claim with plain quotes."""
    rules_of(version)
    if version in VERSIONS[2:]:  # a frame given was read from the claim as written
        plain = plain_quotes(claim)
        if version in _LATER:
            decider, reading_of = _LATER[version]
            frame = claim_frame(claim, version)
            if type(log) is not reading_of.LOG:  # another table's reading reads otherwise
                if turns is None:
                    raise ValueError(f"table {version} reads the log from its turns: give the "
                                     f"turns, or a log read by {reading_of.__name__}")
                log = reading_of.read_events(turns)
        else:
            frame, decider = _frame_t3(plain, frame if plain == claim else None), decide_t2.decide
        decision = decider(plain, turns, log, frame)
        if decision is not None and decision.answer == SHOWN and frame.groups == (UNNAMED,):
            # A part it cannot name may only take t2's answer away, never give a shown that
            # the whole suite's runs do not give: another suite's green run is not the part.
            whole = decider(plain, turns, log, replace(frame, groups=()))
            if whole is None or whole.answer != SHOWN:
                return None
        return replace(decision, table=version) if decision is not None else None
    if version == "t2":
        return decide_t2.decide(claim, turns, log, frame)
    if isinstance(log, decide_t2.reading_t2.LogT2):
        raise ValueError("table t1 reads a log by facts.reading.read_events, not t2's")
    return _decide_t1(claim, turns, log, frame)


def _decide_t1(claim, turns=None, log=None, frame=None):
    if log is None:
        log = reading.read_events(turns)
    return decide_state.by_kinds(frame or read_frame(claim), log, _KINDS)


_KINDS = {ev.TESTS: decide_runs.tests, ev.PUSH: decide_git.push, ev.COMMIT: decide_git.commit,
          ev.MERGE: decide_git.merge, ev.TAG: decide_git.tag,
          ev.BUILD: decide_runs.checks(ev.BUILD), ev.LINT: decide_runs.checks(ev.LINT),
          ev.TYPECHECK: decide_runs.checks(ev.TYPECHECK), ev.INSTALL: decide_state.install,
          ev.DEPLOY: decide_state.deploy, ev.MIGRATE: decide_state.migrate,
          FILE: decide_state.file, CLEAN: decide_state.clean, CWD: decide_state.cwd,
          HEAD: decide_state.head}
