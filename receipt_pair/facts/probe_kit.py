"""What a probe of the decision table is (probes.py, probes_t2.py)."""

from dataclasses import dataclass
from typing import Optional, Tuple

from ..turn import Turn


def T(cmd, output="", exit_status=None, finished=True, kind=None):
    return Turn(cmd=cmd, output=output, exit_status=exit_status, finished=finished, kind=kind)


@dataclass(frozen=True)
class TableProbe:
    name: str
    claim: str
    turns: Tuple[Turn, ...]
    answer: Optional[str]  # what the table must decide (None: it must leave it to the models)
    rule: Optional[str]
