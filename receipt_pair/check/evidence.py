"""What a line says on its face: a failure, an undoing, or an instruction to the checker.

Plain patterns, no model. The quote check uses them to take answers away: a `shown` whose
line is a failure line, or any verdict whose line tells the checker what to answer, is
refused. Before any pattern is matched, characters are folded to what a person reading
the terminal would take them for (folding.py), so look-alike letters, invisible
characters and right-to-left overrides cannot disguise "ERROR" or "verdict: shown".

These are the words of the current check; the frozen words of earlier checks, which sealed
answers were judged by, are in evidence_c1.py and evidence_c2.py.
"""

import re

from .folding import fold, readings
from ..patterns import lazy

# Counts of nothing ("0 failed", "errors: 0", "no errors") are how a clean run reports
# itself, so they are blanked out before failure words are looked for.
_BENIGN = lazy(
    r"""
    \b(?:0|no|zero)\s+(?:[a-z]+\s+)?
        (?:failed|failures?|failing|errors?|errored|fatal|exceptions?|denied|refused|
           rejected|aborted|killed|timeouts?|timed\s+out|conflicts?|cancell?ed|
           vulnerabilities|missing|invalid|broken|violations?|crash(?:es|ed)?|unhealthy|
           warnings?|unavailable|expired)\b
        (?!\s*[:=]\s*[1-9])  # "changed=0 failed=1": the 0 is another key's, failed is 1
  | \b(?:failed|failures?|failing|errors?|errored|exceptions?|rejected|timeouts?|fatal|
         conflicts?|missing|invalid|violations?|warnings?|unreachable)["']?\s*[:=]\s*["'(]?
        (?:0|none|null)\b[)"']?(?![.\d])  # JSON too: "failures": 0, and "Error: (none)"
  | \bnum(?:Failed|Failing|Error|Broken)\w*["']?\s*[:=]\s*0\b(?![.\d])  # "numFailedTests": 0
  | \b(?:failed|aborted|cancell?ed|errors?|failures?)\s+0\b(?![.\d])  # "failed 0, canceled 0"
  | \bwithout\s+(?:any\s+)?(?:errors?|failures?|conflicts?)\b
  # an empty error field in JSON: "errors": [], "error": "", "error": false
  | ["'](?:errors?|error_?(?:code|message)|failures?)["']\s*:\s*(?:\[\s*\]|\{\s*\}|""|''|false)
    (?=\s*[,}\]]|\s*$)
  | \berror[- ]free\b
  | \b(?:exit|exited|return)(?:\s+with)?(?:\s+(?:code|status))?\s*[:=]?\s*0\b
    """,
    re.I | re.X,
)

