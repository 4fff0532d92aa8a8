"""Does the quoted line fit the claim, as the whole log stands? The rules of check c3 that
read past the quoted line: the turn it came from, the turns after it, and the claim.

- The latest attempt decides (attempts.py): a `shown` may not stand on a turn that failed,
  nor on a run that a later run of the same operation failed after; a `contradicted` may
  not stand on a failure that a later run passed after.
- A quote must show the claimed thing (kinds.py): a claim that something ran needs a line
  printed by running it, a test claim a run of tests, a push claim a ref that was pushed;
  a dry run, a run of nothing and another branch or place show nothing of the claim; a
  failure of another operation contradicts nothing.
- Text a terminal never drew was not seen (seen.py).

Every rule only takes an answer away; `refuse_shown` and `refuse_contradicted` name the
first that does.
"""

from . import attempts, kinds, seen, suites
from ..answers import (CONTRADICTED_OTHER_OPERATION, CONTRADICTED_SUPERSEDED,
                       CONTRADICTED_WITHOUT_FAILURE, QUOTE_NOT_TOOL_OUTPUT, SHOWN_DRY_RUN,
                      SHOWN_IN_FAILED_TURN, SHOWN_NOT_A_RESULT, SHOWN_NOT_DRAWN,
                      SHOWN_NOTHING_RAN, SHOWN_OTHER_OPERATION, SHOWN_OTHER_TARGET,
                      SHOWN_SUPERSEDED)
from .testcounts import count_tests
from ..turn import Turn


def read_turns(shown):
    """The turns the reader read: those it records, or the shown ones as turns."""
    if getattr(shown, "turns", None) is not None:
        return shown.turns
    return tuple(Turn(t.cmd, t.raw_output, t.exit_status, t.finished) for t in shown)


def turn_index(cited, shown):
    """Where the cited turn stands among the turns the reader read."""
    if cited.index >= 0 and getattr(shown, "turns", None) is not None:
        return cited.index
    return list(shown).index(cited)


def _in_diff(turn_lines, line):
    """True if `line` sits in a unified diff (after a `diff --git` or `@@` header)."""
    inside = False
    for candidate in turn_lines:
        if candidate.startswith(("diff --git ", "@@ ", "--- a/", "+++ b/")):
            inside = True
        if candidate == line:
            return inside
    return False


def shown_refusal(claim, turn, at, quoted, read_reports=False):
    """Why a `shown` from this turn cannot stand for this claim, or None. `read_reports`
    (check c5): a JUnit report's turn is a run of tests."""
    wanted = kinds.claim_kinds(claim)
    said = "\n".join(quoted)
    # A job-control line ("[1] 32") or a help text's option backs no claim at all.
    if any(kinds.backs_no_claim(q) for q in quoted):
        return SHOWN_NOT_A_RESULT
    text = "\n".join(at.lines)
    if wanted & kinds.RUN_KINDS:
        # "File created successfully", a diff of the agent's own edit, `cat` of a file, an
        # echo of its own words, `--help`: nothing there ran the claimed operation.
        if kinds.shows_nothing_ran(turn) or kinds.turn_is_edit(turn, at.lines) \
                or kinds.asks_for_help(turn.cmd) \
                or any(kinds.edit_report(q, _in_diff(at.lines, q)) for q in quoted):
            return SHOWN_NOT_A_RESULT
        if kinds.dry_run(turn, said):
            return SHOWN_DRY_RUN
    if kinds.TESTS in wanted:
        if not (kinds.runs_tests(turn, text) or read_reports and suites.report_turn(turn)):
            return SHOWN_OTHER_OPERATION
        counts = count_tests(text)
        if counts is not None and counts.passed == 0:
            return SHOWN_NOTHING_RAN
    if kinds.PUSH in wanted:
        if kinds.pushes(turn):
            # `To origin` is printed before a rejected push too: only a ref update shows it.
            if not any(kinds.pushed_line(q) for q in quoted):
                return SHOWN_OTHER_OPERATION
        elif not wanted & {kinds.TESTS, kinds.BUILD, kinds.DEPLOY}:
            return SHOWN_OTHER_OPERATION
    if kinds.other_target(claim, turn, said):
        return SHOWN_OTHER_TARGET
    return None


def _in_context_block(cited, lines):
    """True if every place the quote sits is inside a block a harness appended to the
    tool's result (<environment_details>, <system-reminder>)."""
    blocks = [m.span() for m in kinds.CONTEXT_BLOCK.finditer(cited.readable)]
    return bool(lines) and all(any(a <= start < b for a, b in blocks) for _, start in lines)


def _read(stripped, lines, cited, shown, patterns):
    """(claim, the attempts, the cited turn's index, the quoted lines, and the code that
    refuses any verdict from it, or None) of a quote."""
    claim = getattr(shown, "claim", "") or ""
    turns = read_turns(shown)
    found = attempts.read_attempts(turns, patterns)
    index = turn_index(cited, shown)
    quoted = [stripped] + [line for line, _ in lines]
    # "Todo list updated successfully", a task table in <environment_details>: the agent's
    # own words and its harness's context, whatever they say.
    refused = QUOTE_NOT_TOOL_OUTPUT if kinds.bookkeeping(turns[index]) or _in_context_block(
        cited, lines) else None
    return claim, turns, found, index, quoted, refused


def refuse_shown(stripped, lines, cited, shown, patterns, read_reports=False):
    """The c3 rules that read past the quoted line, for a `shown`: the reason code that
    refuses, or None. `read_reports` (check c5): a JUnit report's turn is a test run's."""
    claim, turns, found, index, quoted, refused = _read(stripped, lines, cited, shown, patterns)
    if refused:
        return refused
    turn, at = turns[index], found[index]
    # "5 passed" from a run whose own output says 1 failed, or that exited 1.
    if at.failed and not attempts.part_stands(claim, quoted, at):
        return SHOWN_IN_FAILED_TURN
    # The tests passed, then a later run of them failed: the later run decides.
    if attempts.later_failure(found, index, claim, quoted) is not None:
        return SHOWN_SUPERSEDED
    # "Deployed OK" inside an OSC title or concealed text: nobody saw it printed.
    if not seen.drawn(cited.raw_output, stripped):
        return SHOWN_NOT_DRAWN
    return shown_refusal(claim, turn, at, quoted, read_reports)


def refuse_contradicted(stripped, lines, cited, shown, patterns):
    """The c3 rules that read past the quoted line, for a `contradicted`: the reason code
    that refuses, or None."""
    claim, turns, found, index, quoted, refused = _read(stripped, lines, cited, shown, patterns)
    if refused:
        return refused
    turn, at = turns[index], found[index]
    # A failure that a later run of the same operation passed after is history.
    if attempts.later_pass(found, index, quoted, patterns) is not None:
        return CONTRADICTED_SUPERSEDED
    # A run that recorded exit status 0 failed only by a line that reports a failure as its
    # outcome; a warning never does ("WARNING: Failed to find function ...").
    if all(attempts.only_a_warning(q) for q in quoted) or (
            turn.exit_status == 0 and not any(attempts.reports_failure(q) for q in quoted)):
        return CONTRADICTED_WITHOUT_FAILURE
    # `rg: command not found` says nothing of whether the tests pass.
    if not kinds.about_claim(claim, turn, at.lines, quoted):
        return CONTRADICTED_OTHER_OPERATION
    return None
