"""Secrets stay home: credentials in a log are replaced when it is read, before any model
sees it and before any receipt, ledger entry or page keeps its turns.

What is redacted is versioned, so that a receipt can record the redactor version its log
was read with and re-derive with that version: a wider redactor never breaks an older
receipt (one that records none was read with s1).
Each version is kept as it was: `redact(text, version="s1")` gives today what s1 gave.
Every change of what is redacted is a new version; an old one is never edited.

s1 (redact_s1.py, frozen) took tokens of a few shapes, URL passwords, Authorization
headers and secret-named assignments. s2 (redact_s2_shapes.py and redact_s2_names.py,
frozen) took every shape of issue 32. s3, the current one, takes what the red team found s2
let through (cases c8-01 and c8-04): a .pgpass line, `ldapsearch -w`, `zip -P`, `7z -p`,
`gh secret set --body`, an ini or .properties password of several words, a lone `pwd =`, a
YAML block (`secret: >-` and its lines), wpa_supplicant's `psk=`, crypt and htpasswd
hashes, Linear's keys. Each finder of secret_shapes.py (a value known by its shape:
provider tokens, private-key blocks, URL passwords, a command's credentials) and
secret_names.py (a value known by its name: variables, .env lines, JSON keys, headers,
query parameters, options, .netrc) names spans of the text; overlapping spans are joined,
and each joined span becomes one [REDACTED], so a secret goes whole however many rules see
it, and the count is of secrets, not of rules. A version after s3 first freezes these
finders as s2's are frozen.

What is replaced is a choice of patterns, not a proof: a secret of no known shape under an
innocent name stays. The log's sha256 still pins the original file.
"""

from ..errors import InputError
from . import secret_names, secret_shapes

MARK = secret_shapes.MARK
REDACTOR_VERSION = "s3"  # the version new reads use
REDACTOR_VERSIONS = ("s1", "s2", "s3")  # every version this package can still run, oldest first

_S3_FINDERS = secret_shapes.FINDERS + secret_names.FINDERS


def _replace_spans(text, finders):
    """(text, count) with the joined spans every finder names replaced, each by one MARK."""
    if not text:
        return text, 0
    joined = []
    for start, end in sorted(span for find in finders for span in find(text)):
        if joined and start <= joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], end)
        elif end > start:
            joined.append([start, end])
    if not joined:
        return text, 0
    pieces, at = [], 0
    for start, end in joined:
        pieces += [text[at:start], MARK]
        at = end
    pieces.append(text[at:])
    return "".join(pieces), len(joined)


def _redact_s3(text):
    return _replace_spans(text, _S3_FINDERS)


def _redact_s2(text):
    from . import redact_s2_names, redact_s2_shapes  # frozen, loaded only to re-derive

    return _replace_spans(text, redact_s2_shapes.FINDERS + redact_s2_names.FINDERS)


def _redact_s1(text):
    from . import redact_s1  # frozen, loaded only to re-derive what s1 redacted

    return redact_s1.redact(text)


_REDACTORS = {"s1": _redact_s1, "s2": _redact_s2, "s3": _redact_s3}


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
