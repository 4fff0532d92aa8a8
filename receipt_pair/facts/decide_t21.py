"""Decision table t21: table t20's decisions on t21's reading of the log (reading_t21.py): the
scope of a run of a known test runner read from every word of its command, each one known
(an option that chooses tests, joined to its value or not, makes a part; a run is whole
only where every word is known to choose none), with what an attack pass on t20 found
(tests/data/facts/attack-t20.json).

And a failure holds against a claim about a group of tests ("the tax tests pass") only
where a failure line names the group as a word of its own: every table before read the
group's letters anywhere in the line, so a failure in `test_syntax.py` was the tax tests',
`platform.test.ts` the form tests' and `TestReorderColumns` the order tests'. Where no
failure line names it, whether the group failed is not sure and the claim is left to the
models. It only takes answers away.
"""

import re

from . import decide_t20, reading_t21
from .decision import CONTRADICTED
from .endings import reports_test_failure

VERSION = "t21"

# The words of a line or a name: runs of letters and digits (`ApiKeysTab`), and the same
# split where the case turns up (`TestReorderColumns`: test, reorder, columns).
_TOKEN = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def decide(claim, turns, log, frame, reading=reading_t21, named=None):
    """The Decision table t21 gives for `claim` (with plain quotes; `frame`: t16's frame of
    it), or None. `log` is t21's reading of the turns (or `reading`'s, a later table's,
    which may give `named(log, decision, groups)`, its own reading of a group's failure)."""
    decision = decide_t20.decide(claim, turns, log, frame, reading)
    if decision is not None and decision.answer == CONTRADICTED and \
            decision.rule == "tests.failed" and frame.groups and not frame.whole and \
            not frame.parts and not (named or _group_named_failing)(log, decision,
                                                                     frame.groups):
        return None
    return decision


def words_of(text):
    """The words of `text`, whole and split where the case turns up, lower case, a plural's
    `s` taken off."""
    return {word.lower().removesuffix("s") or word.lower()
            for word in _TOKEN.findall(text) + _WORD.findall(text)}


def _group_named_failing(log, decision, groups):
    """True if a failure line of the deciding run's turn names every word of the claim's
    group as a word of its own."""
    wanted = set().union(*(words_of(group) for group in groups))
    return any(reports_test_failure(line.strip()) and wanted <= words_of(line)
               for line in log.lines[decision.turn])
