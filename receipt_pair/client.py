"""HTTP to the model server, and nothing else.

Speaks the OpenAI chat API that Lemonade, llama.cpp's llama-server, LM Studio and vLLM
serve, Ollama's native chat API (the only one of Ollama's APIs that applies every sampling
setting), and the load/unload endpoints of the servers that have them. Which server is
there is told by GET requests that change nothing (see `servers.py`); every difference
between kinds lives in that table's rows.

Standard library only. Proxies are never used (a proxy would carry the log off the
machine), and a host that does not resolve to loopback is refused, when the URL is read
and again at every connection (http and https alike), unless remote servers were allowed.
A model that the local server would itself send to a cloud service is refused the same way.

Limits, so that no server can hold or flood a call:
- the timeout is a deadline for the whole call: connecting, sending, waiting, and reading
  however slowly the server trickles its answer;
- an answer body larger than MAX_BODY_BYTES is an error, and so is one that is not valid
  UTF-8, is nested too deeply to parse, or carries a lone surrogate in its text.

Error messages name no command-line flags (Python callers read them too); where a flag
helps, it is in the exception's `cli_hint` attribute, which the command line appends.
"""

import http.client
import ipaddress
import json
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Optional

from .errors import ServerError, UsageError
from .servers import KINDS, LEMONADE, LLAMA_ROUTER, LLAMA_SERVER, LMSTUDIO, OLLAMA, OPENAI, \
    VLLM, get_kind

DEFAULT_BASE_URL = "http://localhost:13305/api/v1"
DEFAULT_MODEL_A = "Qwen3-4B-Instruct-2507-GGUF"
DEFAULT_MODEL_B = "Gemma-4-E4B-it-GGUF"
# Environment variables that set the defaults for every command.
ENV_BASE_URL = "RECEIPT_PAIR_BASE_URL"
ENV_MODEL_A = "RECEIPT_PAIR_MODEL_A"
ENV_MODEL_B = "RECEIPT_PAIR_MODEL_B"
DEFAULT_TIMEOUT = 300.0  # seconds for one model call, load included
PROBE_TIMEOUT = 10.0  # seconds for health and model-list requests
LOADING_WAIT = 1.0  # seconds between tries while llama-server says it is still loading
# An answer larger than this is not a chat reply (ours are a few hundred tokens): refused.
MAX_BODY_BYTES = 8 * 1024 * 1024
READ_CHUNK = 64 * 1024

TIMING_KEYS = ("prompt_n", "prompt_ms", "predicted_n", "predicted_ms", "cache_n")
USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")
# Words in a server's refusal that mean "I cannot constrain the reply to that schema".
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")
# Where servers put a thinking model's reasoning, beside the answer's content.
_REASONING_KEYS = ("reasoning_content", "reasoning", "thinking")

HINT_TIMEOUT = "raise --timeout for slow machines"
HINT_REMOTE = "pass --allow-remote if that is what you want"
HINT_BASE_URL = "give --base-url for your server (receipt-pair verify checks a saved reply " \
                "offline)"


@dataclass
class ChatResult:
    content: str  # the model's raw reply text
    usage: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    wall_s: float = 0.0
    finish_reason: Optional[str] = None  # "stop", ... as the server said it
    logprobs: Any = None  # the raw choices[0].logprobs, only when the request asked


class SchemaRefused(ServerError):
    """The server refused the request because of its JSON-schema constraint."""


class ServerUnreachable(ServerError):
    """Nothing was asked: the server is not there (refused, unresolvable, gone)."""


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


