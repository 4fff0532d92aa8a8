"""The table's rules for what a claim says is in place: packages installed, deploys and
migrations, files that exist, the folder, the commit at HEAD, a clean tree, and a named
program that failed."""

import re

from . import events as ev
from .decision import (CONTRADICTED, Decision, combine, contradicted, fits_names, last_of,
                       mentions, names_token, not_shown, shown)
from .frame import HEDGED, SUCCESS
from ..patterns import lazy

# -- installs, deploys, migrations ------------------------------------------------------


def _missing(frame, log):
    """The latest run of a program the claim says was installed, when it was not found."""
    for package in frame.packages:
        runs = [e for e in log.of(ev.COMMAND) if e.operation.rsplit(" ", 1)[-1] == package]
        if runs and runs[-1].outcome == ev.FAILED and "not found" in runs[-1].line.lower():
            return runs[-1]
    return None


def install(frame, log):
    missing = _missing(frame, log)
    if missing is not None:
        return contradicted(frame, "install.missing", missing)
    installs = log.of(ev.INSTALL)
    if not installs:
        if mentions(log, re.compile(r"install|\bsetup\b|\bpip\b|\bnpm\b|\bapt\b|requirements|"
                                     r"\bimport\b|\brequire\(|--version|\bwhich\b", re.I)):
            return None  # something may have installed it that plain code does not know
        return not_shown("install.never-ran")
    wanted = {p.lower() for p in frame.packages}
    if wanted:
        relevant = [e for e in installs if wanted & {o.lower() for o in e.objects} or
                    wanted & {p[0] for p in e.parts}]
        if not relevant:
            return None
    else:
        relevant = installs
    latest = relevant[-1]
    if latest.outcome == ev.FAILED:
        return contradicted(frame, "install.failed", latest)
    reported = [p for p in latest.parts if not wanted or p[0] in wanted]
    if reported and latest.outcome != ev.FAILED:
        return shown(frame, "install.done", latest, reported[-1][2])
    if latest.outcome == ev.PASSED:
        return shown(frame, "install.done", latest)
    return None


# A command that deploys to several places at once (a loop over regions): which failed is
# not the event's to say.
_REGIONS = lazy(r"\bfor\s+\w+\s+in\b|\$\w+|\$\{", re.I)


def deploy(frame, log):
    deploys = log.of(ev.DEPLOY)
    if not deploys:
        return None
    subject = re.search(r"([\w@/.-]+)\s+v?\d+\.\d+", frame.claim)
    if subject and not subject.group(1).lower() in ("version", "to", "of", "is", "at"):
        deploys = [e for e in deploys if names_token(e.command + " " + e.line,
                                                      subject.group(1))]
    wanted = list(frame.envs) or [None]
    found = []
    for env in wanted:
        relevant = [e for e in deploys if env is None or env in e.objects]
        if not relevant:
            return None
        real = [e for e in relevant if e.get("dry_run") != "yes"]
        if not real:
            found.append(not_shown("deploy.dry-run", relevant[-1]))
            continue
        latest = real[-1]
        if not fits_names(frame, latest) or _REGIONS.search(latest.command):
            return None  # another version, or several places in one command
        if latest.outcome == ev.FAILED:
            found.append(contradicted(frame, "deploy.failed", latest))
        elif latest.outcome == ev.PASSED and (latest.line or latest.status_is == "own"):
            found.append(shown(frame, "deploy.done", latest))
        else:
            return None
    return combine(found, frame)


_IDENTIFIER = lazy(r"`([^`\s]{3,80})`|\b([A-Za-z][\w-]*_[\w-]+|[a-z]+-[a-z][\w-]*)\b")


def _names_in(frame, log, event):
    """True if every identifier the claim names (add_vat_number, `web-api`) and every
    environment it names stands in the event's turn."""
    text = log.texts[event.turn].lower()
    names = [a or b for a, b in _IDENTIFIER.findall(frame.claim)]
    return all(n.lower() in text for n in names) and all(e in text for e in frame.envs)


def migrate(frame, log):
    latest = last_of(log.of(ev.MIGRATE))
    if latest is None or not _names_in(frame, log, latest):
        return None
    if latest.outcome == ev.FAILED:
        return contradicted(frame, "migrate.failed", latest)
    if latest.outcome == ev.PASSED:
        return shown(frame, "migrate.done", latest)
    return None


# -- state ------------------------------------------------------------------------------------


