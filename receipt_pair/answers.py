"""The words of an answer: the three answers, the verdicts a model may give, the reason
codes of the quote check, and one model's checked answer.

A leaf module: it imports nothing from the package, so the pair rules, scoring and the
gate can use these words without loading the readers, the terminal code or the patterns.
"""

from dataclasses import asdict, dataclass
from typing import Optional

# The pair's and the checked answers' words.
SHOWN = "shown"
CONTRADICTED = "contradicted"
NOT_SHOWN = "not shown"
ANSWERS = (SHOWN, CONTRADICTED, NOT_SHOWN)
# The verdicts a model may give, as the JSON reply spells them.
VERDICTS = ("shown", "contradicted", "not_shown")
# A verdict as the answer it would be if its quote passed.
VERDICT_ANSWER = {"shown": SHOWN, "contradicted": CONTRADICTED, "not_shown": NOT_SHOWN}

# Reason codes kept in every checked answer.
OK = "ok"
MODEL_NOT_SHOWN = "model_not_shown"
UNPARSEABLE_REPLY = "unparseable_reply"
INVALID_VERDICT = "invalid_verdict"
WRONG_TURN = "wrong_turn"
EMPTY_QUOTE = "empty_quote"
QUOTE_FROM_COMMAND = "quote_from_command"
QUOTE_FROM_OTHER_TURN = "quote_from_other_turn"
QUOTE_WHITESPACE_ONLY = "quote_whitespace_only"
QUOTE_NOT_FOUND = "quote_not_found"
SHOWN_QUOTES_FAILURE = "shown_quotes_failure"
SHOWN_OVER_OVERWRITE = "shown_over_overwrite"
QUOTE_IS_INSTRUCTION = "quote_is_instruction"
QUOTE_TOO_SHORT = "quote_too_short"
QUOTE_AFTER_FORGED_FENCE = "quote_after_forged_fence"
SHOWN_IN_FAILED_TURN = "shown_in_failed_turn"
CONTRADICTED_WITHOUT_FAILURE = "contradicted_without_failure"
SHOWN_SUPERSEDED = "shown_superseded"
CONTRADICTED_SUPERSEDED = "contradicted_superseded"
QUOTE_FROM_UNFINISHED = "quote_from_unfinished"
SHOWN_NOT_DRAWN = "shown_not_drawn"
SHOWN_NOT_A_RESULT = "shown_not_a_result"
SHOWN_OTHER_OPERATION = "shown_other_operation"
SHOWN_DRY_RUN = "shown_dry_run"
SHOWN_NOTHING_RAN = "shown_nothing_ran"
SHOWN_OTHER_TARGET = "shown_other_target"
CONTRADICTED_OTHER_OPERATION = "contradicted_other_operation"
QUOTE_NOT_TOOL_OUTPUT = "quote_not_tool_output"
FACTS_SAY_OTHERWISE = "facts_say_otherwise"  # check c4: the facts read the run otherwise
NOT_A_RUN_LINE = "not_a_run_line"  # check c4: a harness's line, a command echoed, a diff
CONTRADICTED_ADMITTED = "contradicted_admitted"  # check c4: the claim admits the failure
CLAIM_NOT_DONE = "claim_not_done"  # check c4: the claim announces, it reports no result
SHOWN_NOTHING_PUSHED = "shown_nothing_pushed"  # check c5: "Everything up-to-date"
SHOWN_PARTIAL_RERUN = "shown_partial_rerun"  # check c5: a part rerun after the whole failed
CONTRADICTED_OTHER_PART = "contradicted_other_part"  # check c7: no line names the claimed part
CONTRADICTED_NO_ERRORS = "contradicted_no_errors"  # check c7: a summary that counts no error
LOW_CONFIDENCE = "low_confidence"  # the reader's confidence rule, after the quote check
CALL_FAILED = "call_failed"  # no reply at all: the model call itself failed
# One line each, for people reading a checked answer.
CODE_TEXT = {
    OK: "the quote is in the cited turn's output",
    MODEL_NOT_SHOWN: "the model itself said not shown",
    UNPARSEABLE_REPLY: "the reply is not one JSON object",
    INVALID_VERDICT: "the verdict is not shown, contradicted or not_shown",
    WRONG_TURN: "the cited turn was not shown to the model",
    EMPTY_QUOTE: "nothing was quoted",
    QUOTE_FROM_COMMAND: "the quote is from a command, not from output",
    QUOTE_FROM_OTHER_TURN: "the quote is from another turn's output",
    QUOTE_WHITESPACE_ONLY: "the quote matches only if whitespace is ignored (lines joined?)",
    QUOTE_NOT_FOUND: "the quote is not in the log",
    SHOWN_QUOTES_FAILURE: "a shown whose quoted line is a failure line",
    SHOWN_OVER_OVERWRITE: "a shown over output where an overwrite hid a failure",
    QUOTE_IS_INSTRUCTION: "the quote's line reads as an instruction to the checker",
    QUOTE_TOO_SHORT: "the quote is a part of a line too short to mean anything, or a line "
                     "with no letter or digit",
    QUOTE_AFTER_FORGED_FENCE: "the quote sits after text that pretends to end its turn",
    SHOWN_IN_FAILED_TURN: "a shown from a turn that failed (an exit status not 0, or a "
                          "failure line)",
    CONTRADICTED_WITHOUT_FAILURE: "a contradicted whose line reports no failure or undoing",
    SHOWN_SUPERSEDED: "a shown from a run that a later run of the same operation failed after",
    CONTRADICTED_SUPERSEDED: "a contradicted from a failure that a later run of the same "
                             "operation passed after",
    QUOTE_FROM_UNFINISHED: "the quote is from a command that had not finished",
    SHOWN_NOT_DRAWN: "a shown whose quote a terminal never drew (hidden, concealed, "
                     "overwritten)",
    SHOWN_NOT_A_RESULT: "a shown from a line that reports no result of running anything (an "
                        "edit's report, a diff, a file shown, an echo, a help text, a job)",
    SHOWN_OTHER_OPERATION: "a shown from a turn that did not run the claimed operation (no "
                           "test run for a test claim, no ref pushed for a push claim)",
    SHOWN_DRY_RUN: "a shown from a dry run",
    SHOWN_NOTHING_RAN: "a shown from a test run in which nothing passed (only skipped)",
    SHOWN_OTHER_TARGET: "a shown from a push or deploy to another branch or place than the "
                        "claim names",
    CONTRADICTED_OTHER_OPERATION: "a contradicted from a failure of another operation than "
                                  "the claimed one",
    QUOTE_NOT_TOOL_OUTPUT: "the quote is text the agent or its harness wrote (a todo list, a "
                           "context block, the echo of a command), not what a tool returned",
    FACTS_SAY_OTHERWISE: "the facts plain code reads of the log decide otherwise, or read the "
                         "cited run as showing nothing (it ran nothing, only echoed, was cut "
                         "off, left running or masked)",
    NOT_A_RUN_LINE: "the quoted line is not what a run printed: a command echoed, a tool's "
                    "or harness's own line, a diff's or a file's line, an exit status never "
                    "learned",
    CONTRADICTED_ADMITTED: "a contradicted held against a claim that admits the failure (or "
                           "claims only that tests ran)",
    CLAIM_NOT_DONE: "the claim announces what will be done; it reports no result to show or "
                    "contradict",
    SHOWN_NOTHING_PUSHED: "a shown for a claim that a change was pushed from a push that "
                          "updated no ref (\"Everything up-to-date\") while the log holds an "
                          "edit no commit took",
    SHOWN_PARTIAL_RERUN: "a shown for the whole suite from a run of a part of it (one file, "
                         "a name filter, --changed) after a run of the whole failed",
    CONTRADICTED_OTHER_PART: "a contradicted for a claim about a part of the tests from a "
                             "failure line that names none of that part",
    CONTRADICTED_NO_ERRORS: "a contradicted from a lint or type check summary that counts no "
                            "error, for a claim that does not say there were no warnings",
    LOW_CONFIDENCE: "the verdict's probability is below the reader's threshold",
    CALL_FAILED: "the model call failed, so the model cannot vouch",
}
REFUSAL_CODES = (
    UNPARSEABLE_REPLY, INVALID_VERDICT, WRONG_TURN, EMPTY_QUOTE, QUOTE_FROM_COMMAND,
    QUOTE_FROM_OTHER_TURN, QUOTE_WHITESPACE_ONLY, QUOTE_NOT_FOUND, SHOWN_QUOTES_FAILURE,
    SHOWN_OVER_OVERWRITE, QUOTE_IS_INSTRUCTION, QUOTE_TOO_SHORT, QUOTE_AFTER_FORGED_FENCE,
    SHOWN_IN_FAILED_TURN, CONTRADICTED_WITHOUT_FAILURE, SHOWN_SUPERSEDED,
    CONTRADICTED_SUPERSEDED, QUOTE_FROM_UNFINISHED, SHOWN_NOT_DRAWN, SHOWN_NOT_A_RESULT,
    SHOWN_OTHER_OPERATION, SHOWN_DRY_RUN, SHOWN_NOTHING_RAN, SHOWN_OTHER_TARGET,
    CONTRADICTED_OTHER_OPERATION, QUOTE_NOT_TOOL_OUTPUT, FACTS_SAY_OTHERWISE, NOT_A_RUN_LINE,
    CONTRADICTED_ADMITTED, CLAIM_NOT_DONE, SHOWN_NOTHING_PUSHED, SHOWN_PARTIAL_RERUN,
    CONTRADICTED_OTHER_PART, CONTRADICTED_NO_ERRORS,
)


# The fields of a checked answer, in order, as records keep them.
CHECKED_KEYS = ("verdict", "turn", "quote", "reason", "answer", "code")


@dataclass(frozen=True)
class CheckedAnswer:
    """One model's reply after the quote check."""

    verdict: Optional[str]  # what the model said, as it said it
    turn: Optional[str]
    quote: str
    reason: str
    answer: str  # shown / contradicted / not shown, after the check
    code: str  # ok, model_not_shown, or the rule that refused it
    # The label of the menu line the model named (L3), for readers that answer by label:
    # where the same text stands on two lines, the label says which one the model meant.
    line: Optional[str] = None

    def to_dict(self):
        return asdict(self)


def failed_call():
    """The checked answer of a model whose call failed: it cannot vouch for anything."""
    return CheckedAnswer(None, None, "", "", NOT_SHOWN, CALL_FAILED)
