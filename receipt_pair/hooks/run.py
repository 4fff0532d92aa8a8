"""One stop of an agent, checked: read the hook's input, find the claims of its final
message, check each against the session file (read once), decide in the agent's protocol
whether to send it back, and keep the receipts; then what `hook` prints of that decision
(`answer`, a HookOutput). The command line (cli/hook.py) only parses options into a
HookOptions (options.py) and prints the HookOutput.
"""

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Optional

from ..answers import CONTRADICTED, NOT_SHOWN
from ..errors import ReceiptPairError, ServerError
from ..logs.redact import redact as redact_text
from ..logs.transcripts import find_session
from ..pair.claim import check_claims
from ..pair.receipts import receipt_of
from ..store.files import decode, display_name, read_bytes
from ..store.ledger import append_receipt
from . import records, session as hook_session, stop as stop_hook
from .advice import NO_COMMANDS, next_step
from .agents import get_agent
from .claims import given_claims, split_claims

# Below this many seconds left, no further claim is asked about.
MIN_CALL_SECONDS = 5.0
# Below this many seconds left of the budget (after MIN_CALL_SECONDS), the split model is
# not asked: the claims are split in plain code.
MIN_SPLIT_SECONDS = 1.0


def error_line(exc):
    """An error's line, with what to do about it where it says."""
    hint = getattr(exc, "cli_hint", None)
    return f"{exc} ({hint})" if hint else str(exc)


@dataclass
class HookOutput:
    """What `hook` prints and exits with: its exit status (2 only for a block by exit
    status), the JSON for standard output (None: print nothing; indented by `indent` for a
    person to read), and for standard error either the block's `reason` (with exit status
    2, the only thing there: the agent reads it) or the `notes` and the `notice` for the
    person."""

    status: int
    reply: Optional[dict] = None
    reason: str = ""
    notes: list = field(default_factory=list)
    notice: str = ""
    indent: Optional[int] = None
    text: Optional[str] = None  # text for standard output in place of JSON (a snippet)


def answer(options, decision, notes=()):
    """The HookOutput of a StopDecision (and the notes of its stop) for the agent of
    `options`, in its protocol: a block by its JSON, or by exit status 2 where `block_with`
    says so."""
    if decision.block and options.block_with == "exit2":
        return HookOutput(2, reason=decision.reason)
    decision.notice = stop_hook.bounded(decision.notice)
    return HookOutput(0, get_agent(options.agent).reply(decision), notes=list(notes),
                      notice=decision.notice)


def let_stop(options, why):
    """The HookOutput that lets the agent stop because its claims could not be checked."""
    return answer(options, stop_hook.StopDecision(
        False, notice=f"receipt-pair could not check the agent's claims: {why}"))


def run_hook(input_path, options):
    """(StopDecision, notes for standard error) for the hook input at `input_path` ("-":
    standard input), checked as `options` (a HookOptions) say."""
    agent = get_agent(options.agent)
    hook = _found(agent, stop_hook.read_hook_input(input_path, agent))
    given = None
    if options.claims_from:  # read with the input, before any wait for the session
        given = decode(read_bytes(options.claims_from), display_name(options.claims_from))
    unchecked = _not_a_stop_to_check(agent, hook)
    if unchecked:
        return stop_hook.StopDecision(False, notice=f"receipt-pair: {unchecked}"), []
    notes, started = [], time.monotonic()
    waited, directory = _session(options, agent, hook, notes)
    claims, split = _claims(options, given, hook, waited[0], notes, started)
    if not claims and waited[0] is None and waited.problem and given is None \
            and hook.last_assistant_message is None:
        # No message in the input and no session to take it from: nothing was checked.
        return stop_hook.StopDecision(False, notice=(
            "receipt-pair could not check the agent's claims: the session file cannot be "
            f"read: {stop_hook.cut(waited.problem, 1000)}")), notes
    if not claims:
        notes.append("no claims of finished work in the last message; nothing to check")
        return stop_hook.StopDecision(False), notes
    # The facts read at most MAX_DECIDED claims, and the models are asked about at most
    # MAX_CLAIMS of those the facts leave: the rest are named as not checked.
    claims, over = claims[:stop_hook.MAX_DECIDED], claims[stop_hook.MAX_DECIDED:]
    outcomes, not_checked = _outcomes(options, claims, waited, started)
    not_checked = not_checked + over
    _advise(outcomes, waited[0], hook.cwd)
    stop = records.Stop(hook, agent, split, waited[1], options.not_shown, directory)
    decision = _decide(options, stop, outcomes, not_checked, notes)
    saved = _keep(options, stop, outcomes, decision, waited, notes) if directory else False
    if not directory:
        decision.tell("receipt-pair: nothing was saved: the session file could not be read "
                      "as the agent's, so there is no receipts folder beside it (give "
                      "--receipts DIR)")
    notes.append(f"{stop_hook.summary(outcomes)}; "
                 f"{'blocked the stop' if decision.block else 'the agent may stop'}"
                 + (f"; receipts in {directory}" if saved else ""))
    return decision, notes


