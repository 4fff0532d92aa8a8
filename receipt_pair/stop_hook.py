"""Where agents stop: the Stop hook's input, the agent's final message, and what to answer.

Claude Code and Codex run a command at `Stop` (and `SubagentStop`) with one JSON object on
standard input (docs/formats.md, "Stop hook"). This module reads it, finds the agent's final
message (from the input, or from the session file in plain code), waits a bounded time for
the session file to catch up, and turns the answers to the message's claims into a
`StopDecision`: block (with the text the agent reads) or let the agent stop (with, maybe, a
notice for the person). Nothing here prints; `cli_hook.py` does.

The policy, in one place (`decide`):
- a claim the log contradicts blocks the stop, listing the claim and the deciding quotes;
  when the agent was already sent back by a block (`stop_hook_active`), it blocks again
  only up to `max_blocks` blocks in a row, so a wrong answer can never trap the agent;
- a claim the log does not show blocks only as the not-shown policy says, and never when
  `stop_hook_active` is true;
- a claim that could not be checked (server down, a model call failed, the session file
  unreadable) blocks nothing: the person is told, and the agent may stop.
"""

import json
import time
from dataclasses import dataclass, field
from typing import Optional

from .answers import CONTRADICTED, NOT_SHOWN, SHOWN
from .errors import InputError
from .files import decode, loads_strict, read_bytes

AGENTS = {"claude-code": "Claude Code", "codex": "Codex"}
EVENTS = ("Stop", "SubagentStop")
NOT_SHOWN_POLICIES = ("block-once", "allow", "block")
DEFAULT_NOT_SHOWN = "block-once"
DEFAULT_MAX_BLOCKS = 3
DEFAULT_WAIT = 5.0  # seconds the session file may lag the hook
POLL = 0.1
# The text the agent reads is bounded: a reason that fills its context helps no one.
MAX_QUOTE_CHARS = 300
MAX_REASON_CHARS = 6000


@dataclass(frozen=True)
class HookInput:
    """What the agent tells the hook when it stops."""

    event: str
    session_id: str
    transcript_path: Optional[str]
    cwd: Optional[str]
    stop_hook_active: bool
    last_assistant_message: Optional[str]
    agent_id: Optional[str] = None
    agent_transcript_path: Optional[str] = None

    @property
    def session_path(self):
        """The session file whose commands back the message: a sub-agent's own, if given."""
        if self.event == "SubagentStop" and self.agent_transcript_path:
            return self.agent_transcript_path
        return self.transcript_path

    @property
    def key(self):
        """Whose stops these are: the session, and the sub-agent within it."""
        return self.session_id + (f".{self.agent_id}" if self.agent_id else "")


def parse_hook_input(data, name="the hook input"):
    """A HookInput from the bytes on the hook's standard input; InputError if it is not one."""
    text = decode(data, name)
    try:
        value = loads_strict(text)
    except ValueError as exc:
        raise InputError(f"{name}: not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InputError(f"{name}: must be a JSON object")

    def text_field(key, default=None):
        item = value.get(key)
        if item is None:
            return default
        if not isinstance(item, str):
            raise InputError(f"{name}: '{key}' must be a string or null")
        return item

    active = value.get("stop_hook_active", False)
    if not isinstance(active, bool):
        raise InputError(f"{name}: 'stop_hook_active' must be true or false")
    return HookInput(
        event=text_field("hook_event_name", "Stop"),
        session_id=text_field("session_id", "") or "unknown-session",
        transcript_path=text_field("transcript_path") or None,
        cwd=text_field("cwd"),
        stop_hook_active=active,
        last_assistant_message=text_field("last_assistant_message"),
        agent_id=text_field("agent_id"),
        agent_transcript_path=text_field("agent_transcript_path") or None,
    )


# -- the final message, from the session file itself ------------------------------------


def final_message(text, fmt):
    """(the agent's last message in a session file, whether nothing came after it).

    Plain code per format; a line that does not parse (one still being written) is
    skipped. (None, False) when the file holds no message of the agent yet.
    """
    walk = _claude_code_walk if fmt == "claude-code" else _codex_walk
    last, after = None, False
    for record in _records(text):
        for kind, value in walk(record):
            if kind == "text":
                if isinstance(value, tuple):  # (message id, text): one message, many lines
                    if last is not None and last[0] == value[0] and not after:
                        last = (last[0], last[1] + "\n" + value[1])
                    else:
                        last = value
                else:
                    last = (None, value)
                after = False
            else:
                after = True
    return (last[1], not after) if last else (None, False)


def _records(text):
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _claude_code_walk(record):
    kind = record.get("type")
    message = record.get("message")
    if kind not in ("assistant", "user") or not isinstance(message, dict):
        return
    if record.get("isSidechain") is True:
        return  # a sub-agent's words in the main file: not the main agent's message
    content = message.get("content")
    if kind == "user":
        yield ("activity", None)  # a tool's result, or the person's next prompt
        return
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str) \
                and block["text"].strip():
            yield ("text", (message.get("id"), block["text"]))
        elif block.get("type") == "tool_use":
            yield ("activity", None)


