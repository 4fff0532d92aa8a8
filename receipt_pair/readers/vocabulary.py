"""The words each version of the quote check reads lines by: the current check's
(check/evidence.py, which c3 to c7 share: each later one adds rules, not words), and the frozen
words of the sealed checks c1 and c2 (legacy/), loaded
the first time an answer sealed with one of them is judged, so that no new question loads
them.
"""

from collections.abc import Mapping
from importlib import import_module

from ..check import evidence
from ..check.quote import CHECKS, CURRENT_CHECK

_CURRENT_WORDS = ("c3", "c4", "c5", "c6", CURRENT_CHECK)
_FROZEN = {"c1": "receipt_pair.legacy.evidence_c1", "c2": "receipt_pair.legacy.evidence_c2"}


def vocabulary(check):
    """The words quote check `check` reads lines by (a KeyError for an unknown check)."""
    if check in _CURRENT_WORDS:
        return evidence
    return import_module(_FROZEN[check])


class _Vocabularies(Mapping):
    """{check: its words}, each sealed check's loaded when it is first looked up."""

    def __getitem__(self, check):
        return vocabulary(check)

    def __iter__(self):
        return iter(CHECKS)

    def __len__(self):
        return len(CHECKS)


VOCABULARIES = _Vocabularies()
