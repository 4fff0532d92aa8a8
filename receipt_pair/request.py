"""One model request: the fixed settings, the whole body, and the hashes taken over it.

The request's sha256 (over one canonical serialisation of the whole body) goes into every
answer, so `replay` can rebuild the request offline and tell whether it is the same.
"""

import hashlib
import json
import re

# Sent on every request. Lemonade applies per-family sampling defaults to any field a
# request leaves out, so all the sampling fields are set, not only temperature.
# cache_prompt is off: with it on, llama-server's replies drifted at temperature 0.
SETTINGS = {
    "temperature": 0,
    "top_p": 1,
    "top_k": 1,
    "repeat_penalty": 1,
    "presence_penalty": 0,
    "frequency_penalty": 0,
    "max_tokens": 400,
    "seed": 42,
    "cache_prompt": False,
}
# Models that think unless told not to get the switch; every other model gets nothing extra.
_THINKING_MODELS = re.compile(r"gemma-?4", re.I)
THINKING_OFF = {"chat_template_kwargs": {"enable_thinking": False}}
SCHEMA_NAME = "receipt_pair_answer"


def model_extras(model):
    """Request fields a model needs beyond the fixed settings (the thinking switch)."""
    return dict(THINKING_OFF) if _THINKING_MODELS.search(model) else {}


def build_request(reader, claim, shown, model, extra=None, constrained=True):
    """The whole chat request body for one model. `extra` fields are merged in last."""
    body = {"model": model, "messages": reader.messages(claim, shown)}
    body.update(SETTINGS)
    if constrained:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "strict": True,
                            "schema": reader.schema(shown)},
        }
    body.update(model_extras(model))
    body.update(extra or {})
    return body


def canonical_json(value):
    """The one serialisation that hashes are taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_sha256(body):
    return sha256_text(canonical_json(body))