def _codex_walk(record):
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return
    item = payload.get("type")
    if record.get("type") == "response_item":
        if item == "message" and payload.get("role") == "assistant":
            parts = [c.get("text") for c in payload.get("content") or ()
                     if isinstance(c, dict) and c.get("type") in ("output_text", "text")
                     and isinstance(c.get("text"), str)]
            if "".join(parts).strip():
                yield ("text", "".join(parts))
        elif item == "message" or item in ("function_call", "function_call_output",
                                           "custom_tool_call", "custom_tool_call_output",
                                           "local_shell_call"):
            yield ("activity", None)
    elif record.get("type") == "event_msg":
        if item == "agent_message" and isinstance(payload.get("message"), str) \
                and payload["message"].strip():
            yield ("text", payload["message"])
        elif item == "user_message":
            yield ("activity", None)


def same_message(expected, found):
    """Whether the session file's last message is the one the hook was told about."""
    if found is None:
        return False
    expected, found = " ".join(expected.split()), " ".join(found.split())
    return expected == found or (bool(expected) and expected in found)


def wait_for_session(path, fmt, expected, wait, poll=POLL, clock=time.monotonic,
                     sleep=time.sleep):
    """(the session file's text, whether it caught up) after at most `wait` seconds.

    The agent writes its session file on its own schedule, so the hook can start before
    the final message (and the commands just before it) are on disk. Caught up means: the
    file's last message is `expected`, or, with no expected message, the file ends with a
    message of the agent. The text is None when the file could not be read at all.
    """
    deadline = clock() + max(0.0, wait)
    text = None
    while True:
        try:
            text = decode(read_bytes(path), path)
        except InputError:
            text = None
        if text is not None:
            found, last = final_message(text, fmt)
            if (same_message(expected, found) if expected is not None else
                    (found is not None and last)):
                return text, True
        if clock() >= deadline:
            return text, False
        sleep(min(poll, max(0.0, deadline - clock())))


# -- what the answers mean for the stop ---------------------------------------------------


@dataclass
class Outcome:
    """One claim's check: the pair's result, or why there is none."""

    claim: object  # a claims.Claim
    result: object = None  # a pair.ClaimResult, when the models were asked
    error: Optional[str] = None  # why this claim could not be checked

    @property
    def answer(self):
        """shown / contradicted / not shown, or None when it could not be checked."""
        if self.error is not None or self.result is None or self.result.failed:
            return None
        return self.result.answer


@dataclass
class HookState:
    """What a session's earlier stops leave for the next: kept beside the receipts."""

    blocks_in_a_row: int = 0  # blocks since the agent last stopped without being sent back
    not_shown_blocked: bool = False  # block-once: the session was already told once

    def to_dict(self):
        return {"blocks_in_a_row": self.blocks_in_a_row,
                "not_shown_blocked": self.not_shown_blocked}


@dataclass
class StopDecision:
    block: bool
    reason: str = ""  # what the agent reads when it is sent back
    notice: str = ""  # what the person should be told even when the agent may stop
    blocked_for: list = field(default_factory=list)  # "contradicted", "not shown"
    state: HookState = field(default_factory=HookState)

    def to_dict(self):
        return {"decision": "block" if self.block else "allow",
                "blocked_for": self.blocked_for, "notice": self.notice or None}


