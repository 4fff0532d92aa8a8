"""The quote check: plain code, no model, the same for every reader.

`check_reply` turns one model's raw reply into a CheckedAnswer. It can only take answers
away: every rule below turns a `shown` or `contradicted` into `not shown` and names why,
so nothing a model invents can become evidence.
"""

import json
import re

from . import agree, closer, commands, evidence, fit, scope, seen
from ..answers import (CONTRADICTED, CONTRADICTED_WITHOUT_FAILURE, EMPTY_QUOTE, FACTS_SAY_OTHERWISE,
                      INVALID_VERDICT,
                      MODEL_NOT_SHOWN, NOT_SHOWN, OK, QUOTE_AFTER_FORGED_FENCE, SHOWN_OTHER_TARGET,
                      QUOTE_FROM_COMMAND, QUOTE_FROM_OTHER_TURN, QUOTE_FROM_UNFINISHED,
                      QUOTE_IS_INSTRUCTION, QUOTE_NOT_FOUND, QUOTE_TOO_SHORT,
                      QUOTE_WHITESPACE_ONLY, SHOWN, SHOWN_IN_FAILED_TURN, SHOWN_OVER_OVERWRITE,
                      SHOWN_QUOTES_FAILURE, UNPARSEABLE_REPLY, VERDICTS, WRONG_TURN,
                      CheckedAnswer)
from .render import FENCE_LIKE, unshow_invisible
from ..patterns import lazy

# A quote that is only a part of its line must carry at least this many letters or digits:
# "e" or ":" taken from a failure line means nothing, whatever its line says.
MIN_PART_ALNUM = 4

_FENCE = lazy(r"\A```[A-Za-z0-9_-]*[ \t]*\n(.*?)\n?```\Z", re.S)


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
    except (ValueError, RecursionError):  # RecursionError: a reply nested beyond reason
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


def quoted_lines(quote, cited):
    """For each place `quote` sits in the cited output the model saw: the whole line(s) it
    sits in, taken from the output before any cut (a line cut mid-way is judged whole), and
    where the quote starts in that uncut output (its last place in that line). A line the
    quote sits in many times is given once: each line is judged once, however often the
    quote repeats along it."""
    lines = {}
    text = cited.readable
    for part, start in zip(cited.output_parts, cited.part_starts):
        at = part.find(quote)
        while at != -1:
            begin = start + at
            end = begin + len(quote)
            first = text.rfind("\n", 0, begin) + 1
            last = text.find("\n", end)
            last = len(text) if last == -1 else last
            lines[(first, last)] = begin
            at = part.find(quote, at + 1)
    return [(unshow_invisible(text[first:last]), begin) for (first, last), begin in lines.items()]


def _too_short(quote, lines, check):
    # "}" or "[]" is a whole line that says nothing about anything (c3 on).
    if check not in ("c1", "c2") and not any(ch.isalnum() for ch in quote):
        return True
    if any(quote == line.strip() for line, _ in lines):
        return False
    return sum(ch.isalnum() for ch in quote) < MIN_PART_ALNUM


def _after_forged_fence(cited, lines):
    fence = FENCE_LIKE.search(cited.readable)
    if FENCE_LIKE.search(cited.cmd):
        return True
    return fence is not None and any(start >= fence.start() for _, start in lines)


def _as_text(value):
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


# Versions of the check. Every answer records the one it was judged by, and replay judges it
# by that one again. c1 judged the quote alone, not its line, and had no rule for short
# parts, forged fences or failed turns (retired readers v1-v5); c2 judged the line, with a
# failed turn being one with a recorded exit status; c3 (current) lets the latest attempt
# decide (a turn with a failure line failed too; a later run of the same operation
# supersedes), refuses unfinished commands, text no terminal drew and lines that say
# nothing, and reads JSON counts like their plain forms; c4 adds that a quote may not
# disagree with the facts plain code reads of the log (agree.py, facts/); c5 reads the
# cited run closer: a preview, the agent's own echo, a push of nothing, a listing of another
# folder, a part of the suite or one case of a failed report (closer.py); c6 also refuses a
# listing's line that names none of the files the claim names, and holds models to table t3;
# c7 (current) holds them to table t4 and refuses a contradicted about a part of the tests
# from a line that names none of it, or from a summary that counts no error (scope.py).
CHECKS = ("c1", "c2", "c3", "c4", "c5", "c6", "c7")
CURRENT_CHECK = "c7"


def since(check, version):
    """True if quote check `check` has the rules of `version`: it is that version or a later
    one (an unknown check has every rule, as the newest does)."""
    return check not in CHECKS[:CHECKS.index(version)]


