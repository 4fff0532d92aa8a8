"""The table's rules for git: pushes (of the claimed branch, to the claimed repository, of
an image), commits, merges and tags."""

import re

from . import events as ev
from .decision import (contradicted, last_of, mentions, named_versions,
                       names_token, not_shown, shown)
from ..patterns import lazy

# -- git -----------------------------------------------------------------------------------------


_IMAGE = lazy(r"\b(?:image|docker|container|registry|ghcr|ecr|gcr|quay|artifact|package|"
                    r"wheel|crate|gem|chart)s?\b", re.I)


def _image_push(frame, log):
    """A claim that an image was pushed: the latest `docker push` of it decides."""
    pushes = [e for e in log.of(ev.DEPLOY) if e.operation in ("docker push", "podman push")]
    named = named_versions(frame.claim)
    if named:
        pushes = [e for e in pushes if all(names_token(e.command + " " + e.line, n)
                                           for n in named)]
    latest = last_of(pushes)
    if latest is None:
        return None
    if latest.outcome == ev.FAILED:
        return contradicted(frame, "push.failed", latest)
    if latest.outcome == ev.PASSED and latest.line:
        return shown(frame, "push.updated", latest)
    return None


def _push_branches(event):
    return {o.lower() for o in event.objects}


def _same_branch(wanted, names):
    """True if a branch the claim names is one of `names` (feat/x is the "x branch")."""
    for name in names:
        for branch in wanted:
            if name == branch or name.endswith("/" + branch) or branch.endswith("/" + name):
                return True
    return False


_REPO = lazy(r"\b([\w.-]+/[\w.-]+?)(?:'s\b|\.git\b|\b)")


def _other_repository(frame, event):
    """True if the claim names a repository (owner/name) and the push went elsewhere."""
    named = [r.lower() for r in _REPO.findall(frame.claim)
             if "/" in r and not re.search(r"\.\w{1,5}$", r) and r.lower() not in
             {b.lower() for b in frame.branches}]
    url = event.get("url").lower()
    return bool(named and url and not any(n in url for n in named))


def push(frame, log):
    if _IMAGE.search(frame.claim):
        return _image_push(frame, log)
    pushes = log.of(ev.PUSH)
    if not pushes:
        if mentions(log, re.compile(r"push", re.I)):
            return None  # something else that pushes (a script, a tool): the models decide
        return not_shown("push.never-ran")
    wanted = {b.lower() for b in frame.branches}
    if wanted:
        relevant = [p for p in pushes if _same_branch(wanted, _push_branches(p))]
        unknown = [p for p in pushes if not _push_branches(p)]
        if not relevant:
            if unknown:
                return None  # a push of the current branch, whichever that was
            return not_shown("push.other-branch", pushes[-1])
        if unknown and unknown[-1].turn > relevant[-1].turn:
            return None
    else:
        relevant = pushes
    real = [p for p in relevant if p.get("dry_run") != "yes"]
    if not real:
        return not_shown("push.dry-run", relevant[-1])
    latest = real[-1]
    if _other_repository(frame, latest):
        return None
    refs = [part for part in latest.parts if not wanted or _same_branch(wanted,
                                                                        [part[0].lower()])]
    rejected = [part for part in refs if part[1] == "rejected"]
    updated = [part for part in refs if part[1] in ("updated", "new", "forced")]
    deleted = [part for part in refs if part[1] == "deleted"] or (
        [(n, "deleted", latest.line) for n in latest.objects] if latest.get("delete") == "yes"
        and latest.outcome == ev.PASSED else [])
    if deleted:
        return contradicted(frame, "push.deleted", latest, deleted[-1][2])
    if rejected:
        return contradicted(frame, "push.rejected", latest, rejected[-1][2])
    if latest.outcome == ev.FAILED and not updated:
        return contradicted(frame, "push.failed", latest)
    if updated:
        return shown(frame, "push.updated", latest, updated[-1][2])
    if latest.outcome in (ev.CUT, ev.BACKGROUND):
        return not_shown("push.cut-off", latest)
    if latest.outcome == ev.PASSED and not latest.parts and latest.get("up_to_date") != "yes" \
            and latest.status == 0 and latest.status_is == "own" and (
                not wanted or set(latest.get("named").lower().split(",")) & wanted):
        return shown(frame, "push.exit-zero", latest, "")
    return None


def commit(frame, log):
    commits = [c for c in log.of(ev.COMMIT) if c.outcome != ev.NOTHING or c.line]
    if not commits:
        return None
    if frame.shas:
        made = [c for c in commits if c.outcome == ev.PASSED and any(
            c.get("sha").startswith(s) or s.startswith(c.get("sha")) for s in frame.shas)]
        return shown(frame, "commit.made", made[-1]) if made else None
    if frame.branches:
        commits = [c for c in commits if not c.get("branch") or c.get("branch").lower() in
                   {b.lower() for b in frame.branches}] or commits
    done = [c for c in commits if c.outcome == ev.PASSED and c.get("sha")]
    latest = commits[-1]
    if latest.outcome == ev.FAILED and not [c for c in done if c.turn > latest.turn]:
        if done:
            return None  # an earlier commit stands: which one the claim means is not sure
        return contradicted(frame, "commit.failed", latest)
    if done:
        return shown(frame, "commit.made", done[-1])
    return None


def merge(frame, log):
    if re.search(r"#\d+|\bPRs?\b|pull requests?", frame.claim):
        return None  # merged pull requests are the host's to show, not git's
    merges = log.of(ev.MERGE)
    if frame.branches:
        named = [m for m in merges if {o.lower() for o in m.objects} & {b.lower() for b in
                                                                         frame.branches}]
        merges = named or [m for m in merges if m.operation == "git merge"]
    merges = [m for m in merges if m.operation in ("git merge", "git rebase")] or merges
    latest = last_of(merges)
    if latest is None:
        return None
    if latest.outcome == ev.PASSED and latest.line:
        return shown(frame, "merge.done", latest)
    if latest.outcome == ev.FAILED and latest.line:
        later = [c for c in log.of(ev.COMMIT) if c.turn > latest.turn and c.outcome == ev.PASSED]
        if not later:
            return contradicted(frame, "merge.conflict", latest)
    return None


def tag(frame, log):
    tags = [t for t in log.of(ev.TAG) if not t.get("listing") and not t.get("delete")]
    latest = last_of(tags)
    if latest is not None and latest.outcome == ev.PASSED and latest.status == 0:
        return shown(frame, "tag.made", latest)
    return None


