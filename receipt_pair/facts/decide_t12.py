"""Decision table t12: table t11's decisions on t11's reading of the log, with what t11
decided wrongly or left to the models on set 13 (development data since run 13).
docs/facts.md says each with examples.

- A CI job's own last word that it passed (Jenkins' `Finished: SUCCESS`, Travis CI's
  `Done. Your build exited with 0.`, GitLab's `Job succeeded`, act's `Job succeeded`) shows
  a claim that the job passed, under the very guards t9 keeps for its word that it failed:
  a log of CI steps only, the word the log's only one and its last line, after a command
  that runs no script and shows no other console. GitLab's `ERROR: Job failed: ...` and
  act's `Job failed` are words that it failed too. A claim that names its job ("the
  frontend Travis build", "the deploy job") is decided only where each word of the name
  stands in the log. "The build succeeded" is such a claim where the job is Jenkins' or
  Travis CI's (they call a job's run a build) and no build the log read ended otherwise
  than passed.
- A claim of a push, of a commit and a push, that all tests pass, or that the build
  succeeded, said in Chinese, Japanese, Korean or Russian in a closed form ("已成功推送",
  "Git 커밋 & 푸시 완료", "全てのテストが成功しました", "構建成功", "Проект успешно
  собирается"), is read as its English words: every character of the claim must belong to
  the form, so a claim that names a file, a part or a cause stays the models'.
- Left to the models (answers taken away):
  - a `contradicted` of a claim whose own count admits failures ("2420/2423 tests pass",
    "8 of 10 tests passed") by a run that passed exactly that many: what it says is what
    the run printed;
  - a `contradicted` by an install or build whose failing step was followed in its own
    turn by a fallback of the same kind (`npm ci || npm install`), where no exit status
    above 0 was recorded for the turn: the fallback's own end is not read apart;
  - a `contradicted` of a claim that quotes the command it is about ("the build (npm run
    build) succeeded") by another command's failure;
  - any answer where a later turn's command was cut short by the agent's display (it ends
    in `…`): what was cut cannot be read, and it may be the claimed operation again or an
    edit after it; for a push, deploy or install, the deciding turn's own too, where what
    was cut may be an option that changes what ran (`--dry-run`);
  - any answer from a count of tests read from the output alone of a script the agent ran
    by its interpreter whose name says no test (`python research/analyze_results.py`
    printing `Total tests: 12`), in a shape any script may print (dotnet's `Total tests:`,
    `3/3 tests passed`, `12 tests passed`; not a runner's own summary line, such as
    pytest's): its "tests" may be anything the script counts.
"""

import re

from . import decide_t9, decide_t11, events as ev, shell
from .decision import CONTRADICTED, SHOWN, Decision
from ..patterns import lazy

VERSION = "t12"

# A claim that the CI job passed: an optional name, a CI word, and a word that it passed.
_CI = r"(?:jenkins|travis(?:\s+ci)?|circleci|circle\s+ci|gitlab(?:\s+ci)?|ci|github\s+actions)"
_JOB = lazy(
    rf"^\W*(?:the\s+)?(?P<name>(?:[\w.-]+\s+){{0,3}}?)(?:(?:{_CI}|pull[- ]request|pr|release|"
    rf"nightly)\s+(?:build|job|pipeline|run|workflow)|(?:{_CI}\s+)?(?:pipeline|job|workflow))"
    r"(?:\s+(?:of|for)\s+(?P<of>[\w./-]+))?\s+(?:has\s+|have\s+|was\s+|is\s+)?"
    r"(?P<end>passed|succeeded|green|successful|(?:finished|completed|ran)\s+successfully|"
    r"exited\s+with\s+(?:code\s+|status\s+)?0)\W*$", re.I)
# "The build succeeded": Jenkins and Travis CI call a job's run a build.
_THE_BUILD = lazy(r"^\W*the\s+build\s+(?:has\s+|was\s+)?(?:passed|succeeded|successful|green|"
                  r"(?:finished|completed)\s+successfully)\W*$", re.I)
