"""Table t2's guards: each event t1's readers give, looked at again for what t1 read
wrongly (the red-team round of attack/REPORT.md). Each guard but the last only says of an
event that it ran nothing, failed, was masked, was a dry run or ran a part; the last gives
a pipeline's runner the status the line itself says is its own.

- a project script (`npm test`, `npm run build`) whose script only echoes or exits, by
  npm's own header (`> echo "no test specified"`) or package.json as the log showed it, or
  `--if-present` with no such script, ran nothing;
- gradle's test tasks all NO-SOURCE, dotnet's "No test is available" and ctest's "No
  tests were found" ran no test;
- tox's own summary of an environment ("py311: FAIL code 1") is a failure, status or not;
- what narrows a run: tests left out (`--ignore`, `--deselect`, `--skip`, `--exclude`),
  a selection given through PYTEST_ADDOPTS, "N deselected" in the runner's summary, the
  folder it ran in, tox's or nox's environments (the decision compares these with the run
  that failed: decide_t2.py);
- apt's simulations (`-s`, `--simulate`, `--dry-run`, `--just-print`) install nothing;
- a linter told `--exit-zero` that printed its findings failed;
- `trap 'exit 0' EXIT` makes every status in the line 0: masked;
- `exit ${PIPESTATUS[0]}` makes a pipeline's first status the line's: its own.
"""

import json
import re
from dataclasses import replace

from . import shell
from .endings import CUT_STATUSES
from .events import (CUT, FAILED, INSTALL, LINT, MASKED, NOTHING, PASSED, TESTS, UNKNOWN)
from .words import split_words
from ..patterns import lazy


def not_a_run(event, why):
    """`event` read as a run of nothing, saying why."""
    return replace(event, outcome=NOTHING, line="", line_index=-1,
                   detail=event.detail + (("not-a-run", why),))


def guard(read, step, event, log, exported):
    """`event` (of `step`, one step of `read`) as table t2 reads it. `log` holds the turns
    read before; `exported` what they exported."""
    if step is None:
        return event
    if event.family in (TESTS, "build", LINT, "typecheck"):
        event = _script_nothing(read, step, event, log)
    if event.family == TESTS:
        event = _no_test_source(read, event)
        event = _tox_failed(read, event)
        event = _narrowing(read, step, event, exported)
    elif event.family == INSTALL:
        event = _apt_simulated(step, event)
    elif event.family == LINT:
        event = _exit_zero(read, step, event)
    event = _trapped(read, step, event)
    return _pipestatus(read, step, event)


# -- scripts that run nothing ---------------------------------------------------------------

_SCRIPT_TOOLS = ("npm", "yarn", "pnpm", "bun")
# npm's and pnpm's header: "> app@1.0.0 test" then "> the script"; yarn's "$ the script".
_NPM_HEADER = lazy(r"^>\s+\S+@\S*\s+\S+")
_NPM_SCRIPT = lazy(r"^>\s+(?P<script>.+)$")
_YARN_SCRIPT = lazy(r"^\$\s+(?P<script>\S.*)$")


def _script_nothing(read, step, event, log):
    if step.program not in _SCRIPT_TOOLS or event.outcome not in (PASSED, UNKNOWN) or \
            event.counts is not None:
        return event
    scripts = _header_scripts(read.lines)
    if not scripts and "--if-present" in step.args and not any(
            line.strip() for line in read.lines):
        return not_a_run(event, "no-script")
    if not scripts:
        name = event.key.split(":", 1)[1] if event.key.startswith("script:") else ""
        shown = _package_script(log, name) if name else None
        scripts = [shown] if shown is not None else []
    if scripts and all(_runs_nothing(s) for s in scripts):
        return replace(not_a_run(event, "script-echoes"), line=scripts[-1][:200])
    return event


def _header_scripts(lines):
    """The scripts npm's, pnpm's or yarn's header says a run ran."""
    found = []
    for index, line in enumerate(lines):
        text = line.strip()
        if _NPM_HEADER.match(text) and index + 1 < len(lines):
            script = _NPM_SCRIPT.match(lines[index + 1].strip())
            if script:
                found.append(script.group("script"))
        elif index < 3 and _YARN_SCRIPT.match(text):
            found.append(_YARN_SCRIPT.match(text).group("script"))
    return found


def _package_script(log, name):
    """The script `name` as the latest view of package.json in the log showed it, or None."""
    wanted = re.compile(r'^\s*"' + re.escape(name) + r'"\s*:\s*"(?P<value>(?:[^"\\]|\\.)*)"')
    for index in range(len(log.lines) - 1, -1, -1):
        if "package.json" not in log.commands[index]:
            continue
        for line in log.lines[index]:
            found = wanted.match(line)
            if found:
                try:
                    return json.loads('"' + found.group("value") + '"')
                except ValueError:
                    return None
    return None


