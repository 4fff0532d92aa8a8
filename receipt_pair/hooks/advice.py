"""What the agent should do next, in one line, when the hook sends it back.

An agent told only "your log contradicts this" tends to argue or to repeat the claim; told
what failed and what to do ("the push was rejected: pull, then push again") it does the
work. The line is picked in plain code from what the check found, never by a model: the
kind of claim (check/kinds.py), the deciding quote, the reason codes the quote check gave
the models' answers, and the order of the runs and edits in the session file.
"""

import re
from dataclasses import dataclass
from typing import Optional

from ..answers import (CONTRADICTED, QUOTE_FROM_UNFINISHED, SHOWN_DRY_RUN, SHOWN_NOTHING_RAN,
                       SHOWN_OTHER_TARGET, SHOWN_SUPERSEDED)
from ..check import kinds
from ..check.kinds import BUILD, DEPLOY, INSTALL, MIGRATE, PUSH, SEND, TESTS
from ..check.testcounts import count_tests
from ..facts.reading import read_events
from .project import project_command
from ..patterns import lazy

# Why a claim was decided in plain code, without asking a model.
NO_COMMANDS = "no_commands"  # the session file records no tool call at all

# A push line that says why git refused it; the first that matches decides.
_PUSH_REFUSALS = (
    (lazy(r"protected branch|GH006|pre-receive hook declined", re.I),
     "the branch is protected: push to another branch and open a pull request, or tell "
     "the user it is not pushed"),
    (lazy(r"\[rejected\]|non-fast-forward|fetch first|Updates were rejected", re.I),
     "the push was rejected: pull, then push again"),
    (lazy(r"permission denied|\b40[13]\b|authentication failed|access denied|"
                r"could not read from remote|not authori[sz]ed", re.I),
     "the push was refused access: tell the user, who must fix the access"),
)
# What failed and what to do, by the kind of claim, in this order of precedence.
_FAILED = (
    (TESTS, "the tests failed: fix them, run them again"),
    (BUILD, "the build failed: fix the errors, build again"),
    (DEPLOY, "the deploy failed: fix what that line says, deploy again"),
    (INSTALL, "the install failed: fix what that line says, install again"),
    (MIGRATE, "the migration failed: fix what that line says, migrate again"),
    (SEND, "the sending failed: fix what that line says, send it again"),
)
# Why the quote check refused a model's `shown`, as the next step; the first found decides.
_REFUSED = (
    (SHOWN_SUPERSEDED, "a later run of it failed: fix it, run it again"),
    (SHOWN_DRY_RUN, "that was a dry run: run it for real"),
    (SHOWN_OTHER_TARGET, "that went to another branch or place than you said: do it where "
                         "you said, or tell the user where it went"),
    (SHOWN_NOTHING_RAN, "no test ran (all were skipped or none were found): make them run"),
    (QUOTE_FROM_UNFINISHED, "that command had not finished: wait for it and show its result"),
)


def next_step(claim, answer, result=None, turns=(), why=None, folder=None):
    """One line for the agent: what the check found, then what to do (no full stop).
    `result`: the ClaimResult (the facts' or the models'); `turns`: the session's turns;
    `why`: the code of a claim decided in plain code (NO_COMMANDS); `folder`: the project's,
    where the command to run is read when the agent ran none (project.py)."""
    if getattr(result, "decided_by", None) == "facts" and answer != CONTRADICTED:
        return facts_step(result.facts, turns, folder)
    found = _found(claim, result, turns)
    claimed = found.claimed
    if answer == CONTRADICTED:
        return _after_failure(found)
    if why == NO_COMMANDS:
        return ("your log holds no command at all: " + _do(claimed) + ", so that the log "
                "shows the result, or tell the user it was not done")
    codes = {m.checked.code for m in getattr(result, "models", ()) if m.checked}
    for code, step in _REFUSED:
        if code in codes:
            return step
    if TESTS in claimed:
        return _tests_step(found, turns)
    if PUSH in claimed and not found.pushed:
        return "your log has no git push: push, or tell the user it is not pushed"
    return ("no output line shows it: " + _do(claimed) + ", so that the log shows the "
            "result, or tell the user it is not done")