def _looks(log, path, fits=None):
    """[(event, "listed" | "missing", line)] of every read of state that names `path`; with
    `fits`, a listing counts only where fits(event, listed name, path) says it can show it."""
    name = path.rstrip("/").rsplit("/", 1)[-1].lower()
    looks = []
    for event in log.of(ev.STATE):
        for part in event.parts:
            if part[1] == "listed" and part[0].lower().rstrip("/").rsplit("/", 1)[-1] == name \
                    and (fits is None or fits(event, part[0], path)):
                looks.append((event, "listed", part[2]))
            elif part[1] == "missing" and name in part[0].lower():
                looks.append((event, "missing", part[2]))
    return looks


def file(frame, log, fits=None):
    """Files a claim says exist (created, saved, listed): the latest look at each decides,
    unless the file was changed or removed after it. `fits`: as _looks takes it."""
    if not frame.paths or len(frame.paths) > 8:
        return None
    found = []
    for path in frame.paths:
        looks = _looks(log, path, fits)
        if not looks:
            return None
        event, state, line = looks[-1]
        name = path.rstrip("/").rsplit("/", 1)[-1].lower()
        changed = [e for e in log.events if e.turn > event.turn and (
            (e.family == ev.EDIT and any(o == "*" or o.lower().rsplit("/", 1)[-1] == name
                                         for o in e.objects)) or
            (e.operation in ("rm", "mv", "git") and name in e.command.lower()))]
        if changed:
            return None
        if state == "missing":
            return contradicted(frame, "file.missing", event, line)
        found.append((event, line))
    event, line = found[-1]
    return shown(frame, "file.listed", event, line)


def cwd(frame, log):
    folders = list(dict.fromkeys(m.rstrip(".,;:`'\")") for m in re.findall(
        r"(?:^|[\s`'\"(])((?:/|~/?)[\w.-]*(?:/[\w.-]+)*)", frame.claim)))
    reads = [e for e in log.of(ev.STATE) if e.operation == "pwd" and e.outcome == ev.PASSED]
    if len(folders) != 1 or not reads:
        return None
    latest = reads[-1]
    if latest.line.rstrip("/") == folders[0].rstrip("/"):
        return shown(frame, "cwd.shown", latest)
    if frame.says == SUCCESS and not frame.content:
        return Decision(CONTRADICTED, "cwd.other", latest.turn, latest.line, latest)
    return None


def head(frame, log):
    reads = [e for e in log.of(ev.STATE) if e.operation in ("git log", "git rev-parse",
                                                              "git show") and e.parts]
    commits = [e for e in log.of(ev.COMMIT) if e.get("sha")]
    if not frame.shas or not (reads or commits):
        return None
    latest = max(reads + commits, key=lambda e: e.turn)
    head = latest.parts[0][0] if latest.family == ev.STATE else latest.get("sha")
    if any(head.startswith(s) or s.startswith(head) for s in frame.shas):
        line = latest.parts[0][2] if latest.family == ev.STATE else latest.line
        return shown(frame, "head.shown", latest, line)
    return None


def clean(frame, log):
    statuses = [e for e in log.of(ev.STATE) if e.operation == "git status" and e.get("tree")]
    latest = last_of(statuses)
    if latest is None:
        return None
    if latest.get("tree") == "clean":
        return shown(frame, "clean.clean", latest)
    return contradicted(frame, "clean.changed", latest)


def named_run(frame, log):
    """A claim of no other kind that names a program it ran ("searched with rg"): the
    latest run of that program decides a failure; its success is not the claim's whole."""
    if not frame.programs or frame.says != SUCCESS:
        return None
    for program in frame.programs:
        runs = [e for e in log.events if e.family == ev.COMMAND and
                (e.operation == program or e.operation.endswith(" " + program) or
                 e.operation.rsplit("/", 1)[-1] == program)]
        if not runs:
            continue
        latest = runs[-1]
        if latest.outcome == ev.FAILED and latest.status_is in ("own", "shared") and latest.line:
            return Decision(CONTRADICTED, "run.failed", latest.turn, latest.line, latest)
        if latest.outcome in (ev.CUT, ev.BACKGROUND):
            return not_shown("run.cut-off", latest)
    return None


def by_kinds(frame, log, rules):
    """The Decision of a claim's `frame` on `log` by a table's `rules` (kind -> rule), or
    None: a hedged claim is never decided; a claim of no kind is decided by the run of a
    program it names; else every kind's decision, combined (decision.combine)."""
    if frame.says == HEDGED:
        return None
    if not frame.kinds:
        return named_run(frame, log)
    return combine([rules[kind](frame, log) if kind in rules else None
                    for kind in frame.kinds], frame)

