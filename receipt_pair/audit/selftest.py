"""Built-in probes of the quote check, the pair rules and the facts' decision table, each run
both ways.

Every rule of the quote check has a known-bad reply it must refuse and a known-good reply it
must accept; every cell of the pair table is probed under every rule. The probes are counted
so that a suite that shrinks is noticed.
"""

from dataclasses import dataclass
from typing import List

from .. import answers as an
from ..check.probes import QUOTE_PROBES
from ..check.quote import check_reply
from ..check.rules import RULES, TABLE, combine, combine_answers
from ..facts.probes import TABLE_PROBES
from ..facts.table import decide

SHOWN, NOT_SHOWN, CONTRADICTED = an.SHOWN, an.NOT_SHOWN, an.CONTRADICTED


@dataclass(frozen=True)
class Result:
    name: str
    passed: bool
    detail: str


def _probe_quote(probe):
    checked = check_reply(probe.reply, probe.shown())
    passed = checked.answer == probe.answer and checked.code == probe.code
    return Result(probe.name, passed, f"{checked.answer} ({checked.code})")


def _probe_rules():
    results = []
    for (a, b), column in TABLE.items():
        for rule, want in zip(RULES, column):
            got = combine_answers(a, b, rule)
            results.append(Result(f"{rule}: A {a} + B {b} -> {want}", got == want, got))
    # The deciding quotes are those of the models whose answer the pair took.
    a = an.CheckedAnswer("shown", "T1", "q-a", "", SHOWN, an.OK)
    b = an.CheckedAnswer("not_shown", None, "", "", NOT_SHOWN, an.MODEL_NOT_SHOWN)
    pair = combine(a, b, "r1")
    results.append(Result("r1 keeps A's quote as the deciding one",
                          [q.quote for q in pair.quotes] == ["q-a"], str(pair.quotes)))
    pair = combine(a, b, "r2")
    results.append(Result("r2 lists no quote for not shown", pair.quotes == (), str(pair.quotes)))
    # Where only the facts may contradict, the pair's contradicted is not shown, and its
    # shown stays shown.
    c = an.CheckedAnswer("contradicted", "T1", "q-c", "", CONTRADICTED, an.OK)
    for one, other, want in ((c, c, NOT_SHOWN), (a, a, SHOWN)):
        pair = combine(one, other, "r2", "facts")
        results.append(Result(f"contradictions facts: A {one.answer} + B {other.answer} -> "
                              f"{want}", (pair.answer, bool(pair.quotes)) == (
                                  want, want != NOT_SHOWN), pair.answer))
    return results


def _probe_table(probe):
    decision = decide(probe.claim, list(probe.turns))
    got = (decision.answer, decision.rule) if decision else (None, None)
    passed = got == (probe.answer, probe.rule)
    said = f"{got[0]} ({got[1]})" if decision else "left to the models"
    return Result(f"facts: {probe.name}", passed, said)


def run_probes() -> List[Result]:
    """Every probe's result: the quote check, the pair rules, then the decision table."""
    return ([_probe_quote(p) for p in QUOTE_PROBES] + _probe_rules() +
            [_probe_table(p) for p in TABLE_PROBES])
