"""Ask two models about one claim, check both replies, combine them by a pair rule.

    from receipt_pair import check_claim, Settings
    result = check_claim("I pushed the fix to main", turns, Settings(rule="r2"))
    result.answer, result.quotes, result.models

Nothing here prints; the command line renders what these functions return.
"""

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Union, cast

from ..answers import NOT_SHOWN
from ..check.render import Shown
from ..check.rules import DEFAULT_CONTRADICTIONS, Quote, combine
from ..errors import InputError, ModelCallFailed, ServerError, ServerUnreachable, UsageError
from ..facts import reading as facts_reading, table as facts_table
from ..facts.decision import Decision
from ..logs.redact import redact as redact_text
from ..turn import Turn, turn_from_json
from .settings import Settings

if TYPE_CHECKING:  # names for annotations alone: asking a model loads HTTP, only where asked
    from ..readers import Reader
    from ..server.client import Client
    from .ask import ModelAnswer

ARMS = ("A", "B")
# Who decided an answer: plain code from the facts of the log, or the two models.
FACTS, MODELS = "facts", "models"


@dataclass
class ClaimResult:
    """The pair's answer to one claim, with each model's checked answer and the (checked)
    settings it was asked with."""

    claim: str
    answer: str
    quotes: tuple
    models: List["ModelAnswer"]
    shown: list  # the turns as the models saw them (none when the facts decided)
    settings: Settings
    concurrent: bool = False
    decided_by: str = MODELS
    # What the facts said: their Decision, None when they did not settle the claim (the
    # models did), and not looked at when the settings ask the models alone.
    facts: Optional[Decision] = None

    @property
    def rule(self) -> str:
        return self.settings.rule

    @property
    def reader(self) -> "Reader":
        return cast("Reader", self.settings.reader)  # a Reader: the settings are checked

    @property
    def failed(self) -> List["ModelAnswer"]:
        return [m for m in self.models if m.error]

    def to_dict(self) -> Dict[str, Any]:
        """The one serialisation of a pair's answer (`check --json`; receipts add to it)."""
        return {
            "answer": self.answer,
            "decided_by": self.decided_by,
            "rule": self.rule,
            **({"contradictions": self.settings.contradictions}
               if self.settings.contradictions != DEFAULT_CONTRADICTIONS else {}),
            "claim": self.claim,
            "reader": self.reader.version,
            "quotes": [q.to_dict() for q in self.quotes],
            "facts": facts_record(self.facts) if self.settings.facts else None,
            "models": [m.to_dict() for m in self.models],
        }


def facts_record(decision, version=None):
    """What a record keeps of the facts: the table's version and fingerprint, and its
    decision (answer None: the facts did not settle the claim). `version`: the table that
    decided (default: the current one; the audit gives the one a record names)."""
    version = version or facts_table.VERSION
    record = {"table": version, "fingerprint": facts_table.fingerprint(version),
              "answer": None}
    if decision is not None:
        record.update(answer=decision.answer, rule=decision.rule, why=decision.why,
                      turn=turn_id(decision.turn), line=decision.line, quote=decision.quote)
    return record


def turn_id(index):
    """The id of the turn at `index` of the whole log ("T1" is its first), or None."""
    return None if index is None else f"T{index + 1}"


def redacted(text, settings):
    """`text` with credentials replaced, as a log's are, where the settings redact: a claim
    that repeats a token must not carry it to the models, a receipt or a notice."""
    return redact_text(text)[0] if settings.redact and isinstance(text, str) else text


def decide_by_facts(claim, turns, settings, events=None):
    """The ClaimResult the facts give, with no model asked, or None where they do not
    settle the claim (or the settings ask the models alone). `events`, the turns' events
    read once (facts.reading.read_events), spares reading them again for every claim."""
    if not settings.facts:
        return None
    unseen = Shown([], claim, turns)  # no model sees a turn of a claim the facts settle
    decision = facts_table.decide(claim, turns, log=events)
    if decision is None:
        return None
    quotes = () if decision.answer == NOT_SHOWN else (
        Quote(FACTS, turn_id(decision.turn), decision.quote),)
    return ClaimResult(claim=claim, answer=decision.answer, quotes=quotes, models=[],
                       shown=unseen, settings=settings, decided_by=FACTS, facts=decision)


def combine_models(claim, shown, answers, settings):
    """The ClaimResult of two ModelAnswers; a failed model cannot vouch for anything."""
    pair = combine(answers[0].checked, answers[1].checked, settings.rule,
                   settings.contradictions)
    return ClaimResult(claim=claim, answer=pair.answer, quotes=pair.quotes, models=answers,
                       shown=shown, settings=settings)


