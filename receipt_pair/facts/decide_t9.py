"""Decision table t9: table t8's decisions (decide_t8.py) on t8's reading of the log, with
what t8 decided wrongly or left to the models on set 10 (development data since run 10),
narrowed by two attack passes on it (tests/data/facts/attack-t9.json). docs/facts.md says
each reading with examples.

- A claim that a CI job passed is `contradicted` by the job's own word that it failed
  (Jenkins' `Finished: FAILURE`, `ABORTED`; Travis CI's `Done. Your build exited with N.`,
  `Your build has been stopped.`), only in a log of CI steps that never spells such a word,
  as its only one and last line, after a command that runs no script, no interpreter on
  anything and no program that may show another job's console. A word that it passed is
  no receipt; a step's pass is not the job's.
- "The site builds": a build claim where the name is a general one, decided only by a build
  in place that selects no part.
- Left to the models: a `contradicted` of a claim that denies, doubts, hopes or plans, or
  names a labelled part of the tests; any answer to a claim that reports a push's refusal
  or counts a linter's findings; a `shown` of a commit's content or another branch, of
  "the image built in this run was pushed", of a test file or module run by its
  interpreter with no count, of a test run with no count that printed a failure, of an
  admitted failure the claim denies, of a clean `git status` a later one may have undone.
- A claim that gives the count of tests is shown by a run that passed printing that very
  count and no failure, though another runner failed before it.
- A test run whose every line says its own runner is missing ran nothing and is left out.
- An edit of the agent's bookkeeping at the project's top (`.claude/`, `.cursor/`,
  `.vscode/`, `.idea/`, `_bmad-output/`) that no run names makes no run stale.
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
    r"(?:passed|succeeded|green|successful|(?:finished|completed|ran)\s+successfully)\W*$", re.I)
_JOB_WORD = lazy(r"Finished: [A-Z_]+|Your build exited with|Your build has been stopped")
_JENKINS_END = lazy(r"^Finished: (FAILURE|ABORTED)$")
_TRAVIS_END = lazy(r"^(?:Done\. Your build exited with ([1-9]\d*)\.|Your build has been "
                   r"stopped\.)$")
_ESCAPES = lazy(r"\x1b\[[0-9;]*[A-Za-z]|\[0K|travis_(?:fold|time):\S*|\r")
# Programs whose output may be a file's, a page's or another job's, not the job's own end.
_SHOWS = {"cat", "tac", "nl", "tail", "head", "less", "more", "curl", "wget", "gh", "jq", "type",
          "sed", "awk", "grep", "egrep", "rg", "strings", "tr", "cut", "sort", "uniq", "bat",
          "zcat", "gunzip", "unzip", "iconv", "col", "http", "docker", "podman", "kubectl",
          "travis", "java", "git", "aws", "gsutil", "gcloud", "az", "tee", "xargs", "ssh",
          "scp", "rsync", "powershell", "pwsh", "get-content", "make", "npm", "yarn", "pnpm",
          "just", "task", "invoke", "nox", "tox", "buildkite-agent", "circleci", "glab"}

# "The site builds": the, then a general name, then builds.
_BUILDS = lazy(r"^\W*the\s+(?P<name>(?:[\w.-]+\s+){1,2}?)builds(?:\s+(?:successfully|cleanly|"
               r"fine|again|now|locally))*\W*$", re.I)
_NAMES = {"site", "website", "plugin", "frontend", "backend", "app", "application", "project",
          "package", "library", "extension", "docs", "solution", "code", "codebase", "web",
          "mobile", "ui", "api", "service", "server", "client", "module", "crate", "repo",
          "repository", "theme", "addon", "add-on", "mod", "game", "tool", "cli", "whole"}
# What points a build at a part or another folder (alone, `=value` or glued): it is not
# "the site"'s build.
_A_PART = lazy(r"^(?:(?:-pl|--package|--projects|--filter|--prefix|--cwd|--dir|--project|"
               r"--workspace|--bin|--manifest-path|--target-dir|--scope)(?:=|$)|-[pF](?:=|$|\w)|"
               r"-[Cw](?:$|\S))")
_REFUSED = lazy(r"\b(?:blocked|denied|refused|forbidden|rejected|not\s+allowed)\b", re.I)
_SAYS_IT_PASSED = lazy(r"\b(?:pass(?:es|ed)?|clean|succeed(?:s|ed)?|successful(?:ly)?|green|ok)\b",
                       re.I)
_FIXED = lazy(r"\b(?:fix(?:ed|es)?|resolv(?:ed|es)|address(?:ed|es)|clean(?:ed)?\s+up|"
              r"removed|eliminated)\b", re.I)
# Words that deny, doubt, hope or only plan what the claim names: it claims no success. A
# negation of a failure ("no longer fails", "none fail") is no such word.
_NOT_A_SUCCESS = lazy(
    r"\b(?:no\s+longer|never|nothing|neither|nor|none|not|only|whether|if|probably|might|may|"
    r"should|hopefully|hope|goal|plan(?:ned)?|todo|expect(?:ed)?|once|presumably|supposed|"
    r"need(?:s|ed)?\s+to|will|going\s+to|think|believe|next)\b(?!\s+(?:\w+\s+)?"
    r"(?:fail\w*|error\w*|break\w*|broke\w*|red)\b)|n't\b(?!\s+(?:\w+\s+)?(?:fail\w*|error\w*|"
    r"break\w*))|^\W*(?:check|verify|ensure|make\s+sure|see)\b|\?|\bi'll\b", re.I)
# A claim that names a failure to deny or doubt it ("didn't fail", "might fail", "0 errors").
_NO_FAILURE_ADMITTED = lazy(
    r"(?:n't|\bnot|\bnever|\bno\s+longer|\bmight|\bmay|\bcould|\bwould)\s+(?:\w+\s+){0,2}?"
    r"(?:fail\w*|report\w*\s+errors?|errors?|break\w*)|\?|:\s*0\b|\b(?:none|if|when|only|unless)\b",
    re.I)
_FINDINGS = lazy(r"\b[1-9]\d*\s+(?:\w+\s+)?(?:issues?|errors?|warnings?|problems?|"
                 r"violations?|findings?)\b|\brated\b|\bscore[ds]?\b|\d+(?:\.\d+)?\s*/\s*10\b",
                 re.I)
_UP_TO_DATE = lazy(r"\bup[- ]to[- ]date with\s+(\S+)", re.I)
# A commit claim that says what the commit holds.
_HOLDS = lazy(r"\b(?:includes?|including|contains?|holds?|adds?|fixes|introduces?|(?:\d+|both|"
              r"all)\s+(?:\w+\s+)?files?)\b", re.I)
# The branch a commit claim names ("committed on `feat/x`", "committed to develop").
_COMMITTED_ON = lazy(r"\bcommit\w*\s+(?:(?!push)\w+\s+){0,3}?(?:to|on|into)\s+(?:the\s+)?"
                     r"[`'\"]?(?P<branch>[\w./-]*\w)", re.I)
_NOT_BRANCHES = {"git", "github", "gitlab", "the", "it", "remote", "origin", "repo",
                 "repository", "branch", "correct", "same", "local", "disk", "history", "a",
                 "your", "my", "our", "this", "that", "version", "control", "source"}
_WHOLE_LABELS = r"(?:all|the|every|unit|my|our|complete|full|entire|total|overall|whole|final)"
_LABELLED_PART = lazy(rf"^\W*(?!{_WHOLE_LABELS}\b)[A-Z][\w -]{{0,40}}?\s+tests?\s*:|"
                      r"\bnew\s+tests?\b", re.I)
_BUILT_WHICH = lazy(r"\bbuilt\s+(?:in|by|during|from|on|with)\b", re.I)
_BUILT_TOO = lazy(r"\b(?:was|were|is|are|been|got)\s+built\b|\bbuilt\s+(?:and|&)\b|"
                  r"\bbuild(?:s|ing)?\b", re.I)
# A runner's own word that it was not found, naming it.
_NOT_FOUND = lazy(r"No module named '?(?P<module>[\w.]+)'?$|(?P<shell>[\w.-]+):\s+(?:command )?"
                  r"not found$|command not found:\s+(?P<zsh>[\w.-]+)$|'(?P<cmd>[\w.-]+)' is not "
                  r"recognized as an internal or external command")
_NOISE = lazy(r"^(?:Exit code \d+|Process exited with code \d+|error:?|Error: \(none\))$", re.I)
# A failure a test script printed (its summary or a test's own line).
_SCRIPT_FAILED = lazy(
    r"^\s*(?:\[?FAIL(?:ED|URE)?\b|[\u2717\u2718\u00d7\u2715\u2716\u274c]\s)|\.\.\.\s*FAIL(?:ED)?\b|"
    r"\b[1-9]\d*\s+(?:tests?\s+)?(?:failed|failing|failures?)\b|\b(?:Failures|Errors):\s*[1-9]|"
    r"\btests?\s+(?:have\s+)?(?:failed|failing)\b",
    re.I | re.M)
_SHORT = lazy(r"\b(\d{1,6})\s*/\s*(\d{1,6})\s+(?:tests?\s+)?passed\b", re.I)
_INTERPRETERS = {"python", "python3", "python2", "node", "ruby", "php", "perl", "bash", "sh",
                 "zsh", "deno", "bun", "pwsh", "powershell"}
# The agent's own bookkeeping at the project's top: its settings and plans, never code.
_BOOKKEEPING = lazy(r"^(?:\./)?(?:\.claude|\.cursor|\.vscode|\.idea|_bmad-output)/")
_UNDER_CODE = lazy(r"(?:^|/)(?:tests?|fixtures?|src|lib|spec|testdata|app|packages)/.*"
                   r"(?:\.claude|\.cursor|\.vscode|\.idea|_bmad-output)/")
_ABSOLUTE_BOOKKEEPING = lazy(r"^/.*/(?:\.claude|\.cursor|\.vscode|\.idea|_bmad-output)/")


def read_frame_t9(plain, frame=None):
    """Table t9's frame of a claim with plain quotes: t8's, with "the X builds" read as a
    build."""
    frame = decide_t8.read_frame_t8(plain, frame)
    if not frame.kinds and _names_a_build(plain):
        return replace(frame_of(frame.claim, plain, [ev.BUILD]), says=SUCCESS, content=False)
    return frame


def _names_a_build(plain):
    """True if the claim is "the X builds", X a general name ("the site", "the web app")
    and not "the nightly builds" or "the Go server" (a part the build may not be)."""
    found = _BUILDS.match(plain)
    if found is None:
        return False
    return all(word in _NAMES for word in found.group("name").lower().split())


def decide(claim, turns, log, frame):
    """The Decision table t9 gives for `claim` (with plain quotes; `frame`: t9's frame of
    it), or None. `log` is t8's reading of the turns (table.decide reads it once)."""
    job = _JOB.match(claim) is not None
    if job:
        failed = _job_failed(log, turns)
        if failed is not None:
            return failed
    log = reread(log)
    decision = decide_t8.decide(claim, turns, log, frame)
    if decision is None:
        return _counted_run(claim, turns, log, frame)
    if job and decision.answer != CONTRADICTED:
        return None  # a step's pass is not the job's, which may not have ended
    if decision.answer in (SHOWN, CONTRADICTED) and _says_more(claim, frame):
        return None
    if decision.answer == SHOWN and _not_shown_by(claim, frame, decision, log):
        return None
    if decision.answer == CONTRADICTED and _no_success_claimed(claim, frame):
        return None
    if decision.answer == SHOWN and decision.rule == "failure-admitted" and \
            _NO_FAILURE_ADMITTED.search(claim):
        return None  # "the push didn't fail": no failure is admitted
    if decision.rule == "clean.clean" and not _still_clean(claim, log, decision):
        return None
    if _names_a_build(claim) and not decide_t8.read_frame_t8(claim).kinds and \
            decision.event is not None and (decide_t8.moved(log, decision.event) or
                                            _builds_a_part(decision.event.command)):
        return None  # "the plugin builds" against `cargo build -p core`: another part's build
    return decision