def _found(agent, hook):
    """The hook input with its session file found from its working folder and session id,
    where the agent's stop names none (Kimi Code CLI, OpenCode's database)."""
    if hook.session_path:
        return hook
    found = find_session(agent.session_format, hook.cwd, hook.session_id)
    return dataclasses.replace(hook, transcript_path=found) if found else hook


def _not_a_stop_to_check(agent, hook):
    """Why this stop is not one the hook checks (another event, a loop that did not
    complete, no session file, one receipt-pair cannot read yet), or None."""
    if hook.event not in agent.events:
        return (f"this hook checks {' and '.join(agent.events)}, not "
                f"{stop_hook.cut(hook.event, 100)!r}")
    if agent.checked_statuses and hook.status not in agent.checked_statuses:
        return (f"{agent.label}'s loop ended with status "
                f"{stop_hook.cut(str(hook.status), 100)!r}, not a finished turn, so nothing "
                "was checked")
    if not hook.session_path:
        return "the hook input names no session file, so nothing was checked"
    if agent.why_unchecked:
        return (f"{agent.why_unchecked} ({stop_hook.cut(hook.session_path, 300)}), so nothing "
                "was checked and the agent may stop")
    return None


def _session(options, agent, hook, notes):
    """(the session file, read once when it has caught up (a session.Waited), where the
    receipts go). A path that cannot be a session file (a folder, a device) is not waited
    on, and no receipt goes beside it."""
    path = hook.session_path
    problem = hook_session.session_file_problem(path)
    if problem:
        return (hook_session.Waited(None, False, f"{stop_hook.cut(path)}: {problem}"),
                options.receipts)
    session = hook_session.SessionFile(path, agent.session_format, hook.session_id,
                                       options.settings.redact)
    waited = hook_session.wait_for_session(session, hook.last_assistant_message,
                                           max(0.0, options.wait))
    if not waited[1]:
        notes.append("the session file did not show the final message (it stopped "
                     "changing, or --wait ran out); checked against what it held")
    # Beside a file that could not be read as the agent's session (not there at all, or
    # any other file the input names) is no folder of the agent's: a folder made there is
    # made wherever the input says, as root at the root of the disk or beside /etc/passwd.
    read = waited[0] is not None
    return waited, options.receipts or (records.default_directory(path) if read else None)


def _claims(options, given, hook, log, notes, started):
    """(claims, how they were found): `given` (the text of a file of claims), or split from
    the last message (the hook's input's, else the session file's). A split by a model is
    a call of the stop: it is asked only within the `--budget` left since `started`."""
    if given is not None:
        return given_claims(given), "given"
    final = hook.last_assistant_message
    if final is not None and options.settings.redact:
        final = redact_text(final)[0]  # the session's own message was redacted when read
    if final is None and log is not None:
        final = log.session.final_message
    if not final:
        return [], "rules"
    left = started + options.budget - MIN_CALL_SECONDS - time.monotonic()
    if options.split == "model" and left < MIN_SPLIT_SECONDS:
        notes.append("no time was left in --budget for the split model; split in plain "
                     "code instead")
    elif options.split == "model":
        from .claims_model import split_with_model

        settings = options.settings
        model = options.split_model or settings.model_a
        client = settings.client().with_timeout(min(settings.timeout, left))
        split = split_with_model(final, client, model, dict(settings.extra_a)
                                 if model == settings.model_a else None)
        for dropped in split.dropped[:3]:
            notes.append(f"the split model's claim {dropped['text'][:200]!r} was dropped: "
                         f"{dropped['why']}")
        if len(split.dropped) > 3:
            notes.append(f"... and {len(split.dropped) - 3} more of its claims were dropped")
        if split.error is None:
            return split.claims, "model"
        notes.append(f"the split model could not be asked ({split.error}); split in plain "
                     "code instead")
    return split_claims(final), "rules"


def _outcomes(options, claims, waited, started):
    """(the Outcome of each claim checked, the claims not checked): not shown in plain code
    for a session with no tool call at all (no model is asked), could not check for a
    session file that gives no turns (the first MAX_CLAIMS), else the facts' answers and
    the pair's."""
    log = waited[0]
    if log is not None and log.session.holds_no_command:
        # Nothing in the log can show any claim: plain code says so, no model is asked.
        return [stop_hook.Outcome(claim, decided=NOT_SHOWN, why=NO_COMMANDS)
                for claim in claims], []
    if log is None or log.session.problem:
        why = waited.problem if log is None else log.session.problem
        error = f"the session file cannot be read: {stop_hook.cut(why, 1000)}"
        return ([stop_hook.Outcome(claim, error=error)
                 for claim in claims[:stop_hook.MAX_CLAIMS]], claims[stop_hook.MAX_CLAIMS:])
    return _check_all(options, claims, log.turns, started)


