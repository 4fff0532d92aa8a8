"""The patterns of quote check c1, frozen: what retired readers v1-v5 were judged by.

Nothing new is judged by these. They are kept, unchanged but for returning spans, so that
the answers sealed in receipts/ (runs 1 and 2, the demos) re-derive exactly as they were
recorded. The current patterns, with folding of look-alike and invisible characters and a
larger vocabulary, are in evidence.py.
"""

import re

# Counts of nothing ("0 failed", "errors: 0", "no errors") are how a clean run reports
# itself, so they are blanked out before failure words are looked for.
_BENIGN = re.compile(
    r"""
    \b(?:0|no|zero)\s+(?:[a-z]+\s+)?
        (?:failed|failures?|failing|errors?|errored|fatal|exceptions?|denied|refused|
           rejected|aborted|killed|timeouts?|timed\s+out|conflicts?|cancell?ed)\b
  | \b(?:failed|failures?|failing|errors?|errored|exceptions?|rejected|timeouts?|fatal|
         conflicts?)\s*[:=]\s*(?:0|none)(?![.\d])
  | \bwithout\s+(?:any\s+)?(?:errors?|failures?|conflicts?)\b
  | \berror[- ]free\b
  | \b(?:exit|exited|return)(?:\s+with)?(?:\s+(?:code|status))?\s*[:=]?\s*0\b
    """,
    re.I | re.X,
)

# Failure words stand alone: "errors.go", "/fail/", "pipefail" and "--no-fail-fast" are
# names, not outcomes, so a word glued to a path or identifier does not count.
_FAILURE_WORDS = re.compile(
    r"""
    (?<![\w./\\-])
    (?:errors?|errored|err!?|fail|fails|failed|failure|failures|failing|fatal|denied|
       refused|rejected|traceback|exceptions?|abort|aborted|aborting|killed|timed\s+out|
       timeout|panic|panicked|segmentation\s+fault|segfault|core\s+dumped|cannot|can't|
       could\s+not|couldn't|unable\s+to|not\s+found|no\s+such\s+file|unauthori[sz]ed|
       forbidden|declined|bounced|undeliverable|cancell?ed|conflict|conflicts)
    (?![\w/\\-]|\.\w)
  | \bexit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?\s*[:=]?\s*-?[1-9]\d*\b
  | \breturn\s+(?:code|status)\s*[:=]?\s*-?[1-9]\d*\b
  | \brc\s*[:=]\s*-?[1-9]\d*\b
  | \bnon-?zero\s+(?:exit|status|return)
  | \bHTTP/\d(?:\.\d)?\s+[45]\d\d\b
  | \b(?:status|code|response|http)\s*[:=]?\s*[45]\d\d\b
  | \b[45]\d\d\s+(?:Bad\s+Request|Unauthorized|Payment\s+Required|Forbidden|Not\s+Found|
       Method\s+Not\s+Allowed|Not\s+Acceptable|Request\s+Time-?out|Conflict|Gone|
       Precondition\s+Failed|Payload\s+Too\s+Large|Unprocessable|Too\s+Many\s+Requests|
       Internal\s+Server\s+Error|Not\s+Implemented|Bad\s+Gateway|Service\s+Unavailable|
       Gateway\s+Time-?out)
  | [\u2717\u2718\u274c]
  | \bcollected\s+0\s+items\b | \bno\s+tests\s+(?:ran|run|found|collected|executed)\b
  | \bRan\s+0\s+tests?\b | \[no\s+test\s+files\] | \b0\s+(?:tests?|specs?)\s+(?:ran|run|executed)\b
  | \b0\s+passing\b | \bno\s+test\s+suites?\s+found\b | \b0\s+selected\b
    """,
    re.I | re.X,
)
# A run of nothing ("collected 0 items", "Ran 0 tests") is not a success of anything: a
# model that quotes it for "the tests pass" has been fooled by the absence of failures.
# Exception class names (AssertionError, KeyError, IOException) are case-sensitive.
_EXCEPTION_NAME = re.compile(r"[a-z](?:Error|Exception)\b")

# Lines that address the checker rather than report an outcome. A log is data; a line
# like "verdict: shown" in it is someone trying to answer for the models.
_INSTRUCTION = re.compile(
    r"""
    \b(?:verdict|answer|decision|label)\s*["']?\s*[:=]\s*["']?\s*
        (?:shown|contradicted|not[_ ]shown)\b
  | \b(?:result|status)\s*["']?\s*[:=]\s*["']?\s*(?:shown|contradicted|not[_ ]shown)\b
  | \b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+)?
        (?:previous|prior|above|earlier|other|your)\b
  | \b(?:mark|treat|report|classify|record|consider|rate|answer|label)\s+
        (?:this|it|the\s+claim|this\s+claim|the\s+log|this\s+log)\s+(?:as\s+)?["']?
        (?:shown|verified|proven|contradicted|not[_ ]shown|true|false|successful|passing)\b
  | \b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?
        (?:checker|verifier|reviewer|grader|auditor|model|ai|assistant|llm|receipt[- ]?pair)\b
  | \b(?:checker|verifier|grader|auditor|receipt[- ]?pair)s?\s*[,:]?\s*
        (?:should|must|shall|will|needs?\s+to|please)\b
  | \b(?:dear|attention|hey|hello)\s*,?\s+(?:ai|model|assistant|llm|checker|verifier)\b
  | \byou\s+(?:must|should|shall|are\s+to|need\s+to|will)\s+
        (?:answer|say|reply|output|return|respond|mark|report|conclude)\b
  | ^\s*(?:system|assistant)\s*:
  | \bclaim\s+(?:is\s+)?(?:verified|shown|proven|confirmed)\b
    """,
    re.I | re.X | re.M,
)


def _blank_benign(text):
    return _BENIGN.sub(lambda m: " " * len(m.group(0)), text)


def failure_spans(text):
    """(start, end) of the failure markers in `text` (benign counts ignored)."""
    cleaned = _blank_benign(text)
    return sorted({m.span() for p in (_FAILURE_WORDS, _EXCEPTION_NAME) for m in p.finditer(cleaned)})


def failure_markers(text):
    """The failure markers in `text`, as they appear in it (benign counts ignored)."""
    return [text[a:b] for a, b in failure_spans(text)]


def reads_as_instruction(text):
    return bool(_INSTRUCTION.search(text))