def _no_success_claimed(claim, frame):
    """True if a `contradicted` would hold against a claim that claims no success of the
    whole: one that denies, doubts, hopes or plans, or names a labelled part of the tests."""
    return _NOT_A_SUCCESS.search(claim) is not None or (
        ev.TESTS in frame.kinds and _LABELLED_PART.search(claim) is not None)


def _builds_a_part(command):
    """True if a build command names a part: a package, a folder, a script's suffix
    (`npm run build:core`), or a target after its build word (`nx build core`)."""
    words = command.split()
    if any(_A_PART.match(w) for w in words):
        return True
    at = next((i for i, w in enumerate(words) if w.startswith("build")), None)
    if at is not None and words[at] != "build":
        return True
    rest = [w for w in words[(at + 1) if at is not None else 1:] if not w.startswith("-")]
    return any(w not in (".", "./...") for w in rest)


def _still_clean(claim, log, decision):
    """True if the clean `git status` t8 read is the latest look at the tree (a later one
    whose output is hidden, "\u2026 +6 lines (ctrl+o to expand)", may show changes) and,
    where the claim says the branch is up to date with a remote branch, it says so too."""
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
    """True if t8's `shown` does not show the claim: a commit's content or branch, "the image
    built in this run was pushed", a test file run by its interpreter with no count of its
    own, a test run with no runner's summary that printed a failure and ended well."""
    event = decision.event
    if ev.COMMIT in frame.kinds and (_HOLDS.search(claim) or _committed_elsewhere(claim,
                                                                                 decision)):
        return True
    if ev.PUSH in frame.kinds and ev.BUILD in frame.kinds and _BUILT_WHICH.search(claim) and \
            not _BUILT_TOO.search(claim):
        return True  # which image was built, not that the one pushed is it
    if event is None or event.family != ev.TESTS or event.counts is not None:
        return False
    return _file_by_interpreter(event) or _printed_a_failure("\n".join(log.lines[event.turn]))


