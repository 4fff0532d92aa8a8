"""HTTP to this machine's model server, and nothing else: the guarded connection, one
request with a deadline for the whole exchange, and bounded bodies.

Standard library only. Proxies are never used (a proxy would carry the log off the
machine), and a host that does not resolve to loopback is refused, when the URL is read
and again at every connection (http and https alike), unless remote servers were allowed.

Limits, so that no server can hold or flood a call:
- the timeout is a deadline for the whole call: connecting, sending, waiting, and reading
  however slowly the server trickles its answer;
- an answer body larger than MAX_BODY_BYTES is an error, and so is one that is not valid
  UTF-8, is nested too deeply to parse, or carries a lone surrogate in its text;
- only a 2xx response is an answer: a redirect is followed nowhere and an interim 1xx is
  none, whatever body either carries;
- JSON is strict: NaN and Infinity (and numbers too large for a float) are not JSON. In a
  server's own figures (token counts, timings) they are dropped; anywhere else the answer
  is refused, so nothing that cannot be written back as JSON gets into a record.

Error messages name no command-line flags (Python callers read them too); where a flag
helps, it is in the exception's `cli_hint` attribute, which the command line appends.
"""

import http.client
import ipaddress
import json
import math
import socket
import threading
import time
import urllib.parse

from ..errors import ServerError, ServerUnreachable, UsageError  # noqa: F401 (client's)
from .defaults import MAX_TIMEOUT

PROBE_TIMEOUT = 10.0  # seconds for health and model-list requests
# An answer larger than this is not a chat reply (ours are a few hundred tokens): refused.
MAX_BODY_BYTES = 8 * 1024 * 1024
READ_CHUNK = 64 * 1024

HINT_TIMEOUT = "raise --timeout for slow machines"
HINT_REMOTE = "pass --allow-remote if that is what you want"
HINT_BASE_URL = "give --base-url for your server (receipt-pair verify checks a saved reply " \
                "offline)"


class SchemaRefused(ServerError):
    """The server refused the request because of its JSON-schema constraint."""


class RemoteModelRefused(ServerError):
    """The local server would run this model off the machine, and remote was not allowed."""


def _hinted(exc, hint):
    exc.cli_hint = hint
    return exc


def _is_loopback(address):
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def _addresses(host, port):
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ServerUnreachable(
            f"cannot resolve the model server's host {host!r}: {reason}") from None
    return [(info[0], info[4]) for info in infos]


def resolve(host, port):
    """The socket addresses `host` resolves to (ServerUnreachable when it does not)."""
    return [address for _, address in _addresses(host, port)]


def check_base_url(base_url, allow_remote=False):
    """Refuse a URL that is not http(s), or whose host is not this machine (unless allowed)."""
    shape = "it must look like http://localhost:13305/api/v1"
    try:
        parts = urllib.parse.urlsplit(base_url)
        hostname, port = parts.hostname, parts.port  # .port raises on "abc" or 99999
    except (ValueError, TypeError, AttributeError) as exc:
        raise UsageError(f"the model server URL {base_url!r} cannot be read ({exc}); "
                         f"{shape}") from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise UsageError(f"the model server URL {base_url!r} is not an http(s) URL; {shape}")
    if allow_remote:
        return parts
    try:
        addresses = resolve(hostname, port or 80)
    except ServerUnreachable:
        raise UsageError(f"the model server's host {hostname!r} does not resolve, so it "
                         "cannot be shown to be this machine; refused") from None
    for address in addresses:
        if not _is_loopback(address[0]):
            # The flag stays in this one message while tests/test_check.py (command-line
            # output) pins it; cli_hint carries it for the command line as everywhere else.
            raise _hinted(UsageError(
                f"the model server's host {hostname!r} is not this machine ({address[0]}); "
                "the log would leave it. Allow remote servers (--allow-remote) if that is "
                "what you want."), HINT_REMOTE)
    return parts


class _Guarded:
    """Resolves the host at connect time and connects only to a loopback address.

    http.client opens every connection, http and https, through `_create_connection`;
    replacing it puts the check under TLS too.
    """

    def _guard(self, allow_remote):
        self._allow_remote = allow_remote
        self._create_connection = self._guarded_connection

    def _guarded_connection(self, address, timeout=None, source_address=None):
        host, port = address
        addresses = _addresses(host, port)
        if not self._allow_remote:
            addresses = [a for a in addresses if _is_loopback(a[1][0])]
            if not addresses:
                raise _hinted(ServerError(
                    f"the model server's host {host!r} no longer resolves to this machine; "
                    "refused"), HINT_REMOTE)
        last = None
        for family, sockaddr in addresses:
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.settimeout(timeout)
            try:
                sock.connect(sockaddr)
            except OSError as exc:
                sock.close()
                last = exc
                continue
            return sock
        raise last or ConnectionRefusedError("no address to connect to")


