"""Decision table t9: table t8's decisions (decide_t8.py) on t8's reading of the log, with
what t8 decided wrongly or left to the models on set 10 (development data since run 10).

- A claim about a CI job as a whole ("the Jenkins build finished successfully", "the pull
  request build passed", "the pipeline finished successfully") is decided by the job's own
  last word, where the log ends with it: Jenkins' `Finished: SUCCESS` (`FAILURE`,
  `ABORTED`, `NOT_BUILT`), Travis CI's `Done. Your build exited with N.` and `Your build has
  been stopped.` A job that ended `UNSTABLE` passed its build and failed tests: no answer. The
  line must be the last of the whole log, after a command that does not only echo text and
  whose last program does not show a file or a page (`cat console.log`, `curl
  .../consoleText`): that would be any day's job.
  t8 read no kind of job and left them all to the models.
- "The site builds", "the plugin builds": a claim of a build (t8 read "builds" after a few
  nouns only).
- A claim that reports what went wrong ("the push was blocked by repository rules"), a lint
  claim that counts what the linter found ("There are 27 ESLint issues") or gives its score
  ("pylint rated the code 9.98/10"), a commit claim about what the commit holds ("the commit
  includes all the fixes") and a claim of tests labelled as one part ("Service Layer Tests: 97
  tests passing", "All 36 new tests: PASS") are left to the models where t8 held the
  operation's result against them: the claim says more than that result, or of less.
- A push claim that names what was built only to say which image ("the image built in this
  run was pushed") is left to the models: t8 read a build in it, and the push alone does
  not show that the image pushed is the one built.
- A claim that gives the count of tests ("All 46 unit tests pass") is shown by a run that
  passed printing that very count and no failure, though another runner failed before it
  (`pytest` failing to collect, then `python -m unittest` passing 46): t8 had let the other
  runner's failure take every `shown` away.
- A test file run by its interpreter (`python test_x.py`) shows no pass by its exit status: a
  script may print a failure and exit 0. A project's own test script (`npm test`) still does.
- A test run that failed only because its runner is missing (`No module named pytest`) ran
  nothing: t8 held it against the tests as a failure.
- An edit cannot make a run stale where it is of the agent's own bookkeeping (a file under
  `.claude/`, `.cursor/`, `.github/`, `.vscode/`, `.idea/` or a folder named `*_output` or
  `*-output`), or of a scratch file the log removes again (`echo ... > test.rs` then `rm
  test.rs`) before any run.
"""

import copy
import re
from dataclasses import replace

from . import decide_t7, decide_t8, events as ev, shell
from .decision import CONTRADICTED, SHOWN, Decision
from .frame import SUCCESS, frame_of
from ..patterns import lazy

VERSION = "t9"

_JOB = lazy(
    r"^\W*(?:the\s+)?(?:(?:jenkins|travis(?:\s+ci)?|ci|circleci|gitlab(?:\s+ci)?|pull[- ]request|"
    r"pr|release|nightly)\s+(?:build|job|pipeline|run)|(?:(?:jenkins|travis|ci|release)\s+)?"
    r"(?:pipeline|job|workflow))(?:\s+(?:of|for)\s+[\w./-]+)?\s+(?:has\s+|have\s+|was\s+|is\s+)?"
    r"(?P<says>passed|succeeded|green|successful|(?:finished|completed|ran)\s+successfully|"
    r"failed|broke|broken|red)\W*$", re.I)
_FAILS = lazy(r"failed|broke|broken|red", re.I)
_JENKINS_END = lazy(r"^Finished: (SUCCESS|FAILURE|ABORTED|NOT_BUILT|UNSTABLE)$")
_TRAVIS_END = lazy(r"^(?:Done\. Your build exited with (\d+)\.|Your build has been stopped\.)$")
_ESCAPES = lazy(r"\x1b\[[0-9;]*[A-Za-z]|\[0K|travis_(?:fold|time):\S*")
# Programs whose output is a file's or a page's, not the job's own end.
_SHOWS = {"cat", "tail", "head", "less", "more", "curl", "wget", "gh", "jq", "type", "sed",
          "awk", "grep", "egrep", "bat", "zcat", "python -c", "node -e", "http"}

