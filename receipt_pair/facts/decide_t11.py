"""Decision table t11: table t10's decisions on t11's reading of the log
(reading_t11.py), with what t10 decided wrongly on set 12 (development data since run 12).
Its reading adds an image build's own last word (reading_t11.py); its decisions only take
a `contradicted` away (to the models), but for the branch a claim names. docs/facts.md says each with examples.

- A claim that says what an output line of the log says ("the provenance statement was
  signed and published to the transparency log" over npm's `Provenance statement published
  to transparency log`) is not contradicted by the failure of the step that printed it:
  the part it claims happened, whatever failed after. Where most of the claim's own words
  (at least three) stand in one line a command printed, the facts leave it to the models.
- A claim of how many tests passed, and no more ("1039 tests passed", not "all" of them,
  not "only"), whose number is exactly the count of passed tests the latest run printed,
  is not contradicted by that run's failures: what it says is what the run printed. It is
  the models' to weigh.
- A remote's word before a quoted branch ("I committed and pushed that fix to fork
  `master`") names the remote: t10 read "fork" as the branch, and the push of `master`
  as a push of another branch.
- A build or deploy claim that names a task, a target or a part ("the Gradle wrapper task
  finished", "the docs image was built") that another command of the same program ran and
  the failing command does not name is not about the failing command: the failure does
  not contradict it.
"""

import re

from . import decide_t10, shell
from .decision import CONTRADICTED
from ..patterns import lazy

VERSION = "t11"

# Words of a claim that say nothing of what it is about.
_PLAIN_WORDS = frozenset("""
a an the and or of to in on at by for with from into onto as is are was were be been being it
its this that these those all every each both any some no not now still also just then than
has have had do does did done so successfully success successful fully properly correctly
i we you they he she my our your their me us them which who what when where there here
""".split())
# "1039 tests passed": a count of passed tests and nothing more.
_COUNT_ONLY = lazy(r"^\W*(?P<n>\d{1,6})\s+(?:[\w-]+\s+)?tests?\s+(?:passed|pass|passing|"
                   r"succeeded)\b(?P<rest>.*)$", re.I)
# Words that make a count a claim of the whole ("all", "every", "only", "none failed").
_WHOLE = lazy(r"\b(?:all|every|each|only|none|no|zero|0|fail\w*|error\w*|green|clean)\b", re.I)
# Generic words of a build or deploy claim: they name no task or part.
_GENERIC = frozenset("""
build builds built building compile compiles compiled compiling image images docker container
deploy deploys deployed deploying deployment release released publish published package
packaged project code app application finished completed succeeded passes passed pass
task tasks step job run ran works worked clean cleanly without errors error warnings
""".split())
_WORD = lazy(r"[A-Za-z][A-Za-z0-9_-]{3,}")
# A remote's word between "to" and a quoted branch: "to fork `master`", "to my fork 'dev'".
_REMOTE_BEFORE = lazy(r"\b(to|into|onto)\s+(?:the\s+|my\s+|your\s+|our\s+)?(?:fork|upstream|"
                      r"origin|remote)\s+(?=[`'\"][A-Za-z0-9])", re.I)
# A line that says something failed restates no claim of success.
_FAILURE_WORDS = lazy(r"\b(?:fail\w*|error\w*|not|no|cannot|can't|unable|denied|refused|"
                      r"rejected|abort\w*|invalid|missing|skipp\w*)\b", re.I)


def read_frame_t11(plain, frame=None):
    """Table t11's frame of a claim with plain quotes: t10's, with a remote's word before a
    quoted branch ("pushed to fork `master`", "to upstream 'main'") read as the remote, not
    as the branch."""
    return decide_t10.read_frame_t10(_REMOTE_BEFORE.sub(r"\1 ", plain), frame)


def decide(claim, turns, log, frame):
    """The Decision table t11 gives for `claim` (with plain quotes; `frame`: t11's frame of
    it), or None. `log` is t11's reading of the turns (table.decide reads it once)."""
    decision = decide_t10.decide(claim, turns, log, frame)
    if decision is None or decision.answer != CONTRADICTED:
        return decision
    if _restates_a_line(claim, log) or _count_printed(claim, decision) or \
            _names_another_task(claim, decision, log):
        return None
    return decision


def _content_words(text):
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in _PLAIN_WORDS]


def _restates_a_line(claim, log):
    """True if at least three of the claim's own words, and four in five of them, stand in
    one line a command printed that says no failure (an edit's rendering or an echo of
    text is no such line)."""
    words = set(_content_words(claim))
    if len(words) < 3:
        return False
    echoed = {e.turn for e in log.events if e.family == "edit" or e.outcome == "echo"}
    for turn, lines in enumerate(log.lines):
        if turn in echoed:
            continue
        for line in lines:
            if _FAILURE_WORDS.search(line):
                continue
            have = {w[:5] for w in _content_words(line)}
            if 5 * sum(w[:5] in have for w in words) >= 4 * len(words):
                return True
    return False


def _count_printed(claim, decision):
    """True if the claim only says how many tests passed, and that is exactly the count of
    passed tests the deciding run printed."""
    found = _COUNT_ONLY.match(claim)
    event = decision.event
    if found is None or event is None or event.counts is None or _WHOLE.search(claim):
        return False
    return event.counts[0] == int(found.group("n")) and event.counts[1] > 0


def _names_another_task(claim, decision, log):
    """True if a build or deploy claim names a word (a task, a target, a part) that another
    command of the failing step's program names and the failing command does not."""
    event = decision.event
    if event is None or event.family not in ("build", "deploy") or not event.command:
        return False
    program = shell.parse(event.command).runs[:1]
    if not program:
        return False
    name = program[0].program
    failing = {w.lower() for w in _WORD.findall(event.command)}
    named = {w for w in _content_words(claim) if w not in _GENERIC and w not in failing}
    for turn, command in enumerate(log.commands):
        if turn == event.turn:
            continue
        for step in shell.parse(command).runs:
            if step.program == name and named & {w.lower() for w in _WORD.findall(
                    " ".join(step.words))}:
                return True
    return False
