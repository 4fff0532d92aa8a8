"""Redactor s2's finders of secrets known by their shape, frozen: what receipts made with
version s2 were redacted with (redact.py runs them only to re-derive such a receipt).

Never edit them: a receipt that records s2 re-derives only if its log is redacted exactly
as it was then (tests/data/secrets/s2-pinned.json pins what they give). A change of what is
redacted is a new version: secret_shapes.py holds the current one. The code below is
secret_shapes.py as it was when s3 was written, from `import re` on; its own account:

Secrets known by their own shape (redactor s2): provider tokens, private-key blocks,
passwords in URLs, and credentials given to a command on its line.

Each finder takes a text and yields (start, end) spans of secret values; redact.py joins
the spans of every finder and replaces each joined span once. A span covers the whole value
(a half-redacted token still hands out its other half) and nothing that only names it (the
header, the user, the BEGIN line), so a line still reads as what it was.

The token families follow the rule families of gitleaks and detect-secrets (prefix,
alphabet, length), written anew here. A specific shape needs no name beside it; a bare
random string does (redact_s2_names.py).
"""

import re
from ..patterns import lazy

MARK = "[REDACTED]"

# What stands for a secret without being one: `${TOKEN}`, `<key>`, `***`, `null`, a masked
# or already redacted value, the word itself in a template (driver://user:pass@host).
_NOT_VALUES = {"null", "none", "nil", "true", "false", "undefined", "required", "optional",
               "string", "str", "bytes", "int", "env", "yes", "no", "on", "off", "empty",
               "redacted", "hidden", "masked", "unset", "not set", "set", "missing",
               "not found", "n/a", "na", "tbd", "todo", "example", "placeholder", "token",
               "secret", "bearer", "basic", "prompt", "stdin", "inherit", "ask", "default",
               "auto", "pass", "password", "passwd", "pwd", "present", "configured"}


def placeholder(value):
    """Whether a value stands for a secret without being one."""
    v = value.strip().strip("'\"")
    return (not v or MARK in v or v.lower() in _NOT_VALUES or v[0] in "$%<{[(`&"
            or v.lower().startswith(("your", "process.env", "os.environ", "secrets."))
            or set(v) <= set("*•x.#?-_"))


# Each alternative is a provider's prefix and its token's alphabet, generous on length so
# a longer token of a newer format is still taken whole. Every alternative starts with a
# literal, so a megabyte of log is searched fast; find_tokens then asks that the token
# starts a word (a \b here would slow the search tenfold).
_TOKENS = lazy(
    r"""
    (?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Za-z0-9])
                                                                            # AWS key id
  | ABSK[A-Za-z0-9+/]{40,}=*                                                # AWS Bedrock
  | gh[pousr]_[A-Za-z0-9]{30,}                                              # GitHub
  | github_pat_[A-Za-z0-9_]{22,}                                            # GitHub fine-grained
  | gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct)-[A-Za-z0-9_\-]{20,}
        (?:\.[A-Za-z0-9_\-]+)*                                              # GitLab
  | GR1348941[A-Za-z0-9_\-]{20,}                                            # GitLab runner
  | xox(?:[abposrce]|e\.xox[bp])-[A-Za-z0-9\-]{10,}                         # Slack
  | xapp-[0-9]-[A-Za-z0-9\-]{10,}                                           # Slack app
  | (?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,}                        # Stripe
  | whsec_[A-Za-z0-9+/=]{20,}                                               # Stripe webhook
  | AIza[A-Za-z0-9_\-]{30,}                                                 # Google API key
  | GOCSPX-[A-Za-z0-9_\-]{20,}                                              # Google OAuth secret
  | ya29\.[A-Za-z0-9_\-]{20,}                                               # Google access token
  | sk-(?=[A-Za-z_\-]*[0-9A-Z])[A-Za-z0-9_\-]{20,}                          # OpenAI, Anthropic
  | (?:hf|api_org)_[A-Za-z0-9]{30,}                                         # Hugging Face
  | npm_[A-Za-z0-9]{30,}                                                    # npm
  | pypi-AgE[A-Za-z0-9_\-]{50,}                                             # PyPI, TestPyPI
  | (?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9])                                    # Twilio
  | SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}                            # SendGrid
  | HRKU-[A-Za-z0-9_\-]{20,}                                                # Heroku
  | do[por]_v1_[a-f0-9]{64}                                                 # DigitalOcean
  | [MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![A-Za-z0-9_\-])
                                                                            # Discord bot
  | eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}(?:\.[A-Za-z0-9_\-]+)?    # JWT
  | hv[sb]\.[A-Za-z0-9_\-]{24,}                                             # Vault
  | shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}                                      # Shopify
  | AGE-SECRET-KEY-1[0-9A-Z]{58}                                            # age
  | dapi[a-f0-9]{32}(?![A-Za-z0-9])                                         # Databricks
    """,
    re.X,
)
# Two shapes whose tell is in the middle: a Telegram bot's id:AA..., an Azure AD client
# secret's digit and Q~. Found from the tell, then checked before it.
_TELEGRAM = lazy(r":AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])")
_TELEGRAM_BOT = lazy(r"(?<![0-9])[0-9]{8,10}\Z")
_AZURE_AD = lazy(r"Q~[A-Za-z0-9_~.\-]{31,34}")
_AZURE_AD_HEAD = lazy(r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.\-]{3}[0-9]\Z")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# A webhook URL is its own secret: the part after the fixed path.
_WEBHOOKS = lazy(
    r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<value>[A-Za-z0-9/_+\-]{20,})"
    r"|discord(?:app)?\.com/api/webhooks/(?P<discord>[0-9]+/[A-Za-z0-9_\-]{30,})")