# The keyword arguments check_claim takes besides `settings`, each a Settings field.
_FIELDS = ("model_a", "model_b", "extra_a", "extra_b", "reader", "rule", "max_turns",
           "base_url", "timeout", "allow_remote", "concurrent")


def check_claim(claim: str, turns: Iterable[Union[Turn, dict]],
                settings: Optional[Settings] = None, *, client: Optional["Client"] = None,
                keep_failed: bool = False, **changes: Any) -> ClaimResult:
    """Check one claim against a log's turns; return a ClaimResult.

    The facts plain code reads of the turns decide first (facts/table.py): where they
    settle the claim, no model is asked and no server is needed (`decided_by` "facts").
    Otherwise the two models are asked (`decided_by` "models"). Settings(facts=False) asks
    the models alone.

    `turns`: `Turn`s or plain dicts ({"cmd", "output", "exit_status"}). `settings`: a
    Settings (default: Settings()); any of its fields may also be given by keyword
    (`model_a=`, `reader="v6"`, `rule=`, `base_url=`, ...), and a reader may be a Reader.
    The claim, the settings and the turns are checked before any model is asked.

    `concurrent`: ask A and B at once (True), in turn (False, the default: on 2 cores it
    measured faster), or at once only when the server says it holds two models (None).
    The answers are the same either way; only the time differs.

    A model whose call fails cannot vouch for anything, so no answer is given: this raises
    ModelCallFailed (a ServerError) carrying the result with that model's error in its
    row, unless `keep_failed` is true, when the result is returned as it is and its
    `failed` list names the model. When neither model answered there is no result to
    keep: the server is at fault, and a ServerError says why, whatever `keep_failed` says.
    """
    if not isinstance(claim, str) or not claim.strip():
        raise UsageError("the claim must be a non-empty string")
    unknown = sorted(set(changes) - set(_FIELDS))
    if unknown:
        raise UsageError(f"check_claim has no setting {unknown[0]!r}")
    given = {k: v for k, v in changes.items() if v is not None or k == "concurrent"}
    settings = (settings or Settings()).replace(**given).checked()
    turns = as_turns(turns)
    claim = redacted(claim, settings)
    decided = decide_by_facts(claim, turns, settings)
    if decided is not None:
        return decided  # plain code settled it: no model is asked, no server needed
    client = client or settings.client()
    concurrent = settings.concurrent
    if concurrent is None:  # at once, when the server says it holds both
        concurrent = client.holds_both()
    result = ask_pair(claim, turns, settings, client, concurrent)
    if keep_failed and len(result.failed) == 2:
        errors = [m.error for m in result.models]
        raise ServerError(errors[0] if errors[0] == errors[1] else "; ".join(errors))
    if result.failed and not keep_failed:
        raise ModelCallFailed("; ".join(f"model {m.arm} ({m.model}) could not be asked: "
                                        f"{m.error}" for m in result.failed), result)
    return result


def ask_pair(claim, turns, settings, client, concurrent=False):
    """The pair's ClaimResult for checked `settings` and `turns`, A and B asked at once
    when `concurrent` (never for a reader with roles)."""
    from .ask import ask

    shown = settings.reader.render(turns, settings.max_turns, claim)
    if settings.reader.partner:  # roles: B is asked about A's answer, so after it
        concurrent = False
        first = ask(client, settings, "A", claim, shown)
        answers = [first, ask(client, settings, "B", claim, shown, partner=first.checked)]
    elif concurrent:
        answers = _ask_at_once(client, settings, claim, shown)
    else:
        answers = [ask(client, settings, arm, claim, shown) for arm in ARMS]
    result = combine_models(claim, shown, answers, settings)
    result.concurrent = concurrent
    return result


# The request field that lets a server reuse what consecutive requests share (llama-server
# and Lemonade's llama.cpp keep the prompt's computed state per slot). Off by default (a
# reply may differ from the same request asked cold); a stop asks with it on.
SHARE_PROMPT = {"cache_prompt": True}


@dataclass
class Checked:
    """One claim of several: its ClaimResult, or why it has none. `over_cap`: the claim
    needed a model, and was past the `max_asked` claims asked; it was not checked."""

    claim: str
    result: object = None
    error: str = ""
    over_cap: bool = False


