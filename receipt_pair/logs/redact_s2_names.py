"""Redactor s2's finders of secrets known by their name, frozen: what receipts made with
version s2 were redacted with (redact.py runs them only to re-derive such a receipt).

Never edit them: a receipt that records s2 re-derives only if its log is redacted exactly
as it was then (tests/data/secrets/s2-pinned.json pins what they give). A change of what is
redacted is a new version: secret_names.py holds the current one. The code below is
secret_names.py as it was when s3 was written, from `import functools` on (it reads its
placeholders from redact_s2_shapes.py); its own account:

Secrets known by the name they are given (redactor s2): a variable, a .env line, a JSON
or YAML key, an HTTP header, a query parameter, a command's option or a .netrc entry whose
name says it holds a secret.

The name and the value decide together. The name's last word says what it holds
(`DB_PASSWORD`, `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY` hold secrets; `TOKEN_LIMIT`,
`PASSWORD_MIN_LENGTH`, `SECRET_NAME`, `max_tokens` do not); the value must then be one a
secret could be (not `true`, `${TOKEN}`, `<your-key>`, a path, or `self.password` in code).
A word like `token` is weak: an LLM log's `"token": "the"` is no credential, so its value
must look random; `password` is strong: any real value goes.
"""

import functools
import re

from .redact_s2_shapes import placeholder
from ..patterns import lazy

