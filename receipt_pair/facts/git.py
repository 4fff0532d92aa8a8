"""Git's operations: pushes (the refs updated, rejected or already up to date, a dry run in
any spelling), commits (`[branch sha] message`), merges, pulls and rebases (done, already
up to date, or stopped by a conflict), and tags.

A push is read from git's own ref lines ("   3b2a6f1..9c41e07  fix/parser -> fix/parser",
" * [new branch]      fix -> fix", " ! [rejected]        main -> main (fetch first)");
where the log kept no ref line (git prints them on standard error, which some harnesses
drop), a push's own zero exit status is its success, and the branches it names are the
ones its command gave.
"""

import re

from . import shell
from .events import (COMMIT, MERGE, NOTHING, PASSED, PUSH, TAG, UNKNOWN, Event,
                     step_outcome)
from ..patterns import lazy

# Options of git itself that take a value: `git -C repo push`.
_GIT_VALUE_OPTIONS = ("-C", "-c", "--git-dir", "--work-tree", "--namespace")


def git_subcommand(step):
    """The git subcommand a step runs ("push"), or "" when it is not git."""
    if step.program != "git":
        return ""
    return shell.subcommand(step, _GIT_VALUE_OPTIONS).lower()


def _after_sub(step, sub):
    args = list(step.args)
    while args:
        word = args.pop(0)
        if word in _GIT_VALUE_OPTIONS and args:
            args.pop(0)
        elif word.lower() == sub:
            return args
    return []


_REF = lazy(
    r"^\s*(?P<flag>[+\-*=!t]?)\s*(?P<what>[0-9a-f]{4,40}\.\.\.?[0-9a-f]{4,40}|\[new branch\]|"
    r"\[new tag\]|\[new reference\]|\[rejected\]|\[remote rejected\]|\[up to date\]|"
    r"\[deleted\]|\[remote failure\])\s+(?P<src>\S+)\s+->\s+(?P<dst>\S+)(?:\s+\((?P<why>.*)\))?")
_UP_TO_DATE = lazy(r"^\s*Everything up-to-date\s*$")
_PUSH_FAILED = lazy(
    r"^(?:error: failed to push some refs|fatal: |error: src refspec .* does not match|"
    r"remote: (?:error|fatal)\b|ERROR: |remote: Permission to .* denied|"
    r"error: The requested URL returned error|To prevent you from losing history)", re.I)
_DRY = {"-n", "--dry-run"}


def ref_lines(lines):
    """[(destination, state, line, index)] of git's ref lines: state is "updated", "new",
    "forced", "rejected", "up to date" or "deleted"."""
    found = []
    for index, line in enumerate(lines):
        match = _REF.match(line)
        if not match:
            continue
        what, flag = match.group("what"), match.group("flag")
        if "rejected" in what or flag == "!" or "failure" in what:
            state = "rejected"
        elif what == "[up to date]" or flag == "=":
            state = "up to date"
        elif what == "[deleted]" or flag == "-":
            state = "deleted"
        elif what.startswith("[new"):
            state = "new"
        elif flag == "+":
            state = "forced"
        else:
            state = "updated"
        found.append((branch_name(match.group("dst")), state, line.strip(), index))
    return found


def branch_name(ref):
    """A ref as a branch's short name: refs/heads/main -> main, origin/main -> main."""
    ref = ref.strip().lstrip("+")
    for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/origin/", "origin/"):
        if ref.startswith(prefix):
            return ref[len(prefix):]
    return ref


def push_targets(step):
    """(remote, [branches named by the command's refspecs]) of a push step."""
    args = _after_sub(step, "push")
    words = [a for a in args if not a.startswith("-")]
    remote = words[0] if words else ""
    branches = []
    for spec in words[1:]:
        spec = spec.lstrip("+")
        destination = spec.split(":", 1)[1] if ":" in spec else spec
        if destination and destination != "HEAD":
            branches.append(branch_name(destination))
    return remote, branches


def is_dry_push(step):
    args = _after_sub(step, "push")
    return any(a in _DRY or (re.match(r"^-[a-zA-Z]+$", a) and "n" in a[1:]) for a in args)


def read(read, taken):
    """(step, Event) of every git operation of one turn."""
    for step in read.line.runs:
        if id(step) in taken:
            continue
        sub = git_subcommand(step)
        maker = _READERS.get(sub)
        if maker is not None:
            yield step, maker(read, step)


def _push(read, step):
    remote, named = push_targets(step)
    refs = ref_lines(read.lines)
    parts = tuple((dst, state, line) for dst, state, line, _ in refs)
    failed = next(((line.strip(), i) for i, line in enumerate(read.lines)
                   if _PUSH_FAILED.match(line.strip())), None)
    rejected = next(((line, i) for _, state, line, i in refs if state == "rejected"), None)
    updated = next(((line, i) for _, state, line, i in reversed(refs)
                    if state in ("updated", "new", "forced")), None)
    up_to_date = next(((line.strip(), i) for i, line in enumerate(read.lines)
                       if _UP_TO_DATE.match(line)), None)
    if is_dry_push(step):
        outcome, line, index = NOTHING, "", -1
    else:
        outcome, line, index = step_outcome(read, step, passed_line=updated or up_to_date,
                                            failed_line=rejected or failed)
        if outcome == UNKNOWN and updated and not (rejected or failed):
            outcome, line, index = PASSED, updated[0], updated[1]
    objects = tuple(dict.fromkeys(named + [dst for dst, _, _ in parts]))
    url = next((l.strip()[3:] for l in read.lines if l.strip().startswith("To ")), "")
    detail = (("remote", remote), ("named", ",".join(named)), ("url", url[:300]))
    if any(a in ("-d", "--delete") for a in _after_sub(step, "push")) or any(
            w.startswith(":") for w in _after_sub(step, "push")):
        detail += (("delete", "yes"),)
    if is_dry_push(step):
        detail += (("dry_run", "yes"),)
    if up_to_date:
        detail += (("up_to_date", "yes"),)
    return Event(read.index, PUSH, "git push", f"push:{remote}", outcome,
                 read.turn.exit_status, read.status_of(step), line, index, objects,
                 detail=detail, command=" ".join(step.words)[:300], parts=parts)