def decide(outcomes, stop_hook_active, not_shown=DEFAULT_NOT_SHOWN,
           max_blocks=DEFAULT_MAX_BLOCKS, state=None):
    """The StopDecision for the claims' outcomes (the policy of the module's docstring)."""
    if not_shown not in NOT_SHOWN_POLICIES:
        raise ValueError(f"unknown not-shown policy {not_shown!r}")
    before = state or HookState()
    # A stop that is not a continuation starts a new run of blocks.
    in_a_row = before.blocks_in_a_row if stop_hook_active else 0
    contradicted = [o for o in outcomes if o.answer == CONTRADICTED]
    unbacked = [o for o in outcomes if o.answer == NOT_SHOWN]
    unchecked = [o for o in outcomes if o.answer is None]
    notices = []
    if unchecked:
        notices.append(unchecked_notice(unchecked))
    blocked_for = []
    capped = bool(contradicted) and stop_hook_active and in_a_row >= max_blocks
    if contradicted:
        if capped:
            notices.append(f"receipt-pair: the agent's log still contradicts "
                           f"{_count(contradicted)}; it was sent back {in_a_row} times in a "
                           "row, so it was let stop this time")
        else:
            blocked_for.append(CONTRADICTED)
    if unbacked:
        allowed_why = None
        if not_shown == "allow":
            allowed_why = "not-shown claims do not block (--not-shown allow)"
        elif stop_hook_active:
            allowed_why = "the agent was already sent back once"
        elif not_shown == "block-once" and before.not_shown_blocked:
            allowed_why = "this session was already told once (--not-shown block-once)"
        if allowed_why:
            notices.append(f"receipt-pair: the agent's log does not show "
                           f"{_count(unbacked)}: {_list_inline(unbacked)} (not blocked: "
                           f"{allowed_why})")
        else:
            blocked_for.append(NOT_SHOWN)
    # Once the cap has let the agent stop, further continuations are let stop too.
    in_a_row = in_a_row + 1 if blocked_for else (in_a_row if capped else 0)
    after = HookState(blocks_in_a_row=in_a_row,
                      not_shown_blocked=before.not_shown_blocked or NOT_SHOWN in blocked_for)
    reason = block_reason(contradicted if CONTRADICTED in blocked_for else [],
                          unbacked if NOT_SHOWN in blocked_for else [],
                          unchecked) if blocked_for else ""
    return StopDecision(bool(blocked_for), reason, "\n".join(notices), blocked_for, after)


def block_reason(contradicted, unbacked, unchecked=()):
    """What the agent reads when its stop is blocked: each claim and what its log says."""
    total = len(contradicted) + len(unbacked)
    lines = [f"receipt-pair checked {'this claim' if total == 1 else 'the claims'} in your "
             "last message against your own session log (the commands you ran and what "
             "they printed)."]
    if contradicted:
        lines += ["", f"Your log contradicts {_count(contradicted)}:"]
        for outcome in contradicted:
            lines.append(f"- {_quoted(outcome.claim.text)}")
            lines += _evidence(outcome.result)
    if unbacked:
        lines += ["", f"Your log does not show {_count(unbacked)} (no output line backs "
                      f"{'it' if len(unbacked) == 1 else 'them'}):"]
        lines += [f"- {_quoted(o.claim.text)}" for o in unbacked]
    if unchecked:
        lines += ["", f"{_count(unchecked).capitalize()} could not be checked (not held "
                      "against you): " + _list_inline(unchecked)]
    lines += ["", "Fix what failed and run it again so the log shows it, or tell the user "
                  "plainly what is not done or not verified. Then finish."]
    text = "\n".join(lines)
    if len(text) > MAX_REASON_CHARS:
        text = text[:MAX_REASON_CHARS - 40].rstrip() + "\n[... the rest left out ...]"
    return text


def unchecked_notice(unchecked):
    errors = []
    for outcome in unchecked:
        why = outcome.error or "; ".join(f"model {m.arm}: {m.error}"
                                         for m in outcome.result.failed)
        if why not in errors:
            errors.append(why)
    return (f"receipt-pair could not check {_count(unchecked)} of the agent's last message, "
            f"so it blocked nothing there and the agent may stop: {'; '.join(errors)}")


def _evidence(result):
    """Lines showing the deciding quotes, each with its turn's command, once each."""
    commands = {turn.id: turn.cmd for turn in result.shown}
    lines, seen = [], set()
    for quote in result.quotes:
        if (quote.turn, quote.quote) in seen:
            continue
        seen.add((quote.turn, quote.quote))
        command = commands.get(quote.turn, "")
        command = command.splitlines()[0][:120] if command else ""
        lines.append(f"  {quote.turn}" + (f" `{command}`" if command else "") + " printed:")
        lines.append(f"    {_cut(quote.quote)}")
    return lines


def _cut(text):
    return text if len(text) <= MAX_QUOTE_CHARS else text[:MAX_QUOTE_CHARS] + " [...]"


def _quoted(text):
    return json.dumps(_cut(text), ensure_ascii=False)


def _list_inline(outcomes):
    return ", ".join(_quoted(o.claim.text) for o in outcomes)


def _count(outcomes):
    return "1 claim" if len(outcomes) == 1 else f"{len(outcomes)} claims"


def summary(outcomes):
    """One line for the person: how many claims came out which way."""
    counts = {}
    for outcome in outcomes:
        word = outcome.answer or "could not check"
        counts[word] = counts.get(word, 0) + 1
    order = (SHOWN, CONTRADICTED, NOT_SHOWN, "could not check")
    return ", ".join(f"{counts[w]} {w}" for w in order if w in counts) or "no claims"
