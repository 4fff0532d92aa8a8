"""One model request: the fixed settings, the whole body, and the hashes taken over it.

The request's sha256 (over one canonical serialisation of the whole body) goes into every
answer, so `replay` can rebuild the request offline and tell whether it is the same.
"""

import hashlib
import json
import re
from typing import Any, Dict, Sequence, Tuple

from .defaults import SETTINGS  # noqa: F401 (the settings every request is sent with)
from .servers import OPTIONS_PREFIX
from ..patterns import lazy

# Models that think unless told not to get the switch; every other model gets nothing extra.
_THINKING_MODELS = lazy(r"gemma-?4", re.I)
THINKING_OFF = {"chat_template_kwargs": {"enable_thinking": False}}
SCHEMA_NAME = "receipt_pair_answer"


def model_extras(model):
    """Request fields a model needs beyond the fixed settings (the thinking switch)."""
    return dict(THINKING_OFF) if _THINKING_MODELS.search(model) else {}


def build_request(reader, claim, shown, model, extra=None, constrained=True, server=None):
    """The whole chat request body of a one-question reader for one model."""
    schema = reader.schema(shown) if constrained else None
    return build_body(reader.messages(claim, shown), schema, model, extra, server)


# Asked for only where the server returns them (llama-server): the probability of each
# verdict at its first token, kept in the answer so a confidence rule can be replayed.
LOGPROBS = {"logprobs": True, "top_logprobs": 10}


def build_body(messages, schema, model, extra=None, server=None, logprobs=False):
    """The whole chat request body for one model: the messages, the fixed settings, the reply
    schema (None: unconstrained), and `extra` fields merged in last.

    `server` is a row of `servers.KINDS` (None: an OpenAI-compatible server). Each setting
    goes in the field that kind applies; for Lemonade, llama-server and unknown servers the
    body is exactly the one every earlier run sent and sealed (their request hashes are
    replayed against it). `logprobs` adds LOGPROBS where the server returns them.
    """
    if server is not None and server.native:
        return _native_ollama(server, model, messages, schema, extra)
    fields = server.fields if server is not None else None
    body = {"model": model, "messages": messages}
    for name, value in SETTINGS.items():
        target = name if fields is None else fields.get(name)
        if target is not None:
            body[target] = value
    if schema is not None and (server is None or server.schema_field == "response_format"):
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": schema},
        }
    if server is None or server.thinking_field == "chat_template_kwargs":
        body.update(model_extras(model))
    if logprobs and server is not None and server.logprobs:
        body.update(LOGPROBS)
    body.update(extra or {})
    return body


def _native_ollama(server, model, messages, schema, extra):
    """Ollama's /api/chat body: settings under "options", the schema as "format"."""
    options = {}
    body = {"model": model, "messages": messages}
    if server.stream_false:
        body["stream"] = False
    for name, value in SETTINGS.items():
        target = server.fields.get(name)
        if target is None:
            continue
        if target.startswith(OPTIONS_PREFIX):
            options[target[len(OPTIONS_PREFIX):]] = value
        else:
            body[target] = value
    body["options"] = options
    if schema is not None:
        body[server.schema_field] = schema
    if model_extras(model):
        body[server.thinking_field] = False
    for key, value in (extra or {}).items():
        # An --extra field named like one of our settings replaces that setting where this
        # server reads it; an "options" object is merged into ours; anything else is sent
        # as given.
        target = server.fields.get(key)
        if key == "options" and isinstance(value, dict):
            options.update(value)
        elif target is not None and target.startswith(OPTIONS_PREFIX):
            options[target[len(OPTIONS_PREFIX):]] = value
        else:
            body[key] = value
    return body


def unapplied_settings(server, model=None):
    """The names of our settings that `server` cannot apply (empty when all are applied).

    With `model`, the thinking switch that model needs is listed as "chat_template_kwargs"
    when the server has no way to say it.
    """
    if server is None:
        return ()
    names = server.unapplied()
    if model is not None and model_extras(model) and server.thinking_field is None:
        names += tuple(model_extras(model))
    return names


def canonical_json(value):
    """The one serialisation that hashes are taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_sha256(body):
    return sha256_text(canonical_json(body))


def request_digest(bodies: Sequence[Tuple[str, Dict[str, Any]]]) -> str:
    """The sha256 that pins what was asked: of the one body, or of the list of them."""
    if len(bodies) == 1:
        return request_sha256(bodies[0][1])
    return sha256_text(canonical_json([body for _, body in bodies]))
