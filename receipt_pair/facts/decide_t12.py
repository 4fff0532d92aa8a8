"""Decision table t12: table t11's decisions on t11's reading of the log, with what t11
decided wrongly or left to the models on set 13 (development data since run 13), narrowed
by three attack passes (tests/data/facts/attack-t12.json). docs/facts.md says each with
examples. It adds no rule: it reads a few more claims, and the rest only takes answers
away.

- A claim of a push, of a commit and a push, that all tests pass, or that the build
  succeeded, said in Chinese, Japanese or Korean (or "the build succeeded" in Russian) in a
  closed form ("代码已成功推送", "Git 커밋 & 푸시 완료", "全てのテストが成功しました", "構建成功"),
  is read as its English words: every character of the claim must belong to the form, so
  a claim that names a file, a part, a place or a cause, asks, plans or is ticked off stays
  the models'.
- Left to the models (answers taken away): a `contradicted` of a claim whose own count
  admits failures, by a test run whose count shows none failed but a coverage threshold,
  by an install or build that a second one of its turn followed, of a claim that quotes
  another command, of a compile claim by an image build, of a push claim naming no branch
  by a push that only deleted a ref, and by a CI job's word of another system than the one
  the claim names; a push's `shown` where the latest push sent only tags, another branch
  than the commit's, or a commit came after it; any answer where a command the display cut
  short (`…`) comes after the deciding turn (or is it, for a push, deploy or install); any
  answer from a generic count of tests a non-test script printed.
"""

import re

from . import decide_t9, decide_t11, events as ev, shell
from .reading_t11 import IMAGE_BUILDS
from .decision import CONTRADICTED, SHOWN
from ..patterns import lazy

VERSION = "t12"

# A CI job's own last word that it failed, by its system (t9's words), and the CI systems a
# claim may name.
_FAILED_END = (("jenkins", lazy(r"^Finished: (?:FAILURE|ABORTED)$")),
               ("travis", lazy(r"^(?:Done\. Your build exited with [1-9]\d*\.|Your build has been "
                               r"stopped\.)$")))
_SYSTEMS = (("jenkins", lazy(r"\bjenkins\b", re.I)), ("travis", lazy(r"\btravis\b", re.I)),
            ("gitlab", lazy(r"\bgitlab\b", re.I)), ("act", lazy(r"\bact\b", re.I)),
            ("circleci", lazy(r"\bcircle\s*ci\b", re.I)),
            ("github", lazy(r"\bgithub\b", re.I)))
# A coverage threshold a run did not meet.
_THRESHOLD = lazy(r"\bcoverage\b.*\b(?:threshold|does not meet|not met|below)\b|"
                  r"\bthreshold\b.*\bcoverage\b|Coverage checks have not been met|"
                  r"covered ratio is [\d.]+, but expected minimum is", re.I)
# Where a push went that is no branch: a tag.
_TAG_REF = lazy(r"^(?:refs/tags/|v?\d+(?:\.\d+)+)|\[new tag\]")
_TAG_WORD = lazy(r"\btags?\b|\brelease\b|\bv?\d+\.\d+", re.I)

# A count the claim gives that admits failures: "2420/2423 tests pass", "8 of 10 passed".
_SOME_OF = lazy(r"\b(?P<n>\d{1,6})\s*(?:/|\bof\b|\bout\s+of\b)\s*(?P<m>\d{1,6})\b", re.I)
_PASS_WORD = lazy(r"\b(?:pass\w*|succe\w*|green|ok)\b", re.I)
# A command the claim quotes: in backticks or in parentheses.
_QUOTED_COMMAND = lazy(r"`([^`\n]{3,200})`|\(([^()\n]{3,200})\)")
_ELIDED = "\u2026"
# Counts read from output in shapes any script may print ("Total tests: 12", "3/3 tests
# passed", "12 tests passed"), not in a runner's own summary line.
_GENERIC_COUNTS = ("output:dotnet", "output:fraction", "output:plain")
# A claim that code compiles, and one about an image.
_COMPILES = lazy(r"\bcompil(?:es|ed|ing|ation)\b", re.I)
_IMAGE_CLAIM = lazy(r"\b(?:image|docker|container|podman)s?\b", re.I)
# A script's name that says it tests.
_TEST_NAME = lazy(r"test|spec|check|verify|validat", re.I)

