"""Check c4's rule: a model's quote and the facts can never disagree about what ran.

The facts (facts/) read every turn the reader read. Where they decide the claim, a model's
`shown` stands only if they say shown, and its `contradicted` only if they say
contradicted. Where they do not decide it, a quote still cannot stand on a turn whose run
the facts read as showing nothing: a `shown` from a run that ran nothing, only echoed
text, was cut off, left running or masked, and a `contradicted` from a run that was cut
off or left running. Like every rule of the check, this one only takes answers away.
"""

import functools

from ..facts import events as ev
from ..facts.frame import read_frame
from ..facts.reading import read_events
from ..facts.table import decide

# Outcomes of a run that show nothing a model may quote for the claim.
_NOT_FOR_SHOWN = (ev.NOTHING, ev.ECHO, ev.CUT, ev.BACKGROUND, ev.MASKED)
_NOT_FOR_CONTRADICTED = (ev.CUT, ev.BACKGROUND)


@functools.lru_cache(maxsize=64)
def _facts(claim, turns):
    """(the Log of `turns`, the Decision of `claim` or None), read once per claim and log."""
    log = read_events(list(turns))
    return log, decide(claim, log=log, frame=read_frame(claim))


def disagrees(verdict, claim, turns, index):
    """True if the facts refuse a model's `verdict` quoted from turn `index` of `turns` (every
    turn the reader read)."""
    log, decision = _facts(claim, tuple(turns))
    if decision is not None:
        return decision.answer != ("shown" if verdict == "shown" else "contradicted")
    kinds = set(read_frame(claim).kinds)
    here = [e for e in log.at(index) if e.family in kinds or e.family == ev.COMMAND]
    if not here:
        return False
    banned = _NOT_FOR_SHOWN if verdict == "shown" else _NOT_FOR_CONTRADICTED
    return all(e.outcome in banned for e in here)
