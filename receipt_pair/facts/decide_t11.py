"""Decision table t11: table t10's decisions on t11's reading of the log
(reading_t11.py), with what t10 decided wrongly on set 12 (development data since run 12).
Its decisions only take an answer away (to the models).
docs/facts.md says each with examples.

- An image build's `shown` is the models' where the claim names an image ("the api image",
  "the image for the web service"), a version or a quoted name the build's tags and paths
  do not name, where it speaks of several images and one was built, or where another image
  build of the log failed.
- A claim that says what the failing step itself printed before it failed ("the
  provenance statement was signed and published to the transparency log" over npm's
  `Provenance statement published to transparency log`, then `npm error 404`) is not
  contradicted by that failure: the part it claims happened.
- A claim of how many tests passed, and no more ("1039 tests passed", "in the full
  regression suite": not "all", not "only"), whose number is exactly the count of passed
  tests the latest run printed, is not contradicted by that run's failures: what it says
  is what the run printed. It is the models' to weigh.
- A build or deploy claim that names a task ("the Gradle wrapper task finished") that
  another command of the same program ran as its own task (`./gradlew wrapper`) is not
  contradicted by the failure of a command that names no word of the claim (`./gradlew
  assembleDebug`).
"""

import re

from . import decide_t10, events as ev, shell
from .reading_t11 import IMAGE_BUILDS
from .decision import CONTRADICTED, SHOWN
from ..patterns import lazy

VERSION = "t11"

# Words of a claim that say nothing of what it is about.
_PLAIN_WORDS = frozenset("""
a an the and or of to in on at by for with from into onto as is are was were be been being it
its this that these those all every each both any some no not now still also just then than
has have had do does did done so successfully success successful fully properly correctly
i we you they he she my our your their me us them which who what when where there here
""".split())
# "1039 tests passed": a count of passed tests and nothing more.
_COUNT_ONLY = lazy(r"^\W*(?P<n>\d{1,6})\s+(?:[\w-]+\s+)?tests?\s+(?:passed|pass|passing|"
                   r"succeeded)\b(?P<rest>.*)$", re.I)
# Words that make a count a claim of the whole ("all", "every", "only", "none failed").
_WHOLE = lazy(r"\b(?:all|every|each|only|none|no|zero|0|fail\w*|error\w*|green|clean)\b", re.I)
# Generic words of a build or deploy claim: they name no task or part.
_GENERIC = frozenset("""
build builds built building compile compiles compiled compiling image images docker container
deploy deploys deployed deploying deployment release released publish published package
packaged project code app application finished completed succeeded passes passed pass
task tasks step job run ran works worked clean cleanly without errors error warnings
""".split())
_WORD = lazy(r"[A-Za-z][A-Za-z0-9_-]{3,}")
# The image builds, and the words of a claim about one that name no image.
_IMAGE_WORDS = frozenset("""
docker container oci image images for of named called the a an and new final two three four
five six both all each every
""".split())
# The words of a claim that name its image: a list before "image(s)" ("the api and web
# images"), or a name after it ("the image for api").
_IMAGE_NAMED = (lazy(r"(?:[\w.:/-]+\s*(?:,|\band\b)\s*)*[\w.:/-]+\s+(?:(?:docker|oci)\s+)?"
                     r"(?:images?|containers?)\b", re.I),
                lazy(r"\b(?:images?|containers?)\s+(?:for|of|named|called)\s+(?:the\s+)?"
                     r"[`'\"]?[\w.:/-]+", re.I),
                lazy(r"\bfor\s+(?:the\s+)?[\w.:/-]+\s+(?:service|app|application|component|"
                     r"container|api|server|worker)\b", re.I))