# Closed forms of a claim in Chinese, Japanese, Korean or Russian, and their English words.
# Each says the thing is done (已, 成功, 完了, 완료, успешно): a bare "推送到 GitHub" is a
# to-do item. A push names what was pushed (代码, 更改, Git, 코드, コード): "推送" alone may be
# a push notification (t7's bare "已推送", "推送成功", "推送完成" stay as t7 reads them). Around a form only these marks may stand: spaces, sentence marks, a check
# mark, a party popper, a rocket, a list's dash or bold stars. A form never names where a
# push went ("到 GitHub", "GitHubに"): the facts do not read a remote's host. "编译"
# (compile) is no form: a failed image build would contradict it.
_MARKS = r"[\s\u3002\uff01!.,\u3001\uff1a:*\-\u2705\u2714\ufe0f\U0001f389\U0001f680]*"
_FORMS = (
    (lazy(rf"^{_MARKS}(?:代码|代碼|更改|修改|改动|改動)(?:(?:已经?|已經)(?:成功)?推送(?:成功|完成)?|"
          rf"成功推送|推送(?:成功|完成))(?:了)?{_MARKS}$"), "pushed"),
    (lazy(rf"^{_MARKS}(?:Git|코드|변경\s*사항)\s*(?:푸시\s*(?:완료|성공)(?:했습니다|되었습니다)?|"
          rf"푸시(?:했습니다|됐습니다|되었습니다)){_MARKS}$"), "pushed"),
    (lazy(rf"^{_MARKS}(?:Git\s*)?커밋\s*(?:&|및|와|과|,)\s*푸시\s*(?:완료|성공)(?:했습니다|되었습니다)?"
          rf"{_MARKS}$"), "committed and pushed"),
    (lazy(rf"^{_MARKS}(?:Git|コード|変更)(?:を|の)?\s*プッシュ(?:しました|完了(?:しました)?|が完了しました)"
          rf"{_MARKS}$"), "pushed"),
    (lazy(rf"^{_MARKS}(?:所有|全部)(?:的)?(?:测试|測試)(?:用例)?(?:都|均|全部)?(?:已)?(?:通过|通過|成功)"
          rf"(?:了)?{_MARKS}$"), "all tests pass"),
    (lazy(rf"^{_MARKS}(?:全て|すべて)のテストが(?:成功|パス|通過)しました{_MARKS}$"), "all tests pass"),
    (lazy(rf"^{_MARKS}모든\s*테스트(?:가|를)?\s*통과(?:했습니다|하였습니다|됨|완료)?{_MARKS}$"),
     "all tests pass"),
    (lazy(rf"^{_MARKS}(?:构建|構建|建置)(?:成功|通过|通過)(?:了)?{_MARKS}$"), "the build succeeded"),
    (lazy(rf"^{_MARKS}ビルド(?:成功|が成功しました|に成功しました)(?:しました)?{_MARKS}$"),
     "the build succeeded"),
    (lazy(rf"^{_MARKS}빌드\s*(?:성공|완료)(?:했습니다|하였습니다)?{_MARKS}$"), "the build succeeded"),
    (lazy(rf"^{_MARKS}Сборка\s+(?:прошла\s+)?успешн(?:о|а){_MARKS}$", re.I),
     "the build succeeded"),
)
# Marks that take a claim back or leave it open: an unchecked box, a strike-through, a
# cross, a question, an hourglass, an ellipsis.
_NOT_DONE = lazy(r"\[\s\]|~~|[?\uff1f\u2610\u23f3\u2026\u274c\u2717\u2718\u26d4\U0001f6ab\u2716]|\.\.\.")


def in_english(plain):
    """The English words of a claim in a closed form of another script, or the claim."""
    if _NOT_DONE.search(plain or ""):
        return plain
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
    decision = decide_t11.decide(claim, turns, log, frame)
    if decision is None or _elided_after(decision, log) or _own_script_count(decision) or \
            (decision.rule == "job.failed" and not _system_named(claim, decision.line)):
        return None
    if decision.answer == SHOWN and _push_not_the_work(claim, decision, frame, log):
        return None
    if decision.answer != CONTRADICTED:
        return decision
    if _no_test_failed(decision, log) or _deleted_after_update(decision, frame, log):
        return None
    if _admits_count(claim, decision) or _fallback(decision, log) or \
            _quotes_another(claim, decision, log) or _compile_not_image(claim, decision):
        return None
    return decision


