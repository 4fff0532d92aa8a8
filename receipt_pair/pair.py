"""Ask two models about one claim, check both replies, combine them by a pair rule.

    from receipt_pair.pair import check_claim
    result = check_claim("I pushed the fix to main", turns)
    result.answer, result.quotes, result.models

Nothing here prints; the command line renders what these functions return.
"""

import threading
import time
from dataclasses import dataclass, field
from typing import List, Optional

from . import reader as rd
from .client import DEFAULT_MODEL_A, DEFAULT_MODEL_B, Client, SchemaRefused, ServerUnreachable
from .errors import ServerError
from .rules import DEFAULT_RULE, combine


@dataclass
class ModelAnswer:
    """One model's answer to one request: what was sent, what came back, what the check made of it."""

    arm: str  # "A" or "B"
    model: str
    request: dict
    request_sha256: str
    constrained: bool  # whether the request carried the JSON-schema response_format
    checked: rd.CheckedAnswer
    reply: Optional[str] = None
    reply_sha256: Optional[str] = None
    usage: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    wall_s: float = 0.0
    error: Optional[str] = None
    extra: dict = field(default_factory=dict)  # the --extra fields given for this model


@dataclass
class ClaimResult:
    """The pair's answer to one claim, with each model's checked answer."""

    claim: str
    rule: str
    answer: str
    quotes: tuple
    models: List[ModelAnswer]
    shown: list  # the turns as the models saw them
    reader: rd.Reader
    concurrent: bool = False

    @property
    def failed(self):
        return [m for m in self.models if m.error]


class SchemaMemory:
    """Remembers, per model, that a server refused the JSON-schema constraint."""

    def __init__(self):
        self._refused = set()
        self._lock = threading.Lock()

    def allows(self, model):
        with self._lock:
            return model not in self._refused

    def refuse(self, model):
        with self._lock:
            self._refused.add(model)


def ask(client, reader, claim, shown, arm, model, extra=None, schema_memory=None):
    """Ask one model once; a failed call is returned as an answer that cannot vouch.

    An unreachable server raises ServerUnreachable instead: there is no answer to keep.

    If the server refuses the JSON-schema constraint, the same question is asked once more
    without it (a different request, recorded as unconstrained), and the refusal is
    remembered for that model so later questions go unconstrained at once.
    """
    memory = schema_memory or SchemaMemory()
    constrained = memory.allows(model)
    started = time.monotonic()
    while True:
        body = rd.build_request(reader, claim, shown, model, extra, constrained)
        try:
            result = client.chat(body)
            break
        except SchemaRefused as exc:
            if not constrained:
                return _failed(arm, model, body, constrained, exc, started, extra)
            memory.refuse(model)
            constrained = False
        except ServerUnreachable:
            raise  # nothing was asked: the caller stops, it does not record an answer
        except ServerError as exc:
            return _failed(arm, model, body, constrained, exc, started, extra)
    checked = rd.check_reply(result.content, shown)
    return ModelAnswer(
        arm=arm, model=model, request=body, request_sha256=rd.request_sha256(body),
        constrained=constrained, checked=checked, reply=result.content,
        reply_sha256=rd.sha256_text(result.content), usage=result.usage,
        timings=result.timings, wall_s=result.wall_s, extra=dict(extra or {}),
    )


def _failed(arm, model, body, constrained, exc, started, extra):
    return ModelAnswer(
        arm=arm, model=model, request=body, request_sha256=rd.request_sha256(body),
        constrained=constrained, checked=rd.failed_call(),
        wall_s=round(time.monotonic() - started, 4), error=str(exc),
        extra=dict(extra or {}),
    )


def combine_models(a, b, rule):
    """The pair's answer for two ModelAnswers; a failed model cannot vouch for anything."""
    return combine(a.checked, b.checked, rule)


def check_claim(claim, turns, *, model_a=DEFAULT_MODEL_A, model_b=DEFAULT_MODEL_B,
                rule=DEFAULT_RULE, reader=None, max_turns=rd.DEFAULT_MAX_TURNS,
                extra_a=None, extra_b=None, client=None, base_url=None, timeout=None,
                allow_remote=False, concurrent=False):
    """Check one claim against a log's turns with two models; return a ClaimResult.

    `concurrent`: ask A and B at once (True), in turn (False, the default: on 2 cores it
    measured faster), or at once only when the server says it holds two models (None).
    The answers are the same either way; only the time differs. A model whose call fails
    is kept, with its error, as unable to vouch.
    """
    reader = reader or rd.get_reader()
    if client is None:
        kwargs = {"allow_remote": allow_remote}
        if base_url:
            kwargs["base_url"] = base_url
        if timeout:
            kwargs["timeout"] = timeout
        client = Client(**kwargs)
    shown = reader.render(list(turns), max_turns)
    memory = SchemaMemory()
    jobs = (("A", model_a, extra_a), ("B", model_b, extra_b))
    if concurrent is None:
        concurrent = _holds_both(client)
    if concurrent:
        answers = [None, None]

        def run(index, arm, model, extra):
            answers[index] = ask(client, reader, claim, shown, arm, model, extra, memory)

        threads = [threading.Thread(target=run, args=(i,) + job) for i, job in enumerate(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        answers = [ask(client, reader, claim, shown, arm, model, extra, memory)
                   for arm, model, extra in jobs]
    pair = combine_models(answers[0], answers[1], rule)
    return ClaimResult(claim=claim, rule=rule, answer=pair.answer, quotes=pair.quotes,
                       models=answers, shown=shown, reader=reader, concurrent=concurrent)


def _holds_both(client):
    try:
        return client.capacity() >= 2
    except ServerUnreachable:
        raise
    except (ServerError, AttributeError):
        return False
