"""Decision table t6: table t5 (decide_t5.py) on t6's reading of the log (reading_t6.py):
gradle's test tasks by their own names, and the files an edit tool's rendering names."""

from . import decide_t5

VERSION = "t6"


def decide(claim, turns, log, frame):
    """The Decision table t6 gives for `claim` (with plain quotes; `frame`: t6's frame of
    it, t5's), or None. `log` is t6's reading of the turns (table.decide reads it once)."""
    return decide_t5.decide(claim, turns, log, frame)
