"""The model server as receipt-pair uses it: chat, what kind of server it is, loading and
unloading models. HTTP itself is in transport.py.

Speaks the OpenAI chat API that Lemonade, llama.cpp's llama-server, LM Studio and vLLM
serve, Ollama's native chat API (the only one of Ollama's APIs that applies every sampling
setting), and the load/unload endpoints of the servers that have them. Which server is
there is told by GET requests that change nothing (see `servers.py`); every difference
between kinds lives in that table's rows. A model that the local server would itself send
to a cloud service is refused unless remote servers were allowed.
"""

import copy
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Set

from ..errors import ServerError, UsageError
from .servers import KINDS, LEMONADE, LLAMA_ROUTER, LLAMA_SERVER, LMSTUDIO, OLLAMA, OPENAI, \
    VLLM, ServerKind, get_kind
from .transport import (HINT_REMOTE, RemoteModelRefused, SchemaRefused, ServerUnreachable,
                        Transport, _error_message, _hinted, _loads, _refusal, _text_ok,
                        check_base_url, not_an_answer)

from .defaults import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B,  # noqa: F401
                       DEFAULT_TIMEOUT, ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B)
LOADING_WAIT = 1.0  # seconds between tries while llama-server says it is still loading


TIMING_KEYS = ("prompt_n", "prompt_ms", "predicted_n", "predicted_ms", "cache_n")
USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")
# Where a chat answer keeps the server's own figures: a non-finite number there is dropped,
# not refused (OpenAI's usage, llama-server's timings, Ollama's counts and durations).
FIGURES = ("usage", "timings", "prompt_eval_count", "prompt_eval_duration", "eval_count",
           "eval_duration", "total_duration", "load_duration")
# Words in a server's refusal that mean "I cannot constrain the reply to that schema".
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")
# Where servers put a thinking model's reasoning, beside the answer's content.
_REASONING_KEYS = ("reasoning_content", "reasoning", "thinking")


class CutOff(ServerError):
    """A reply cut off at its token limit: no whole answer, though the model spoke."""


@dataclass
class ChatResult:
    content: str  # the model's raw reply text
    usage: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    wall_s: float = 0.0
    finish_reason: Optional[str] = None  # "stop", ... as the server said it
    logprobs: Any = None  # the raw choices[0].logprobs, only when the request asked


