"""HTTP to the model server, and nothing else.

Speaks the OpenAI chat API that Lemonade, llama.cpp's llama-server, Ollama, LM Studio and
vLLM all serve, plus the load/unload endpoints of Lemonade and of llama-server's router
mode where they exist. Standard library only; proxies are never used (a proxy would carry
the log off the machine), and a host that does not resolve to loopback is refused at
connect time unless remote servers were allowed.
"""

import http.client
import ipaddress
import json
import socket
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Optional

from .errors import ServerError, UsageError

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

TIMING_KEYS = ("prompt_n", "prompt_ms", "predicted_n", "predicted_ms", "cache_n")
USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")
# Words in a server's refusal that mean "I cannot constrain the reply to that schema".
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")


@dataclass
class ChatResult:
    content: str  # the model's raw reply text
    usage: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    wall_s: float = 0.0


class SchemaRefused(ServerError):
    """The server refused the request because of its response_format."""


class ServerUnreachable(ServerError):
    """Nothing was asked: the server is not there (refused, unresolvable, gone)."""


def _is_loopback(address):
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def resolve(host, port):
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServerUnreachable(
            f"cannot resolve the model server's host {host!r}: {exc.strerror}") from None
    return [info[4] for info in infos]


def check_base_url(base_url, allow_remote=False):
    """Refuse a URL that is not http(s), or whose host is not this machine (unless allowed)."""
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--base-url {base_url!r} must look like http://localhost:13305/api/v1")
    if allow_remote:
        return parts
    try:
        addresses = resolve(parts.hostname, parts.port or 80)
    except ServerUnreachable:
        raise UsageError(f"--base-url host {parts.hostname!r} does not resolve, so it cannot be "
                         "shown to be this machine; refused") from None
    for address in addresses:
        if not _is_loopback(address[0]):
            raise UsageError(
                f"--base-url host {parts.hostname!r} is not this machine ({address[0]}); the "
                "log would leave it. Pass --allow-remote if that is what you want."
            )
    return parts


class _Connection(http.client.HTTPConnection):
    """Resolves the host at connect time and connects only to a loopback address."""

    allow_remote = False

    def connect(self):
        addresses = resolve(self.host, self.port)
        if not self.allow_remote:
            addresses = [a for a in addresses if _is_loopback(a[0])]
            if not addresses:
                raise ServerError(f"{self.host!r} no longer resolves to this machine; refused")
        last = None
        for address in addresses:
            family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            try:
                sock.connect(address)
            except OSError as exc:
                sock.close()
                last = exc
                continue
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sock = sock
            return
        raise last or ConnectionRefusedError("no address to connect to")


def _error_message(data):
    """The message of an error body in any of the shapes servers use."""
    try:
        body = json.loads(data)
    except ValueError:
        text = data.decode("utf-8", "replace").strip()
        return text[:200] if text else "(empty body)"
    if isinstance(body, dict):
        error = body.get("error", body.get("detail", body.get("message")))
        if isinstance(error, dict):
            return str(error.get("message") or error.get("type") or json.dumps(error))[:300]
        if error is not None:
            return str(error)[:300]
    return json.dumps(body)[:200]