def _printed_a_failure(text):
    """True if a run's output holds a failure line or a count of passes short of its total
    ("Results: 3/4 passed")."""
    return _SCRIPT_FAILED.search(text) is not None or any(
        int(done) < int(total) for done, total in _SHORT.findall(text))


def _committed_elsewhere(claim, decision):
    """True if the claim names the branch it committed on and t8's commit line (`[main
    4611cfb] ...`) does not name it."""
    named = _COMMITTED_ON.search(claim)
    if named is None or named.group("branch").lower() in _NOT_BRANCHES:
        return False
    return f"[{named.group('branch')} " not in decision.line


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
    """True if the claim reports what went wrong or what a linter found, which neither the
    operation's failure nor its success alone shows."""
    if ev.PUSH in frame.kinds and _REFUSED.search(claim):
        return True
    return bool(frame.kinds) and set(frame.kinds) <= {ev.LINT, ev.TYPECHECK} and \
        _FINDINGS.search(claim) is not None and not _SAYS_IT_PASSED.search(claim) and \
        not _FIXED.search(claim)


def _job_failed(log, turns):
    """`contradicted` of a claim that the CI job passed, by the job's own word that it failed
    (Jenkins' `Finished: FAILURE`, Travis CI's `Your build has been stopped.`), or None.
    Only in a log of CI steps (no call of an agent's edit or view tools) whose commands never
    spell such a word, where it is the log's only one and its last line, after a command
    that runs no script or interpreter, does not only echo, and whose pipelines end in no
    program that may show a file, a page or another job's console. A job's word that it
    passed is no receipt: a step of the agent's may print any job's."""
    index = log.turns - 1
    if index < 0 or index >= len(log.commands) or log.of(ev.EDIT) or \
            any(turn.kind for turn in turns) or \
            any(_JOB_WORD.search(command) for command in log.commands):
        return None
    shown = [line.strip() for line in log.lines[index] if _ESCAPES.sub("", line).strip()]
    words = sum(len(_JOB_WORD.findall("\n".join(lines))) for lines in log.lines)
    last = _ESCAPES.sub("", shown[-1]).strip() if shown else ""
    command = shell.parse(log.commands[index])
    ends = [s for s in command.steps if s.program and s.after not in ("|", "|&")]
    if words != 1 or not (_JENKINS_END.match(last) or _TRAVIS_END.match(last)) or \
            command.echoes_only or any(_shows_or_runs_a_script(s) for s in ends):
        return None
    return Decision(CONTRADICTED, "job.failed", index, shown[-1])


