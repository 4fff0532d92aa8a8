"""One line of `doctor`'s report (a Check), shared by its modules: what was checked,
whether it is fine, what was found and what to change. Nothing here prints."""

from dataclasses import dataclass
from typing import Optional

OK, PROBLEM, NOT_CHECKED = "OK", "PROBLEM", "NOT CHECKED"


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, whether it is fine, what was found, and
    what to do when it is not.

    `ok` None: it could not be checked because what it needs failed its own check (that
    line is the problem). `unchecked`: the thing checked does nothing it should (a hook
    whose agent's session receipt-pair cannot read): a problem, marked NOT CHECKED."""

    name: str
    ok: Optional[bool]
    said: str
    fix: Optional[str] = None
    unchecked: bool = False

    @property
    def mark(self):
        if self.unchecked or self.ok is None:
            return NOT_CHECKED
        return OK if self.ok else PROBLEM

    def to_dict(self):
        return {"check": self.name, "ok": self.ok, "mark": self.mark, "said": self.said,
                "fix": self.fix}


def all_well(checks):
    """Whether no check found a problem (one that could not be checked for want of what
    its own line says is no problem of its own)."""
    return not any(check.ok is False for check in checks)
