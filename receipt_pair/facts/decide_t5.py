"""Decision table t5: table t4 (decide_t4.py) on t5's reading of the log (reading_t5.py),
with two readings t4 got wrong on set 7 (development data since run 7).

- Words that name no branch: "the same PR branch", "the current branch", "the working
  branch" name the branch the agent is on, not one called `pr` or `current`; t4 read
  "PR" as a branch and kept only the commits that named none, all of them failed.
- A commit that failed is no `contradicted` of a claim to have committed when a later
  commit in the log was made (`[branch sha] message`): a retry after a lock error.
"""

from dataclasses import replace

from . import decide_t4, events as ev

VERSION = "t5"
_NO_BRANCH = {"pr", "same", "current", "working", "target", "base", "topic", "pull",
              "request", "existing", "active", "this", "that"}


def read_frame_t5(plain, frame=None):
    """Table t5's frame of a claim with plain quotes: t4's, without branch names that are
    words for the branch the agent is on."""
    frame = frame or decide_t4.read_frame_t4(plain)
    branches = tuple(b for b in frame.branches if b not in _NO_BRANCH)
    return replace(frame, branches=branches) if branches != frame.branches else frame


def decide(claim, turns, log, frame):
    """The Decision table t5 gives for `claim` (with plain quotes; `frame`: t5's frame of
    it), or None. `log` is t5's reading of the turns (table.decide reads it once)."""
    decision = decide_t4.decide(claim, turns, log, frame)
    if decision is not None and decision.rule == "commit.failed" and any(
            e.outcome == ev.PASSED and e.turn > decision.turn for e in log.of(ev.COMMIT)):
        return None  # a later commit was made: which one the claim means is not sure
    return decision