def _runs_nothing(script):
    """True if a script runs nothing but echoes and exits (`echo "no test"`, `exit 0`)."""
    line = shell.parse(script)
    return not line.runs or line.echoes_only


# -- runs of no test ------------------------------------------------------------------------

_GRADLE_TASK = lazy(r"^>\s*Task\s+:(?:[\w.-]+:)*(?P<task>\w+)(?:\s+(?P<state>[A-Z-]+))?\s*$")
_GRADLE_TEST_TASK = lazy(r"^(?:\w*[tT]est|check)$")
_NONE_FOUND = lazy(r"^(?:No test is available in |No test matches the given testcase filter|"
                   r"No tests were found!*$)")


def _no_test_source(read, event):
    if event.outcome != PASSED or event.counts is not None:
        return event
    states = [m.group("state") or "" for m in (_GRADLE_TASK.match(l.strip()) for l in read.lines)
              if m and _GRADLE_TEST_TASK.match(m.group("task"))]
    none = next((l.strip() for l in read.lines if _NONE_FOUND.match(l.strip())), "")
    if states and all(s in ("NO-SOURCE", "SKIPPED") for s in states):
        none = [m.group(0).strip() for m in (_GRADLE_TASK.match(l.strip()) for l in read.lines)
                if m and _GRADLE_TEST_TASK.match(m.group("task"))][-1]
    if none:
        return replace(not_a_run(event, "no-tests"), line=none)
    return event


# -- tox's own summary -----------------------------------------------------------------------

_TOX_FAILED = lazy(r"^\s*(?:[\w.-]+: FAIL\b|ERROR:\s+[\w.-]+: (?:commands failed|"
                   r"InvocationError)|nox > Session \S+ failed|evaluation failed :\()")


def _tox_failed(read, event):
    if event.key not in ("tox", "nox") or event.outcome == FAILED:
        return event
    for index, line in enumerate(read.lines):
        if _TOX_FAILED.match(line):
            return replace(event, outcome=FAILED, line=line.strip(), line_index=index)
    return event


# -- what narrows a run ----------------------------------------------------------------------

# Options that leave tests out of a run.
_LEAVES_OUT = {"--ignore", "--ignore-glob", "--deselect", "--sw", "--stepwise", "--sw-skip",
               "--stepwise-skip", "--exclude", "--skip", "--testpathignorepatterns",
               "--exclude-tag", "--exclude-dir", "--excludetags"}
# pytest's options that select a part, as PYTEST_ADDOPTS may carry them.
_SELECTS = {"-k", "-m", "--lf", "--last-failed", "--deselect", "--ignore", "--ignore-glob",
            "--sw", "--stepwise", "--sw-skip", "--stepwise-skip"}
_DESELECTED = lazy(r"\b([1-9]\d*) deselected\b")
_ENV_OPTIONS = {"-e", "--env", "-s", "--session", "--sessions"}


def _narrowing(read, step, event, exported):
    detail = []
    names = [a.lower().split("=", 1)[0] for a in step.args]
    if any(n in _LEAVES_OUT for n in names):
        detail.append(("narrowed", "left-out"))
    before = read.line.steps[:_index(read.line, step)]
    addopts = assignments(step).get("PYTEST_ADDOPTS", exports(before).get(
        "PYTEST_ADDOPTS", exported.get("PYTEST_ADDOPTS", "")))
    if _selects(addopts):
        detail.append(("narrowed", "addopts"))
    deselected = [int(m.group(1)) for m in map(_DESELECTED.search, read.lines) if m]
    if deselected:
        detail.append(("deselected", str(deselected[-1])))
    places = [shell.positional(s.args) for s in before if s.program in ("cd", "pushd")]
    if places and places[-1]:
        detail.append(("place", places[-1][0]))
    if event.key in ("tox", "nox"):
        envs = _envs(step.args) or assignments(step).get("TOXENV", exported.get("TOXENV", ""))
        if envs:
            detail.append(("envs", envs))
    return replace(event, detail=event.detail + tuple(detail)) if detail else event


def _selects(addopts):
    try:
        words = split_words(addopts or "")
    except ValueError:
        words = (addopts or "").split()
    return any(w.split("=", 1)[0] in _SELECTS or re.match(r"^-[km]\S", w) for w in words)