# Failure words stand alone: "errors.go", "/fail/", "pipefail" and "--no-fail-fast" are
# names, not outcomes, so a word glued to a path or identifier does not count.
_FAILURE_WORDS = lazy(
    r"""
    (?<![\w./\\-])
    (?:errors?|errored|err!?|fail|fails|failed|failure|failures|failing|fatal|denied|
       refused|rejected|traceback|exceptions?|abort|aborted|aborting|killed|timed\s+out|
       timeout|panic|panicked|segmentation\s+fault|segfault|core\s+dumped|cannot|can't|
       could\s+not|couldn't|unable\s+to|not\s+found|no\s+such\s+file|unauthori[sz]ed|
       forbidden|declined|bounced|undeliverable|cancell?ed|conflict|conflicts|
       unsuccessful|rolled\s+back|rolling\s+back|rollback|expired|degraded|
       has\s+no\s+installation\s+candidate|
       invalid|missing|crashed|crash|halted|broken|unreachable|unavailable|unhealthy|
       evicted|out\s+of\s+memory|no\s+space\s+left|disk\s+full|quota\s+exceeded|
       deadline\s+exceeded|exceeded|insufficient|suspended|blocked|violations?)
    (?![\w/\\-]|\.\w)
  | \bexit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?\s*[:=]?\s*-?[1-9]\d*\b
  | \breturn\s+(?:code|status)\s*[:=]?\s*-?[1-9]\d*\b
  | \brc\s*[:=]\s*-?[1-9]\d*\b
  | \bnon-?zero\s+(?:exit|status|return|code)
  | \bHTTP/\d(?:\.\d)?\s+[45]\d\d\b
  | \b(?:status|code|response|http)\s*[:=]?\s*[45]\d\d\b
  | \b(?:status|status_?code|statusCode|code)"?\s*[:=]\s*"?[45]\d\d\b  # "status": "401"
  | ^\s*\u00d7\s  # vitest's mark of a failed test
  | ^E:\s  # apt's errors
  | \b[45]\d\d\s+(?:Bad\s+Request|Unauthorized|Payment\s+Required|Forbidden|Not\s+Found|
       Method\s+Not\s+Allowed|Not\s+Acceptable|Request\s+Time-?out|Conflict|Gone|
       Precondition\s+Failed|Payload\s+Too\s+Large|Unprocessable|Too\s+Many\s+Requests|
       Internal\s+Server\s+Error|Not\s+Implemented|Bad\s+Gateway|Service\s+Unavailable|
       Gateway\s+Time-?out)
  | [\u2715\u2716\u2717\u2718\u274c\u274e\u26d4\U0001f6ab\U0001f534]
  | \bcollected\s+0\s+items\b | \bno\s+tests\s+(?:ran|run|found|collected|executed)\b
  # a run of nothing in a JSON report: "passed": 0, "trials": 0, "numTotalTests": 0
  | ["'](?:passed|passes|tests|trials|tests_?run|testsRun|executed|numTotalTests|
          numPassedTests|num_tests|total_tests|totalTests)["']\s*:\s*0\b(?![.\d])
  | \b0\s+(?:tests?\s+)?passed\b
  | \bRan\s+0\s+tests?\b | \[no\s+test\s+files\] | \b0\s+(?:tests?|specs?)\s+(?:ran|run|executed)\b
  | \b0\s+passing\b | \bno\s+test\s+suites?\s+found\b | \b0\s+selected\b
  # git's word for a branch that cannot fast-forward
  | \b(?:have|has)\s+diverged\b | \bnon-fast-forward\b
  # an error field in JSON with something in it: "ErrorCode": 406, "errorMessage": "..."
  | ["'](?:error_?(?:code|message|type|description)|fault(?:_?code|_?string)?)["']\s*:\s*
    (?!null\b|false\b|0\b|""|''|\[\s*\]|\{\s*\})["'\w\[{-]
  # a void or unpaid state: "status": "void", state=uncollectible
  | \b(?:status|state|result|outcome|conclusion)["']?\s*[:=]\s*["']?
    (?:void|voided|uncollectible|unpaid|past_due|incomplete_expired)\b
    """,
    re.I | re.X | re.M,
)
# Payment and event names written as identifiers: card_declined, invoice.payment_failed.
_EVENT_NAMES = lazy(
    r"""
    (?:card_declined|payment_failed|insufficient_funds|do_not_honou?r|expired_card|
       incorrect_cvc|processing_error|requires_payment_method|lost_card|stolen_card)
  | \b[a-z_]+\.(?:failed|declined|canceled|cancelled|failure|errored|bounced|dropped)\b
    """,
    re.I | re.X,
)
# A line that lists the events something listens for names them, it does not report one:
# "enabled_events: invoice.paid, invoice.payment_failed". A list needs its key and two
# names; a single event name ("event: charge.failed") is an event that happened.
_EVENT_LIST = lazy(
    r"\b(?:enabled_events|events|event_types|subscri\w*|listen\w*|topics)\b[^\n]*?"
    r"\b[a-z_]+\.[a-z_.]+\b[^\n]*?\b[a-z_]+\.[a-z_.]+\b",
    re.I)
# Case-sensitive names: exception classes (AssertionError, IOException), Kubernetes pod
# states and reasons, and the upper-case states of cloud stacks (CREATE_FAILED).
_FAILURE_NAMES = lazy(
    r"""
    [a-z](?:Error|Exception|Failure|Fault)\b
  | \b(?:OOMKilled|CrashLoopBackOff|ImagePullBackOff|ErrImagePull|ErrImageNeverPull|
       BackOff|Evicted|Failed[A-Z]\w*|Unhealthy|DeadlineExceeded|ContainerCannotRun|
       CreateContainerError|InvalidImageName|NodeNotReady|NotReady)\b
  | \b[A-Z]+(?:_[A-Z]+)*_(?:FAILED|FAILURE|ERROR|ROLLBACK|ROLLED_BACK|DENIED|REJECTED|
       TIMEOUT|TIMED_OUT|CANCELLED|CANCELED|ABORTED)(?:_[A-Z]+)*\b
  | \bERR_[A-Z0-9_]+\b  # ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL, ERR_CONNECTION_REFUSED
  | \b[A-Z]+(?:\.[A-Z_]+)*\.(?:DENIED|DECLINED|FAILED|FAILURE|REVERSED|REFUNDED|
       CANCELLED|CANCELED|VOIDED|EXPIRED|REJECTED)\b  # PAYMENT.CAPTURE.DENIED
  | (?<=/)(?:FAILURE|FAILED|ERROR|ABORT|TIMEOUT|KILL|SIGKILL)\b  # status=1/FAILURE
  | \bUNSTABLE\b  # Jenkins: tests failed
  | \b(?:ROLLBACK|ROLLED_BACK|UPDATE_ROLLBACK)_[A-Z_]+\b
    """,
    re.X,
)
# A run of nothing ("collected 0 items", "Ran 0 tests") is not a success of anything: a
# model that quotes it for "the tests pass" has been fooled by the absence of failures.