def _advise(outcomes, log, folder):
    """For each claim held against the agent, what to do next (advice.py); `folder`, the
    agent's working folder, names the project's own command where it ran none."""
    for outcome in outcomes:
        if outcome.answer in (CONTRADICTED, NOT_SHOWN):
            outcome.advice = next_step(outcome.claim.text, outcome.answer, outcome.result,
                                       log.turns if log is not None else (), outcome.why,
                                       folder)


def _decide(options, stop, outcomes, not_checked, notes):
    """The StopDecision, its count of blocks kept first: a block whose count is not kept
    could repeat at every stop, so it becomes a notice."""
    directory = stop.directory
    state = (records.load_state(directory, stop.hook, stop_hook.HookState) if directory
             else stop_hook.HookState())
    # An agent that does not say whether this stop follows a block leaves it to the state:
    # a stop after one the hook blocked is taken as its continuation, so the cap holds.
    continued = stop.hook.stop_hook_active or (stop.agent.continued_by == "state"
                                               and state.blocks_in_a_row > 0)
    held, told = held_contradictions(outcomes, options.contradicted)
    decision = stop_hook.decide(held, continued, options.not_shown, options.max_blocks,
                                state, not_checked)
    if told:
        decision.tell(told)
    why = (records.record_state(directory, stop.hook, decision.state) if directory
           else "no folder for the hook's state: give --receipts DIR")
    if not why:
        return decision
    notes.append(f"the hook's state was not saved: {why}")
    return stop_hook.unrecorded(decision, why)


def held_contradictions(outcomes, policy):
    """(the outcomes the stop's policy weighs, a notice or ""): a contradicted claim that
    `--contradicted` (`policy`) does not hold against the agent is only told: under
    block-facts one the models found (plain code did not settle it), under allow any."""
    told = [o for o in outcomes if o.answer == CONTRADICTED and (policy == "allow" or (
        policy == "block-facts" and o.decided is None and
        getattr(o.result, "decided_by", None) != "facts"))]
    if not told:
        return outcomes, ""
    why = ("contradicted claims do not block (--contradicted allow)" if policy == "allow"
           else "the models said so, and only a contradiction plain code settled sends the "
                "agent back (--contradicted block-facts)")
    notice = (f"receipt-pair: the agent's log contradicts {stop_hook.count_claims(told)}: "
              f"{stop_hook.list_inline(told)} (not blocked: {why})")
    return [o for o in outcomes if o not in told], notice


def _check_all(options, claims, turns, started):
    """(Outcomes, claims not checked): every claim decided by the facts first, with no
    model and no server, then those they leave asked together (pair.claim.check_claims:
    one menu for all of them, model A's questions then model B's, the server reusing what
    they share), at most MAX_CLAIMS of them, within the hook's budget. A claim the models
    could not answer (the server down, the time run out) says why; the facts' answers
    stand whatever happened to the models."""
    deadline = started + options.budget - MIN_CALL_SECONDS
    settings = options.settings.replace(concurrent=False)
    try:
        checked = check_claims([claim.text for claim in claims], turns, settings,
                               deadline=deadline, max_asked=stop_hook.MAX_CLAIMS)
    except ServerError as exc:  # before any claim was read: nothing to keep
        return [stop_hook.Outcome(claim, error=error_line(exc)) for claim in claims], []
    outcomes, not_checked = [], []
    for claim, one in zip(claims, checked):
        if one.over_cap:
            not_checked.append(claim)
        elif one.result is not None:
            outcomes.append(stop_hook.Outcome(claim, result=one.result))
        else:
            outcomes.append(stop_hook.Outcome(claim, error=one.error))
    return outcomes, not_checked


def _keep(options, stop, outcomes, decision, waited, notes):
    """Save one record per claim checked (at most MAX_DECIDED) and feed the ledger. The
    decision's count is already kept, so a record or a ledger that cannot be written
    changes nothing but is said, to the person too. Returns whether all were saved."""
    log = waited[0]
    failures = []
    for index, outcome in enumerate(outcomes, 1):
        error = outcome.error or ("; ".join(f"model {m.arm}: {m.error}"
                                            for m in outcome.result.failed)
                                  if outcome.result and outcome.result.failed else None)
        block = records.hook_block(stop, outcome.claim, index, len(outcomes), decision, error)
        if outcome.result is not None:
            record = receipt_of(outcome.result, log, "hook", hook=block)
        else:
            record = records.hook_note(outcome, block, display_name(stop.hook.session_path),
                                       waited.sha256)
        # Receipts go to the ledger too; a note (no model could be asked) is no receipt.
        ledger = options.ledger if outcome.result is not None else None
        try:
            records.keep(stop.directory, records.record_path(stop, index), record,
                         ledger=ledger and (lambda r: append_receipt(ledger, r)))
        except (ReceiptPairError, OSError, ValueError, TypeError) as exc:
            why = error_line(exc) if isinstance(exc, ReceiptPairError) else \
                records.why_not_saved(exc)
            if why not in failures:
                failures.append(why)
    if failures:
        said = f"the receipts were not saved: {'; '.join(failures)}"
        notes.append(said)
        decision.tell(f"receipt-pair: {said}")
    return not failures
