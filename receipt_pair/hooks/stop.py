"""Where agents stop: the Stop hook's input, and what to answer.

An agent runs the hook at its stop (Claude Code and Codex at `Stop` and `SubagentStop`,
Gemini CLI at `AfterAgent`, ...) with one JSON object on standard input; agents.py says
which key carries what for each. This module reads it (refusing values no agent sends:
paths that name no file, fields of any length) and turns the answers to the final
message's claims into a `StopDecision`: block (with the text the agent reads) or let the
agent stop (with, maybe, a notice for the person). The session file itself (its final
message, read once by logs/transcripts/, and the wait for it) is session.py. Nothing here
prints; cli/hook.py does.

The policy, in one place (`decide`):
- a claim the log contradicts blocks the stop, listing the claim and the deciding quotes
  (unless `--contradicted` says it is only told: run.py, `held_contradictions`);
  when the agent was already sent back by a block (`stop_hook_active`, or the state's own
  record that the last stop was blocked, whatever the input says), it blocks again only up
  to `max_blocks` blocks in a row, so a wrong answer or an input without the flag can
  never trap the agent;
- a claim the log does not show blocks only as the not-shown policy says (block-facts: once,
  where the facts settle that its operation did not run after the last edit), and never when
  `stop_hook_active` is true; so does a claim of a session with no tool call at all, which
  plain code answers `not shown` without asking a model (run.py), and which is the only
  not-shown claim the default policy (`block-empty`) sends the agent back for, once;
- a claim that could not be checked (server down, a model call failed, the session file
  unreadable) blocks nothing: the person is told, and the agent may stop;
- every claim is read by the facts first (no model, no server), up to `MAX_DECIDED` of a
  message; of those the facts leave, at most `MAX_CLAIMS` are asked of the models. The rest
  are named as not checked, so a message of thousands of claims costs a bounded stop, and
  a list of edits cannot push "all tests pass" past the models' cap unread;
- a block is only as safe as its count (`unrecorded`): a block whose count could not be
  saved and read back would repeat at every stop, so it becomes a notice instead.
"""

import json
from dataclasses import dataclass, field
from typing import Optional

from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN
from ..errors import InputError
from ..store.files import decode, display_name, loads_strict, path_problem, read_bytes
from .agents import CLAUDE_CODE

NOT_SHOWN_POLICIES = ("block-empty", "block-facts", "block-once", "allow", "block")
# The default blocks only where plain code decided `not shown` (a session with no tool call
# at all): on set 5's real logs the pair answers `not shown` for most claims the log does
# show (docs/agents.md, "Which not-shown policy"), so blocking on a model's `not shown`
# would send the agent back for most of its true claims.
DEFAULT_NOT_SHOWN = "block-empty"
_ONCE = ("block-empty", "block-facts", "block-once")  # the policies that block once a session
# The facts' rules that settle that the claimed operation did not run after the last edit:
# it never ran, ran nothing, was masked, cut off, left running, a dry run, or came before
# an edit; and (table t2) the run was of a runner file the agent wrote, or passed only by
# skipping tests after a failure. `--not-shown block-facts` sends the agent back (once) for
# these, with the command to run.
DID_NOT_RUN = ("never-ran", "ran-nothing", "cut-off", "background", "masked", "echoed",
               "edited-after", "partial-rerun", "dry-run", "stale", "not-a-run",
               "not-the-runner", "skipped-after-failure")


def did_not_run(outcome):
    """True if plain code settled that the outcome's claimed operation did not run (no
    command at all in the session, or a facts rule of DID_NOT_RUN)."""
    if outcome.decided == NOT_SHOWN:
        return True
    facts = getattr(outcome.result, "facts", None)
    return (getattr(outcome.result, "decided_by", None) == "facts" and facts is not None
            and facts.rule.split(".", 1)[-1] in DID_NOT_RUN)
DEFAULT_MAX_BLOCKS = 3
# The text the agent reads is bounded: a reason that fills its context helps no one.
MAX_QUOTE_CHARS = 300
MAX_REASON_CHARS = 6000
MAX_NOTICE_CHARS = 6000
MAX_CLAIMS = 12  # claims asked of the models per stop; the rest are named as not checked
# Claims the facts read per stop. They ask no model (a fraction of a millisecond a claim),
# so the bound is far above MAX_CLAIMS; it keeps a message of thousands of claims to a
# bounded stop and a bounded count of receipts.
MAX_DECIDED = 200
_MAX_NAMED = 20  # claims over the cap named by their words, then counted
# The hook's input comes from the agent; anything longer than these is not a real one.
MAX_FIELD_CHARS = 1024  # ids and the event's name
MAX_PATH_CHARS = 4096  # PATH_MAX on Linux
MAX_MESSAGE_CHARS = 1_000_000


