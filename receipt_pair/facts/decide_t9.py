"""Decision table t9: table t8's decisions (decide_t8.py) on t8's reading of the log, with
what t8 decided wrongly or left to the models on set 10 (development data since run 10),
narrowed by an attack pass on its first version (tests/data/facts/attack-t9.json).

- A claim about a CI job as a whole ("the Jenkins build finished successfully", "the pull
  request build passed"; not "the job for deploy-prod") is decided by the job's own last
  word: Jenkins' `Finished: SUCCESS` or `FAILURE`, `ABORTED`; Travis CI's `Done. Your build
  exited with N.` and `Your build has been stopped.` (`UNSTABLE`, `NOT_BUILT`: neither).
  Only in a log of CI steps (no call of an agent's edit or view tools), where the word is
  the log's only one and its last line, after a command that does not only echo and whose
  pipelines end in no program that shows a file, a page or another job's console; a pass
  also needs a command that runs no script and records no failing status. Without such a
  word, a step's pass is not the job's: only a failure t8 reads decides.
- "The site builds": a build claim where the words before "builds" are a name, decided only
  by a build in place that selects no part (`cargo build -p core` is not the plugin's).
- Left to the models where t8 said `contradicted`: a claim that reports the refusal ("the
  push was blocked by repository rules"), a lint claim that counts the linter's findings or
  gives its score and does not say it passed, tests labelled as one part ("Service Layer
  Tests: 97 tests passing"), a claim that denies, doubts or only plans ("it no longer
  builds"). Where t8 said `shown`: a commit's content ("the commit includes all the
  fixes"), "the image built in this run was pushed" (the push alone does not show which
  image), a test file run by its interpreter with no count of its own (`python test_x.py`:
  a script may print a failure and exit 0), a test script that printed a failure line.
- A claim that gives the count of tests ("All 46 unit tests pass") is shown by a run that
  passed printing that very count and no failure, though another runner failed before it.
- A clean `git status` is no receipt where a later `git status` ran (its output may be
  hidden: "… +6 lines (ctrl+o to expand)"), nor for "up to date with origin/main" where
  git did not say so.
- A test run whose every line says its own runner is missing (`No module named pytest`) ran
  nothing and is left out: t8 held it against the tests.
- An edit makes no run stale where it is of the agent's bookkeeping (`.claude/`,
  `.cursor/`, `.vscode/`, `.idea/`, `_bmad-output/`), or of a scratch file a command of the
  log wrote (`echo ... > t.rs`) and a later one removed by that very path, ended well, no
  `cd` between, before any run.
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
    r"(?:pipeline|job|workflow))(?:\s+of\s+[\w./-]+)?\s+(?:has\s+|have\s+|was\s+|is\s+)?"
    r"(?P<says>passed|succeeded|green|successful|(?:finished|completed|ran)\s+successfully|"
    r"failed|broke|broken|red)\W*$", re.I)
_FAILS = lazy(r"failed|broke|broken|red", re.I)
_JENKINS_END = lazy(r"^Finished: (SUCCESS|FAILURE|ABORTED|NOT_BUILT|UNSTABLE)$")
_ANY_END = lazy(r"^\s*(?:Finished: [A-Z_]+|Done\. Your build exited with \d+\.|Your build has been "
                r"stopped\.)\s*$", re.M)
_TRAVIS_END = lazy(r"^(?:Done\. Your build exited with (\d+)\.|Your build has been stopped\.)$")
_ESCAPES = lazy(r"\x1b\[[0-9;]*[A-Za-z]|\[0K|travis_(?:fold|time):\S*")
# Programs whose output is a file's, a page's or another job's, not the job's own end.
_SHOWS = {"cat", "tac", "nl", "tail", "head", "less", "more", "curl", "wget", "gh", "jq", "type",
          "sed", "awk", "grep", "egrep", "rg", "strings", "tr", "cut", "sort", "uniq", "bat",
          "zcat", "python -c", "node -e", "http", "docker", "kubectl", "travis", "java", "git",
          "aws", "gsutil", "az", "tee", "xargs", "jenkins-cli", "ssh", "scp", "rsync",
          "powershell", "get-content"}

# "The site builds": the, then a name of one or two words, then builds.
_BUILDS = lazy(r"^\W*the\s+(?P<name>(?:[\w.-]+\s+){1,2}?)builds(?:\s+(?:successfully|cleanly|"
               r"fine|again|now|locally))*\W*$", re.I)
_NOT_A_NAME = {"no", "never", "nothing", "only", "neither", "none", "probably", "not", "nightly",
               "release", "scheduled", "old", "which", "all", "ci", "these", "those", "recent",
               "other", "some", "any", "failed", "failing", "broken", "previous", "last",
               "latest", "next", "new", "daily", "weekly", "debug", "docker", "many", "most"}
# What points a build at a part or another folder: it is not "the site"'s build.
_A_PART = {"-p", "--package", "-pl", "--projects", "--filter", "-F", "-C", "--prefix", "--cwd",
           "--dir", "--project", "-w", "--workspace", "--bin", "--manifest-path", "--target-dir"}
_REFUSED = lazy(r"\b(?:blocked|denied|refused|forbidden|rejected|not\s+allowed)\b", re.I)
_SAYS_IT_PASSED = lazy(r"\b(?:pass(?:es|ed)?|clean|succeed(?:s|ed)?|successful(?:ly)?|green|ok)\b",
                       re.I)
# Words that deny, doubt or only plan what the claim names: it claims no success.
_NOT_A_SUCCESS = lazy(r"\b(?:no\s+longer|never|nothing|neither|nor|none|not|only|whether|if|"
                      r"probably|might|may|should)\b|n't\b|^\W*(?:check|verify|ensure|make\s+sure|"
                      r"see)\b", re.I)
_FINDINGS = lazy(r"\b[1-9]\d*\s+(?:\w+\s+)?(?:issues?|errors?|warnings?|problems?|"
                 r"violations?|findings?)\b|\brated\b|\bscore[ds]?\b|\d+(?:\.\d+)?\s*/\s*10\b",
                 re.I)
_UP_TO_DATE = lazy(r"\bup[- ]to[- ]date with\s+(\S+)", re.I)
_HOLDS = lazy(r"\b(?:includes?|contains?|holds?|adds?|fixes)\b", re.I)
_LABELLED_PART = lazy(r"^\W*(?!(?:all|the|every|unit|my|our)\s+tests?\s*:)[A-Z][\w -]{0,40}?\s+"
                      r"tests?\s*:|\bnew\s+tests?\b", re.I)
_BUILT_WHICH = lazy(r"\bbuilt\s+(?:in|by|during|from|on|with)\b", re.I)
_BUILT_TOO = lazy(r"\b(?:was|were|is|are|been|got)\s+built\b|\bbuilt\s+(?:and|&)\b|"
                  r"\bbuild(?:s|ing)?\b", re.I)
# A runner's own word that it was not found, naming it (group "runner").
_NOT_FOUND = lazy(r"No module named '?(?P<module>[\w.]+)'?$|(?P<shell>[\w.-]+):\s+(?:command )?"
                  r"not found$|command not found:\s+(?P<zsh>[\w.-]+)$|(?P<make>[\w.-]+):\s+No "
                  r"such file or directory$|'(?P<cmd>[\w.-]+)' is not recognized as an internal "
                  r"or external command")
_NOISE = lazy(r"^(?:Exit code \d+|Process exited with code \d+|error:?|Error: \(none\))$", re.I)
_SCRIPT_FAILED = lazy(r"^\s*(?:FAIL(?:ED)?\b|[\u2717\u2718\u00d7]\s)|\b[1-9]\d*\s+(?:tests?\s+)?"
                      r"(?:failed|failing|failures?)\b", re.I | re.M)
_INTERPRETERS = {"python", "python3", "python2", "node", "ruby", "php", "perl", "bash", "sh",
                 "zsh", "deno", "bun"}
# The agent's own bookkeeping: its settings and plans, never code a run uses.
_BOOKKEEPING = lazy(r"(?:^|/)(?:\.claude|\.cursor|\.vscode|\.idea|_bmad-output)/")


def read_frame_t9(plain, frame=None):
    """Table t9's frame of a claim with plain quotes: t8's, with "the X builds" read as a
    build."""
    frame = decide_t8.read_frame_t8(plain, frame)
    if not frame.kinds and _names_a_build(plain):
        return replace(frame_of(frame.claim, plain, [ev.BUILD]), says=SUCCESS, content=False)
    return frame


def _names_a_build(plain):
    """True if the claim is "the X builds", X a name (not "the nightly builds")."""
    found = _BUILDS.match(plain)
    return found is not None and not set(found.group("name").lower().split()) & _NOT_A_NAME


def decide(claim, turns, log, frame):
    """The Decision table t9 gives for `claim` (with plain quotes; `frame`: t9's frame of
    it), or None. `log` is t8's reading of the turns (table.decide reads it once)."""
    job = _JOB.match(claim)
    ended = _decide_job(log, turns, job.group("says")) if job else None
    if ended is not None:
        return ended
    log = reread(log, turns)
    decision = decide_t8.decide(claim, turns, log, frame)
    if decision is None:
        return _counted_run(claim, turns, log, frame)
    if job and decision.answer != CONTRADICTED:
        return None  # a step that passed is not the job, which may not have ended
    if decision.answer == SHOWN and _not_shown_by(claim, frame, decision, log):
        return None
    if decision.answer == CONTRADICTED and (_says_more(claim, frame) or
                                            _NOT_A_SUCCESS.search(claim)):
        return None
    if decision.answer == CONTRADICTED and ev.TESTS in frame.kinds and \
            _LABELLED_PART.search(claim):
        return None
    if ev.PUSH in frame.kinds and ev.BUILD in frame.kinds and _BUILT_WHICH.search(claim) and \
            not _BUILT_TOO.search(claim):
        return None  # "the image built in this run was pushed": which image, not a build
    if decision.rule == "clean.clean" and not _still_clean(claim, log, decision):
        return None
    if _names_a_build(claim) and not decide_t8.read_frame_t8(claim).kinds and \
            decision.event is not None and \
            (decide_t8.moved(log, decision.event) or _A_PART & set(decision.event.command.split())):
        return None  # "the plugin builds" against `cargo build -p core`: another part's build
    return decision


