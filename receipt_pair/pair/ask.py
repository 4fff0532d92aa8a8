"""Ask one model its question (or questions), once, and check its reply.

`ask` is shared by `check_claim` (two models, one claim) and `batch` (many claims, one
model after the other). Nothing here prints.
"""

import time
from dataclasses import dataclass, field
from typing import Optional

from ..answers import CheckedAnswer, failed_call
from ..server.client import SchemaRefused, ServerUnreachable
from ..errors import ServerError
from ..readers.confidence import verdict_probabilities
from ..readers.conform import conforms
from ..check.quote import parse_reply
from ..readers import pack_replies
from ..server.request import request_digest, sha256_text, unapplied_settings
from ..server.transport import _text_ok


@dataclass
class ModelAnswer:
    """One model's answer to one request: what was sent, what came back, what the check made of it."""

    arm: str  # "A" or "B"
    model: str
    request: dict
    request_sha256: str
    # True only when the request carried the JSON schema and the reply conforms to it: a
    # server may answer 200 and ignore a schema it does not apply.
    constrained: bool
    checked: CheckedAnswer
    reply: Optional[str] = None
    reply_sha256: Optional[str] = None
    usage: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    wall_s: float = 0.0
    error: Optional[str] = None
    extra: dict = field(default_factory=dict)  # the extra request fields given for this model
    server: Optional[str] = None  # the server kind's key, which shapes the request body
    schema_sent: bool = False  # whether the request carried the JSON schema
    unapplied: tuple = ()  # our fixed settings this server kind cannot apply
    # The verdict's probability (and all three) where the server returned logprobs.
    verdict_probabilities: Optional[dict] = None
    confidence: Optional[float] = None

    def to_dict(self):
        """The one serialisation of an answer: `check --json`, receipts and answers rows."""
        c = self.checked
        return {
            "arm": self.arm, "model": self.model, "extra": self.extra,
            "constrained": self.constrained, "request_sha256": self.request_sha256,
            "reply": self.reply, "reply_sha256": self.reply_sha256, "verdict": c.verdict,
            "turn": c.turn, "quote": c.quote, "reason": c.reason, "answer": c.answer,
            "code": c.code, "usage": self.usage, "timings": self.timings,
            "wall_s": self.wall_s, "error": self.error, "server": self.server,
            "schema_sent": self.schema_sent, "unapplied": list(self.unapplied),
            "verdict_probabilities": self.verdict_probabilities, "confidence": self.confidence,
        }


def ask(client, settings, arm, claim, shown, partner=None):
    """Ask model `arm` ("A" or "B") of `settings` (checked: their Reader, that model and its
    extra request fields) its question(s) about `claim` and the turns as the reader showed
    them, once; a failed call is returned as an answer that cannot vouch. `partner` is model
    A's checked answer, for a reader with roles.

    An unreachable server raises ServerUnreachable instead: there is no answer to keep.

    If the server refuses the JSON-schema constraint, the same question is asked once more
    without it (a different request, recorded as unconstrained), and the client remembers
    the refusal for that model, so later questions go unconstrained at once.
    """
    reader = settings.reader
    model, extra = settings.model(arm)
    schema_sent = client.takes_schema(model)
    server = client.server()
    started = time.monotonic()
    known = dict(arm=arm, model=model, extra=extra, server=server.key,
                 unapplied=tuple(unapplied_settings(server, model)))
    while True:
        bodies = reader.bodies(claim, shown, model, extra, schema_sent, server, partner)
        try:
            results = {name: client.chat(body) for name, body in bodies}
            break
        except SchemaRefused as exc:
            if not schema_sent:
                return _failed(known, bodies, schema_sent, exc, started)
            client.refused_schema(model)
            schema_sent = False
        except ServerUnreachable:
            raise  # nothing was asked: the caller stops, it does not record an answer
        except ServerError as exc:
            return _failed(known, bodies, schema_sent, exc, started)
    replies = {name: result.content for name, result in results.items()}
    probabilities = verdict_probabilities(replies.get("answer"),
                                          results["answer"].logprobs) \
        if "answer" in results and reader.logprobs else None
    confidence = probabilities.get(_verdict_of(replies["answer"])) if probabilities else None
    checked = reader.judge(replies, shown, confidence)
    try:
        # A string the reply's JSON spells as a lone surrogate ("\ud800") is not text, as
        # the same in the chat answer itself is not: no record could hold it, so the call
        # failed rather than give an answer that cannot be kept.
        for key in ("verdict", "turn", "quote", "reason"):
            value = getattr(checked, key)
            if isinstance(value, str):
                _text_ok(value, f"model {model}: the reply's {key}")
    except ServerError as exc:
        return _failed(known, bodies, schema_sent, exc, started)
    schemas = reader.schemas(shown)
    reply = pack_replies(replies)
    return ModelAnswer(
        request=bodies[0][1] if len(bodies) == 1 else [body for _, body in bodies],
        request_sha256=request_digest(bodies), schema_sent=schema_sent,
        constrained=schema_sent and all(conforms(text, schemas[name])
                                        for name, text in replies.items()),
        checked=checked, reply=reply, reply_sha256=sha256_text(reply),
        usage=_summed(r.usage for r in results.values()),
        timings=_summed(r.timings for r in results.values()),
        wall_s=round(sum(r.wall_s for r in results.values()), 4),
        verdict_probabilities=probabilities, confidence=confidence, **known,
    )


def _verdict_of(reply):
    parsed = parse_reply(reply)
    return parsed.get("verdict") if parsed else None


def _summed(figures):
    """Token counts and timings of several requests, added up."""
    total = {}
    for figure in figures:
        for key, value in (figure or {}).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                total[key] = round(total.get(key, 0) + value, 3)
    return total


def _failed(known, bodies, schema_sent, exc, started):
    return ModelAnswer(
        request=bodies[0][1] if len(bodies) == 1 else [body for _, body in bodies],
        request_sha256=request_digest(bodies), schema_sent=schema_sent,
        constrained=False, checked=failed_call(),
        wall_s=round(time.monotonic() - started, 4), error=str(exc), **known,
    )