# An Azure storage connection string's key; a SAS signature goes with the query strings.
_AZURE_KEY = lazy(r"\bAccountKey=(?P<value>[A-Za-z0-9+/]{40,}={0,2})")


def find_tokens(text):
    """Spans of tokens of a known provider's shape, wherever they stand."""
    for match in _TOKENS.finditer(text):
        if not match.start() or text[match.start() - 1] not in _WORD:
            yield match.span()
    for match in _TELEGRAM.finditer(text):
        head = _TELEGRAM_BOT.search(text, max(0, match.start() - 11), match.start())
        if head:
            yield head.start(), match.end()
    for match in _AZURE_AD.finditer(text):
        head = _AZURE_AD_HEAD.search(text, max(0, match.start() - 5), match.start())
        if head:
            yield head.start(), match.end()
    for match in _WEBHOOKS.finditer(text):
        yield match.span("value") if match.group("value") else match.span("discord")
    for match in _AZURE_KEY.finditer(text):
        yield match.span("value")


# A key block: PEM (RSA, EC, DSA, OPENSSH, ENCRYPTED, plain PKCS#8), PGP armour, SSH2.
_KEY_BEGIN = lazy(r"-{4,5} ?BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}")
_KEY_END = lazy(r"-{4,5} ?END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)? ?-{4,5}")
# Blank space before and after a body, also as the `\n` a JSON string escapes it to.
_BLANK = lazy(r"(?:\s|\\[nr])*")
# What starts a key's body: armour headers or base64. A BEGIN line merely quoted (a grep
# for it, a docstring) has neither, and must not swallow the rest of the log.
_KEY_BODY = lazy(r"(?:Proc-Type|DEK-Info|Version|Comment|Hash):|[A-Za-z0-9+/=]{8}")
_PUTTY = lazy(r"^Private-Lines: *(?P<lines>[0-9]{1,3})[ \t]*\r?\n", re.M)
_PUTTY_LINE = lazy(r"(?:[A-Za-z0-9+/=]+\r?(?:\n|\Z))*")


def find_key_blocks(text):
    """Spans of private-key bodies between their BEGIN and END lines; a block cut off
    before its END line (a truncated output) runs to the end of the text."""
    at, end_line, no_end = 0, None, False
    while True:
        begin = _KEY_BEGIN.search(text, at)
        if not begin:
            break
        start = _BLANK.match(text, begin.end()).end()
        if not no_end and (end_line is None or end_line.start() < start):
            end_line = _KEY_END.search(text, start)  # searched again only once passed
            no_end = end_line is None
        stop = len(text) if no_end else end_line.start()
        if _KEY_BODY.match(text, start, stop):
            yield start, _trim_blank_end(text, start, stop)
            at = stop if no_end else end_line.end()
        else:
            at = begin.end()  # a BEGIN line quoted; a real block may follow
    for match in _PUTTY.finditer(text):
        body = _PUTTY_LINE.match(text, match.end())
        lines = body.group(0).split("\n")[:int(match.group("lines"))]
        if lines[0]:
            yield match.end(), match.end() + len("\n".join(lines).rstrip())


def _trim_blank_end(text, start, end):
    while end > start:
        if text[end - 1].isspace():
            end -= 1
        elif text[end - 2:end] in ("\\n", "\\r") and end - 2 >= start:
            end -= 2
        else:
            break
    return end


# scheme://user:password@host. The password runs to the LAST @ before the host's path
# (a password may hold an @), the user may be empty (redis://:password@host); a URL's
# own delimiters end it. Found from the `://`, which ordinary text seldom holds.
_URL_PASSWORD = lazy(
    r"://(?P<user>[^\s/?#:@\"'<>`\\]*):(?P<value>[^\s/?#\"'<>`\\]+)@(?=[A-Za-z0-9\[])")
