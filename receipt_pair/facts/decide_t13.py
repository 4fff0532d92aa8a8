"""Decision table t13: table t12's decisions on t11's reading of the log, with a gap the
attack passes on t10 left open (tests/data/facts/attack-t10.json, marked open there)
closed. It only takes an answer away (to the models). docs/facts.md says it with
examples.

A `shown` of a claim that joins another thing to what the facts read ("All tests pass and
the login works", "All tests pass, the app boots cleanly", "Tests pass (46/46) and the
feature works end to end") is the models': the run shows its part, not the rest. A part is
another thing where the frame reads no kind in it and it is a clause of its own that says
something works, runs or was done ("the login works", "I opened a PR", "CI is green"); how
the first part went ("with no warnings", "0 failing", "(46/46)") is no other thing.
A `contradicted` by a test run whose runner was not there (`jest: not found`) stays as
t9 decided it (the project's own test command fails), though an attack pass on t9 counted
it `not shown`: two readings, left open.
"""

import re

from . import decide_t12
from .decision import SHOWN
from .frame import read_frame
from ..patterns import lazy

VERSION = "t13"

# Where a claim joins a second thing to the first: "and", a comma, a dash, a semicolon, a
# new sentence.
_JOINTS = lazy(r"\s+(?:and|&)\s+|,\s+|\s+[\u2014\u2013-]+\s+|;\s+|[.!]\s+(?=[A-Z])", re.I)
# A second clause that says another thing works or was done: a subject, then a predicate
# of its own ("the login works", "I opened a PR", "the app boots cleanly", "CI is green",
# "the endpoint now paginates", "the page displays the new banner").
_ANOTHER = lazy(r"^\W*(?:(?:the|a|an|my|our|its|this|that)\s+)?(?:[\w.-]+\s+){1,4}?"
                r"(?:now\s+|also\s+|still\s+)?(?:works?|working|boots?|booting|runs?|starts?|"
                r"sends?|displays?|prints?|paginates?|loads?|renders?|responds?|succeeds?|"
                r"opened|created|fixed|is\s+(?:green|healthy|up|live|working|fixed|done|"
                r"running)|are\s+(?:green|healthy|up|live|working|fixed|done|running))\b",
                re.I)

# A part about the run itself, or a list's tail: a pronoun, a quantifier, a number, a word
# for the run ("the suite runs in 3.2 s", "they all run", "all 46 are green", "every
# package succeeds", "the doctests also succeed", "Export all succeed").
_THE_RUN = lazy(r"\b(?:it|they|them|this|that|these|those|everything|all|both|every|each|"
                r"none|one|suites?|(?:the|whole|test)\s+run|output|tests?|specs?|doctests?|"
                r"packages?|cases?|checks?|pass\w*)\b|\d", re.I)


def decide(claim, turns, log, frame):
    """The Decision table t13 gives for `claim` (with plain quotes; `frame`: t12's frame of
    it, which t13 reads too), or None. `log` is t11's reading of the turns (table.decide
    reads it once)."""
    decision = decide_t12.decide(claim, turns, log, frame)
    if decision is None:
        return None
    if decision.answer == SHOWN and _another_thing(claim):
        return None
    return decision


def _another_thing(claim):
    """True if the claim (its English words) joins to its first part a clause in which the
    frame reads no kind and that says another thing works or was done."""
    parts = [p for p in _JOINTS.split(decide_t12.in_english(claim)) if p and p.strip(" .!")]
    return any(not read_frame(part).kinds and _ANOTHER.match(part) and
               not _THE_RUN.search(part) for part in parts[1:])