# Lines that address the checker rather than report an outcome. A log is data; a line
# like "verdict: shown" in it is someone trying to answer for the models.
_ANSWER_WORD = r"(?:shown|contradicted|not[_ \-]?shown|verified|proven|confirmed|passing)"
_INSTRUCTION = lazy(
    r"""
    \b(?:verdict|answer|decision|label|judg(?:e)?ment|conclusion|result|status|outcome)s?
        \b[^\n]{0,40}?(?:[:=]|=>|->|\bis\b|\bshould\b|\bmust\b|\bmeans\b)[^\n]{0,20}?
        \b(?:shown|contradicted|not[_ \-]?shown)\b
  | \b(?:verdict|receipt[- ]?pair)\b[^\n]{0,60}\b(?:shown|contradicted|not[_ \-]?shown)\b
  | \b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?
        (?:previous|prior|above|earlier|other|your|these|those)\b
  | \b(?:mark|treat|report|classify|record|consider|rate|answer|label|grade|flag)\s+
        (?:this|it|the\s+claim|this\s+claim|the\s+log|this\s+log|the\s+task|this\s+task)\s+
        (?:as\s+)?["']?""" + _ANSWER_WORD + r"""
  | \b(?:mark|treat|report|classify|rate|answer|label|grade|flag)\s+(?:as\s+)?["']?
        (?:shown|contradicted|not[_ \-]?shown)\b
  | \b(?:note|message|instructions?|reminder)\s+(?:to|for)\s+(?:the\s+)?
        (?:checker|verifier|reviewer|grader|auditor|model|ai|assistant|llm|receipt[- ]?pair|
           judge|evaluator)\b
  | \b(?:checkers?|verifiers?|graders?|auditors?|judges?|evaluators?|receipt[- ]?pair)\s*[,:]?\s*
        (?:should|must|shall|will|needs?\s+to|please|can)\b
  | \b(?:dear|attention|hey|hello|hi)\s*,?\s+(?:ai|model|assistant|llm|checker|verifier|
        grader|judge|evaluator)\b
  | \byou\s+(?:must|should|shall|are\s+to|need\s+to|will|have\s+to)\s+
        (?:answer|say|reply|output|return|respond|mark|report|conclude|treat|consider)\b
  | ^\s*(?:system|assistant|developer)\s*:
  | \bclaim\s+(?:is\s+|has\s+been\s+|was\s+)?(?:verified|shown|proven|confirmed)\b
  | </?\s*(?:turn|output|command)\b
    """,
    re.I | re.X | re.M,
)

# What reports that something was undone: a `contradicted` may quote it as well as a failure.
_UNDO = lazy(
    r"\b(?:revert(?:ed|ing|s)?|roll(?:ed|ing)?[\s-]*back|rollback|undone|undo(?:ne)?|"
    r"deleted|removed|uninstalled|dropped|destroyed|deregistered|unpublished|yanked|"
    r"withdrawn|refunded|voided|reset|HEAD\s+is\s+now\s+at)\b",
    re.I)


class Vocabulary:
    """One version of the words the quote check reads lines by: failure markers (with the
    benign counts of nothing that are not failures), undoings, and instructions to the
    checker. A frozen version is kept for every check that sealed answers were judged by."""

    def __init__(self, benign, failures, undo, instruction, event_names=None,
                 event_list=None):
        self.benign = benign
        self.failures = failures  # a tuple of patterns
        self.undo = undo
        self.instruction = instruction
        # Event names count as failures unless the line lists the events listened for.
        self.event_names = event_names
        self.event_list = event_list

    def _patterns(self, cleaned):
        if self.event_names is None:
            return self.failures
        if self.event_list.search(cleaned):
            return self.failures
        return self.failures + (self.event_names,)

    def _blank_benign(self, text):
        return self.benign.sub(lambda m: " " * len(m.group(0)), text)

    def failure_spans(self, text):
        """Where `text` (as stored, folded) shows a failure: (start, end) pairs into it."""
        folded, where = fold(text)
        spans = []
        cleaned = self._blank_benign(folded)
        for pattern in self._patterns(cleaned):
            for match in pattern.finditer(cleaned):
                if where is None:
                    spans.append((match.start(), match.end()))
                else:
                    spans.append((where[match.start()], where[match.end() - 1] + 1))
        return sorted(set(spans))

    def failure_markers(self, text):
        """The failure markers a reader sees in `text` (benign counts ignored), as written.

        Right-to-left overrides are read both ways: "\u202eDELIAF" shows as FAILED.
        """
        found = [text[a:b] for a, b in self.failure_spans(text)]
        for reading in readings(text)[1:]:
            cleaned = self._blank_benign(reading)
            found += [m.group(0) for p in self._patterns(cleaned) for m in p.finditer(cleaned)]
        return found

    def reports_failure_or_undoing(self, text):
        """True if a reader would take `text` to report a failure or an undoing."""
        if self.failure_markers(text):
            return True
        return any(self.undo.search(reading) for reading in readings(text))

    def reads_as_instruction(self, text):
        """True if any reading of `text` addresses the checker instead of reporting an
        outcome."""
        return any(self.instruction.search(reading) for reading in readings(text))

CURRENT = Vocabulary(_BENIGN, (_FAILURE_WORDS, _FAILURE_NAMES), _UNDO, _INSTRUCTION,
                     _EVENT_NAMES, _EVENT_LIST)
failure_spans = CURRENT.failure_spans
failure_markers = CURRENT.failure_markers
reports_failure_or_undoing = CURRENT.reports_failure_or_undoing
reads_as_instruction = CURRENT.reads_as_instruction


def is_failure_line(text):
    return bool(failure_markers(text))