def _still_clean(claim, log, decision):
    """True if the clean `git status` t8 read is the latest look at the tree (a later one
    whose output is hidden, "… +6 lines (ctrl+o to expand)", may show changes) and, where
    the claim says the branch is up to date with a remote branch, it says so too."""
    for command in log.commands[decision.turn + 1:]:
        if any(s.program == "git" and s.args[:1] == ("status",)
               for s in shell.parse(command).steps):
            return False
    upstream = _UP_TO_DATE.search(claim)
    if upstream is None:
        return True
    said = "\n".join(log.lines[decision.turn])
    return re.search(r"up to date with '" + re.escape(upstream.group(1).strip("`'\".")) + "'",
                     said) is not None


def _not_shown_by(claim, frame, decision, log):
    """True if t8's `shown` does not show the claim: a commit's content, a test file run by
    its interpreter, a script that printed a failure and ended well."""
    event = decision.event
    if ev.COMMIT in frame.kinds and _HOLDS.search(claim):
        return True
    if event is None or event.family != ev.TESTS or not event.key.startswith("script:"):
        return False
    return (_file_by_interpreter(event) and event.counts is None) or \
        _SCRIPT_FAILED.search("\n".join(log.lines[event.turn])) is not None


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
        _FINDINGS.search(claim) is not None and not _SAYS_IT_PASSED.search(claim)


