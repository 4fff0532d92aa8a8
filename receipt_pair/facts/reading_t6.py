"""Table t6's reading of a log: t5's reading (reading_t5.py), and two facts t5 read wrongly
(sets 5 to 7, development data).

- Gradle's test tasks by their own names. Android's unit tests of a variant
  (`testDebugUnitTest`, `:app:testReleaseUnitTest`), its device tests
  (`connectedDebugAndroidTest`) and a module's tests (`:core:test`, `clean test`) run
  tests as `gradle test` does. t5 knew a test run only where the first task was `test`,
  `check` or `connectedCheck`, so `./gradlew testDebugUnitTest` ran no tests, and read
  `./gradlew test -x test` (the test task excluded) as a run that passed.
- Which files an edit changed, where the agent's log names them only inside the tool's
  rendering: Cursor's `{"rendering": "Edit file: e2e/tests/x.spec.ts"}`, Gemini CLI's
  `"content": "Path: \\`app/src/X.kt\\` ..."`. t5 took the rendering for the path, so an
  edit of a report (`FINAL_REPORT.md`) counted as an edit of code and made every run
  before it stale. A patch the agent writes out (`git diff > model_patch.diff`) is likewise
  no file a run uses.
"""

import re
from dataclasses import dataclass, replace

from . import files, reading_t4, reading_t5, tests
from .decision import matters
from .events import EDIT
from ..patterns import lazy

# A gradle task that runs tests, by its last name (`:app:testDebugUnitTest` ->
# testDebugUnitTest): `test`, a variant's unit tests, a device's tests, `check`. Not
# `testClasses` or `compileTestKotlin`: they only compile the tests.
_GRADLE_TEST_TASK = lazy(r"^(?:test|check|connectedCheck|test[A-Z]\w*UnitTest|"
                         r"connected[A-Z]?\w*AndroidTest)$")
# Gradle's options that take a value (their value is no task).
_GRADLE_VALUE = {"-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-g",
                 "--gradle-user-home", "-i", "--init-script", "-x", "--exclude-task",
                 "--max-workers", "--console", "--warning-mode", "-D", "-P"}


@dataclass
class LogT6(reading_t5.LogT5):
    """A Log read by table t6."""

    @staticmethod
    def matters(path):
        """True if an edit of `path` can change what a run shows: a README cannot
        (decision.matters), nor a patch or diff written out."""
        return matters(path) and not _WRITTEN_PATCH.search(path.strip().strip("'\""))


LOG = LogT6  # the class of the logs this module reads (table.py)
_WRITTEN_PATCH = lazy(r"\.(?:diff|patch)$", re.I)


def gradle_tasks(args):
    """(the tasks a gradle command line names, the tasks it excludes with `-x`), in order."""
    tasks, excluded, value_of = [], [], None
    for word in args:
        if value_of is not None:
            if value_of in ("-x", "--exclude-task"):
                excluded.append(word)
            value_of = None
            continue
        if word.startswith("-"):
            value_of = word if word in _GRADLE_VALUE else None
            continue
        tasks.append(word)
    return tasks, excluded


def runs_tests(step):
    """t5's reading of which tests a step runs (tests.test_run), with gradle's test tasks
    read by their own names: a run of every test task it names that `-x` does not exclude
    (none left: it runs nothing)."""
    if step.program != "gradle":
        return tests.test_run(step)
    tasks, excluded = gradle_tasks(step.args)
    named = [t.rsplit(":", 1)[-1] for t in tasks if _GRADLE_TEST_TASK.match(t.rsplit(":", 1)[-1])]
    if not named:
        return None
    left = [t for t in named if t not in {x.rsplit(":", 1)[-1] for x in excluded}]
    low = [a.lower() for a in step.args]
    part = tuple(step.args[i + 1] for i, a in enumerate(low[:-1]) if a == "--tests")
    nothing = not left or any(a in ("--dry-run", "-m", "--help", "-h", "--version")
                              for a in low)
    return tests.TestRun("gradle test", part, nothing)


def _read_tests(read, taken):
    return reading_t4.read_tests(read, taken, runs_tests)


READERS = (_read_tests,) + reading_t4.READERS[1:]


def read_events(turns, readers=None, log_class=LogT6):
    """The LogT6 of `turns` (Turns, oldest first); a later table's reading may give its own
    family `readers` and `log_class` (a LogT6)."""
    log = reading_t5.read_events(turns, readers or READERS, log_class)
    log.events = [_named_edit(event, log) if event.family == EDIT else event
                  for event in log.events]
    return log


# What a rendering says of the file an edit tool changed.
_RENDERED_PATH = lazy(r"^\s*(?:Edit|Create|Write|Update|Delete)\s+file:\s*(\S.*?)\s*$", re.I)
_CONTENT_PATH = lazy(r"^\s*Path:\s*`([^`\n]+)`")


def _named_edit(event, log):
    """An edit tool's event with the file its rendering names, where t5 read none."""
    if not any(o.startswith("{") or o == "*" for o in event.objects):
        return event
    value = files.tool_input(log.commands[event.turn])
    if value is None:
        return event
    for key, pattern in (("rendering", _RENDERED_PATH), ("content", _CONTENT_PATH)):
        text = value.get(key)
        found = pattern.match(text) if isinstance(text, str) else None
        if found:
            return replace(event, objects=(found.group(1),))
    return event