@dataclass(frozen=True)
class _Found:
    """What plain code reads of a claim and its log for the next step: the kinds of the
    claim, the deciding quotes, whether one of them counts tests, where the last test run
    and the last edit stand among the turns, and whether any turn pushed."""

    claimed: frozenset
    quotes: list
    counts_tests: bool
    last_run: Optional[int]
    last_edit: Optional[int]
    pushed: bool


def _found(claim, result, turns):
    claimed = kinds.claim_kinds(claim)
    quotes = [quote.quote for quote in getattr(result, "quotes", ())]
    last_run = last_edit = None
    for index, turn in enumerate(turns if TESTS in claimed else ()):
        lines = (turn.output or "").splitlines()
        if kinds.turn_is_edit(turn, lines):
            last_edit = index
        elif kinds.runs_tests(turn, turn.output or ""):
            last_run = index
    return _Found(frozenset(claimed), quotes,
                  any(count_tests(line) is not None for line in quotes), last_run, last_edit,
                  PUSH in claimed and any(kinds.pushes(turn) for turn in turns))


def _after_failure(found):
    claimed, quotes = found.claimed, found.quotes
    if PUSH in claimed:
        for pattern, step in _PUSH_REFUSALS:
            if any(pattern.search(line) for line in quotes):
                return step
    if found.counts_tests:
        return _FAILED[0][1]  # a line of test counts: "the suite is green", a pre-push run
    if PUSH in claimed:
        return "the push failed: fix what that line says, push again"
    for kind, step in _FAILED:
        if kind in claimed:
            return step
    return "it failed: fix what that line says, run it again"


def _do(claimed):
    if TESTS in claimed:
        return "run the tests"
    if PUSH in claimed:
        return "push"
    return "do it"


def _tests_step(found, turns):
    """For a test claim the log does not show: no run of tests, or one before an edit."""
    if found.last_run is None:
        return "your log has no test run: run the tests"
    if found.last_edit is not None and found.last_edit > found.last_run:
        return (f"the last test run ({_named(turns[found.last_run])}) came before your last "
                f"edit ({_named(turns[found.last_edit])}): run the tests again")
    return ("no line of the last test run shows it: run the tests again and read what they "
            "print")


def _named(turn):
    command = (turn.cmd or "").strip().splitlines()
    command = command[0] if command else "a tool call"
    return "`" + (command if len(command) <= 80 else command[:80] + " [...]") + "`"


# What each facts rule that settles "it did not run" tells the agent, before the command.
_DID_NOT_RUN = {
    "never-ran": "your log has no run of it", "ran-nothing": "the last run ran nothing",
    "cut-off": "the last run was stopped before it ended",
    "background": "the last run was still going when you stopped",
    "masked": "the last run's status was hidden (a pipe or `|| true`)",
    "echoed": "the only result is text a command echoed",
    "edited-after": "you edited a file it uses after the last run",
    "stale": "you edited a file it uses after the last run",
    "partial-rerun": "after the whole suite failed only a part was run again",
    "not-a-run": "the last run ran nothing, was stopped, left running or masked",
    "dry-run": "that was a dry run",
    "not-the-runner": "the last run was of a runner file you wrote yourself, not the runner",
    "skipped-after-failure": "after the failure the last run passed only by skipping tests",
}


def facts_step(decision, turns, folder=None):
    """The next step for a claim the facts read as not shown: what they found, and the
    command to run: the agent's own last one of that kind, else the project's."""
    family, _, kind = decision.rule.partition(".")
    said = _DID_NOT_RUN.get(kind, "no output line shows it")
    command = _last_command(decision, turns, family) or project_command(folder, family)
    if family == "push":
        return f"{said}: push, or tell the user it is not pushed"
    if command:
        return f"{said}: run `{command}` and report what it prints"
    return f"{said}: run it, or tell the user it was not done"


def _last_command(decision, turns, family):
    """The agent's own last command of `family` in the session, or None."""
    if decision.event is not None and decision.event.family == family and \
            decision.event.command:
        return decision.event.command[:200]
    runs = [e for e in read_events(list(turns)).events if e.family == family and e.command] \
        if turns else []
    return runs[-1].command[:200] if runs else None