# A claim of several images.
_SEVERAL = lazy(r"\b(?:images|containers|both|all\s+(?:the\s+)?(?:docker\s+)?images)\b", re.I)
_QUOTED = lazy(r"[`'\"]([A-Za-z0-9][\w./:@-]*)[`'\"]")
# A commit's own line (`[main 1a2b3c4] message`), and a line of work under way.
_COMMIT_LINE = lazy(r"^\s*\[[\w./-]+(?: \(root-commit\))? [0-9a-f]{7,40}\]")
_UNDER_WAY = lazy(r"^\W*[A-Za-z]+ing\b|\.\.\.|\u2026")
# A line that says what was done was undone.
_UNDONE = lazy(r"\broll(?:ed|ing)?[ -]?back\b|\brevert(?:ed|ing)?\b|\bundone\b", re.I)
# A word that says a thing happened ("published", "deployed", "signed").
_DONE = lazy(r"^[a-z]{3,}ed$")
# A build tool's own word that it failed.
_TURN_FAILED = lazy(r"\bBUILD FAIL(?:ED|URE)\b|^FAILURE: |^npm (?:ERR!|error) |^make(?:\[\d+\])?: \*\*\*|"
                    r"^error(?:\[\w+\])?: |^ERROR: ")
# The joints of a claim of several things.
_SEVERAL_THINGS = lazy(r"\band\b|\bthen\b|[;,]|\bplus\b", re.I)
# Where a count was (the only words a bare count may carry after it).
_WHERE = lazy(r"^\s*(?:(?:in|across|on|from)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,3})?\W*$",
              re.I)
# A line that says something failed restates no claim of success.
_FAILURE_WORDS = lazy(r"\b(?:fail\w*|error\w*|not|no|cannot|can't|unable|denied|refused|"
                      r"rejected|abort\w*|invalid|missing|skipp\w*)\b", re.I)


def read_frame_t11(plain, frame=None):
    """Table t11's frame of a claim with plain quotes: t10's."""
    return decide_t10.read_frame_t10(plain, frame)


def decide(claim, turns, log, frame):
    """The Decision table t11 gives for `claim` (with plain quotes; `frame`: t11's frame of
    it), or None. `log` is t11's reading of the turns (table.decide reads it once)."""
    decision = decide_t10.decide(claim, turns, log, frame)
    if decision is None:
        return None
    if decision.answer == SHOWN and _another_image(claim, decision, log):
        return None
    if decision.answer != CONTRADICTED:
        return decision
    if _restates_a_line(claim, decision, log) or _count_printed(claim, decision) or \
            _names_another_task(claim, decision, log):
        return None
    return decision


def _another_image(claim, decision, log):
    """True if an image build's `shown` may be another image's: the claim names an image
    ("the api image", "the image for the web service", "the api container") or a version or
    a quoted name that the build's tags and paths do not name, speaks of several images
    ("the images", "both images") where one was built, or another image build of the log
    failed after all."""
    event = decision.event
    if event is None or event.family != ev.BUILD or event.operation not in IMAGE_BUILDS:
        return False
    builds = [e for e in log.of(ev.BUILD) if e.operation in IMAGE_BUILDS]
    if any(e.outcome == ev.FAILED for e in builds) or (
            _SEVERAL.search(claim) and len({e.command for e in builds}) < 2):
        return True
    named = set(re.split(r"[^a-z0-9]+", " ".join(_named_by(event.command)).lower())) - {""}
    names = set()
    for pattern in _IMAGE_NAMED:
        for found in pattern.finditer(claim):
            names.update(w.lower() for w in re.findall(r"[A-Za-z0-9][\w.-]*", found.group(0)))
    names |= {w.lower() for w in _QUOTED.findall(claim)}
    names |= {v for v in re.findall(r"\d+(?:\.\d+)*", claim)}
    words = set()
    for name in names - _IMAGE_WORDS - _PLAIN_WORDS:
        words.update(w for w in re.split(r"[^a-z0-9]+", name.lower()) if w)
    return any(w not in named for w in words)


