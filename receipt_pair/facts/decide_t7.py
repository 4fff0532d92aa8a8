"""Decision table t7: table t5's decisions (decide_t5.py) on t7's reading of the log
(reading_t7.py) and of the claim, and one claim t5 left to the models that the facts settle
(set 8, development data since run 8).

- A claim of a push, a commit or a tag said in French, Spanish, Portuguese, German, Russian
  or Chinese is read as its English words (languages.py), where it holds no word of
  negation, failure, doubt or intent: t5 read no kind in it, so the facts never decided it.
- A claim that gives the count of tests that pass ("All 87 unit tests pass") where the
  latest run of the tests was a part (some files, one package) that passed exactly that
  many with none failed: the count names what ran. t5 left every part to the models when
  the claim did not name it. Only where t5 decided nothing, and only for a claim of tests
  alone: an earlier failing run of the whole is t5's to weigh, and it decides before this.
"""

from . import decide_runs, decide_t5, events as ev
from .decision import edited_after, shown
from .frame import SUCCESS
from .languages import in_english

VERSION = "t7"


def read_frame_t7(plain, frame=None):
    """Table t7's frame of a claim with plain quotes: t5's, of the claim with another
    language's words of a push, a commit or a tag read as English."""
    return frame or decide_t5.read_frame_t5(in_english(plain))


def decide(claim, turns, log, frame):
    """The Decision table t7 gives for `claim` (with plain quotes; `frame`: t5's frame of
    it), or None. `log` is t7's reading of the turns (table.decide reads it once)."""
    decision = decide_t5.decide(claim, turns, log, frame)
    if decision is None and frame.kinds == (ev.TESTS,):
        return _count_matches(frame, log)
    return decision


def _count_matches(frame, log):
    """`shown` where the latest run of the tests passed exactly the count the claim gives,
    none failed, and nothing it could use was edited after it; else None."""
    if frame.count is None or frame.says != SUCCESS or frame.content or \
            frame.failed_count is not None:
        return None
    runs = [e for e in decide_runs._test_runs(frame, log) if e.outcome != ev.ECHO]
    if not runs:
        return None
    latest = runs[-1]
    if latest.outcome != ev.PASSED or latest.counts is None or \
            tuple(latest.counts[:2]) != (frame.count, 0):
        return None
    if edited_after(log, latest) is not None:
        return None
    return shown(frame, "tests.count-matches", latest)