def _shows_or_runs_a_script(step):
    """True if the step may print what it read (`cat`, `curl`, `make ci`) or runs a script
    file or an interpreter on something (`./ci.sh`, `python fetch.py`, `node -e ...`; a
    shell reading an installer from a pipe, `curl ... | bash`, is neither)."""
    words = step.program.split() + list(step.args)
    program = words[0].rsplit("/", 1)[-1].lower()
    return program in _SHOWS or (program in _INTERPRETERS and len(words) > 1) or \
        any(re.search(r"\.(?:sh|bash|py|js|mjs|ts|rb|pl|ps1|php)$|^\./", w) for w in words[:2])


def _file_by_interpreter(event):
    """True if the run is a file or a module run by its interpreter (`python test_x.py`,
    `deno run test.ts`, `python -m tests.run_all`), not a runner the reading knows."""
    if not event.key.startswith("script:"):
        return False
    runs = shell.parse(event.command).runs
    words = (runs[-1].program.split() + list(runs[-1].args)) if runs else []
    if len(words) < 2 or words[0] not in _INTERPRETERS:
        return False
    if words[1] == "-m":
        return len(words) >= 3
    script = words[2] if words[1] == "run" and len(words) >= 3 else words[1]
    return re.search(r"\.\w{1,4}$", script) is not None