# scheme://token@host: a bare token as the user (https://<token>@github.com).
_URL_TOKEN = lazy(r"://(?P<value>[A-Za-z0-9_\-]{20,})@(?=[A-Za-z0-9])")
# Go's MySQL DSN has no scheme: user:password@tcp(host:3306)/db.
_DSN = lazy(r"(?<![^\s\"'=])[A-Za-z0-9_.\-]+:(?P<value>[^\s\"'`]+)@(?:tcp|unix)\(")


def find_url_credentials(text):
    """Spans of passwords (and bare tokens) in the user part of URLs."""
    for match in _URL_PASSWORD.finditer(text):
        if match.start() and text[match.start() - 1] in _WORD and \
                not placeholder(match.group("value")):
            yield match.span("value")
    for match in _URL_TOKEN.finditer(text):
        value = match.group("value")
        if match.start() and text[match.start() - 1] in _WORD and \
                any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            yield match.span("value")
    for match in _DSN.finditer(text):
        if not placeholder(match.group("value")):
            yield match.span("value")


# Credentials a command takes on its line, where the option alone says nothing of a
# secret's name: curl -u user:password, mysql -pPASSWORD (attached: `-p db` prompts),
# sshpass -p, docker login -p, redis-cli -a, openssl -passin pass:...
_COMMANDS = lazy(r"(?<![\w/.\-])(?:curl|https?|xh|mysql\w*|mariadb\w*|sshpass|docker|"
                       r"podman|nerdctl|buildah|skopeo|helm|oras|redis-cli|openssl)(?=[ \t])")
# Where a command's own words end: the next line, or the next command of a list or pipe.
_COMMAND_END = lazy(r"\n|&&|\|\||;[ \t]|[ \t]\|[ \t]")
_QUOTED_OR_WORD = r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<word>[^\s\"'`;|&]+))"
# user:password after -u, quoted or bare; the user stays.
_USER_PASSWORD = (r"(?:\"[^\s:\"$]*:(?P<dq>[^\"\n]+)\"|'[^\s:'$]*:(?P<sq>[^'\n]+)'"
                  r"|[^\s:\"'$]*:(?P<word>[^\s\"']+))")
_COMMAND_SECRETS = {
    "curl": lazy(r"(?<!\S)(?:-u|--user|--proxy-user|-U)(?:[ \t]+|=)?" + _USER_PASSWORD),
    "http": lazy(r"(?<!\S)(?:-a|--auth)(?:[ \t]+|=)" + _USER_PASSWORD),
    "mysql": lazy(r"(?<!\S)-p" + _QUOTED_OR_WORD),
    "login": lazy(r"(?<!\S)-p[ \t]+" + _QUOTED_OR_WORD),
    "redis": lazy(r"(?<!\S)-a[ \t]+" + _QUOTED_OR_WORD),
    "openssl": lazy(r"(?<!\S)-pass(?:in|out)?[ \t]+[\"']?pass:(?P<value>[^\s\"']+)"),
}
_COMMAND_KIND = {"curl": "curl", "http": "http", "https": "http", "xh": "http",
                 "sshpass": "login", "redis-cli": "redis", "openssl": "openssl"}


def find_command_credentials(text):
    """Spans of passwords given to a command by an option that does not name a secret."""
    for command in _COMMANDS.finditer(text):
        word = command.group(0)
        kind = _COMMAND_KIND.get(word) or ("mysql" if word.startswith(("mysql", "mariadb"))
                                           else "docker")
        stop = _COMMAND_END.search(text, command.end())
        line_end = stop.start() if stop else len(text)
        if kind == "docker":  # only their `login` takes a password
            if not re.search(r"\blogin\b", text[command.end():line_end]):
                continue
            kind = "login"
        for match in _COMMAND_SECRETS[kind].finditer(text, command.end(), line_end):
            found = match.groupdict()
            name = next((g for g in ("value", "dq", "sq", "word") if found.get(g)), None)
            if name and not placeholder(match.group(name)):
                yield match.span(name)


# A token after the word Bearer, with no header name in sight (a log line, an echo).
_BEARER = lazy(r"\b[Bb]earer[ \t]+(?P<value>[A-Za-z0-9\-._~+/]{20,}=*)")


def find_bearer_tokens(text):
    """Spans of random-looking tokens that follow the word Bearer."""
    for match in _BEARER.finditer(text):
        value = match.group("value")
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            yield match.span("value")


FINDERS = (find_tokens, find_key_blocks, find_url_credentials, find_command_credentials,
           find_bearer_tokens)