def _decide_job(log, turns, says):
    """A claim about the CI job as a whole, by the job's own last word, or None. Only in a
    log of CI steps (no edit or view of an agent's tools), where the word is the log's only
    one and its last line, after a command that does not only echo and runs no program
    that shows a file, a page or another job's console (`cat`, `curl`, `docker logs`), and
    (each pipeline's output is its last program's), and that, for a job that passed,
    records no failing status and runs no script (a script of the agent's may print any
    job's word)."""
    index = log.turns - 1
    if index < 0 or index >= len(log.commands) or log.of(ev.EDIT) or \
            any(turn.kind for turn in turns):
        return None
    shown = [line.strip() for line in log.lines[index] if _ESCAPES.sub("", line).strip()]
    failed = _job_end(_ESCAPES.sub("", shown[-1]).strip()) if shown else None
    command = shell.parse(log.commands[index])
    ends = sum(len(_ANY_END.findall(_ESCAPES.sub("", "\n".join(lines)))) for lines in log.lines)
    shows = [s for s in command.steps if s.program and s.after not in ("|", "|&")]
    if failed is None or ends != 1 or command.echoes_only or \
            any(s.program.split()[0] in _SHOWS for s in shows):
        return None
    if not failed and (turns[index].exit_status not in (None, 0) or any(
            _runs_a_script(s) for s in command.runs)):
        return None  # a pass needs the CI's own word, not a script's that may print any
    claims_failure = _FAILS.fullmatch(says) is not None
    answer = SHOWN if failed == claims_failure else CONTRADICTED
    return Decision(answer, "job.failed" if failed else "job.passed", index, shown[-1])