def _named_by(command):
    """The words of an image build that name what it builds: its tags (`-t acme/web:2.0`),
    its Dockerfile (`-f api.Dockerfile`), its target and its context path; not its build
    arguments."""
    runs = shell.parse(command).runs
    args = list(runs[0].args) if runs else []
    found, skip = [], None
    for word in args:
        if skip is not None:
            if skip in ("-t", "--tag", "-f", "--file", "--target"):
                found.append(word)
            skip = None
        elif word.startswith("-"):
            if "=" in word:
                if word.split("=", 1)[0] in ("--tag", "--file", "--target"):
                    found.append(word.split("=", 1)[1])
            else:
                skip = word
        elif word != "build":
            found.append(word)
    return found


def _content_words(text):
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in _PLAIN_WORDS]


def _restates_a_line(claim, decision, log):
    """True if at least three of the claim's own words, and four in five of them, stand
    as words in one line the failing step itself printed before its failure, in a turn
    that ran that step alone, and the line says no failure and is no commit's own line."""
    words = set(_content_words(claim))
    event = decision.event
    runs = shell.parse(log.commands[event.turn]).runs if event is not None else []
    if len(words) < 3 or event is None or event.outcome == ev.ECHO or len(runs) != 1 or \
            re.search(rf"\b{re.escape(runs[0].program)}\b", claim, re.I):
        return False  # several steps, or a claim that names the failing program itself
    done = {w for w in words if _DONE.match(w)}  # it says it happened: "published", "signed"
    lines = log.lines[event.turn]
    if any(_UNDONE.search(line) for line in lines):
        return False
    end = event.line_index if event.line_index >= 0 else len(lines)
    for line in lines[:end]:
        if _FAILURE_WORDS.search(line) or _COMMIT_LINE.match(line) or _UNDER_WAY.search(line):
            continue
        have = set(_content_words(line))
        if 5 * sum(w in have for w in words) >= 4 * len(words) and (done & have):
            return True
    return False


def _count_printed(claim, decision):
    """True if the claim only says how many tests passed (and where: "in the full
    regression suite"), and that is exactly the count of passed tests the deciding run
    printed."""
    found = _COUNT_ONLY.match(claim)
    event = decision.event
    if found is None or event is None or event.counts is None or _WHOLE.search(claim) or \
            not _WHERE.match(found.group("rest")):
        return False
    return event.counts[0] == int(found.group("n")) and event.counts[1] > 0


def _names_another_task(claim, decision, log):
    """True if a build or deploy claim names a task ("the Gradle wrapper task") that another
    command of the failing step's program ran as its own task (its first word after the
    program: `./gradlew wrapper`, which did not fail) and the failing command names no word
    of the claim, where the claim says one thing ("Ran npm install and the build passes"
    still claims the build)."""
    event = decision.event
    if event is None or event.family not in (ev.BUILD, ev.DEPLOY) or not event.command:
        return False
    runs = shell.parse(event.command).runs[:1]
    if not runs:
        return False
    name = runs[0].program
    failing = " ".join(runs[0].args).lower()
    words = {w for w in _content_words(claim) if w not in _GENERIC}
    if any(w in failing for w in words) or _SEVERAL_THINGS.search(claim):
        return False  # it names the failing command's own task too, or says two things
    for turn, command in enumerate(log.commands):
        if turn == event.turn or any(e.turn == turn and e.outcome == ev.FAILED
                                     for e in log.events) or _turn_failed(log, turn):
            continue
        for step in shell.parse(command).runs:
            task = _task(step)
            if step.program == name and task and task.lower().rsplit(":", 1)[-1] in words:
                return True
    return False


def _turn_failed(log, turn):
    """True if a turn's own lines end in a build tool's word that it failed (`BUILD
    FAILED`, `FAILURE: Build failed`, `npm error`, `make: *** ... Error`)."""
    return any(_TURN_FAILED.search(line) for line in log.lines[turn])


def _task(step):
    """A step's first word after its program that is no option and no option's value."""
    args = list(step.args)
    for index, word in enumerate(args):
        if not word.startswith("-") and (index == 0 or not args[index - 1].startswith("-")):
            return word
    return ""