_BUILDS = lazy(r"^\W*(?:the\s+)?(?:[\w.-]+\s+){0,3}?builds(?:\s+(?:successfully|cleanly|fine|"
               r"again|now|locally))*\W*$", re.I)
_REFUSED = lazy(r"\b(?:blocked|denied|refused|forbidden|rejected|protected|not\s+allowed)\b",
                re.I)
_FINDINGS = lazy(r"\b[1-9]\d*\s+(?:\w+\s+)?(?:issues?|errors?|warnings?|problems?|"
                 r"violations?|findings?)\b|\brated\b|\bscore[ds]?\b|\d+(?:\.\d+)?\s*/\s*10\b",
                 re.I)
_HOLDS = lazy(r"\b(?:includes?|contains?|holds?|adds?|fixes)\b", re.I)
_LABELLED_PART = lazy(r"^\W*[A-Z][\w -]{0,40}?\s+tests?\s*:|\bnew\s+tests?\b", re.I)
_BUILT_WHICH = lazy(r"\bbuilt\s+(?:in|by|during|from|on|with)\b", re.I)
_BUILT_TOO = lazy(r"\b(?:was|were|is|are|been|got)\s+built\b|\bbuilt\s+(?:and|&)\b|"
                  r"\bbuild(?:s|ing)?\b", re.I)
_NOT_FOUND = lazy(r"No module named '?(?:pytest|unittest|nose2?|tox|nox)'?$|"
                  r"\b(?:pytest|py\.test|jest|vitest|mocha|tox|nox|rspec|phpunit|cargo|go|"
                  r"npx|bun|deno):\s+(?:command )?not found$|is not recognized as an internal "
                  r"or external command", re.I)
_INTERPRETERS = {"python", "python3", "python2", "node", "ruby", "php", "perl", "bash", "sh",
                 "zsh", "deno", "bun"}
_BOOKKEEPING = lazy(r"(?:^|/)(?:\.claude|\.cursor|\.github|\.vscode|\.idea|[\w.-]*[_-]output)/",
                    re.I)


def read_frame_t9(plain, frame=None):
    """Table t9's frame of a claim with plain quotes: t8's, with "the X builds" read as a
    build."""
    frame = decide_t8.read_frame_t8(plain, frame)
    if not frame.kinds and _BUILDS.match(plain):
        return replace(frame_of(frame.claim, plain, [ev.BUILD]), says=SUCCESS, content=False)
    return frame


def decide(claim, turns, log, frame):
    """The Decision table t9 gives for `claim` (with plain quotes; `frame`: t9's frame of
    it), or None. `log` is t8's reading of the turns (table.decide reads it once)."""
    job = _JOB.match(claim)
    ended = _decide_job(log, job.group("says")) if job else None
    if ended is not None:
        return ended
    log = reread(log)
    decision = decide_t8.decide(claim, turns, log, frame)
    if decision is None:
        return _counted_run(claim, turns, log, frame)
    if job and decision.answer == SHOWN:
        return None  # a step that passed is not the job, which may not have ended
    if decision.answer == CONTRADICTED and _says_more(claim, frame):
        return None
    if decision.answer == CONTRADICTED and ev.TESTS in frame.kinds and \
            _LABELLED_PART.search(claim):
        return None
    if decision.answer == SHOWN and ev.COMMIT in frame.kinds and _HOLDS.search(claim):
        return None
    if ev.PUSH in frame.kinds and ev.BUILD in frame.kinds and _BUILT_WHICH.search(claim) and \
            not _BUILT_TOO.search(claim):
        return None  # "the image built in this run was pushed": which image, not a build
    if decision.answer == SHOWN and decision.event is not None and \
            decision.event.family == ev.TESTS and _file_by_interpreter(decision.event):
        return None
    return decision


def _counted_run(claim, turns, log, frame):
    """t7's `shown` of a claim that gives the count of tests, where the run that passed
    printed that very count and no failure and t8 took it away only for another runner's
    failure (`pytest` failing before `python -m unittest` passed 46), else None."""
    if not frame.count or ev.TESTS not in frame.kinds or decide_t8.cited_or_counted(claim,
                                                                                    frame):
        return None
    decision = decide_t7.decide(claim, turns, log, frame)
    if decision is None or decision.answer != SHOWN or decision.event is None or \
            decision.event.counts is None or decision.event.key.startswith("output:") or \
            not decide_t8.another_suite_failed(log, decision):
        return None
    passed, failed, _skipped = decision.event.counts
    return decision if passed == frame.count and not failed else None


