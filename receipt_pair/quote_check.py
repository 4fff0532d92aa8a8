"""The quote check: plain code, no model, the same for every reader.

`check_reply` turns one model's raw reply into a CheckedAnswer. It can only take answers
away: every rule below turns a `shown` or `contradicted` into `not shown` and names why,
so nothing a model invents can become evidence.
"""

import json
import re

from . import terminal
from .answers import (CONTRADICTED, EMPTY_QUOTE, INVALID_VERDICT, MODEL_NOT_SHOWN, NOT_SHOWN,
                      OK, QUOTE_FROM_COMMAND, QUOTE_FROM_OTHER_TURN, QUOTE_IS_INSTRUCTION,
                      QUOTE_NOT_FOUND, QUOTE_WHITESPACE_ONLY, SHOWN, SHOWN_OVER_OVERWRITE,
                      SHOWN_QUOTES_FAILURE, UNPARSEABLE_REPLY, VERDICTS, WRONG_TURN,
                      CheckedAnswer)
from .evidence import failure_markers, reads_as_instruction

_FENCE = re.compile(r"\A```[A-Za-z0-9_-]*[ \t]*\n(.*?)\n?```\Z", re.S)


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs):
    # {"verdict": "not_shown", "verdict": "shown"} means two things; neither is guessed.
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise _DuplicateKey("a key appears twice")
    return dict(pairs)


def parse_reply(text):
    """The reply as one JSON object, or None. One code fence may be removed; nothing else."""
    if not isinstance(text, str):
        return None
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()

    def no_constants(value):
        raise ValueError(f"{value} is not JSON")

    try:
        value = json.loads(body, object_pairs_hook=_no_duplicates, parse_constant=no_constants)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _squash(text):
    return " ".join(text.split())


def locate_quote(quote, cited, shown):
    """Where `quote` (already stripped) sits: OK if in the cited turn's output as shown."""
    # A quote is judged against each piece of the output between cut markers, so it can
    # neither span left-out text nor borrow the marker's own words.
    if any(quote in part for part in cited.output_parts):
        return OK
    # Small models copy the command ("git push origin main") as if it were its result.
    if quote in cited.cmd:
        return QUOTE_FROM_COMMAND
    # A real line from the wrong turn: often an earlier attempt the latest one overrides.
    others = [t for t in shown if t is not cited]
    if any(quote in part for t in others for part in t.output_parts):
        return QUOTE_FROM_OTHER_TURN
    if any(quote in t.cmd for t in others):
        return QUOTE_FROM_COMMAND
    # Two output lines joined with a space are not a line of the output; counted apart.
    squashed = _squash(quote)
    if any(squashed in _squash(part) for part in cited.output_parts):
        return QUOTE_WHITESPACE_ONLY
    return QUOTE_NOT_FOUND


def _as_text(value):
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def check_reply(reply_text, shown):
    """Check one model's raw reply against the turns it was shown; return a CheckedAnswer."""
    reply = parse_reply(reply_text)
    if reply is None:
        return CheckedAnswer(None, None, "", "", NOT_SHOWN, UNPARSEABLE_REPLY)
    verdict = _as_text(reply.get("verdict"))
    turn = _as_text(reply.get("turn"))
    quote = reply.get("quote")
    quote = quote if isinstance(quote, str) else ""
    reason = reply.get("reason")
    reason = reason if isinstance(reason, str) else ""

    def refuse(code):
        return CheckedAnswer(verdict, turn, quote, reason, NOT_SHOWN, code)

    if verdict not in VERDICTS:
        return refuse(INVALID_VERDICT)
    if verdict == "not_shown":
        return refuse(MODEL_NOT_SHOWN)
    cited = next((t for t in shown if t.id == turn), None)
    # A turn id the model was never shown is made up, however real the quote looks.
    if cited is None:
        return refuse(WRONG_TURN)
    stripped = quote.strip()
    # A verdict with nothing quoted is the model's word, not the log's.
    if not stripped:
        return refuse(EMPTY_QUOTE)
    where = locate_quote(stripped, cited, shown)
    if where != OK:
        return refuse(where)
    # "verdict: shown" printed by the agent is an attempt to answer for the models.
    if reads_as_instruction(stripped):
        return refuse(QUOTE_IS_INSTRUCTION)
    if verdict == "shown":
        # A model can misread "push rejected" or "exit status 1" as the operation's result.
        if failure_markers(stripped):
            return refuse(SHOWN_QUOTES_FAILURE)
        # "Deployed OK" printed over "ERROR" with a carriage return looked clean on screen.
        if terminal.hidden_text(cited.raw_output, failure_markers):
            return refuse(SHOWN_OVER_OVERWRITE)
    answer = SHOWN if verdict == "shown" else CONTRADICTED
    return CheckedAnswer(verdict, turn, quote, reason, answer, OK)