def reread(log):
    """t8's reading of a log as t9 reads it, without the test runs that failed only because
    their runner is missing (`No module named pytest`: they ran nothing and show nothing)
    and without the edits of the agent's bookkeeping, which cannot make a run stale."""
    runs = {e.turn for e in log.events if e.family in (ev.TESTS, ev.BUILD, ev.LINT,
                                                         ev.TYPECHECK)}
    run_words = " ".join(log.commands[turn] for turn in runs if turn < len(log.commands))
    idle = [e for e in log.of(ev.EDIT) if e.objects and all(
        _bookkeeping(p, run_words) for p in e.objects)]
    idle += [e for e in log.of(ev.TESTS) if e.outcome == ev.FAILED and e.counts is None and
             _runner_missing(e, log.lines[e.turn])]
    if not idle:
        return log
    narrowed = copy.copy(log)
    narrowed.events = [e for e in log.events if e not in idle]
    return narrowed


def _bookkeeping(path, run_words):
    """True if `path` is the agent's bookkeeping at the project's top (not under tests or
    code) and no run of the log names its folder (`pytest .claude/hooks`)."""
    path = path.strip("'\"")
    if _UNDER_CODE.search(path) or not (_BOOKKEEPING.search(path) or
                                        _ABSOLUTE_BOOKKEEPING.search(path)):
        return False
    folder = re.search(r"(\.claude|\.cursor|\.vscode|\.idea|_bmad-output)/", path).group(1)
    return folder not in run_words


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