# A cheap first look for a secret's name: most of a log names none.
_KEYWORD = lazy(r"pass|pw|secret|token|key|auth|cred|cookie|sig")  # on lower-case text
_KEYWORD_ANY_CASE = lazy(_KEYWORD.pattern, re.I)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_NAME_TAIL = lazy(r"[A-Za-z0-9_.\-]*")
_PARTS = lazy(r"[_.\-]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# What follows a name: its closing quote, how it is given a value, and the value (quoted,
# also as \"...\" inside a JSON string, or a bare word). An open quote with no close runs
# to the end of the line, where a log cut it.
_AFTER = lazy(
    r"""(?P<close>\\?["']?)
        (?P<sep>[ \t]*(?::=|=>|\?=|=(?!=)|:(?![:/=]))[ \t]*|[ \t]+)
        (?P<value>\\"(?P<eq>[^"\\\n]*)(?:\\"|(?<=[^,;:)\]}\s"]{4})(?=\n|\Z))
                 |"(?P<dq>(?:[^"\\\n]|\\.)*)(?:"|(?<=[^,;:)\]}\s"]{4})(?=\n|\Z))
                 |'(?P<sq>[^'\n]*)(?:'|(?<=[^,;:)\]}\s']{4})(?=\n|\Z))
                 |(?P<word>(?:[^\s"'`;\\<>&]|&(?![\w.\-]+=|&))+))""",
    re.X)
_QUERY_VALUE = lazy(r"=(?P<word>[^&#\s\"'<>`\\]+)")
_XML_VALUE = lazy(r">(?P<word>[^<\n]+)</")

# The last word of a name, and what it says the value is.
_STRONG = {"password", "passwd", "passphrase", "secret", "apikey", "secretkey", "privatekey",
           "accesskey", "masterkey"}
_STRONG_AFTER_PREFIX = {"pass", "pwd", "pw"}  # DB_PASS, MYSQL_PWD; never the shell's PWD
_PASS_OWNERS = {"db", "database", "user", "admin", "root", "smtp", "mail", "email", "mysql",
                "redis", "pg", "postgres", "ftp", "sftp", "ldap", "proxy", "login", "account",
                "auth", "basic", "http", "wifi", "vnc", "ssh", "rabbitmq", "mongo", "mongodb",
                "sql", "kafka", "sasl", "key", "store", "bind", "master", "sudo", "vault"}
_STRONG_ENDINGS = ("password", "passwd", "passphrase", "secret", "apikey", "accesskey",
                   "secretkey", "privatekey", "storepass", "keypass")
# A token in an option or an upper-case variable is a credential, whatever it looks like;
# a lower-case "token" key may be a word of a model's output, and STORAGE_KEY a name.
_WEAK = {"token", "auth", "credential", "credentials", "creds"}
_KEY_STRONG_OWNERS = {"api", "access", "secret", "private", "master"}
_KEY_WEAK_OWNERS = {"signing", "sign", "encryption", "encrypt", "client", "app", "service",
                    "auth", "license", "licence", "account", "storage", "subscription",
                    "shared", "hmac", "jwt", "webhook", "deploy", "session", "admin", "root",
                    "crypto", "cipher", "aes", "consumer", "secure", "server", "write"}
_KEY_NOT_SECRET = {"public", "primary", "foreign", "sort", "partition", "cache", "lookup",
                   "group", "routing", "object", "map", "index", "unique", "composite",
                   "shard", "row", "column", "field", "config", "registry", "translation",
                   "message", "dedup", "idempotency", "hash", "range", "ssh", "host", "gpg",
                   "known", "trusted", "i18n", "dict", "label", "idempotent"}
# Words after the secret's own that still name it: SECRET_KEY_BASE, TOKEN_VALUE.
_NEUTRAL_TAILS = {"value", "val", "base", "b64", "base64", "hex", "raw", "plain", "plaintext",
                  "str", "string", "encoded", "enc", "encrypted", "data", "text", "literal"}

_BASE64 = lazy(r"[A-Za-z0-9+/=_\-]+\Z")
_WORD_OF_NAME = r"(?:[A-Z]?[a-z]{2,}|[A-Z]{2,}(?![a-z]))"  # Access, token, API
_WORDY = lazy(rf"{_WORD_OF_NAME}(?:[_\-]?{_WORD_OF_NAME})*\Z")
_PATH = lazy(r"(?:~|\.{1,2})?/[\w.\-/@+]*\Z|[A-Za-z]:\\")
_VERSION = lazy(r"v?[0-9]+(?:\.[0-9]+)+(?:[-+.][\w.]+)?\Z")
_PROSE = lazy(r"[ \t]+[A-Za-z]")
_CONSTANT = lazy(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\Z|[a-z]+(?:[A-Z][a-z]+)+\Z")
_CODE = lazy(r"[a-z_]\w*(?:\.[A-Za-z_]\w*)*\.(?P<attr>[A-Za-z_]\w*)\Z"
                   r"|(?P<call>[A-Za-z_][\w.]*)[(\[]")
_MYSQL = lazy(r"\b(?:mysql\w*|mariadb\w*)\b")
_NETRC = lazy(r"\bmachine[ \t\r\n]+\S")
_AUTH_SCHEME = lazy(
    r"(?P<open>\\?[\"']?)[ \t]*(?:(?P<scheme>Bearer|Basic|Token|Bot|Negotiate|NTLM|SSWS|ApiKey|"
    r"Api-Key|JWT|Key|GenieKey|Splunk|Digest|OAuth|Hawk|MAC|AWS4-HMAC-SHA256)[ \t]+)?",
    re.I)
_PARAM_SCHEMES = {"digest", "oauth", "hawk", "mac", "aws4-hmac-sha256"}
_AUTH_TOKEN = lazy(r"[^\s\"'\\,;]+")
_COOKIE_PAIR = lazy(r"[\w.\-]+=([^;\s\"']{8,})")


@functools.lru_cache(maxsize=1024)
def name_kind(name):
    """What a name says its value is: "strong" (a password: any real value), "weak" (a
    token: a random-looking value), "strict" (a key of unknown owner: a value that can
    only be random), "authorization", "cookie", "key" (bare), or None (not a secret)."""
    parts = [p.lower() for p in _PARTS.split(name) if p]
    while len(parts) > 1 and parts[-1] in _NEUTRAL_TAILS:
        parts.pop()
    if not parts or parts[0] == "no":  # --no-password is a flag, not a password
        return None
    last, prev = parts[-1], (parts[-2] if len(parts) > 1 else "")
    if last in ("authorization", "cookie"):
        return last
    if last in ("sig", "signature"):
        return "signature"  # of a presigned URL; elsewhere (a commit's, a thinking block's) none
    if last in _STRONG:
        return "strong"
    if last in _STRONG_AFTER_PREFIX and prev:  # DB_PASS; a render_pass must look random
        return "strong" if prev in _PASS_OWNERS or name.isupper() else "weak"
    if last == "key":
        if prev in _KEY_STRONG_OWNERS:
            return "strong"
        if prev in _KEY_WEAK_OWNERS:
            return "weak"
        return "key" if not prev else None if prev in _KEY_NOT_SECRET else "strict"
    if last in _WEAK:
        return "weak"
    if last.endswith(_STRONG_ENDINGS):
        return "strong"
    return "weak" if last.endswith("token") else None


def _last_word(name):
    words = [p.lower() for p in _PARTS.split(name) if p]
    return words[-1] if words else ""


def looks_random(value, least=8):
    """Whether a value looks machine-made: long enough, no spaces, letters with digits, or
    base64 of mixed case; not a number, a path, a URL, a version or a camelCase name."""
    if len(value) < least or value.isdigit() or any(c.isspace() for c in value):
        return False
    if "://" in value or _VERSION.match(value) or (_PATH.match(value) and not _mixed(value)):
        return False
    if any(c.isdigit() for c in value):
        return any(c.isalpha() for c in value)
    if not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
        return False
    if not _BASE64.match(value):
        return False  # getAccessToken(text: code, not a token
    return any(c in "+/=" for c in value) or (len(value) >= 12 and not _WORDY.match(value))


def _mixed(value):
    return (any(c.isdigit() for c in value) and any(c.isupper() for c in value)
            and any(c.islower() for c in value) and len(value) >= 16)


def _plausible(value, quoted):
    """Whether a value under a password's name could be the password."""
    if placeholder(value) or (not quoted and len(value) < 3):
        return False
    if value.isdigit() and len(value) < 4:  # a count, a flag: pass: 3
        return False
    return not (_PATH.match(value) and not _mixed(value))


def _strict(value):
    """A value under a key name of unknown owner (STRIPE_KEY): only a random one."""
    return len(value) >= 20 and looks_random(value) and (
        _mixed(value) or any(c in "+/=" for c in value))


def find_named_secrets(text):
    """Spans of values whose name says they hold a secret."""
    scanned = 0
    lower = text.lower()
    # lower() lengthens a rare letter (İ); then search the text itself, slower but aligned.
    hits = (_KEYWORD.finditer(lower) if len(lower) == len(text)
            else _KEYWORD_ANY_CASE.finditer(text))
    for hit in hits:
        if hit.start() < scanned:
            continue  # another word of a name already read
        start = hit.start()
        while start > 0 and hit.start() - start < 80 and text[start - 1] in _NAME_CHARS:
            start -= 1
        end = _NAME_TAIL.match(text, hit.end()).end()
        scanned = end
        dashes = 0
        while start < end and text[start] in "-.":
            dashes += text[start] == "-"
            start += 1
        kind = name_kind(text[start:end])
        if kind is not None:
            span = _judge(text, start, end, dashes, kind)
            if span and span[1] > span[0]:
                yield span


def _judge(text, start, end, dashes, kind):
    """The span of the secret value after the name text[start:end], if there is one."""
    before = text[start - 1] if start else ""
    name = text[start:end]
    if text.endswith("//", 0, start):
        return None  # the user of a URL (https://x-access-token:...@): secret_shapes' part
    if before == "/":
        return None  # a path: /etc/passwd: Permission denied
    if text.endswith("${", 0, start):
        return None  # ${GH_TOKEN:0:10}, ${TOKEN:+set}: the shell reads a variable
    last = _last_word(name)
    if kind == "weak" and (dashes or name.isupper()) and (last in _WEAK or last.endswith("token")):
        kind = "strong"  # --token, GITHUB_TOKEN: a credential, whatever it looks like
    if (before and before in "?&") or text.endswith("&amp;", 0, start):
        return _query_value(text, end, kind)
    if kind == "signature":
        return None
    if before == "<":
        match = _XML_VALUE.match(text, end)
        if match and _accepts(kind, match.group("word").strip(), True):
            return match.span("word")
        return None
    after = _AFTER.match(text, end)
    if not after:
        return None
    spaced = not after.group("sep").strip()
    if spaced:  # only an option or a .netrc entry gives a value after a space
        option = dashes and not _MYSQL.search(text, _line_start(text, start), start)
        netrc = not dashes and name.lower() == "password" and \
            _NETRC.search(text, max(0, start - 500), start)
        if after.group("close") or not (option or netrc) or text.startswith("-", after.end("sep")):
            return None
        kind = "strong" if netrc else kind
    outer = before if before in ("'", '"') else ""  # -H 'Cookie: ...' ends at its quote
    if kind == "authorization":
        return _authorization(text, after.end("sep"), outer)
    if kind == "cookie":
        if spaced or ":" in after.group("sep"):
            return _cookie(text, after.start("value"), outer)
        kind = "weak"
    group = next(g for g in ("eq", "dq", "sq", "word") if after.group(g) is not None)
    value_start, value_end = after.span(group)
    quoted = group != "word"
    if not quoted:
        value_end = _trim_word(text, value_start, value_end)
    value = text[value_start:value_end]
    if not quoted and _code(text, value, value_end, name):
        return None
    yaml = not quoted and after.group("sep").strip() == ":"
    if yaml and value.isalpha() and _PROSE.match(text, value_end):
        return None  # prose: "password: must be at least 8 characters"
    if not _accepts(kind, value, quoted):
        return None
    if yaml and kind == "strong" and not text[_line_start(text, start):start].strip(" \t-"):
        value_end = _yaml_end(text, value_end)  # a YAML key's plain value runs to the line's end
    return value_start, value_end


def _line_start(text, at):
    return text.rfind("\n", max(0, at - 500), at) + 1 or max(0, at - 500)


def _yaml_end(text, at):
    """The end of a YAML plain value that goes on after a space (p@ss w0rd), before a
    comment and trailing space."""
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    comment = text.find(" #", at, line_end)
    end = line_end if comment < 0 else comment
    while end > at and text[end - 1] in " \t\r":
        end -= 1
    return end


def _accepts(kind, value, quoted):
    if kind == "strong":
        return _plausible(value, quoted)
    if kind == "weak":
        return not placeholder(value) and looks_random(value)
    if kind == "strict":
        return not placeholder(value) and _strict(value)
    return False


def _query_value(text, end, kind):
    """A parameter of a URL's query string: ?token=..., &sig=..., &key=<long>."""
    match = _QUERY_VALUE.match(text, end)
    if not match or placeholder(match.group("word")):
        return None
    value = match.group("word")
    if kind in ("key", "strict"):
        ok = len(value) >= 20 and looks_random(value)
    elif kind == "signature":
        ok = len(value) >= 8
    else:
        ok = len(value) >= 4 and kind in ("strong", "weak")
    return match.span("word") if ok else None


def _authorization(text, at, outer):
    """The credentials of an Authorization header: after the scheme, to the end of the
    token, or for a scheme of parameters (Digest, OAuth, AWS4) to the end of the header."""
    head = _AUTH_SCHEME.match(text, at)
    start = head.end()
    scheme = (head.group("scheme") or "").lower()
    if scheme in _PARAM_SCHEMES:
        end = _header_end(text, start, head.group("open") or outer)
    else:
        token = _AUTH_TOKEN.match(text, start)
        end = token.end() if token else start
    value = text[start:end]
    if placeholder(value) or value.lower() in _PARAM_SCHEMES:
        return None
    if not scheme and not looks_random(value):
        return None  # "Authorization: required" names the header, it gives no value
    return (start, end) if len(value) >= (1 if scheme in _PARAM_SCHEMES else 6) else None


def _cookie(text, at, outer):
    """A Cookie header's whole value, if one of its cookies holds something."""
    opener = text[at:at + 2] if text.startswith('\\"', at) else text[at:at + 1]
    opener = opener if opener in ('"', "'", '\\"') else ""
    start = at + len(opener)
    end = _header_end(text, start, opener or outer)
    value = text[start:end]
    if any(not placeholder(v) for v in _COOKIE_PAIR.findall(value)):
        return start, end
    return None


def _header_end(text, start, opener):
    """Where a header's value ends: its closing quote, else the end of the line."""
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    close = opener.lstrip("\\") or None
    if close:
        at = start
        while True:
            at = text.find(close, at, line_end)
            if at < 0 or text[at - 1] != "\\" or opener == '\\"':
                break
            at += 1
        if at >= 0:
            line_end = at - (1 if opener == '\\"' else 0)
    while line_end > start and text[line_end - 1] in " \t\r":
        line_end -= 1
    return line_end


def _trim_word(text, start, end):
    """A bare value without the comma or bracket that closes what holds it."""
    while end > start and text[end - 1] in ",)]}:":
        closer = text[end - 1]
        opener = {")": "(", "]": "[", "}": "{"}.get(closer)
        if opener and text.count(opener, start, end) >= text.count(closer, start, end):
            break
        end -= 1
    return end


def _code(text, value, value_end, name):
    """Whether a bare value is code that reads a secret, not the secret: self.password,
    os.getenv("TOKEN"), password=password, f(password=pw, ...)."""
    if _CONSTANT.match(value) or text.startswith("<", value_end):
        return True  # VK_NULL_HANDLE, hashedPassword, Option<String>
    code = _CODE.match(value)
    if code and not looks_random(code.group("attr") or code.group("call")):
        return True  # (s.Fk3mQ9zX4pL7 is a Vault token, not an attribute)
    if value.lower() in (name.lower(), name.lower().split(".")[-1]):
        return True
    return value.isidentifier() and text[value_end:value_end + 1] in (",", ")")


FINDERS = (find_named_secrets,)
