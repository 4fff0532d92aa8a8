"""The pair rules: two checked answers become one, by a fixed table.

Whatever the rule, the pair says `shown` or `contradicted` only when at least one model said
it with a quote that passed the check, and it lists those quotes.
"""

from dataclasses import dataclass
from typing import Tuple

from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN

S, C, N = SHOWN, CONTRADICTED, NOT_SHOWN

# (A's answer, B's answer) -> the pair's answer, one column per rule (spec section 3; R4,
# issue 31: model A decides, and model B, asked apart, can only take A's answer away by
# saying the opposite with a checked quote).
TABLE = {
    (S, S): (S, S, S, S),
    (S, C): (N, N, N, N),
    (S, N): (S, N, N, S),
    (C, S): (N, N, N, N),
    (C, C): (C, C, C, C),
    (C, N): (C, C, N, C),
    (N, S): (S, N, N, N),
    (N, C): (C, C, N, N),
    (N, N): (N, N, N, N),
}
RULES = ("r1", "r2", "r3", "r4")
# The default rule: R3 since sealed run 12 chose the facts with R3 (F+R3), the only arm of
# its candidates within issue 31's false shown and false contradicted targets.
DEFAULT_RULE = "r3"
# The rule of the arm "answer" every sealed run's design names as its baseline (runs 6 to
# 12): R2, the default when they were designed. Scores re-derive with it, whatever the
# default is now.
SCORED_RULE = "r2"
# Who may say `contradicted`: "any" (a model's checked answer, or the facts) or "facts"
# (plain code only: a pair's `contradicted` counts as `not shown`, as the hook's
# `--contradicted block-facts` holds only the facts' contradictions against an agent).
CONTRADICTIONS = ("any", "facts")
DEFAULT_CONTRADICTIONS = "any"
RULE_NAMES = {
    "r1": "R1: one model's answer stands when the other abstains",
    "r2": "R2: shown needs both",
    "r3": "R3: agree or not shown",
    "r4": "R4: A decides, B can only veto",
}


@dataclass(frozen=True)
class Quote:
    arm: str
    turn: str
    quote: str

    def to_dict(self):
        return {"arm": self.arm, "turn": self.turn, "quote": self.quote}


@dataclass(frozen=True)
class PairAnswer:
    answer: str
    rule: str
    quotes: Tuple[Quote, ...]


def combine_answers(a, b, rule=DEFAULT_RULE):
    """The pair's answer for model A's and model B's checked answers (strings)."""
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}")
    return TABLE[(a, b)][RULES.index(rule)]


def held(answer, contradictions=DEFAULT_CONTRADICTIONS):
    """A models' answer as it stands where `contradictions` says who may contradict: under
    "facts" their `contradicted` is `not shown`; any other answer is kept."""
    return NOT_SHOWN if contradictions == "facts" and answer == CONTRADICTED else answer


def combine(a, b, rule=DEFAULT_RULE, contradictions=DEFAULT_CONTRADICTIONS):
    """Combine two CheckedAnswer objects; the deciding quotes come with the answer. Where
    only the facts may contradict (`contradictions` "facts"), the pair's `contradicted` is
    `not shown`."""
    answer = held(combine_answers(a.answer, b.answer, rule), contradictions)
    quotes = tuple(
        Quote(arm, checked.turn, checked.quote)
        for arm, checked in (("A", a), ("B", b))
        if answer != NOT_SHOWN and checked.answer == answer
    )
    return PairAnswer(answer=answer, rule=rule, quotes=quotes)
