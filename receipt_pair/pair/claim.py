"""Ask two models about one claim, check both replies, combine them by a pair rule.

    from receipt_pair.pair import check_claim
    result = check_claim("I pushed the fix to main", turns)
    result.answer, result.quotes, result.models

Nothing here prints; the command line renders what these functions return.
"""

import threading
from dataclasses import dataclass
from typing import List

from .. import readers
from .ask import ModelAnswer, SchemaMemory, ask
from ..server.client import DEFAULT_MODEL_A, DEFAULT_MODEL_B, Client, ServerUnreachable
from ..errors import InputError, ModelCallFailed, ServerError, UsageError
from ..turn import turn_from_json
from ..turn import Turn
from ..check.render import DEFAULT_MAX_TURNS
from ..check.rules import DEFAULT_RULE, RULES, combine


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

    def to_dict(self):
        """The one serialisation of a pair's answer (`check --json`; receipts add to it)."""
        return {
            "answer": self.answer,
            "rule": self.rule,
            "claim": self.claim,
            "reader": self.reader.version,
            "quotes": [q.to_dict() for q in self.quotes],
            "models": [m.to_dict() for m in self.models],
        }


def combine_models(a, b, rule):
    """The pair's answer for two ModelAnswers; a failed model cannot vouch for anything."""
    return combine(a.checked, b.checked, rule)


def check_claim(claim, turns, *, model_a=DEFAULT_MODEL_A, model_b=DEFAULT_MODEL_B,
                rule=DEFAULT_RULE, reader=None, max_turns=DEFAULT_MAX_TURNS,
                extra_a=None, extra_b=None, client=None, base_url=None, timeout=None,
                allow_remote=False, concurrent=False, keep_failed=False):
    """Check one claim against a log's turns with two models; return a ClaimResult.

    `turns`: `Turn`s or plain dicts ({"cmd", "output", "exit_status"}). `reader`: a Reader
    or a version string ("v1"). The claim, the rule, the reader and the turns are checked
    before any model is asked.

    `concurrent`: ask A and B at once (True), in turn (False, the default: on 2 cores it
    measured faster), or at once only when the server says it holds two models (None).
    The answers are the same either way; only the time differs.

    A model whose call fails cannot vouch for anything, so no answer is given: this raises
    ModelCallFailed (a ServerError) carrying the result with that model's error in its
    row, unless `keep_failed` is true, when the result is returned as it is and its
    `failed` list names the model.
    """
    if not isinstance(claim, str) or not claim.strip():
        raise UsageError("the claim must be a non-empty string")
    if rule not in RULES:
        raise UsageError(f"unknown rule {rule!r}; known: {', '.join(RULES)}")
    if not isinstance(reader, readers.Reader):
        reader = readers.get_reader(reader)
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        raise UsageError(f"max_turns must be a whole number of at least 1, not {max_turns!r}")
    turns = as_turns(turns)
    if client is None:
        kwargs = {"allow_remote": allow_remote}
        if base_url:
            kwargs["base_url"] = base_url
        if timeout:
            kwargs["timeout"] = timeout
        client = Client(**kwargs)
    shown = reader.render(turns, max_turns, claim)
    memory = SchemaMemory()
    jobs = (("A", model_a, extra_a), ("B", model_b, extra_b))
    if concurrent is None:
        concurrent = _holds_both(client)
    if reader.partner:  # roles: B is asked about A's answer, so after it
        concurrent = False
        first = ask(client, reader, claim, shown, "A", model_a, extra_a, memory)
        answers = [first, ask(client, reader, claim, shown, "B", model_b, extra_b, memory,
                              partner=first.checked)]
    elif concurrent:
        answers = _ask_at_once(client, reader, claim, shown, jobs, memory)
    else:
        answers = [ask(client, reader, claim, shown, arm, model, extra, memory)
                   for arm, model, extra in jobs]
    pair = combine_models(answers[0], answers[1], rule)
    result = ClaimResult(claim=claim, rule=rule, answer=pair.answer, quotes=pair.quotes,
                         models=answers, shown=shown, reader=reader, concurrent=concurrent)
    if result.failed and not keep_failed:
        raise ModelCallFailed("; ".join(f"model {m.arm} ({m.model}) could not be asked: "
                                        f"{m.error}" for m in result.failed), result)
    return result


def as_turns(turns):
    """A list of Turns from Turns or plain dicts; anything else is refused by name."""
    if isinstance(turns, (str, bytes, dict)) or not hasattr(turns, "__iter__"):
        raise UsageError("turns must be a list of Turns or of {'cmd', 'output'} objects")
    out = []
    for number, turn in enumerate(turns, 1):
        if isinstance(turn, Turn):
            out.append(turn)
        elif isinstance(turn, dict):
            try:
                out.append(turn_from_json(turn, f"turn {number}"))
            except InputError as exc:  # an argument, not a file: the caller's usage
                raise UsageError(str(exc)) from None
        else:
            raise UsageError(f"turn {number} must be a Turn or a dict, not "
                             f"{type(turn).__name__}")
    if not out:
        raise UsageError("there are no turns to check the claim against")
    return out


def _ask_at_once(client, reader, claim, shown, jobs, memory):
    """Both models at once; an error in either thread is raised here, not lost."""
    answers, errors = [None, None], [None, None]

    def run(index, arm, model, extra):
        try:
            answers[index] = ask(client, reader, claim, shown, arm, model, extra, memory)
        except BaseException as exc:  # re-raised below, in the caller's thread
            errors[index] = exc

    threads = [threading.Thread(target=run, args=(i,) + job) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for error in errors:
        if error is not None:
            raise error
    return answers


def _holds_both(client):
    try:
        return client.capacity() >= 2
    except ServerUnreachable:
        raise
    except (ServerError, AttributeError):
        return False