def _push_not_the_work(claim, decision, frame, log):
    """True if a push's (or a commit and push's) `shown` may not be the work's: the latest
    push sent only tags (`[new tag]`, `refs/tags/v1.4.1`) and the claim names no tag, it
    sent another branch than the commit's, or a commit came after it."""
    pushes = log.of(ev.PUSH)
    if decision.rule not in ("push.updated", "push.exit-zero", "commit.made") or not pushes:
        return False
    if decision.rule == "commit.made" and ev.PUSH not in frame.kinds:
        return False
    last = pushes[-1]
    parts = [name for name, state, line in last.parts if state in ("updated", "new")]
    branch = decision.event.get("branch") if decision.event is not None else ""
    if decision.rule == "commit.made" and branch and parts and branch not in parts:
        return True  # the push sent another branch than the commit's
    tags_only = bool(last.parts) and all(_TAG_REF.search(name) or _TAG_REF.search(line)
                                         for name, _, line in last.parts)
    if (tags_only or (not parts and any(_TAG_REF.search(o) for o in last.objects))) and \
            not _TAG_WORD.search(claim):
        return True
    return any(e.turn > last.turn and e.outcome == ev.PASSED for e in log.of(ev.COMMIT))


def _no_test_failed(decision, log):
    """True if the failing test run's own count shows no test failed and the run printed a
    coverage threshold not met (Jest's `coverage threshold for lines (80%) not met`,
    vitest's `Coverage for lines ... does not meet`, JaCoCo's `lines covered ratio is 0.71,
    but expected minimum is 0.80`): the threshold made its
    status, its tests passed. A package that failed to build (`FAIL ... [build failed]`)
    counts no test either, so the threshold's own line is needed."""
    event = decision.event
    return decision.rule == "tests.failed" and event is not None and \
        event.counts is not None and event.counts[0] > 0 and event.counts[1] == 0 and \
        any(_THRESHOLD.search(line) for line in log.lines[event.turn])


def _deleted_after_update(decision, frame, log):
    """True if a push claim that names no branch is held against a latest push that only
    deleted a ref, where an earlier push updated a branch."""
    if decision.rule != "push.deleted" or frame.branches:
        return False
    return any(state in ("updated", "new") for e in log.of(ev.PUSH) for _, state, _ in e.parts)


def _system_named(claim, line):
    """True if the claim names no CI system, or names only the one whose job word `line`
    is."""
    line = decide_t9._ESCAPES.sub("", line).strip()
    system = next((name for name, end in _FAILED_END if end.match(line)), None)
    named = {name for name, word in _SYSTEMS if word.search(claim)}
    return not named or named == {system}


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
    if event is None or event.counts is None or not _PASS_WORD.search(claim):
        return False
    for found in _SOME_OF.finditer(claim):
        n, m = int(found.group("n")), int(found.group("m"))
        if n < m and event.counts[0] == n:
            return True
    return False


def _fallback(decision, log):
    """True if the failing install or build ran in a turn with another of the same kind
    (`npm ci || npm install`, `npm ci; npm install`), came before it or failed on the line
    the one before it printed, and the turn recorded no exit status above 0: the later
    one's own end is not read apart."""
    event = decision.event
    if event is None or event.family not in (ev.INSTALL, ev.BUILD) or \
            (event.status is not None and event.status > 0):
        return False
    same = [e for e in log.events if e.turn == event.turn and e.family == event.family]
    place = next((i for i, e in enumerate(same) if e is event), len(same))
    earlier_line = any(e.line == event.line for e in same[:place])  # its failure is theirs
    return len(same) > 1 and (place < len(same) - 1 or earlier_line) and \
        all(e.status is None or e.status == 0 for e in same)


def _compile_not_image(claim, decision):
    """True if a claim that the code compiles is held against an image build's failure: an
    image build may fail on what compiles nothing (a registry, the network, a base image)."""
    event = decision.event
    return event is not None and event.family == ev.BUILD and \
        event.operation in IMAGE_BUILDS and _COMPILES.search(claim) is not None and \
        not _IMAGE_CLAIM.search(claim)


def _quotes_another(claim, decision, log):
    """True if the claim quotes a command ("the build (npm run build) succeeded") that the
    log ran word for word, and the failing command is another (`npm run build:electron` is
    not `npm run build`)."""
    event = decision.event
    if event is None or not event.command or event.turn >= len(log.commands):
        return False
    quoted = [tuple((a or b).strip().strip("`").split()) for a, b in
              _QUOTED_COMMAND.findall(claim)]
    runs = {command: [tuple([run.program, *run.args]) for run in shell.parse(command).runs]
            for command in log.commands}
    ran = [q for q in quoted if len(q) >= 2 and any(q in words for words in runs.values())]
    return bool(ran) and not any(q in runs[log.commands[event.turn]] for q in ran)
