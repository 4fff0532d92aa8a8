"""Decision table t14: table t13's decisions on t14's reading of the log (reading_t14.py: a
lint or type check ended as the tool's own last line says, a .NET run that counted fewer
tests than it ran not passed), with what set 14 (development data since run 14) showed.
docs/facts.md says it with examples.

- A claim that a package was published (`use-m 8.13.8 was published to npm`) is read
  against an `npm publish` whose command names no package where npm's own tarball notice in
  the turn names it (`npm notice name: use-m`, `npm notice version: 8.13.8`): t13 left it
  to the models, since the command does not say what it published. Only where the turn ran
  that one command (another command's output could print the lines), and not where npm says
  the version is on the registry all the same (its `+ use-m@8.13.8` before a `postpublish`
  script failed, its refusal to publish over a version already published).
- Answers taken away: a push's `shown` of a claim that names a pull request (`pushed to PR
  #13`): a push names a branch, and which pull request it feeds is not in the push's
  lines. A `shown` of a claim whose subject
  joins a second thing to the tests or the build ("The tests and example script are both
  executing without errors"): the run shows its part, not the other.
"""

import re
from dataclasses import replace

from . import decide_t13, events as ev, shell
from .decision import SHOWN, names_token
from .frame import read_frame
from ..patterns import lazy

VERSION = "t14"

# npm's own notice of the tarball it publishes.
_NOTICE_NAME = lazy(r"npm notice name:\s+(\S+)\s*$")
_NOTICE_VERSION = lazy(r"npm notice version:\s+(\S+)\s*$")
# npm's own words that the version is on the registry, whatever the turn's status: its
# line for a package it published (a `postpublish` script may fail after it), its refusal to
# publish over a version already published.
_PUBLISHED_ALL_THE_SAME = lazy(r"^\+ \S+@\S+$|previously published version", re.I)
# A claim that names a pull request.
_PULL_REQUEST = lazy(r"\b(?:PRs?|MRs?|pull\s+requests?|merge\s+requests?)\b|#\d+\b", re.I)
# A subject of two things joined ("The tests and example script are both ..."), before
# its verb: each thing one to three words, none of them a verb that would make the first a
# clause of its own ("All tests pass and the build succeeds" joins two clauses).
VERBS = r"(?:pass\w*|run\w*|ran|work\w*|succeed\w*|execut\w*|is|are|was|were|have|has|had|" \
         r"now|both|all|each|build\w*|compil\w*|finish\w*|complet\w*)"
_THING = rf"(?:(?!{VERBS}\b)[\w./-]+)"
JOINER = r"(?:and|&|plus|as\s+well\s+as|along\s+with)"
_JOINT_SUBJECT = lazy(rf"^\W*(?:both\s+)?(?:the\s+|all\s+|our\s+|my\s+)?{_THING}"
                      rf"(?:\s+{_THING})?,?\s+{JOINER}\s+(?:the\s+|an?\s+|my\s+|our\s+)?"
                      rf"(?P<second>{_THING}(?:\s+{_THING}){{0,2}}?),?\s+{VERBS}\b", re.I)


def decide(claim, turns, log, frame):
    """The Decision table t14 gives for `claim` (with plain quotes; `frame`: t12's frame of
    it, which t14 reads too), or None. `log` is t14's reading of the turns."""
    decision = decide_t13.decide(claim, turns, log, frame)
    if decision is None:
        decision = published_as_npm_says(claim, turns, log, frame)
    if decision is None:
        return None
    if decision.answer == SHOWN and (names_a_pull_request(claim, decision) or
                                     _joint_subject(claim)):
        return None
    return decision


def published_as_npm_says(claim, turns, log, frame):
    """t13's decision on the log where the latest `npm publish` names the package npm's own
    notice in its turn says it published (as if the command had named it), or None. The
    decision keeps the event as the log has it."""
    if "deploy" not in frame.kinds:
        return None
    deploys = log.of(ev.DEPLOY)
    if not deploys or deploys[-1].operation != "npm publish":
        return None
    latest = deploys[-1]
    if len(shell.parse(log.commands[latest.turn]).runs) != 1 or \
            len(log.at(latest.turn)) != 1 or latest.status_is != "own":
        return None
    lines = log.lines[latest.turn]
    names = {m.group(1) for m in (_NOTICE_NAME.search(line) for line in lines) if m}
    versions = {m.group(1) for m in (_NOTICE_VERSION.search(line) for line in lines) if m}
    if len(names) != 1 or len(versions) != 1:
        return None  # none, or a workspace's several: which is the claim's is not sure
    if any(_PUBLISHED_ALL_THE_SAME.search(line) for line in lines):
        return None  # npm says the version is on the registry (a hook failed after it)
    name, version = names.pop(), versions.pop()
    if not names_token(claim, name):
        return None
    named = replace(latest, command=f"{latest.command} {name}@{version}")
    read = replace(log, events=[named if e is latest else e for e in log.events])
    decision = decide_t13.decide(claim, turns, read, frame)
    if decision is None or decision.event is not named:
        return None
    return replace(decision, event=latest)


def names_a_pull_request(claim, decision):
    """True if a push decides a claim that names a pull request."""
    return decision.rule.startswith("push.") and _PULL_REQUEST.search(claim) is not None


def _joint_subject(claim):
    """True if the claim's subject joins a second thing the frame reads no kind in to the
    first ("The tests and example script are both executing without errors")."""
    found = _JOINT_SUBJECT.match(decide_t13.decide_t12.in_english(claim))
    return found is not None and not read_frame(f"{found.group('second')} pass").kinds
