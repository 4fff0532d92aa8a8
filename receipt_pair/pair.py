"""Ask two models about one claim, check both replies, combine them by a pair rule.

    from receipt_pair.pair import check_claim
    result = check_claim("I pushed the fix to main", turns)
    result.answer, result.quotes, result.models

Nothing here prints; the command line renders what these functions return.
"""

import threading
from dataclasses import dataclass
from typing import List

from . import readers
from .ask import ModelAnswer, SchemaMemory, ask
from .client import DEFAULT_MODEL_A, DEFAULT_MODEL_B, Client, ServerUnreachable
from .errors import ServerError
from .render import DEFAULT_MAX_TURNS
from .rules import DEFAULT_RULE, combine


@dataclass
class ClaimResult:
    """The pair's answer to one claim, with each model's checked answer."""

    claim: str
    rule: str
    answer: str
    quotes: tuple
    models: List[ModelAnswer]
    shown: list  # the turns as the models saw them
    reader: readers.Reader
    concurrent: bool = False

    @property
    def failed(self):
        return [m for m in self.models if m.error]


def combine_models(a, b, rule):
    """The pair's answer for two ModelAnswers; a failed model cannot vouch for anything."""
    return combine(a.checked, b.checked, rule)


def check_claim(claim, turns, *, model_a=DEFAULT_MODEL_A, model_b=DEFAULT_MODEL_B,
                rule=DEFAULT_RULE, reader=None, max_turns=DEFAULT_MAX_TURNS,
                extra_a=None, extra_b=None, client=None, base_url=None, timeout=None,
                allow_remote=False, concurrent=False):
    """Check one claim against a log's turns with two models; return a ClaimResult.

    `concurrent`: ask A and B at once (True), in turn (False, the default: on 2 cores it
    measured faster), or at once only when the server says it holds two models (None).
    The answers are the same either way; only the time differs. A model whose call fails
    is kept, with its error, as unable to vouch.
    """
    reader = reader or readers.get_reader()
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