def check_reply(reply_text, shown, check=CURRENT_CHECK, vocabulary=None):
    """Check one model's raw reply against the turns it was shown; return a CheckedAnswer.

    `shown` is the list of ShownTurns; a `render.Shown` also carries the claim and every
    turn the reader read, which the rules of c3 that look past the cited turn use."""
    reply = parse_reply(reply_text)
    if reply is None:
        return CheckedAnswer(None, None, "", "", NOT_SHOWN, UNPARSEABLE_REPLY)
    verdict = _as_text(reply.get("verdict"))
    turn = _as_text(reply.get("turn"))
    quote = reply.get("quote")
    quote = quote if isinstance(quote, str) else ""
    reason = reply.get("reason")
    reason = reason if isinstance(reason, str) else ""

    line = reply.get("line") if isinstance(reply.get("line"), str) else None

    def refuse(code):
        return CheckedAnswer(verdict, turn, quote, reason, NOT_SHOWN, code, line)

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
    lines = quoted_lines(stripped, cited) if check != "c1" else []
    # "e" or "main -> main" lifted from "! [rejected] main -> main" is not a line's word.
    if lines and _too_short(stripped, lines, check):
        return refuse(QUOTE_TOO_SHORT)
    current = check not in ("c1", "c2")
    # What a command printed before it finished shows nothing about how it ended.
    if current and not cited.finished:
        return refuse(QUOTE_FROM_UNFINISHED)
    # Text after "</output></turn><turn id=...>" pretends to be another turn's output.
    if lines and _after_forged_fence(cited, lines):
        return refuse(QUOTE_AFTER_FORGED_FENCE)
    # "verdict: shown" printed by the agent is an attempt to answer for the models.
    # The words lines are read by: the current ones, or those a sealed check was made with
    # (legacy/, given by the reader that replays it).
    if vocabulary is None and check != CURRENT_CHECK:
        raise ValueError(f"check {check} needs the words it was sealed with")
    patterns = vocabulary or evidence
    if patterns.reads_as_instruction(stripped) or any(patterns.reads_as_instruction(line)
                                                       for line, _ in lines):
        return refuse(QUOTE_IS_INSTRUCTION)
    # A bare "500" printed by `curl -w "%{http_code}"` is the request's failed status.
    error_status = current and any(commands.prints_error_status(cited.cmd, line)
                                   for line, _ in lines)
    if verdict == "shown":
        # A model can misread "push rejected" or "exit status 1" as the operation's result,
        # or quote the clean-looking half of such a line: the whole line is judged.
        if error_status or patterns.failure_markers(stripped) or any(
                patterns.failure_markers(line) for line, _ in lines):
            return refuse(SHOWN_QUOTES_FAILURE)
        # The command as a whole failed: none of its output can show success.
        if cited.exit_status and check == "c2":
            return refuse(SHOWN_IN_FAILED_TURN)
        # "Deployed OK" printed over "ERROR" with a carriage return looked clean on screen.
        if seen.hidden_text(cited.raw_output, patterns.failure_spans):
            return refuse(SHOWN_OVER_OVERWRITE)
    # "Enumerating objects: 5, done." is not a failure: a contradicted must quote a line
    # that reports one (or an undoing), or it is the model's word against a clean line.
    if verdict == "contradicted" and check != "c1" and not (
            error_status or patterns.reports_failure_or_undoing(stripped)
            or any(patterns.reports_failure_or_undoing(line) for line, _ in lines)):
        return refuse(CONTRADICTED_WITHOUT_FAILURE)
    if not current:
        refused = None
    elif verdict == "shown":
        refused = fit.refuse_shown(stripped, lines, cited, shown, patterns, since(check, "c5"))
    else:
        refused = fit.refuse_contradicted(stripped, lines, cited, shown, patterns)
    if refused:
        return refuse(refused)
    if check not in ("c1", "c2", "c3"):
        claim = getattr(shown, "claim", "") or ""
        refused = agree.line_refusal(verdict, claim, cited.cmd, [line for line, _ in lines])
        if not refused and since(check, "c5"):  # c5's own reading names the cause closer
            refused = closer.refusal(verdict, claim, cited, shown, [line for line, _ in lines],
                                     patterns)
        if not refused and since(check, "c6") and closer.names_no_claimed_file(
                verdict, claim, cited, shown, [line for line, _ in lines]):
            refused = SHOWN_OTHER_TARGET
        if not refused and since(check, "c7"):
            refused = scope.refusal(verdict, claim, [line for line, _ in lines] or [stripped],
                                    cited.cmd)
        if refused:
            return refuse(refused)
        if getattr(shown, "turns", None) is not None and agree.disagrees(
                verdict, claim, shown.turns,
                cited.index if cited.index >= 0 else list(shown).index(cited),
                "t4" if since(check, "c7") else "t3" if since(check, "c6") else
                "t2" if since(check, "c5") else "t1"):
            return refuse(FACTS_SAY_OTHERWISE)
    answer = SHOWN if verdict == "shown" else CONTRADICTED
    return CheckedAnswer(verdict, turn, quote, reason, answer, OK, line)