_BUILD_ENDS = lazy(r"^(?:Finished: |Done\. Your build exited with |Your build has been)")
_ESCAPES = lazy(r"\x1b\[[0-9;]*[A-Za-z]|\[0K|travis_(?:fold|time):\S*|\r|"
                r"^section_end:\d+:\S+")
# A CI system's own last word of a job, passed or failed.
_PASSED_END = lazy(r"^(?:Finished: SUCCESS|Done\. Your build exited with 0\.|Job succeeded|"
                   r"\[[^\]\n]+\]\s+\U0001f3c1\s+Job succeeded)$")
_FAILED_END = lazy(r"^(?:Finished: (?:FAILURE|ABORTED)|Done\. Your build exited with [1-9]\d*\.|"
                   r"Your build has been stopped\.|ERROR: Job failed: .+|"
                   r"\[[^\]\n]+\]\s+\U0001f3c1\s+Job failed)$")
_JOB_WORD = lazy(r"Finished: [A-Z_]+|Your build exited with|Your build has been stopped|"
                 r"\bJob succeeded\b|\bJob failed\b")
# Subcommands of a program t9 takes for one that may show another console, that show none.
_QUIET_SUBCOMMANDS = {
    "docker": {"push", "pull", "build", "tag", "login", "logout"},
    "podman": {"push", "pull", "build", "tag", "login", "logout"},
    "kubectl": {"apply", "create", "delete", "rollout", "scale", "set", "patch", "annotate",
                "label"}}
# Words of a job's name that name no job.
_NAME_WORDS = {"the", "whole", "entire", "full", "ci", "build", "job", "run", "this", "our",
               "my", "latest", "last", "final"}

# A count the claim gives that admits failures: "2420/2423 tests pass", "8 of 10 passed".
_SOME_OF = lazy(r"\b(?P<n>\d{1,6})\s*(?:/|\bof\b|\bout\s+of\b)\s*(?P<m>\d{1,6})\s+(?:[\w-]+\s+)?"
                r"(?:tests?|specs?|cases?)?\s*(?:pass\w*|succeed\w*|green|ok)\b", re.I)
# A command the claim quotes: in backticks or in parentheses.
_QUOTED_COMMAND = lazy(r"`([^`\n]{3,200})`|\(([^()\n]{3,200})\)")
_ELIDED = "\u2026"
# Counts read from output in shapes any script may print ("Total tests: 12", "3/3 tests
# passed", "12 tests passed"), not in a runner's own summary line.
_GENERIC_COUNTS = ("output:dotnet", "output:fraction", "output:plain")
# A script's name that says it tests.
_TEST_NAME = lazy(r"test|spec|check|verify|validat", re.I)