def _loads(data):
    """JSON from a server's bytes; ValueError for anything that is not clean JSON text.

    Invalid UTF-8 and nesting too deep for the parser (RecursionError) are refused like any
    other malformed body.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


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


class Client:
    """One model server. Every method either returns data or raises ServerError.

    Safe to share between threads: each call opens its own connection, and what is learnt
    about the server (its kind, its models' whereabouts) is cached under a lock.
    """

    def __init__(self, base_url=DEFAULT_BASE_URL, timeout=DEFAULT_TIMEOUT, allow_remote=False,
                 server_kind=None):
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
            raise UsageError("the timeout must be a positive number of seconds")
        self.base_url = base_url.rstrip("/") if isinstance(base_url, str) else base_url
        self.timeout = float(timeout)
        self.allow_remote = allow_remote
        self._parts = check_base_url(self.base_url, allow_remote)
        self._server = None
        if server_kind is not None:
            try:
                self._server = get_kind(server_kind)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        self._lock = threading.RLock()
        self._health = None
        self._local_models = {}  # model -> True once shown to run here

    # -- HTTP ---------------------------------------------------------------------------

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
        if status >= 400:
            raise ServerError(f"the model server answered HTTP {status} to {path}: "
                              f"{_error_message(data)}")
        try:
            return _loads(data)
        except ValueError as exc:
            raise ServerError(f"the model server's answer to {path} is not JSON ({exc}): "
                              f"{data[:80]!r}") from None

    def _probe(self, path, root=False):
        """A side-effect-free GET for detection: the JSON, or None when it is not there."""
        try:
            return self._json("GET", path, timeout=min(PROBE_TIMEOUT, self.timeout),
                              root=root)
        except ServerUnreachable:
            raise
        except ServerError:
            return None

    # -- chat ---------------------------------------------------------------------------

    def chat(self, body):
        """Send one chat request body; return the reply text with the server's figures.

        The body is sent to the detected server's chat endpoint in the form
        `request.build_request(..., server=client.server())` made for it (an OpenAI-shaped
        body goes to the OpenAI-compatible endpoint even on Ollama). A reply cut off at the
        token limit, or one with reasoning and no answer, is a failed call.
        """
        server = self.server()
        model = body.get("model", "?")
        started = time.monotonic()
        deadline = started + self.timeout
        self._refuse_remote_model(server, model)
        # A body built without the server in mind (OpenAI shape) goes to the kind's
        # OpenAI-compatible endpoint, as it always did.
        native = server.native and isinstance(body.get("options"), dict)
        if server.native and not native:
            path, root = OPENAI.chat_path, OPENAI.chat_at_root
        else:
            path, root = server.chat_path, server.chat_at_root
        while True:
            remaining = max(0.05, deadline - time.monotonic())
            status, data = self.request("POST", path, body, timeout=remaining, root=root,
                                        budget=self.timeout)
            # llama-server answers 503 while a model is still loading: wait, then ask.
            if status == 503 and time.monotonic() + 2 * LOADING_WAIT < deadline \
                    and b"oading" in data:
                time.sleep(LOADING_WAIT)
                continue
            break
        wall = time.monotonic() - started
        if status >= 400:
            message = _error_message(data)
            constrained = ("format" if native else "response_format") in body
            words = _SCHEMA_WORDS + (("format",) if native else ())
            error = SchemaRefused if (
                status in (400, 422, 500) and constrained
                and any(word in message.lower() for word in words)) else ServerError
            raise error(f"model {model}: the server answered HTTP {status}: {message}")
        try:
            reply = _loads(data)
        except ValueError as exc:
            raise ServerError(f"model {model}: the server's answer is not JSON ({exc}): "
                              f"{data[:80]!r}") from None
        if isinstance(reply, dict) and "error" in reply and "choices" not in reply \
                and "message" not in reply:
            raise ServerError(f"model {model}: the server answered an error: "
                              f"{_error_message(data)}")
        if native:
            result = self._native_result(model, reply)
        else:
            result = self._openai_result(model, reply, bool(body.get("logprobs")))
        result.wall_s = round(wall, 4)
        return result

    def _openai_result(self, model, reply, want_logprobs):
        try:
            choice = reply["choices"][0]
            message = choice["message"]
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise ServerError(f"model {model}: the server's answer has no "
                              "choices[0].message") from None
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        self._check_reply(model, message, content, finish)
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        timings = reply.get("timings") if isinstance(reply.get("timings"), dict) else {}
        return ChatResult(
            content=content or "",
            usage={k: usage[k] for k in USAGE_KEYS if k in usage},
            timings={k: timings[k] for k in TIMING_KEYS if k in timings},
            finish_reason=finish if isinstance(finish, str) else None,
            logprobs=choice.get("logprobs") if want_logprobs else None,
        )

    def _native_result(self, model, reply):
        """Ollama's /api/chat answer in the same shape as an OpenAI one."""
        message = reply.get("message") if isinstance(reply, dict) else None
        if not isinstance(message, dict):
            raise ServerError(f"model {model}: the server's answer has no message")
        content = message.get("content")
        finish = reply.get("done_reason")
        self._check_reply(model, message, content, finish)
        usage, timings = {}, {}
        prompt_n, predicted_n = reply.get("prompt_eval_count"), reply.get("eval_count")
        if isinstance(prompt_n, int) and isinstance(predicted_n, int):
            usage = {"prompt_tokens": prompt_n, "completion_tokens": predicted_n,
                     "total_tokens": prompt_n + predicted_n}
        for count, duration, n_key, ms_key in (
                (prompt_n, reply.get("prompt_eval_duration"), "prompt_n", "prompt_ms"),
                (predicted_n, reply.get("eval_duration"), "predicted_n", "predicted_ms")):
            if isinstance(count, int):
                timings[n_key] = count
            if isinstance(duration, (int, float)) and not isinstance(duration, bool):
                timings[ms_key] = round(duration / 1e6, 3)  # Ollama counts nanoseconds
        return ChatResult(content=content or "", usage=usage, timings=timings,
                          finish_reason=finish if isinstance(finish, str) else None)

    @staticmethod
    def _check_reply(model, message, content, finish):
        if content is not None and not isinstance(content, str):
            raise ServerError(f"model {model}: the reply's content is not text")
        if isinstance(content, str):
            _text_ok(content, f"model {model}: the reply")
        if finish == "length":
            raise ServerError(f"model {model}: the reply was cut off at the token limit "
                              "before it ended, so it is not a whole answer")
        if not (content or "").strip() and any(
                isinstance(message.get(key), str) and message.get(key).strip()
                for key in _REASONING_KEYS):
            raise ServerError(f"model {model}: the reply holds only the model's reasoning "
                              "and no answer (a thinking model whose thinking was not "
                              "switched off)")

    # -- what the server is -------------------------------------------------------------

    def server(self):
        """The row of `servers.KINDS` for this server, detected once by GET requests."""
        with self._lock:
            if self._server is None:
                self._server = self._detect()
            return self._server

    def kind(self):
        """Deprecated: the row's key ('lemonade', 'llama-router', 'ollama', ...).

        Kept for callers that still compare names; ask `server()` for what a server does.
        """
        return self.server().key

    def _detect(self):
        health = self._probe("/health")
        if isinstance(health, dict) and ("max_models" in health or "all_models_loaded" in health):
            self._health = health
            return LEMONADE
        listing = self._probe("/models")
        data = listing.get("data") if isinstance(listing, dict) else None
        entries = [m for m in data if isinstance(m, dict)] if isinstance(data, list) else []
        if any(isinstance(m.get("status"), dict) for m in entries):
            return LLAMA_ROUTER
        owners = {m.get("owned_by") for m in entries}
        if "vllm" in owners:
            return VLLM
        if "llamacpp" in owners:
            return LLAMA_SERVER
        if any("recipe" in m for m in entries) and "lemonade" in owners:
            return LEMONADE
        tags = self._probe("/api/tags", root=True)
        models = tags.get("models") if isinstance(tags, dict) else None
        if isinstance(models, list) and all(
                isinstance(m, dict) and "name" in m and ("digest" in m or "model" in m)
                for m in models) and self._probe("/api/version", root=True) is not None:
            return OLLAMA
        native = self._probe("/api/v1/models", root=True)
        models = native.get("models") if isinstance(native, dict) else None
        if isinstance(models, list) and models and all(
                isinstance(m, dict) and "key" in m and "loaded_instances" in m for m in models):
            return LMSTUDIO
        legacy = self._probe("/api/v0/models", root=True)
        data = legacy.get("data") if isinstance(legacy, dict) else None
        if isinstance(data, list) and data and all(
                isinstance(m, dict) and "state" in m and "type" in m for m in data):
            return LMSTUDIO
        return OPENAI

    def capacity(self):
        """How many models the server holds at once, as far as it says (1 when unsure)."""
        server = self.server()
        if not server.reports_capacity:
            return 1
        if server is LEMONADE:
            health = self._health or self._probe("/health") or {}
            limit = health.get("max_models") if isinstance(health, dict) else None
            if isinstance(limit, dict):
                limit = limit.get("llm")
        else:
            # The router says how many model processes it keeps in /props, beside /v1.
            props = self._probe("/props", root=True)
            limit = props.get("max_instances") if isinstance(props, dict) else None
        return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 \
            else 1

    def slots(self):
        """How many requests one llama-server model serves at once (its /props total_slots).

        1 when the server does not say; the router's /props names no slots without a model,
        and asking it about a model could load that model.
        """
        if self.server() is not LLAMA_SERVER:
            return 1
        props = self._probe("/props", root=True)
        slots = props.get("total_slots") if isinstance(props, dict) else None
        return slots if isinstance(slots, int) and not isinstance(slots, bool) and slots > 0 \
            else 1

    # -- models -------------------------------------------------------------------------

    def load(self, model):
        """Load `model` where the server offers it; a no-op elsewhere."""
        server = self.server()
        if server.manages_models and server.load_path:
            self._refuse_remote_model(server, model)
            self._manage(server, server.load_path, {server.model_field: model})

    def unload(self, model):
        """Unload `model` where the server offers it; a no-op elsewhere."""
        server = self.server()
        if server.manages_models and server.unload_path:
            self._manage(server, server.unload_path,
                         {server.model_field: model, **server.unload_extra})

    def _manage(self, server, path, payload):
        body = self._json("POST", path, payload, root=server.manage_at_root)
        refusal = _refusal(body)
        if refusal is not None:
            raise ServerError(f"the model server refused {path} for "
                              f"{payload[server.model_field]}: {refusal}")
        return body

    # -- models that would leave the machine --------------------------------------------

    def _refuse_remote_model(self, server, model):
        if self.allow_remote or server.cloud_models is None:
            return
        with self._lock:
            if self._local_models.get(model):
                return
        where = None
        if server.cloud_models == "ollama-cloud":
            where = self._ollama_remote(model)
        elif server.cloud_models == "lemonade-recipe":
            where = self._lemonade_remote(model)
        if where:
            raise _hinted(RemoteModelRefused(
                f"model {model} would run off this machine ({where}), so the log would "
                "leave it; refused. Allow remote servers if that is what you want."),
                HINT_REMOTE)
        with self._lock:
            self._local_models[model] = True

    def _ollama_remote(self, model):
        name = model.lower()
        tag = name.rsplit(":", 1)[1] if ":" in name.rsplit("/", 1)[-1] else ""
        if tag == "cloud" or tag.endswith("-cloud") or name.endswith("-cloud"):
            return "an Ollama cloud model runs on ollama.com"
        tags = self._probe("/api/tags", root=True)
        for entry in (tags or {}).get("models") or []:
            if isinstance(entry, dict) and model in (entry.get("name"), entry.get("model")):
                if entry.get("remote_host") or entry.get("remote_model"):
                    return f"Ollama sends it to {entry.get('remote_host') or 'a remote host'}"
        return None

    def _lemonade_remote(self, model, depth=0):
        info = self._probe("/models/" + urllib.parse.quote(model, safe=""))
        if not isinstance(info, dict) or info.get("id", model) != model:
            # Cloud names can hold a "/" that a path cannot carry: look in the whole list.
            listing = self._probe("/models")
            data = listing.get("data") if isinstance(listing, dict) else None
            info = next((m for m in data or [] if isinstance(m, dict) and m.get("id") == model),
                        None)
        if info is None:
            return None  # unknown here: the chat request will say so
        recipe = info.get("recipe")
        if recipe == "cloud":
            return "Lemonade forwards its \"cloud\" recipe to a cloud provider"
        if isinstance(recipe, str) and recipe.startswith("collection."):
            components = info.get("components")
            if not isinstance(components, list) or not components or depth >= 2:
                return f"Lemonade's {recipe} model may route to any model, cloud ones included"
            for component in components:
                if not isinstance(component, str):
                    return f"Lemonade's {recipe} model names a component it cannot show"
                where = self._lemonade_remote(component, depth + 1)
                if where:
                    return f"its component {component}: {where}"
        return None


__all__ = ["ChatResult", "Client", "RemoteModelRefused", "SchemaRefused", "ServerUnreachable",
           "check_base_url", "resolve", "KINDS", "MAX_BODY_BYTES"]