class _Connection(_Guarded, http.client.HTTPConnection):
    def __init__(self, host, port, timeout, allow_remote):
        super().__init__(host, port, timeout=timeout)
        self._guard(allow_remote)


class _TLSConnection(_Guarded, http.client.HTTPSConnection):
    def __init__(self, host, port, timeout, allow_remote):
        super().__init__(host, port, timeout=timeout)
        self._guard(allow_remote)


def _loads(data, figures=()):
    """JSON from a server's bytes; ValueError for anything that is not clean JSON text.

    Invalid UTF-8, nesting too deep for the parser (RecursionError) and numbers that are not
    finite (NaN, Infinity, 1e999) are refused like any other malformed body, except that a
    non-finite number inside a top-level field named in `figures` (the server's token
    counts and timings, which only inform) is dropped from it.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid UTF-8 (byte {exc.start})") from None
    odd = []

    def constant(name):
        odd.append(name)
        return float(name)

    def number(digits):
        value = float(digits)
        if not math.isfinite(value):
            odd.append(digits)
        return value

    try:
        value = json.loads(text, parse_constant=constant, parse_float=number)
        if odd:
            value = _finite(value, False, figures)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    return value


_DROPPED = object()


def _finite(value, drop, figures=()):
    """`value` with its non-finite numbers dropped where `drop` (or inside a top-level field
    named in `figures`); one anywhere else is a ValueError."""
    if isinstance(value, dict):
        pairs = [(k, _finite(v, drop or k in figures)) for k, v in value.items()]
        return {k: v for k, v in pairs if v is not _DROPPED}
    if isinstance(value, list):
        return [v for v in (_finite(v, drop) for v in value) if v is not _DROPPED]
    if isinstance(value, float) and not math.isfinite(value):
        if drop:
            return _DROPPED
        raise ValueError("NaN or Infinity is not JSON")
    return value


def not_an_answer(status, data):
    """Why a response with HTTP `status` is not an answer ("HTTP 404: not found"), or None
    for a 2xx. A redirect's body, a chat reply or not, is no answer from the server asked,
    and an interim 1xx is no answer at all."""
    if 200 <= status < 300:
        return None
    if status >= 400:
        return f"HTTP {status}: {_error_message(data)}"
    if 300 <= status < 400:
        return (f"HTTP {status}, a redirect, which receipt-pair never follows (only a 2xx "
                "response is an answer)")
    return f"HTTP {status}, which is not an answer (only a 2xx response is)"


def _error_message(data):
    """The message of an error body in any of the shapes servers use."""
    try:
        body = _loads(data)
    except ValueError:
        text = data.decode("utf-8", "replace").strip()
        return text[:200] if text else "(empty body)"
    if isinstance(body, dict):
        error = body.get("error", body.get("detail", body.get("message")))
        if isinstance(error, dict):
            return str(error.get("message") or error.get("type") or _short(error))[:300]
        if error is not None:
            return str(error)[:300]
    return _short(body)


def _short(value):
    try:
        return json.dumps(value)[:200]
    except (ValueError, RecursionError):
        return "(unreadable body)"


def _refusal(body):
    """The server's message when an HTTP 200 management answer says it failed, else None."""
    if not isinstance(body, dict):
        return None
    if body.get("status") == "error" or body.get("success") is False or \
            body.get("error") not in (None, "", False):
        error = body.get("error")
        if isinstance(error, dict):
            error = error.get("message") or error.get("type")
        return str(error or body.get("message") or body.get("detail") or _short(body))[:300]
    return None


