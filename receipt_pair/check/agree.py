"""Check c4's rules: a model's quote and the facts can never disagree about what ran, and a
line that is not what a run printed, or a claim that reports no result, backs nothing.

The facts (facts/) read every turn the reader read. Where they decide the claim, a model's
`shown` stands only if they say shown, and its `contradicted` only if they say
contradicted. Where they do not decide it, a quote still cannot stand on a turn whose run
the facts read as showing nothing: a `shown` from a run that ran nothing, only echoed
text, was cut off, left running or masked, and a `contradicted` from a run that was cut
off or left running. Like every rule of the check, these only take answers away.

The lines behind run 5's errors (issue 31) are read for what they are: a command echoed
into CI output (`$ tsc --noEmit`), a write tool's own result tags (`<operation>created
</operation>`), aider's harness lines (`> Tokens: 11k sent`), a step that skipped its work
and says "marking as pass", an added line of a diff or a line of source code held as a
failure, an exit status of -1 (the harness did not learn how a server still running
ended), and a claim that admits the failure it is held against, or only announces what it
will do.
"""

import functools
import re

from ..facts import events as ev
from ..answers import (CLAIM_NOT_DONE, CONTRADICTED_ADMITTED, NOT_A_RUN_LINE,
                       SHOWN_NOTHING_RAN)
from ..facts.frame import FAILURE, HEDGED, MIXED, read_frame
from ..facts.reading import read_events
from ..facts.table import decide
from ..patterns import lazy

# Outcomes of a run that show nothing a model may quote for the claim.
_NOT_FOR_SHOWN = (ev.NOTHING, ev.ECHO, ev.CUT, ev.BACKGROUND, ev.MASKED)
_NOT_FOR_CONTRADICTED = (ev.CUT, ev.BACKGROUND)


# Check c4 was sealed (run 6) holding models to table t1: replaying its answers must judge
# them as they were judged, so c4 keeps t1 whatever table decides first now. Check c5 holds
# them to t2, c6 to t3, the table that decides first since.
TABLE = "t1"


@functools.lru_cache(maxsize=64)
def _facts(claim, turns, table=TABLE):
    """(the Log of `turns`, the Decision of `claim` by `table` or None), read once per
    claim, log and table. The Log is table t1's reading, which the line rules use."""
    log = read_events(list(turns))
    if table == TABLE:
        return log, decide(claim, log=log, frame=read_frame(claim), version=TABLE)
    return log, decide(claim, turns=list(turns), frame=read_frame(claim), version=table)


def facts_log(claim, turns):
    """The facts' Log of `turns` (every turn the reader read), read once per claim and log."""
    return _facts(claim, tuple(turns))[0]


def disagrees(verdict, claim, turns, index, table=TABLE):
    """True if the facts (by `table`) refuse a model's `verdict` quoted from turn `index` of
    `turns` (every turn the reader read)."""
    log, decision = _facts(claim, tuple(turns), table)
    if decision is not None:
        return decision.answer != ("shown" if verdict == "shown" else "contradicted")
    kinds = set(read_frame(claim).kinds)
    here = [e for e in log.at(index) if e.family in kinds or e.family == ev.COMMAND]
    if not here:
        return False
    banned = _NOT_FOR_SHOWN if verdict == "shown" else _NOT_FOR_CONTRADICTED
    return all(e.outcome in banned for e in here)


# What a harness or a terminal prints around a run, not what the run printed: a command
# echoed by CI or `set -x` ("$ tsc --noEmit", "+ npm test"), npm's script header ("> app@1.0
# build"), aider's own lines ("> Tokens: 11k sent", "> Applied edit to x.py"), and the tags a
# write tool wraps its report in.
_NOT_RUN_OUTPUT = lazy(
    r"""^\s*(?:\d{4}-\d\d-\d\dT\S+Z\s+)?
        (?:[$+#]\s+[A-Za-z./~][\w./~-]*(?:\s|$)
         |>\s+\S+@\S+\s+\w+
         |>\s+(?:Tokens:|Applied\ edit\ to|Add\ \S+\ to\ the\ chat|Repo-map|Git\ repo:|Model:|
              Weak\ model:|Aider\ v|Cost:)
         |</?(?:operation|file_write_result|path|result|status|notice|problems|content|
              line_count|user_edits|environment_details)\b[^>]*>)""",
    re.X)
_AIDER_COMMIT = lazy(r"^\s*>\s+Commit\s+[0-9a-f]{7,}\b")
_SKIPPED = lazy(r"\b(?:skipped|skipping|no\ build\ required|nothing\ to\ (?:do|build|test)|"
                      r"marking\ as\ pass(?:ed)?)\b", re.I | re.X)
_PASSED = lazy(r"\b[1-9]\d*\s+(?:passed|passing|pass|ok)\b", re.I)
_DIFF_LINE = lazy(r"^[+-](?![+-]{2})")
# A claim that announces what the agent will do reports no result the log could show.
_ANNOUNCES = lazy(r"^\s*(?:[-*]\s*)?(?:I'?ll|I\s+will|I\s+am\s+going\s+to|I'm\s+going\s+to|"
                        r"Let\s+me|Next,?\s+I|Now\s+I\s+will|I\s+need\s+to|I\s+should|I\s+plan\s+to)\b",
                        re.I)
_VIEWS = lazy(r"^\s*(?:git\s+(?:diff|show|log)|cat|head|tail|less|sed\s+-n|nl|grep|rg|"
                    r"read_file|Read|view|open|str_replace_editor\s+view)\b")
_RUN_RECORD = lazy(r"\S+\.(?:log|out|err|txt)\b")


def line_refusal(verdict, claim, cmd, lines):
    """The code that refuses a `verdict` for what its quoted `lines` (each the whole line a
    quote sits in) are, and what the claim says, or None."""
    if _ANNOUNCES.search(claim or ""):
        return CLAIM_NOT_DONE
    frame = read_frame(claim or "")
    for line in lines:
        if _NOT_RUN_OUTPUT.search(line):
            return NOT_A_RUN_LINE
        if _AIDER_COMMIT.search(line) and "commit" not in frame.kinds:
            return NOT_A_RUN_LINE
    if verdict == "shown":
        if frame.kinds and any(_SKIPPED.search(line) and not _PASSED.search(line)
                               for line in lines):
            return SHOWN_NOTHING_RAN
        return None
    if frame.says in (FAILURE, MIXED, HEDGED) or (
            "tests" in frame.kinds and not re.search(r"\bpass|\bgreen|succe|\bok\b|\bclean|"
                                                     r"\bwork", claim, re.I)):
        return CONTRADICTED_ADMITTED  # the claim admits the failure, or claims none away
    if any(re.fullmatch(r"\s*\[exit status -\d+\]\s*", line) for line in lines):
        return NOT_A_RUN_LINE  # -1: how it ended was not learned; no failure
    viewed = _VIEWS.match(cmd or "") and not _RUN_RECORD.search(cmd or "")
    if viewed or any(_DIFF_LINE.match(line) for line in lines):
        return NOT_A_RUN_LINE  # a file's text or a diff's line, not a run's failure
    return None
