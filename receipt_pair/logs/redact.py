"""Secrets stay home: credentials in a log are replaced when it is read, before any model
sees it and before any receipt, ledger entry or page keeps its turns.

What is redacted is versioned. A receipt records the redactor version its log was read
with, and re-derives with that version, so a wider redactor never breaks an older receipt.
Each version is kept as it was: `redact(text, version="s1")` gives today what s1 gave.
Every change of what is redacted is a new version; an old one is never edited.
"""

from ..errors import InputError
from . import redact_s1

MARK = "[REDACTED]"
REDACTOR_VERSION = "s1"  # the version new reads use
REDACTOR_VERSIONS = ("s1",)  # every version this package can still run, oldest first

_REDACTORS = {"s1": redact_s1.redact}


def redactor(version=REDACTOR_VERSION):
    """The function `text -> (text, count)` of a redactor version; an unknown version (a
    receipt made by a newer receipt-pair) is an InputError."""
    try:
        return _REDACTORS[version]
    except (KeyError, TypeError):
        known = ", ".join(REDACTOR_VERSIONS)
        raise InputError(f"redactor version {version!r} is not known to this receipt-pair "
                         f"(it knows {known}); a newer receipt-pair made this record") from None


def redact(text, version=REDACTOR_VERSION):
    """(text with credentials replaced by [REDACTED], how many were replaced), as the
    redactor `version` replaces them."""
    return redactor(version)(text)


def redact_turns(turns, version=REDACTOR_VERSION):
    """(turns with their commands and outputs redacted, how many were replaced in all)."""
    from dataclasses import replace

    run = redactor(version)
    out, total = [], 0
    for turn in turns:
        cmd, a = run(turn.cmd)
        output, b = run(turn.output)
        total += a + b
        out.append(turn if not (a or b) else replace(turn, cmd=cmd, output=output))
    return out, total