def _envs(args):
    names = []
    args = list(args)
    for index, word in enumerate(args):
        name, equals, value = word.partition("=")
        if name in _ENV_OPTIONS:
            value = value if equals else (args[index + 1] if index + 1 < len(args) else "")
        elif re.match(r"^-e\w", word):
            value = word[2:]
        else:
            continue
        names += [v for v in value.split(",") if v]
    return ",".join(names)


def _index(line, step):
    return next((i for i, s in enumerate(line.steps) if s is step), len(line.steps))


# -- dry runs, masked statuses, findings -----------------------------------------------------

_APT = ("apt", "apt-get", "aptitude")
_APT_DRY = {"-s", "--simulate", "--dry-run", "--just-print", "--recon", "--no-act"}


def _apt_simulated(step, event):
    if step.program not in _APT or event.outcome == NOTHING:
        return event
    if any(a in _APT_DRY or re.match(r"^-[a-z]*s[a-z]*$", a) for a in step.args):
        return replace(event, outcome=NOTHING, line="", line_index=-1,
                       detail=event.detail + (("dry_run", "yes"),))
    return event


_FINDING = lazy(r"^\S+:\d+:\d+:?\s+[A-Z]+\d+\b")


def _exit_zero(read, step, event):
    if "--exit-zero" not in step.args or event.outcome != PASSED:
        return event
    for index, line in enumerate(read.lines):
        if _FINDING.match(line.strip()):
            return replace(event, outcome=FAILED, line=line.strip(), line_index=index)
    return event


def _trapped(read, step, event):
    """A step after `trap 'exit 0' EXIT` (or ERR) in its line: its status is masked."""
    if event.outcome != PASSED or event.status_is not in ("own", "shared"):
        return event
    for earlier in read.line.steps[:_index(read.line, step)]:
        if earlier.program == "trap" and len(earlier.args) > 1 and re.search(
                r"\bexit\s+0\b", earlier.args[0]) and set(earlier.args[1:]) & {
                "EXIT", "ERR", "0", "SIGEXIT"}:
            return replace(event, outcome=MASKED, status_is="masked")
    return event


_PIPESTATUS = lazy(r"^\$\{?PIPESTATUS\[(\d+)\]\}?$")


def _pipestatus(read, step, event):
    """A step of the pipeline `exit ${PIPESTATUS[k]}` ends the line with: its status."""
    if event.outcome != MASKED:
        return event
    steps = read.line.steps
    here = _index(read.line, step)
    end = here
    while end + 1 < len(steps) and steps[end].after in ("|", "|&"):
        end += 1
    start = here
    while start > 0 and steps[start - 1].after in ("|", "|&"):
        start -= 1
    after = steps[end + 1] if end + 1 < len(steps) else None
    if after is None or after.program != "exit" or steps[end].after not in (";", "\n") or \
            end + 2 < len(steps):
        return event
    found = _PIPESTATUS.match(after.args[0] if after.args else "")
    if not found or int(found.group(1)) != here - start:
        return event
    status = read.turn.exit_status
    if status is None or status < 0:
        return event
    outcome = PASSED if status == 0 else CUT if status in CUT_STATUSES else FAILED
    return replace(event, outcome=outcome, status_is="own")


# -- what a line sets ----------------------------------------------------------------------

_KEPT = ("PATH", "PYTEST_ADDOPTS", "TOXENV")


def assignments(step):
    """The variables a step sets for itself (`PYTEST_ADDOPTS='-k x' pytest`)."""
    found = {}
    for word in raw_words(step):
        name, equals, value = word.partition("=")
        if not equals or not re.match(r"^[A-Za-z_]\w*$", name):
            break
        found[name] = value
    return found


def exports(steps):
    """The variables of _KEPT that `steps` export or set for the steps after them."""
    found = {}
    for step in steps:
        words = raw_words(step)
        if words[:1] == ["unset"]:
            found.update((w, "") for w in words[1:] if w in _KEPT)
            continue
        if words[:1] in (["export"], ["declare"], ["typeset"]):
            words = [w for w in words[1:] if not w.startswith("-")]
        elif not words or "=" not in words[0] or step.words:
            continue  # `PATH=x pytest` sets PATH for pytest alone
        for word in words:
            name, equals, value = word.partition("=")
            if equals and name in _KEPT:
                found[name] = value
    return found


def raw_words(step):
    """A step's words as written, prefixes and assignments kept."""
    try:
        words = split_words(step.text)
    except ValueError:
        words = step.text.split()
    while words and words[0] in ("{", "(", "!", "then", "do", "else", "if", "while", "time"):
        words.pop(0)
    return words
