"""Redactor s1, frozen: what receipts made before version s2 were redacted with. Imports
nothing of the package.

Never edit its patterns: a receipt that records s1 (or records no redactor version, being
older) re-derives only if its log is redacted exactly as it was then. A change of what is
redacted is a new version in redact.py.

Its own account, as it was written:

Secrets stay home: credentials in a log are replaced when it is read, before any model
sees it and before any receipt, ledger entry or page keeps its turns.

A log often holds a token, a key or a password: in a URL (`https://user:pass@host`), an
`Authorization:` header, a `KEY=value` of a secret-looking name, or in a token's own shape
(`ghp_...`, `sk-...`, `AKIA...`, a JWT, a private key block). Each is replaced by
`[REDACTED]`, keeping what names it (the header, the variable, the user), so a line still
reads as what it was. The count of replacements is kept; the log's sha256 still pins the
original file. What is replaced is a choice of patterns, not a proof: a secret of no
known shape under an innocent name stays.
"""

import re

MARK = "[REDACTED]"

# Tokens recognised by their own shape, wherever they stand.
_SHAPES = re.compile(
    r"""
    -----BEGIN[ A-Z]*PRIVATE\ KEY-----[\s\S]*?-----END[ A-Z]*PRIVATE\ KEY-----
  | \b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})
  | \bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{20,}
  | \b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}
  | \b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b
  | \bxox[abprs]-[A-Za-z0-9\-]{10,}
  | \bAIza[0-9A-Za-z_\-]{35}
  | \bglpat-[A-Za-z0-9_\-]{20,}
  | \bnpm_[A-Za-z0-9]{36}\b
  | \bhf_[A-Za-z0-9]{30,}\b
  | \beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}
    """,
    re.X,
)
# user:password@ in a URL: the password goes, the user stays.
_URL_PASSWORD = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s/:@]+:)(?!\[REDACTED\]@)"
                           r"([^\s/@]+)(@)")
# Authorization: Bearer abc / Basic abc / token abc
_AUTH_HEADER = re.compile(
    r"(\b(?:Proxy-)?Authorization\s*[:=]\s*(?:(?:Bearer|Basic|Token|Digest|Bot)\s+)?)"
    r"(?!\[REDACTED\]|(?:Bearer|Basic|Token|Digest|Bot)\b)([^\s\"',;]{4,})", re.I)
# --password value, --api-key=value: a command's option of a secret's name.
_OPTION = re.compile(r"(?<![\w-])(--?(?P<name>[A-Za-z][A-Za-z0-9_\-]*)(?:\s+|=)(?P<open>[\"']?))"
                     r"(?P<value>[^\s\"']+)")
# NAME=value, NAME: value, "name": "value", --name value: only where the name is a secret's.
_ASSIGNMENT = re.compile(
    r"""((?P<quote>["']?)(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)(?P=quote)
            (?:\s*[:=]\s*|\s+(?=["']))(?P<open>["']?))
        (?P<value>[^\s"',;}]+)""",
    re.X)
_SECRET_PARTS = {"secret", "secrets", "token", "password", "passwd", "passphrase", "apikey",
                 "credential", "credentials", "privatekey", "accesskey", "sessiontoken"}
_KEY_OWNERS = {"api", "access", "private", "secret", "signing", "encryption", "master",
               "client", "app", "service"}
_NOT_SECRETS = {"null", "none", "true", "false", "undefined", "redacted", "changeme?",
                "required", "optional", "string", "str", "env"}


def _secret_name(name):
    parts = [p.lower() for p in re.split(r"[_.\-]+|(?<=[a-z0-9])(?=[A-Z])", name) if p]
    if any(p in _SECRET_PARTS for p in parts):
        return True
    return any(p == "key" and i and parts[i - 1] in _KEY_OWNERS for i, p in enumerate(parts))


def _secret_value(value):
    value = value.strip("\"'")
    if len(value) < 6 or value.lower() in _NOT_SECRETS or MARK in value:
        return False
    if value.isdigit() or value.startswith(("$", "%", "<", "{", "${")):
        return False  # a count (max_tokens=400), or a reference to a secret, not the secret
    return True


def redact(text):
    """(text with credentials replaced by [REDACTED], how many were replaced)."""
    if not text:
        return text, 0
    count = 0

    def replace_all(match):
        nonlocal count
        count += 1
        return MARK

    def keep_head(match):
        nonlocal count
        count += 1
        return match.group(1) + MARK + (match.group(3) if match.re is _URL_PASSWORD else "")

    def assignment(match):
        nonlocal count
        if not _secret_name(match.group("name")) or not _secret_value(match.group("value")):
            return match.group(0)
        count += 1
        return match.group(1) + MARK

    text = _SHAPES.sub(replace_all, text)
    text = _URL_PASSWORD.sub(keep_head, text)
    text = _AUTH_HEADER.sub(keep_head, text)
    text = _OPTION.sub(assignment, text)
    text = _ASSIGNMENT.sub(assignment, text)
    return text, count