def check_claims(claims, turns, settings=None, *, client=None, deadline=None,
                 share_prompt=True, cache_prompt=None, max_asked=None):
    """Several claims about one log, asked the quick way: a [Checked] per claim, in order.

    The facts decide first, every claim, with no model and no server: what they settle is
    returned whatever happens to the models. Only the claims they leave are asked, at most
    `max_asked` of them (None: all), in order; the rest come back `over_cap`, unasked.

    With `share_prompt` and a reader that picks a menu, every claim is shown one menu picked
    for all of them, model A is asked every claim in turn and then model B, and each request
    asks the server to reuse what it shares with the one before (everything up to the claim,
    for a reader that asks log first): after the first claim, a model reads only the claim.
    `cache_prompt` True or False asks for the cache, or against it, whatever `share_prompt`
    says (a benchmark's cold run of the same requests); None leaves it to `share_prompt`.
    `deadline` (time.monotonic()) bounds the whole: a claim whose models could not both be
    asked before it gets an error saying so. A server that cannot be reached stops the
    asking: every claim left unanswered gets that error ("server down: ..."), and what was
    answered before it, the facts' answers first of all, stands."""
    settings = (settings or Settings()).checked()
    turns = as_turns(turns)
    every = [redacted(claim, settings) for claim in claims]
    events = facts_reading.read_events(turns) if settings.facts else None
    decided = [decide_by_facts(claim, turns, settings, events) for claim in every]
    left = [index for index, result in enumerate(decided) if result is None]
    asked = left if max_asked is None else left[:max(0, max_asked)]
    out = [Checked(claim, result) for claim, result in zip(every, decided)]
    for index in left[len(asked):]:
        out[index] = Checked(every[index], over_cap=True,
                             error=f"not checked: over the {max_asked} claims asked at once")
    if asked:
        answered = _ask_claims([every[index] for index in asked], turns, settings,
                               client, deadline, (share_prompt, cache_prompt))
        for index, checked in zip(asked, answered):
            out[index] = checked
    return out


def _stopped(exc):
    """What a claim left unasked says when a ServerError stopped the asking."""
    hint = getattr(exc, "cli_hint", None)
    line = f"{exc} ({hint})" if hint else str(exc)
    return f"server down: {line}" if isinstance(exc, ServerUnreachable) else line


def _ask_claims(claims, turns, settings, client, deadline, sharing):
    """A [Checked] for each of `claims` (none the facts settled), asked the quick way
    (check_claims). A ServerError that stops the asking (a server that cannot be reached)
    is every unanswered claim's error; what both models answered before it is kept."""
    share_prompt, cache_prompt = sharing
    reader = settings.reader
    menu_claims = claims if share_prompt and reader.menu and len(claims) > 1 else None
    if cache_prompt is None:
        shared = dict(SHARE_PROMPT) if share_prompt else {}
    else:
        shared = {"cache_prompt": bool(cache_prompt)}
    asked = settings.replace(extra_a={**settings.extra_a, **shared},
                             extra_b={**settings.extra_b, **shared})
    shown = [reader.render(turns, settings.max_turns, claim, menu_claims) for claim in claims]
    from .ask import ask

    answers = {"A": [None] * len(claims), "B": [None] * len(claims)}
    stopped = None
    try:
        client = client or settings.client()
        for arm in ARMS:
            for index, claim in enumerate(claims):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left < 1 or (arm == "B"
                                                     and answers["A"][index] is None):
                    continue
                partner = answers["A"][index].checked if arm == "B" and reader.partner \
                    else None
                asker = client if left is None else \
                    client.with_timeout(min(settings.timeout, left))
                answers[arm][index] = ask(asker, asked, arm, claim, shown[index], partner)
    except ServerError as exc:
        stopped = _stopped(exc)
    out = []
    for index, claim in enumerate(claims):
        a, b = answers["A"][index], answers["B"][index]
        if a is None or b is None:
            out.append(Checked(claim, error=stopped or "not checked: the time for this stop "
                                                       "ran out"))
        else:
            out.append(Checked(claim, combine_models(claim, shown[index], [a, b], settings)))
    return out


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


def _ask_at_once(client, settings, claim, shown):
    """Both models at once; an error in either thread is raised here, not lost."""
    from .ask import ask

    answers, errors = [None, None], [None, None]

    def run(index, arm):
        try:
            answers[index] = ask(client, settings, arm, claim, shown)
        except BaseException as exc:  # re-raised below, in the caller's thread
            errors[index] = exc

    threads = [threading.Thread(target=run, args=(i, arm)) for i, arm in enumerate(ARMS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for error in errors:
        if error is not None:
            raise error
    return answers