def _text_ok(text, what):
    """Refuse text the rest of the package cannot hash or print: a lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ServerError(f"{what} holds a lone surrogate (\\u{ord(text[exc.start]):04x}) at "
                          f"character {exc.start}, which is not text") from None
    return text


class Transport:
    """Requests to one server's base URL, each on its own guarded connection."""

    def __init__(self, base_url, timeout, allow_remote=False):
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or \
                not 0 < timeout <= MAX_TIMEOUT:
            raise UsageError(f"the timeout must be more than 0 and at most {MAX_TIMEOUT:g} "
                             "seconds")
        self.base_url = base_url.rstrip("/") if isinstance(base_url, str) else base_url
        self.timeout = float(timeout)
        self.allow_remote = allow_remote
        self._probe_deadline = None  # set while several probes share one timeout
        self._parts = check_base_url(self.base_url, allow_remote)

    def _connection(self, timeout):
        parts = self._parts
        if parts.scheme == "https":
            return _TLSConnection(parts.hostname, parts.port or 443, timeout, self.allow_remote)
        return _Connection(parts.hostname, parts.port or 80, timeout, self.allow_remote)

    def _path(self, path, root=False):
        base = self._parts.path.rstrip("/")
        if root:  # llama-server, Ollama and LM Studio keep their own API beside /v1
            base = base[: -len("/v1")] if base.endswith("/v1") else base
        return base + path

    def request(self, method, path, payload=None, timeout=None, root=False, budget=None):
        """(HTTP status, body bytes) within `timeout` seconds for the whole exchange.

        Connection failures, the deadline and oversized answers raise ServerError, whose
        message names `budget` seconds (the whole call's, when this is part of one).
        """
        timeout = timeout or self.timeout
        budget = budget or timeout
        full_path = self._path(path, root)
        url = f"{self._parts.scheme}://{self._parts.netloc}{full_path}"
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn = self._connection(timeout)
        expired = threading.Event()
        opened = []  # the socket, kept here: http.client lets go of it once it answers

        def expire():
            # A server that trickles its answer never lets a socket timeout fire; shutting
            # the socket at the deadline ends whatever read is waiting.
            expired.set()
            for sock in opened:
                try:
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)
                except OSError:
                    pass

        watchdog = threading.Timer(timeout, expire)
        watchdog.daemon = True
        watchdog.start()
        response = None
        try:
            conn.connect()
            opened.append(conn.sock)
            if expired.is_set():
                raise TimeoutError
            conn.request(method, full_path, body=body, headers=headers)
            response = conn.getresponse()
            data, complete = self._read_body(response, path)
            if expired.is_set():
                raise TimeoutError
            if not complete:
                raise ServerUnreachable(f"the model server at {self.base_url} closed the "
                                        f"connection before its whole answer to {path} came")
            return response.status, data
        except ServerError:
            raise
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if expired.is_set() or isinstance(exc, (socket.timeout, TimeoutError)):
                raise _hinted(ServerError(
                    f"the model server at {self.base_url} did not answer {path} within "
                    f"{budget:g} s"), HINT_TIMEOUT) from None
            if isinstance(exc, (ConnectionRefusedError, ConnectionResetError, BrokenPipeError,
                                http.client.RemoteDisconnected)):
                raise _hinted(ServerUnreachable(
                    f"cannot reach the model server at {self.base_url}: connection refused "
                    "or dropped. Start Lemonade Server, or on Linux `scripts/local-models "
                    "start`, or point receipt-pair at the server you run."),
                    HINT_BASE_URL) from None
            raise ServerError(f"talking to the model server at {url} failed: "
                              f"{exc.__class__.__name__}: {exc}") from None
        finally:
            watchdog.cancel()
            if response is not None:
                response.close()  # the socket stays open while the response holds it
            conn.close()

    def _read_body(self, response, path):
        """(bytes, complete): at most MAX_BODY_BYTES, read a chunk at a time."""
        length = response.length
        if length is not None and length > MAX_BODY_BYTES:
            raise ServerError(f"the model server's answer to {path} is {length:,} bytes, more "
                              f"than the {MAX_BODY_BYTES:,} a reply may be")
        chunks, size = [], 0
        while True:
            chunk = response.read1(READ_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise ServerError(f"the model server's answer to {path} is more than the "
                                  f"{MAX_BODY_BYTES:,} bytes a reply may be")
            chunks.append(chunk)
        complete = not response.length  # None (read to close) or 0: all of it came
        return b"".join(chunks), complete

    def _json(self, method, path, payload=None, timeout=None, root=False):
        status, data = self.request(method, path, payload, timeout, root)
        problem = not_an_answer(status, data)
        if problem:
            raise ServerError(f"the model server answered {path} with {problem}")
        try:
            return _loads(data)
        except ValueError as exc:
            raise ServerError(f"the model server's answer to {path} is not JSON ({exc}): "
                              f"{data[:80]!r}") from None

    def _probe(self, path, root=False):
        """A side-effect-free GET for detection: the JSON, or None when it is not there.

        Probes share one deadline (`_probe_deadline`, set by whoever probes several times):
        however slowly a server answers them, all of them together take at most the
        timeout, and a probe with no time left is not sent.
        """
        limit = min(PROBE_TIMEOUT, self.timeout)
        if self._probe_deadline is not None:
            limit = min(limit, self._probe_deadline - time.monotonic())
            if limit <= 0.05:
                return None
        try:
            return self._json("GET", path, timeout=limit, root=root)
        except ServerUnreachable:
            raise
        except ServerError:
            return None