class Client(Transport):
    """One model server. Every method either returns data or raises ServerError.

    Safe to share between threads: each call opens its own connection, and what is learnt
    about the server (its kind, its models' whereabouts, the models whose reply schema it
    refused) is cached under a lock.
    """

    def __init__(self, base_url: str = DEFAULT_BASE_URL, timeout: float = DEFAULT_TIMEOUT,
                 allow_remote: bool = False, server_kind: Optional[str] = None) -> None:
        super().__init__(base_url, timeout, allow_remote)
        # What is learnt of the server, in one dict that every with_timeout copy shares, so
        # that a copy made before the server was detected does not detect it again.
        self._learnt: Dict[str, Any] = {"server": None, "health": None}
        if server_kind is not None:
            try:
                self._learnt["server"] = get_kind(server_kind)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        self._lock = threading.RLock()
        self._local_models: Dict[str, bool] = {}  # model -> True once shown to run here
        # The models the server would not constrain to a schema.
        self._schema_refused: Set[str] = set()

    def with_timeout(self, timeout: float) -> "Client":
        """This client, with what it learnt of the server, bounding one call by `timeout`
        seconds instead (at least a tenth of a second)."""
        other = copy.copy(self)
        other.timeout = max(0.1, float(timeout))
        return other

    def takes_schema(self, model: str) -> bool:
        """Whether a request for `model` may carry the reply's JSON schema: until the
        server refuses it once (`refused_schema`), it may."""
        with self._lock:
            return model not in self._schema_refused

    def refused_schema(self, model: str) -> None:
        """Remember that the server refused the reply schema for `model`."""
        with self._lock:
            self._schema_refused.add(model)

    # -- chat ---------------------------------------------------------------------------

    def chat(self, body: Dict[str, Any]) -> ChatResult:
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
        problem = not_an_answer(status, data)
        if problem:
            constrained = ("format" if native else "response_format") in body
            words = _SCHEMA_WORDS + (("format",) if native else ())
            error = SchemaRefused if (
                status in (400, 422, 500) and constrained
                and any(word in _error_message(data).lower() for word in words)) \
                else ServerError
            raise error(f"model {model}: the server answered {problem}")
        try:
            reply = _loads(data, FIGURES)
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
            raise CutOff(f"model {model}: the reply was cut off at the token limit "
                              "before it ended, so it is not a whole answer")
        if not (content or "").strip() and any(
                isinstance(message.get(key), str) and message.get(key).strip()
                for key in _REASONING_KEYS):
            raise ServerError(f"model {model}: the reply holds only the model's reasoning "
                              "and no answer (a thinking model whose thinking was not "
                              "switched off)")

    # -- what the server is -------------------------------------------------------------

    def server(self) -> ServerKind:
        """The row of `servers.KINDS` for this server, detected once by GET requests."""
        with self._lock:
            if self._learnt["server"] is None:
                self._probe_deadline = time.monotonic() + self.timeout
                try:
                    self._learnt["server"] = self._detect()
                finally:
                    self._probe_deadline = None
            return self._learnt["server"]

    def kind(self) -> str:
        """Deprecated: the row's key ('lemonade', 'llama-router', 'ollama', ...).

        Kept for callers that still compare names; ask `server()` for what a server does.
        """
        return self.server().key

    def _detect(self):
        health = self._probe("/health")
        if isinstance(health, dict) and ("max_models" in health or "all_models_loaded" in health):
            self._learnt["health"] = health
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

    def capacity(self) -> int:
        """How many models the server holds at once, as far as it says (1 when unsure)."""
        server = self.server()
        if not server.reports_capacity:
            return 1
        if server is LEMONADE:
            health = self._learnt["health"] or self._probe("/health") or {}
            limit = health.get("max_models") if isinstance(health, dict) else None
            if isinstance(limit, dict):
                limit = limit.get("llm")
        else:
            # The router says how many model processes it keeps in /props, beside /v1.
            props = self._probe("/props", root=True)
            limit = props.get("max_instances") if isinstance(props, dict) else None
        return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 \
            else 1

    def holds_both(self) -> bool:
        """Whether the server says it holds two models at once (False when it cannot say);
        an unreachable server is a ServerUnreachable."""
        try:
            return self.capacity() >= 2
        except ServerUnreachable:
            raise
        except ServerError:
            return False

    def slots(self) -> int:
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

    def model_statuses(self) -> Dict[str, Optional[str]]:
        """{model id: its load status as the server reports it, or None}: the OpenAI model
        list, with llama-server router's per-model status. {} when there is no list."""
        listing = self._probe("/models")
        data = listing.get("data") if isinstance(listing, dict) else None
        statuses = {}
        for model in data if isinstance(data, list) else []:
            if isinstance(model, dict) and isinstance(model.get("id"), str):
                status = model.get("status")
                statuses[model["id"]] = status.get("value") if isinstance(status, dict) else None
        return statuses

    def load(self, model: str) -> None:
        """Load `model` where the server offers it; a no-op elsewhere."""
        server = self.server()
        if server.manages_models and server.load_path:
            self._refuse_remote_model(server, model)
            self._manage(server, server.load_path, {server.model_field: model})

    def unload(self, model: str) -> None:
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


# The errors a caller of the client catches are raised by its transport; they are named here
# so that `from .client import ServerUnreachable` reads as what it is.
__all__ = ["ChatResult", "Client", "CutOff", "RemoteModelRefused", "SchemaRefused", "ServerUnreachable",
           "check_base_url", "KINDS"]