class Client:
    """One model server. Every method either returns data or raises ServerError."""

    def __init__(self, base_url=DEFAULT_BASE_URL, timeout=DEFAULT_TIMEOUT, allow_remote=False):
        if not timeout or timeout <= 0:
            raise UsageError("--timeout must be a positive number of seconds")
        self.base_url = base_url.rstrip("/")
        self.timeout = float(timeout)
        self.allow_remote = allow_remote
        self._parts = check_base_url(self.base_url, allow_remote)
        self._kind = None

    # -- HTTP ---------------------------------------------------------------------------

    def _connection(self, timeout):
        parts = self._parts
        if parts.scheme == "https":
            return http.client.HTTPSConnection(parts.hostname, parts.port or 443, timeout=timeout)
        conn = _Connection(parts.hostname, parts.port or 80, timeout=timeout)
        conn.allow_remote = self.allow_remote
        return conn

    def _path(self, path, root=False):
        base = self._parts.path.rstrip("/")
        if root:  # llama-server keeps model management beside /v1, not under it
            base = base[: -len("/v1")] if base.endswith("/v1") else base
        return base + path

    def request(self, method, path, payload=None, timeout=None, root=False):
        """(HTTP status, body bytes). Connection failures and timeouts raise ServerError."""
        timeout = timeout or self.timeout
        url = f"{self._parts.scheme}://{self._parts.netloc}{self._path(path, root)}"
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn = self._connection(timeout)
        try:
            conn.request(method, self._path(path, root), body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        except (socket.timeout, TimeoutError):
            raise ServerError(
                f"the model server at {self.base_url} did not answer {path} within "
                f"{timeout:g} s (raise --timeout for slow machines)") from None
        except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError,
                http.client.RemoteDisconnected):
            raise ServerUnreachable(
                f"cannot reach the model server at {self.base_url}: connection refused or "
                "dropped. "
                "Start Lemonade Server, or on Linux `scripts/local-models start`, or give "
                "--base-url for your server. (No server at hand? `receipt-pair verify` "
                "checks a saved reply offline.)") from None
        except ServerError:
            raise
        except (OSError, http.client.HTTPException) as exc:
            raise ServerError(f"talking to the model server at {url} failed: "
                              f"{exc.__class__.__name__}: {exc}") from None
        finally:
            conn.close()

    def _json(self, method, path, payload=None, timeout=None, root=False):
        status, data = self.request(method, path, payload, timeout, root)
        if status >= 400:
            raise ServerError(f"the model server answered HTTP {status} to {path}: "
                              f"{_error_message(data)}")
        try:
            return json.loads(data)
        except ValueError:
            raise ServerError(f"the model server's answer to {path} is not JSON: "
                              f"{data[:80]!r}") from None

    # -- chat ---------------------------------------------------------------------------

    def chat(self, body):
        """Send one chat request body; return the reply text with the server's figures."""
        model = body.get("model", "?")
        started = time.monotonic()
        deadline = started + self.timeout
        while True:
            remaining = max(0.05, deadline - time.monotonic())
            status, data = self.request("POST", "/chat/completions", body, timeout=remaining)
            # llama-server answers 503 while a model is still loading: wait, then ask.
            if status == 503 and time.monotonic() + 2 * LOADING_WAIT < deadline \
                    and b"oading" in data:
                time.sleep(LOADING_WAIT)
                continue
            break
        wall = time.monotonic() - started
        if status >= 400:
            message = _error_message(data)
            error = SchemaRefused if (
                status in (400, 422, 500) and "response_format" in body
                and any(word in message.lower() for word in _SCHEMA_WORDS)) else ServerError
            raise error(f"model {model}: the server answered HTTP {status}: {message}")
        try:
            reply = json.loads(data)
        except ValueError:
            raise ServerError(f"model {model}: the server's answer is not JSON: "
                              f"{data[:80]!r}") from None
        if isinstance(reply, dict) and "error" in reply and "choices" not in reply:
            raise ServerError(f"model {model}: the server answered an error: "
                              f"{_error_message(data)}")
        try:
            message = reply["choices"][0]["message"]
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise ServerError(f"model {model}: the server's answer has no "
                              "choices[0].message") from None
        if content is not None and not isinstance(content, str):
            raise ServerError(f"model {model}: the reply's content is not text")
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        timings = reply.get("timings") if isinstance(reply.get("timings"), dict) else {}
        return ChatResult(
            content=content or "",
            usage={k: usage[k] for k in USAGE_KEYS if k in usage},
            timings={k: timings[k] for k in TIMING_KEYS if k in timings},
            wall_s=round(wall, 4),
        )

    # -- what the server can do ---------------------------------------------------------

    def kind(self):
        """'lemonade', 'llama-router', or 'openai' (no model management known)."""
        if self._kind is None:
            self._kind = self._detect()
        return self._kind

    def _detect(self):
        try:
            health = self._json("GET", "/health", timeout=PROBE_TIMEOUT)
        except ServerUnreachable:
            raise
        except ServerError:
            health = None
        if isinstance(health, dict) and ("max_models" in health or "all_models_loaded" in health):
            self._health = health
            return "lemonade"
        try:
            listing = self._json("GET", "/models", timeout=PROBE_TIMEOUT)
        except ServerError:
            return "openai"
        data = listing.get("data") if isinstance(listing, dict) else None
        if isinstance(data, list) and any(isinstance(m, dict) and "status" in m for m in data):
            return "llama-router"
        return "openai"

    def capacity(self):
        """How many models the server holds at once, as far as it says (1 when unsure)."""
        kind = self.kind()
        if kind == "lemonade":
            limit = getattr(self, "_health", {}).get("max_models")
            if isinstance(limit, dict):
                limit = limit.get("llm")
            return limit if isinstance(limit, int) and limit > 0 else 1
        if kind == "llama-router":
            # The router says how many model processes it keeps in /props, beside /v1.
            try:
                props = self._json("GET", "/props", timeout=PROBE_TIMEOUT, root=True)
            except ServerUnreachable:
                raise
            except ServerError:
                return 1
            limit = props.get("max_instances") if isinstance(props, dict) else None
            return limit if isinstance(limit, int) and limit > 0 else 1
        return 1

    def load(self, model):
        """Load `model` where the server offers it; a no-op elsewhere."""
        kind = self.kind()
        if kind == "lemonade":
            self._json("POST", "/load", {"model_name": model})
        elif kind == "llama-router":
            self._json("POST", "/models/load", {"model": model}, root=True)

    def unload(self, model):
        """Unload `model` where the server offers it; a no-op elsewhere."""
        kind = self.kind()
        if kind == "lemonade":
            self._json("POST", "/unload", {"model_name": model})
        elif kind == "llama-router":
            self._json("POST", "/models/unload", {"model": model}, root=True)