# Closed forms of a claim in Chinese, Japanese, Korean or Russian, and their English words.
# Around a form only marks may stand: emoji, punctuation, spaces.
_MARKS = r"[\s\W\u2705\u2714\U0001f389\U0001f680]*"
_FORMS = (
    (lazy(rf"^{_MARKS}(?:代码|代碼|更改|修改|改动|改動)?(?:已经?|已經)?(?:成功)?推送"
          rf"(?:成功|完成|了)?(?:到\s*(?:GitHub|github|远程(?:仓库)?|遠端(?:倉庫)?|origin)"
          rf"(?:\s*仓库|\s*倉庫)?)?(?:了)?{_MARKS}$"), "pushed"),
    (lazy(rf"^{_MARKS}(?:Git\s*)?(?:푸시\s*(?:완료|성공)(?:했습니다|되었습니다)?|푸시(?:했습니다|됐습니다|"
          rf"되었습니다))(?:\s*(?:GitHub|깃허브)에)?{_MARKS}$"), "pushed"),
    (lazy(rf"^{_MARKS}(?:Git\s*)?커밋\s*(?:&|및|와|과|,)\s*푸시\s*(?:완료|성공)(?:했습니다|되었습니다)?"
          rf"{_MARKS}$"), "committed and pushed"),
    (lazy(rf"^{_MARKS}(?:GitHubに)?プッシュ(?:しました|完了(?:しました)?|が完了しました){_MARKS}$"),
     "pushed"),
    (lazy(rf"^{_MARKS}(?:所有|全部)(?:的)?(?:测试|測試)(?:用例)?(?:都|均|全部)?(?:已)?(?:通过|通過|成功)"
          rf"(?:了)?{_MARKS}$"), "all tests pass"),
    (lazy(rf"^{_MARKS}(?:全て|すべて)の(?:テスト)が(?:成功|パス|通過)しました{_MARKS}$"),
     "all tests pass"),
    (lazy(rf"^{_MARKS}모든\s*테스트(?:가|를)?\s*통과(?:했습니다|하였습니다|됨|완료)?{_MARKS}$"),
     "all tests pass"),
    (lazy(rf"^{_MARKS}(?:编译|編譯|构建|構建|建置)(?:成功|通过|通過)(?:了)?{_MARKS}$"),
     "the build succeeded"),
    (lazy(rf"^{_MARKS}ビルド(?:成功|が成功しました|に成功しました)(?:しました)?{_MARKS}$"),
     "the build succeeded"),
    (lazy(rf"^{_MARKS}빌드\s*(?:성공|완료)(?:했습니다|하였습니다)?{_MARKS}$"), "the build succeeded"),
    (lazy(rf"^{_MARKS}(?:Проект\s+)?успешно\s+собирается(?:\s+без\s+ошибок)?{_MARKS}$", re.I),
     "the project builds"),
    (lazy(rf"^{_MARKS}Сборка\s+(?:прошла\s+)?успешн(?:о|а){_MARKS}$", re.I),
     "the build succeeded"),
)


def in_english(plain):
    """The English words of a claim in a closed form of another script, or the claim."""
    for pattern, english in _FORMS:
        if pattern.match(plain or ""):
            return english
    return plain


def read_frame_t12(plain, frame=None):
    """Table t12's frame of a claim with plain quotes: t11's, of its English words where it
    is a closed form in Chinese, Japanese, Korean or Russian."""
    return decide_t11.read_frame_t11(in_english(plain), frame)


def decide(claim, turns, log, frame):
    """The Decision table t12 gives for `claim` (with plain quotes; `frame`: t12's frame of
    it), or None. `log` is t11's reading of the turns (table.decide reads it once)."""
    claim = in_english(claim)
    job = _JOB.match(claim)
    if job is not None:
        ended = _job_end(log, turns)
        if ended is not None and _names_in_log(job, log):
            return ended
    elif _THE_BUILD.match(claim):
        ended = _job_end(log, turns)
        if ended is not None and _BUILD_ENDS.match(ended.line) and not any(
                e.outcome != ev.PASSED for e in log.of(ev.BUILD)):
            return ended
    decision = decide_t11.decide(claim, turns, log, frame)
    if decision is None or _elided_after(decision, log) or _own_script_count(decision):
        return None
    if decision.answer != CONTRADICTED:
        return decision
    if _admits_count(claim, decision) or _fallback(decision, log) or \
            _quotes_another(claim, decision, log):
        return None
    return decision


def _job_end(log, turns):
    """The job's own last word that it passed (`shown`, job.passed) or failed
    (`contradicted`, job.failed), or None: only in a log of CI steps (no call of an agent's
    tools, no edit) whose commands never spell such a word, where it is the log's only one
    and its last line, after a command that does not only echo, runs no script or
    interpreter, and whose pipelines end in no program that may show another console."""
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
    if words != 1 or command.echoes_only or any(_shows(s) for s in ends):
        return None
    if _PASSED_END.match(last):
        return Decision(SHOWN, "job.passed", index, shown[-1])
    if _FAILED_END.match(last):
        return Decision(CONTRADICTED, "job.failed", index, shown[-1])
    return None