def _runs_a_script(step):
    """True if the step runs a script file (`./ci.sh`, `python fetch.py`)."""
    words = step.program.split() + list(step.args)
    return any(re.search(r"\.(?:sh|bash|py|js|mjs|ts|rb|pl|ps1|php)$", w) for w in words[:2])


def _job_end(line):
    """True if `line` is a CI job's own word that it failed, False that it passed, None if
    it is neither (or a word that settles neither, Jenkins' UNSTABLE)."""
    jenkins = _JENKINS_END.match(line)
    if jenkins:
        word = jenkins.group(1)
        return None if word in ("UNSTABLE", "NOT_BUILT") else word != "SUCCESS"
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


def reread(log, turns):
    """t8's reading of a log as t9 reads it, without the test runs that failed only because
    their runner is missing (`No module named pytest`: they ran nothing and show nothing)
    and without the edits that cannot make a run stale: of the agent's bookkeeping, or of a
    scratch file a command wrote (`echo ... > t.rs`) and a later one removed before any run."""
    runs = {e.turn for e in log.events if e.family in (ev.TESTS, ev.BUILD, ev.LINT,
                                                         ev.TYPECHECK)}
    idle = [e for e in log.of(ev.EDIT) if e.objects and all(
        _BOOKKEEPING.search(p) or _scratch(log, turns, e.turn, p, runs) for p in e.objects)]
    idle += [e for e in log.of(ev.TESTS) if e.outcome == ev.FAILED and e.counts is None and
             _runner_missing(e, log.lines[e.turn])]
    if not idle:
        return log
    narrowed = copy.copy(log)
    narrowed.events = [e for e in log.events if e not in idle]
    return narrowed


def _runner_missing(event, lines):
    """True if every line the run printed says that its own runner was not found."""
    said = [line.strip() for line in lines if line.strip() and not _NOISE.match(line.strip())]
    if not said:
        return False
    for line in said:
        found = _NOT_FOUND.search(line)
        name = found and next(g for g in found.groups() if g)
        if not name or name.split(".")[0].lower() not in event.command.lower().split():
            return False
    return True


def _scratch(log, turns, turn, path, runs):
    """True if the command of `turn` wrote `path` itself (`> path`) and a later command
    removed that very path (`rm path`, ended well) before any run, no `cd` between."""
    name = path.strip("'\"").removeprefix("./")
    wrote = re.compile(r"(?<!>)>\s*(?:\./)?" + re.escape(name) + r"(?=$|[\s;&|)])")
    if turn >= len(log.commands) or not wrote.search(log.commands[turn]):
        return False
    for later in range(turn + 1, len(log.commands)):
        if later in runs:
            return False
        steps = shell.parse(log.commands[later]).steps
        if any(s.program in ("cd", "pushd") for s in steps):
            return False
        removes = [s for s in steps if s.program == "rm" and
                   name in [a.removeprefix("./") for a in s.args]]
        if removes:
            status = turns[later].exit_status if later < len(turns) else None
            return status == 0 or (status is None and not "".join(log.lines[later]).strip())
    return False
