"""Decision table t24: table t23 on t24's reading of the log (reading_t24.py), with what an
attack pass on t23 found (tests/data/facts/attack-t23.json): more words handed to a test
run that choose tests made a part, and three of t23's costs given back. And a failure line
read as t23 reads it, with two of its costs given back: a plural in `es` is its word only
after `x`, `z`, `ch`, `sh` or `ss` ("releases" is "release", "taxes" is "tax"), and a
failure's message begins at an error's name only where a colon follows it
(`--- FAIL: TestTaxError` names the tax tests; `KeyError: 'tax'` is a message), and not at
a TAP line's dash (`not ok 1 - tax rounding` names its test after it).
"""

import functools
import re

from . import decide_t23, reading_t24
from ..patterns import lazy

VERSION = "t24"

_MESSAGE = lazy(r"\s+-{1,2}\s|\s+\u2014\s|\s+(?:[A-Z]\w*(?:Error|Exception):|assert\b)")
_TAP = lazy(r"^\s*not ok\b")


def _singular(word):
    """A plural's `es` taken off only after x, z, ch, sh or ss, else its `s`."""
    if re.search(r"(?:x|z|ch|sh|ss)es$", word):
        return word[:-2]
    return word.removesuffix("s") or word


_group_named_failing = functools.partial(decide_t23.named_failing, singular=_singular,
                                         message=_MESSAGE, whole_line=_TAP)


def decide(claim, turns, log, frame):
    """The Decision table t24 gives for `claim` (with plain quotes; `frame`: t23's frame of
    it), or None. `log` is t24's reading of the turns."""
    return decide_t23.decide(claim, turns, log, frame, reading_t24, _group_named_failing)


def words_of(text):
    """The words of `text` as t24 reads them (decide_t23.words_of with t24's plurals)."""
    return decide_t23.words_of(text, _singular)