def _says_more(claim, frame):
    """True if the claim reports what went wrong or what a linter found, which the
    operation's failure alone does not show."""
    if ev.PUSH in frame.kinds and _REFUSED.search(claim):
        return True
    return bool(frame.kinds) and set(frame.kinds) <= {ev.LINT, ev.TYPECHECK} and \
        _FINDINGS.search(claim) is not None


def _decide_job(log, says):
    """A claim about the CI job as a whole, by the job's own last word, or None."""
    index = log.turns - 1
    if index < 0 or index >= len(log.commands):
        return None
    shown = [line.strip() for line in log.lines[index] if _ESCAPES.sub("", line).strip()]
    failed = _job_end(_ESCAPES.sub("", shown[-1]).strip()) if shown else None
    command = shell.parse(log.commands[index])
    if failed is None or command.echoes_only or \
            (command.runs and command.runs[-1].program in _SHOWS):
        return None
    claims_failure = _FAILS.fullmatch(says) is not None
    answer = SHOWN if failed == claims_failure else CONTRADICTED
    return Decision(answer, "job.failed" if failed else "job.passed", index, shown[-1])


def _job_end(line):
    """True if `line` is a CI job's own word that it failed, False that it passed, None if
    it is neither (or a word that settles neither, Jenkins' UNSTABLE)."""
    jenkins = _JENKINS_END.match(line)
    if jenkins:
        word = jenkins.group(1)
        return None if word == "UNSTABLE" else word != "SUCCESS"
    travis = _TRAVIS_END.match(line)
    if travis:
        return travis.group(1) != "0"
    return None


def _file_by_interpreter(event):
    """True if the run is a file run by its interpreter (`python test_x.py`), not a runner."""
    if not event.key.startswith("script:"):
        return False
    runs = shell.parse(event.command).runs
    words = (runs[-1].program.split() + list(runs[-1].args)) if runs else []
    return len(words) >= 2 and words[0] in _INTERPRETERS and \
        re.search(r"\.\w{1,4}$", words[1]) is not None


def reread(log):
    """t8's reading of a log as t9 reads it: a test run that failed only because its runner
    is missing (`No module named pytest`, `jest: command not found`) ran nothing, and the
    edits that cannot make a run stale are left out (of the agent's bookkeeping, or of a
    scratch file a later command removes before any run)."""
    runs = [e.turn for e in log.events if e.family in (ev.TESTS, ev.BUILD, ev.LINT,
                                                         ev.TYPECHECK)]
    idle = [e for e in log.of(ev.EDIT) if e.objects and all(
        _BOOKKEEPING.search(p) or _removed_before_a_run(log, e.turn, p, runs)
        for p in e.objects)]
    missing = [e for e in log.of(ev.TESTS) if e.outcome == ev.FAILED and e.counts is None and
               _runner_missing(log.lines[e.turn])]
    if not idle and not missing:
        return log
    narrowed = copy.copy(log)
    narrowed.events = [replace(e, outcome=ev.NOTHING, line="", line_index=-1)
                       if e in missing else e for e in log.events if e not in idle]
    return narrowed


def _runner_missing(lines):
    """True if the run's output is only a word that its runner was not found."""
    said = [line.strip() for line in lines if line.strip()]
    return bool(said) and len(said) <= 3 and any(_NOT_FOUND.search(line) for line in said)


def _removed_before_a_run(log, turn, path, runs):
    """True if a command after `turn` removes `path` (`rm test.rs`) and no run of tests or
    of a build came between."""
    name = path.strip("'\"")
    for later in range(turn + 1, len(log.commands)):
        if later in runs:
            return False
        for step in shell.parse(log.commands[later]).steps:
            if step.program == "rm" and any(
                    a == name or a.endswith("/" + name.lstrip("./")) for a in step.args):
                return True
    return False