_COMMIT_LINE = lazy(r"^\[(?P<branch>[^\s\]]+)(?: \(root-commit\))? (?P<sha>[0-9a-f]{7,40})\]"
                          r" (?P<message>.*)$")
_NOTHING_TO_COMMIT = lazy(r"^(?:nothing to commit|no changes added to commit|nothing "
                                r"added to commit)", re.I)
_COMMIT_FAILED = lazy(r"^(?:fatal: |error: |Aborting commit|\S+\.{3,}\s*Failed$|"
                            r"- hook id: |husky - .* (?:failed|hook exited)|"
                            r"Author identity unknown|Please tell me who you are)", re.I)


def commit_line(line):
    """The match of git's report of a commit made (`[main 1a2b3c4] message`), or None."""
    return _COMMIT_LINE.match(line.strip())


def _commit(read, step):
    made = None
    for index, line in enumerate(read.lines):
        match = _COMMIT_LINE.match(line.strip())
        if match:
            made = (match, line.strip(), index)
    args = _after_sub(step, "commit")
    failed = next(((line.strip(), i) for i, line in enumerate(read.lines)
                   if _COMMIT_FAILED.match(line.strip())), None)
    nothing = next(((line.strip(), i) for i, line in enumerate(read.lines)
                    if _NOTHING_TO_COMMIT.match(line.strip())), None)
    detail = ()
    objects = ()
    if "--dry-run" in args:
        outcome, line, index = NOTHING, "", -1
    elif made is not None and not failed:
        match, line, index = made
        outcome = PASSED
        detail = (("branch", match.group("branch")), ("sha", match.group("sha")),
                  ("message", match.group("message")[:200]))
        objects = (match.group("branch"), match.group("sha"))
    elif nothing is not None and not failed:
        outcome, line, index = NOTHING, nothing[0], nothing[1]
    else:
        outcome, line, index = step_outcome(read, step, failed_line=failed)
        if outcome == PASSED and made is None:
            outcome = UNKNOWN if read.status_of(step) != "own" else PASSED
    return Event(read.index, COMMIT, "git commit", "commit", outcome, read.turn.exit_status,
                 read.status_of(step), line, index, objects, detail=detail,
                 command=" ".join(step.words)[:300])


_MERGED = lazy(r"^(?:Fast-forward|Merge made by|Already up[ -]to[ -]date\.?|"
                     r"Successfully rebased and updated|Updating [0-9a-f]+\.\.[0-9a-f]+)")
_CONFLICT = lazy(r"^(?:CONFLICT \(|Automatic merge failed|error: could not apply|"
                       r"fatal: |error: Your local changes to the following files would be "
                       r"overwritten|merge: \S+ - not something we can merge|"
                       r"error: Merging is not possible|hint: Resolve all conflicts)")


def _merge(read, step):
    sub = git_subcommand(step)
    done = next(((line.strip(), i) for i, line in reversed(list(enumerate(read.lines)))
                 if _MERGED.match(line.strip())), None)
    conflict = next(((line.strip(), i) for i, line in enumerate(read.lines)
                     if _CONFLICT.match(line.strip())), None)
    outcome, line, index = step_outcome(read, step, passed_line=done, failed_line=conflict)
    if outcome == UNKNOWN and done:
        outcome, line, index = PASSED, done[0], done[1]
    named = tuple(a for a in _after_sub(step, sub) if not a.startswith("-"))
    return Event(read.index, MERGE, f"git {sub}", f"merge:{sub}", outcome,
                 read.turn.exit_status, read.status_of(step), line, index,
                 tuple(branch_name(n) for n in named), command=" ".join(step.words)[:300])


def _tag(read, step):
    args = _after_sub(step, "tag")
    names = [a for a in args if not a.startswith("-")]
    listing = not names or any(a in ("-l", "--list", "-n") for a in args)
    if listing or any(a in ("-d", "--delete") for a in args):
        return Event(read.index, TAG, "git tag", "tag", UNKNOWN, read.turn.exit_status,
                     read.status_of(step), command=" ".join(step.words)[:300],
                     detail=(("listing", "yes"),) if listing else (("delete", "yes"),))
    failed = next(((line.strip(), i) for i, line in enumerate(read.lines)
                   if line.strip().startswith(("fatal:", "error:"))), None)
    outcome, line, index = step_outcome(read, step, failed_line=failed)
    return Event(read.index, TAG, "git tag", "tag", outcome, read.turn.exit_status,
                 read.status_of(step), line, index, (names[0],),
                 command=" ".join(step.words)[:300])


_READERS = {"push": _push, "commit": _commit, "merge": _merge, "pull": _merge,
            "rebase": _merge, "tag": _tag}