@dataclass(frozen=True)
class HookInput:
    """What the agent tells the hook when it stops, whatever its own keys for it."""

    event: str
    session_id: str
    transcript_path: Optional[str]
    cwd: Optional[str]
    stop_hook_active: bool  # this stop follows one the hook sent back
    last_assistant_message: Optional[str]
    agent_id: Optional[str] = None
    agent_transcript_path: Optional[str] = None
    status: Optional[str] = None  # how the agent's loop ended, where it says (Cursor)

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


def read_hook_input(path, agent=CLAUDE_CODE):
    """The HookInput in the file at `path` ("-": standard input), as `agent` writes it."""
    return parse_hook_input(read_bytes(path), display_name(path), agent)


def parse_hook_input(data, name="the hook input", agent=CLAUDE_CODE):
    """A HookInput from the bytes on the hook's standard input, read with the keys `agent`
    (an agents.Agent) documents; InputError if it is not one."""
    text = decode(data, name)
    try:
        value = loads_strict(text)
    except ValueError as exc:
        raise InputError(f"{name}: not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InputError(f"{name}: must be a JSON object")

    def key_of(field):
        """The agent's key of `field`: of two spellings, the one the input holds."""
        key = agent.keys.get(field)
        if isinstance(key, tuple):
            return next((k for k in key if k in value), key[0])
        return key

    def text_field(field, default=None, limit=MAX_FIELD_CHARS):
        key = key_of(field)
        item = value.get(key) if key else None
        if item is None:
            return default
        if not isinstance(item, str):
            raise InputError(f"{name}: '{key}' must be a string or null")
        if len(item) > limit:
            raise InputError(f"{name}: '{key}' is longer than {limit} characters")
        return item

    def path_field(field):
        path = text_field(field, limit=MAX_PATH_CHARS)
        problem = path and path_problem(path)
        if problem:
            raise InputError(f"{name}: '{key_of(field)}' is not a file's path: {problem}")
        return path or None

    def continued():
        """Whether the agent says this stop follows one the hook sent back: its flag, or
        its count of follow-ups so far. An agent that says neither leaves it to the hook's
        state."""
        key = key_of("continued")
        item = value.get(key, False if agent.continued_by == "flag" else 0) if key else False
        if agent.continued_by == "count":
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                raise InputError(f"{name}: '{key}' must be a whole number, 0 or more")
            return item > 0
        if not isinstance(item, bool):
            raise InputError(f"{name}: '{key}' must be true or false")
        return item

    return HookInput(
        event=text_field("event", agent.default_event or agent.events[0]),
        session_id=text_field("session_id", "") or "unknown-session",
        transcript_path=path_field("transcript_path"),
        cwd=text_field("cwd", limit=MAX_PATH_CHARS),
        stop_hook_active=continued(),
        last_assistant_message=text_field("message", limit=MAX_MESSAGE_CHARS),
        agent_id=text_field("agent_id"),
        agent_transcript_path=path_field("agent_transcript_path"),
        status=text_field("status"),
    )


# -- what the answers mean for the stop ---------------------------------------------------


@dataclass
class Outcome:
    """One claim's check: the pair's result, an answer plain code gave, or why there is
    none; and, for a claim held against the agent, what it should do next."""

    claim: object  # a claims.Claim
    result: object = None  # a pair.ClaimResult, when the models were asked
    error: Optional[str] = None  # why this claim could not be checked
    decided: Optional[str] = None  # an answer plain code gave without asking a model
    why: Optional[str] = None  # the code of that answer (advice.NO_COMMANDS)
    advice: Optional[str] = None  # one line: what was found, what to do (advice.py)

    @property
    def answer(self):
        """shown / contradicted / not shown, or None when it could not be checked."""
        if self.decided is not None:
            return self.decided
        if self.error is not None or self.result is None or self.result.failed:
            return None
        return self.result.answer


@dataclass
class HookState:
    """What a session's earlier stops leave for the next: kept beside the receipts."""

    blocks_in_a_row: int = 0  # blocks since the agent last stopped without being sent back
    not_shown_blocked: bool = False  # block-once: the session was already told once
    # The last stop was blocked: the next is its continuation, whatever the input says
    # (an input without `stop_hook_active` must not start the count afresh at each stop).
    last_blocked: bool = False

    def to_dict(self):
        return {"blocks_in_a_row": self.blocks_in_a_row,
                "not_shown_blocked": self.not_shown_blocked,
                "last_blocked": self.last_blocked}


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

    def tell(self, line):
        """Add a line for the person to the notice, keeping it bounded."""
        self.notice = bounded("\n".join(filter(None, (self.notice, line))))


def decide(outcomes, stop_hook_active, not_shown=DEFAULT_NOT_SHOWN,
           max_blocks=DEFAULT_MAX_BLOCKS, state=None, not_checked=()):
    """The StopDecision for the claims' outcomes (the policy of the module's docstring);
    `not_checked`, the claims over the cap, are named for the person and the agent."""
    if not_shown not in NOT_SHOWN_POLICIES:
        raise ValueError(f"unknown not-shown policy {not_shown!r}")
    before = state or HookState()
    # A stop after one the hook blocked is its continuation whatever the input says; any
    # other stop that is not a continuation starts a new run of blocks.
    stop_hook_active = stop_hook_active or before.last_blocked
    in_a_row = before.blocks_in_a_row if stop_hook_active else 0
    contradicted = [o for o in outcomes if o.answer == CONTRADICTED]
    unbacked = [o for o in outcomes if o.answer == NOT_SHOWN]
    unchecked = [o for o in outcomes if o.answer is None]
    notices = []
    if not_checked:
        notices.append("receipt-pair: " + over_the_cap(len(outcomes), not_checked))
    if unchecked:
        notices.append(unchecked_notice(unchecked))
    blocked_for = []
    capped = bool(contradicted) and stop_hook_active and in_a_row >= max_blocks
    if contradicted:
        if capped:
            notices.append(f"receipt-pair: the agent's log still contradicts "
                           f"{count_claims(contradicted)}; it was sent back {in_a_row} times in a "
                           "row, so it was let stop this time")
        else:
            blocked_for.append(CONTRADICTED)
    if unbacked:
        allowed_why = None
        if not_shown == "allow":
            allowed_why = "not-shown claims do not block (--not-shown allow)"
        elif not_shown == "block-empty" and not any(o.decided == NOT_SHOWN for o in unbacked):
            allowed_why = ("only a session with no command at all is sent back "
                           "(--not-shown block-empty)")
        elif not_shown == "block-facts" and not any(did_not_run(o) for o in unbacked):
            allowed_why = ("only a claim whose operation plain code read as not run is sent "
                           "back (--not-shown block-facts)")
        elif stop_hook_active:
            allowed_why = "the agent was already sent back once"
        elif not_shown in _ONCE and before.not_shown_blocked:
            allowed_why = f"this session was already told once (--not-shown {not_shown})"
        if allowed_why:
            notices.append(f"receipt-pair: the agent's log does not show "
                           f"{count_claims(unbacked)}: {list_inline(unbacked)} (not blocked: "
                           f"{allowed_why})")
        else:
            blocked_for.append(NOT_SHOWN)
    # Once the cap has let the agent stop, further continuations are let stop too.
    in_a_row = in_a_row + 1 if blocked_for else (in_a_row if capped else 0)
    after = HookState(blocks_in_a_row=in_a_row,
                      not_shown_blocked=before.not_shown_blocked or NOT_SHOWN in blocked_for,
                      last_blocked=bool(blocked_for))
    reason = block_reason(contradicted if CONTRADICTED in blocked_for else [],
                          unbacked if NOT_SHOWN in blocked_for else [],
                          unchecked, not_checked, len(outcomes)) if blocked_for else ""
    return StopDecision(bool(blocked_for), reason, "\n".join(notices), blocked_for, after)


def unrecorded(decision, why):
    """`decision` with its block turned into a notice: the count of blocks in a row could
    not be saved and read back (`why`), and a block that is not counted could repeat at
    every stop, trapping the agent."""
    if not decision.block:
        return decision
    what = " and ".join("a contradicted claim" if b == CONTRADICTED else "a claim it does "
                        "not show" for b in decision.blocked_for)
    opened = StopDecision(False, notice=decision.notice, state=decision.state)
    opened.tell(f"receipt-pair: the agent's log has {what}, but the hook could not record a "
                f"block ({cut(why, 500)}), so it let the agent stop rather than risk sending "
                f"it back at every stop. What it would have told the agent:\n{decision.reason}")
    return opened


def over_the_cap(checked, not_checked):
    """One sentence naming the claims that were not checked: past the MAX_CLAIMS the models
    are asked about, or the MAX_DECIDED the facts read."""
    named = ", ".join(_quoted(c.text) for c in not_checked[:_MAX_NAMED])
    more = len(not_checked) - _MAX_NAMED
    return (f"the message makes more claims than one stop checks (the facts read up to "
            f"{MAX_DECIDED}, the models are asked about up to {MAX_CLAIMS} the facts leave): "
            f"{checked} checked; {len(not_checked)} more "
            f"{'claim was' if len(not_checked) == 1 else 'claims were'} not checked: {named}"
            + (f" and {more} more" if more > 0 else ""))


def bounded(text, limit=MAX_NOTICE_CHARS):
    """`text` cut to `limit` characters, saying so: what the hook writes is bounded."""
    if len(text) <= limit:
        return text
    return text[:limit - 40].rstrip() + "\n[... the rest left out ...]"


def block_reason(contradicted, unbacked, unchecked=(), not_checked=(), checked=0):
    """What the agent reads when its stop is blocked: each claim and what its log says."""
    total = len(contradicted) + len(unbacked)
    lines = [f"receipt-pair checked {'this claim' if total == 1 else 'the claims'} in your "
             "last message against your own session log (the commands you ran and what "
             "they printed)."]
    if contradicted:
        lines += ["", f"Your log contradicts {count_claims(contradicted)}:"]
        for outcome in contradicted:
            lines.append(_claim_line(outcome))
            lines += _evidence(outcome.result)
    if unbacked:
        lines += ["", f"Your log does not show {count_claims(unbacked)} (no output line backs "
                      f"{'it' if len(unbacked) == 1 else 'them'}):"]
        lines += [_claim_line(o) for o in unbacked]
    if unchecked:
        lines += ["", f"{count_claims(unchecked).capitalize()} could not be checked (not held "
                      "against you): " + list_inline(unchecked)]
    if not_checked:
        lines += ["", "Not held against you: " + over_the_cap(checked, not_checked) + "."]
    lines += ["", "Do what each line says, or tell the user plainly what is not done or not "
                  "verified. Then finish."]
    return bounded("\n".join(lines), MAX_REASON_CHARS)


def _claim_line(outcome):
    """The claim, and what to do about it: one line."""
    line = f"- {_quoted(outcome.claim.text)}"
    return f"{line}: {outcome.advice}." if outcome.advice else line


def unchecked_notice(unchecked):
    errors = []
    for outcome in unchecked:
        why = outcome.error or "; ".join(f"model {m.arm}: {m.error}"
                                         for m in outcome.result.failed)
        if why not in errors:
            errors.append(why)
    return (f"receipt-pair could not check {count_claims(unchecked)} of the agent's last message, "
            f"so it blocked nothing there and the agent may stop: {'; '.join(errors)}")


def _evidence(result):
    """A line per deciding quote, with its turn's command, once each."""
    commands = {turn.id: turn.cmd for turn in result.shown}
    lines, seen = [], set()
    for quote in result.quotes:
        if (quote.turn, quote.quote) in seen:
            continue
        seen.add((quote.turn, quote.quote))
        command = commands.get(quote.turn, "")
        command = command.splitlines()[0][:120] if command else ""
        lines.append(f"  {quote.turn}" + (f" `{command}`" if command else "") +
                     f" printed: {cut(quote.quote.strip())}")
    return lines


def cut(text, limit=MAX_QUOTE_CHARS):
    """`text` on one line's budget: its first `limit` characters, marked when cut."""
    return text if len(text) <= limit else text[:limit] + " [...]"


def _quoted(text):
    return json.dumps(cut(text), ensure_ascii=False)


def list_inline(outcomes):
    return ", ".join(_quoted(o.claim.text) for o in outcomes)


def count_claims(outcomes):
    return "1 claim" if len(outcomes) == 1 else f"{len(outcomes)} claims"


def summary(outcomes):
    """One line for the person: how many claims came out which way."""
    counts = {}
    for outcome in outcomes:
        word = outcome.answer or "could not check"
        counts[word] = counts.get(word, 0) + 1
    order = (SHOWN, CONTRADICTED, NOT_SHOWN, "could not check")
    return ", ".join(f"{counts[w]} {w}" for w in order if w in counts) or "no claims"
