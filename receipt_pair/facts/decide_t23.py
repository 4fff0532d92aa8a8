"""Decision table t23: table t22 on t23's reading of the log (reading_t23.py), with what an
attack pass on t21 and t22 found (tests/data/facts/attack-t22.json, 40 cases, 35 answered
wrongly, 14 of them t22's own). It only takes answers away.

- A claim whose subject is the commit is read only in a closed form: "the commit", "my
  commit", "both commits", "commit" with a sha or not, then "was successful", "succeeded",
  "was created", "was made", "is done", "went through", with at most an adverb between
  ("completely", "fully", "now", "also", "finally"). t22 took any one word there, so "The
  commit was not successful.", "Commit hook succeeded." and "The commit revert succeeded."
  were shown by any commit line; and "landed" (a push's word as much as a commit's) and
  commits in the plural but "both" (a count the log cannot hold the claim to: "Our commits
  went through.") are no longer read, nor a claim taken back or not made (an unchecked box,
  a struck line, a cross: `- [ ] Commit done`, `~~...~~`, a red cross).
- "Both commits" needs two commit lines of two commits: a line printed twice (`tee`, then
  `cat`) is one.
- A commit that failed is no failure where the same turn prints git's line of the commit
  made (pre-commit's verbose `- hook id:` lines of hooks that passed).
- A failure holds against a group of tests only where the failing test's own name or path
  names it, not the failure's message (`test_total - KeyError: 'tax'` is no tax test's);
  and a plural in `es` is read as its word (`test_taxes.py` names the tax tests).
"""

import re
from dataclasses import replace

from . import decide_t16, decide_t21, decide_t22, events as ev, reading_t23
from .decision import CONTRADICTED, SHOWN
from .endings import reports_test_failure
from ..patterns import lazy

VERSION = "t23"

_ADVERB = r"(?:(?:completely|fully|now|also|finally)\s+)?"
_COMMIT_SUBJECT = lazy(
    r"^\W*(?:(?:the|my|your|this|that)\s+(?:git\s+)?commit|(?:git\s+)?commit|"
    r"both\s+(?:git\s+)?commits)"
    r"(?:\s*\(?`?[0-9a-f]{7,40}`?\)?)?\s+(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?"
    + _ADVERB + r"(?:successful(?:ly)?|succeeded|created(?:\s+successfully)?|made|done|"
    r"complete[ds]?|went\s+through)\W*$|"
    r"^\W*(?:git\s+)?commit\s+(?:successful|succeeded|created|made|done)\W*$", re.I)
# A claim taken back or not made: a negation, an unchecked box, a struck line, a cross.
_NEGATION = lazy(r"\b(?:not|never|no|un\w+|fail\w*)\b|n't\b|\[\s\]|~~|[\u274c\u2717\u2718"
                 r"\u2716\u26d4\U0001f6ab]", re.I)
_BOTH = lazy(r"^\W*both\s+(?:git\s+)?commits\b", re.I)
_COMMIT_LINE = lazy(r"^\[(?P<branch>[^\]\s]+)(?: \([^)]*\))? (?P<sha>[0-9a-f]{7,40})\]")
# Where a failure line's message begins, after the failing test's name or path.
_MESSAGE = lazy(r"\s+-{1,2}\s|\s+\u2014\s|\s+(?:[A-Z]\w*(?:Error|Exception)|assert)\b")
_TOKEN = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def read_frame_t23(plain, frame=None):
    """Table t23's frame of a claim with plain quotes: t16's, with a commit read where the
    commit is the subject, in the closed form above, and no other kind is read."""
    frame = decide_t16.read_frame_t16(plain, frame)
    if not frame.kinds and _COMMIT_SUBJECT.match(plain) and not _NEGATION.search(plain):
        frame = decide_t16.read_frame_t16(plain, replace(frame, kinds=(ev.COMMIT,)))
    return frame


def decide(claim, turns, log, frame, reading=reading_t23, named=None):
    """The Decision table t23 gives for `claim` (with plain quotes; `frame`: t23's frame of
    it), or None. `log` is t23's reading of the turns (or `reading`'s, a later table's,
    which may give `named`, its own reading of a group's failure)."""
    decision = decide_t21.decide(claim, turns, log, frame, reading,
                                 named or _group_named_failing)
    if decision is None:
        return None
    if decision.answer == SHOWN and _BOTH.match(claim) and \
            decision.rule.startswith(("commit.", "push.")) and _commits_made(log) < 2:
        return None
    if decision.answer == CONTRADICTED and decision.rule == "commit.failed" and \
            decision.turn is not None and any(_COMMIT_LINE.match(line.strip())
                                              for line in log.lines[decision.turn]):
        return None
    return decision


def _commits_made(log):
    """How many commits the log's commit lines show: one per branch and sha, however often
    printed; an amend replaces a commit."""
    made = set()
    for turn in dict.fromkeys(e.turn for e in log.of(ev.COMMIT) if e.outcome != ev.FAILED):
        if "--amend" in (log.commands[turn] or ""):
            continue
        made.update(found.group("branch", "sha") for line in log.lines[turn]
                    for found in [_COMMIT_LINE.match(line.strip())] if found)
    return len(made)


def words_of(text, singular=None):
    """The words of `text`, whole and split where the case turns up, lower case, a
    plural's `es` or `s` taken off (by `singular`, a later table's, where given)."""
    return {(singular or _singular)(word.lower())
            for word in _TOKEN.findall(text) + _WORD.findall(text)}


def _singular(word):
    if re.search(r"(?:s|x|z|ch|sh)es$", word):
        return word[:-2]
    return word.removesuffix("s") or word


def named_failing(log, decision, groups, singular=None, message=None, whole_line=None):
    """True if a failure line of the deciding run's turn names every word of the claim's
    group in the failing test's name or path (before the failure's `message`; the whole of
    a line `whole_line` matches): t23's reading, or a later table's by its arguments."""
    wanted = set().union(*(words_of(group, singular) for group in groups))
    for line in log.lines[decision.turn]:
        text = line.strip()
        if reports_test_failure(text):
            found = None if whole_line is not None and whole_line.match(text) else \
                (message or _MESSAGE).search(text)
            if wanted <= words_of(text[:found.start()] if found else text, singular):
                return True
    return False


_group_named_failing = named_failing