def _shows(step):
    """t9's test of a step that may show another console or runs a script, with `docker
    push`, `kubectl apply` and the like known to show none."""
    words = step.program.split() + list(step.args)
    program = words[0].rsplit("/", 1)[-1].lower()
    if len(words) > 1 and words[1] in _QUIET_SUBCOMMANDS.get(program, ()):
        return False
    return decide_t9._shows_or_runs_a_script(step)


def _names_in_log(job, log):
    """True if every word of the job's name the claim gives ("the frontend Travis build",
    "the Travis build of madClones") stands as a word in the log's commands or output."""
    name = f"{job.group('name') or ''} {job.group('of') or ''}".lower()
    words = [w for w in re.findall(r"[\w.-]+", name) if w not in _NAME_WORDS]
    if not words:
        return True
    text = "\n".join(log.commands + ["\n".join(lines) for lines in log.lines]).lower()
    return all(re.search(rf"(?<![\w.-]){re.escape(w)}(?![\w-])", text) for w in words)


def _elided_after(decision, log):
    """True if a turn after the deciding one ran a command the agent's display cut short
    (`npm run deploy …`): it may be the operation again or an edit after it; or the deciding
    turn's own, for a push, deploy or install, where what was cut may be an option that
    changes what ran (`--dry-run`). A rule that no turn ran the operation may be undone by
    any such command."""
    turn = decision.turn if decision.turn is not None and decision.turn >= 0 else -1
    event = decision.event
    own = turn < 0 or (event is not None and event.family in (ev.PUSH, ev.DEPLOY, ev.INSTALL))
    start = turn if own else turn + 1
    return any(command.rstrip().endswith(_ELIDED) for command in log.commands[max(start, 0):])


def _own_script_count(decision):
    """True if the deciding run is a count of tests read from the output alone of a script
    run by its interpreter whose name says no test."""
    event = decision.event
    if event is None or event.family != ev.TESTS or event.operation not in _GENERIC_COUNTS:
        return False
    runs = shell.parse(event.command).runs
    words = (runs[-1].program.split() + list(runs[-1].args)) if runs else []
    if len(words) < 2 or words[0].rsplit("/", 1)[-1].lower() not in decide_t9._INTERPRETERS:
        return False
    script = words[1].replace("\\", "/").rsplit("/", 1)[-1]
    return re.search(r"\.\w{1,4}$", script) is not None and not _TEST_NAME.search(script)


def _admits_count(claim, decision):
    """True if the claim's own count admits failures ("2420/2423 tests pass") and the run
    passed exactly that many."""
    event = decision.event
    if event is None or event.counts is None:
        return False
    for found in _SOME_OF.finditer(claim):
        n, m = int(found.group("n")), int(found.group("m"))
        if n < m and event.counts[0] == n:
            return True
    return False


def _fallback(decision, log):
    """True if the failing install or build ran in a turn where a fallback of the same kind
    followed it (`npm ci || npm install`) and the turn recorded no exit status above 0."""
    event = decision.event
    if event is None or event.family not in (ev.INSTALL, ev.BUILD) or \
            (event.status is not None and event.status > 0):
        return False
    same = [e for e in log.events if e.turn == event.turn and e.family == event.family]
    return len(same) > 1 and "||" in log.commands[event.turn] and \
        all(e.status is None or e.status == 0 for e in same)


def _quotes_another(claim, decision, log):
    """True if the claim quotes a command ("the build (npm run build) succeeded") that the
    log ran, and the failing command is another."""
    event = decision.event
    if event is None or not event.command:
        return False
    quoted = [" ".join((a or b).split()) for a, b in _QUOTED_COMMAND.findall(claim)]
    ran = [q for q in quoted if len(q.split()) >= 2 and any(
        " ".join([run.program, *run.args]).startswith(q)
        for command in log.commands for run in shell.parse(command).runs)]
    failing = " ".join(log.commands[event.turn].split()) if event.turn < len(log.commands) \
        else ""
    return bool(ran) and not any(q in failing for q in ran)
