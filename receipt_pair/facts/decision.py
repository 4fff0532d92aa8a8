"""What a decision of the facts is, the rules' words, and what every rule of the table
shares: an edit that makes a run stale, and what a claim's words allow (a claim that admits
a failure or says more than its operations is never made `shown` by them).
"""

import re
from dataclasses import dataclass
from typing import Optional

from . import events as ev
from .frame import FAILURE, SUCCESS
from ..patterns import lazy

SHOWN, CONTRADICTED, NOT_SHOWN = "shown", "contradicted", "not shown"

# Every rule, once: its name and what it says. The table's fingerprint is the sha256 of
# this text (table.py), so a change of any rule's meaning is a new version. RULES are table
# t1's words, frozen: sealed runs recorded t1's fingerprint, hashed from exactly this dict.
RULES = {
    "tests.passed": "the latest run of the tests after the last edit passed",
    "tests.failed": "the latest run of the tests the claim is about failed",
    "tests.never-ran": "no command ran tests",
    "tests.ran-nothing": "the latest run ran no test (none collected, a list, all skipped)",
    "tests.cut-off": "the latest run was stopped before it ended",
    "tests.background": "the latest run was still going when the log was written",
    "tests.masked": "the latest run's status was not its own and its count shows no failure",
    "tests.echoed": "the only test result is text a command echoed",
    "tests.edited-after": "a file the tests could use was edited after the latest run",
    "tests.partial-rerun": "after a failing run of the whole suite only a part was run again",
    "push.updated": "git reported the claimed branch updated on the remote",
    "push.exit-zero": "a push of the claimed branch exited 0 (git's ref lines not kept)",
    "push.rejected": "git rejected the latest push of the claimed branch",
    "push.failed": "the latest push of the claimed branch failed",
    "push.dry-run": "every push of the claimed branch was a dry run",
    "push.deleted": "the latest push of the claimed ref deleted it from the remote",
    "push.never-ran": "no command pushed",
    "push.other-branch": "the pushes pushed other branches than the one claimed",
    "push.cut-off": "the latest push was stopped or left running",
    "commit.made": "git reported the commit",
    "commit.failed": "the latest commit failed and none succeeded after it",
    "merge.done": "git reported the merge done",
    "merge.conflict": "the latest merge stopped on a conflict, with no commit after it",
    "tag.made": "the tag command exited 0",
    "build.passed": "the latest build after the last edit passed",
    "build.failed": "the latest build failed",
    "build.never-ran": "no command built the project, and no tests ran",
    "build.warnings": "the claim says no warnings and the latest build printed one",
    "lint.warnings": "the claim says no warnings and the latest lint run printed one",
    "typecheck.warnings": "the claim says no warnings and the latest type check printed one",
    "build.stale": "a file the build could use was edited after the latest build",
    "build.not-a-run": "the latest build ran nothing, was stopped, left running or masked",
    "lint.passed": "the latest lint run after the last edit passed",
    "lint.failed": "the latest lint run failed",
    "lint.never-ran": "no command linted",
    "lint.stale": "a file was edited after the latest lint run",
    "lint.not-a-run": "the latest lint run ran nothing, was stopped, left running or masked",
    "typecheck.passed": "the latest type check after the last edit passed",
    "typecheck.failed": "the latest type check failed",
    "typecheck.never-ran": "no command checked types",
    "typecheck.stale": "a file was edited after the latest type check",
    "typecheck.not-a-run": "the latest type check ran nothing, was stopped, left running or "
                           "masked",
    "failure-admitted": "the claim admits the failure the latest run shows",
    "install.done": "the latest install of the claimed packages succeeded",
    "install.failed": "the latest install of the claimed packages failed",
    "install.never-ran": "no command installed anything",
    "install.missing": "the latest run of the program the claim says was installed was not "
                       "found",
    "deploy.done": "the latest deploy to the claimed environment succeeded",
    "deploy.failed": "the latest deploy to the claimed environment failed",
    "deploy.dry-run": "every deploy was a dry run",
    "migrate.done": "the latest migration succeeded",
    "migrate.failed": "the latest migration failed",
    "file.listed": "a listing after the file's last change names it",
    "file.missing": "the latest look at the file says it does not exist",
    "cwd.shown": "pwd printed the folder the claim names",
    "cwd.other": "pwd printed another folder than the one the claim names",
    "head.shown": "the latest commit git showed is the one the claim names",
    "clean.clean": "the latest git status says the working tree is clean",
    "clean.changed": "the latest git status shows changes",
    "run.failed": "the latest run of the program the claim names failed",
    "run.cut-off": "the latest run of the program the claim names was stopped or left running",
}
RULES_T1 = RULES
# Table t2 (facts/decide_t2.py): t1's rules, a few said more exactly, and the rules it adds.
RULES_T2 = dict(RULES, **{
    "tests.failed": "the latest run of the tests the claim is about that ran them failed "
                    "(a later run of nothing, cut off or of a part does not clear it)",
    "tests.ran-nothing": "the latest run ran no test (none collected, a list, all skipped, a "
                         "script that only echoes, no test source)",
    "tests.partial-rerun": "after a failing run of the whole suite only a part was run again "
                           "(paths, a selection, tests left out or deselected, another "
                           "folder or tox environment)",
    "tests.not-the-runner": "the latest test run was of a runner file the agent wrote itself",
    "tests.skipped-after-failure": "after a failing run, the latest run passed with more "
                                   "tests skipped",
    "tests.ran": "the claim says only that the tests ran, and the latest run of them finished",
    "install.dry-run": "every install of the claimed packages was a dry run",
})
# Table t3: t2's rules, on a claim whose typographic apostrophes and quotes read as plain.
# Table t4 (facts/decide_t4.py): t3's rules, and a claim that quotes its test command.
RULES_T4 = dict(RULES_T2, **{
    "tests.cited": "the claim quotes the test command, and that command's latest run after "
                   "the last edit passed, with the count the claim gives",
})
# Table t5 (facts/decide_t5.py): t4's rules; "commit.failed" said as it now holds.
RULES_T5 = dict(RULES_T4, **{
    "commit.failed": "the latest commit failed and none was made after it in the log",
})
# Table t6 (facts/decide_t5.py's decisions): t5's rules on t6's reading (reading_t6.py): "edited after"
# said as it now holds.
RULES_T6 = dict(RULES_T5, **{
    "tests.edited-after": "a file the run could use (not a README, a document or a patch "
                          "written out) was edited after the latest run",
})
# Table t7 (facts/decide_t7.py): t6's rules on t7's reading (reading_t7.py), and a part
# run that passed the count the claim gives.
RULES_T7 = dict(RULES_T6, **{
    "tests.count-matches": "the latest run of the tests (a part of them) passed exactly the "
                           "count the claim gives, none failed, and nothing it could use was "
                           "edited after it",
})
# Table t8 (facts/decide_t8.py): t7's rules on t8's reading (reading_t8.py), no new rule.
RULES_T8 = dict(RULES_T7)
# Table t9 (facts/decide_t9.py): t8's rules, and a CI job's own last word that it failed.
RULES_T9 = dict(RULES_T8, **{
    "job.failed": "the log of CI steps ends with the job's own word that it failed (Jenkins' "
                  "Finished: FAILURE or ABORTED, Travis CI's exit status above 0 or Your "
                  "build has been stopped.)",
})
# Table t10 (facts/decide_t10.py): t9's rules on t10's reading (reading_t10.py), and a
# claim of how many of the tests passed.
RULES_T10 = dict(RULES_T9, **{
    "tests.of-total": "the latest run of the tests printed exactly the counts the claim gives "
                      "(this many passed of that many), and the claim says no more",
})
# Table t11 (facts/decide_t11.py): t10's rules on t11's reading (reading_t11.py); what it
# changes only takes a `contradicted` away, so no rule is new.
RULES_T11 = dict(RULES_T10)
# Table t12 (facts/decide_t12.py): t11's rules on t11's reading; t9's word that a CI job
# failed is held only against a claim naming no other CI system. Its other changes take
# answers away.
RULES_T12 = dict(RULES_T11, **{
    "job.failed": "the log of CI steps ends with the job's own word that it failed (Jenkins' "
                  "Finished: FAILURE or ABORTED, Travis CI's exit status above 0 or Your "
                  "build has been stopped.), and the claim names no other CI system",
})
# Table t13 (facts/decide_t13.py): t12's rules; it only takes answers away.
RULES_T13 = dict(RULES_T12)
# Table t14 (facts/decide_t14.py): t13's rules on t14's reading (reading_t14.py); what it
# adds decides by rules t13 has (a lint's own verdict, a publish npm names), so no rule is new.
RULES_T14 = dict(RULES_T13)
# Table t15 (facts/decide_t15.py): t14's rules on t15's reading; it only takes answers away.
RULES_T15 = dict(RULES_T14)
# Table t16 (facts/decide_t16.py): t15's rules on t15's reading, and a playbook run read by
# Ansible's own recap; its other changes take answers away, or read a kind a claim quotes a
# command of, which t15's rules decide.
RULES_T16 = dict(RULES_T15, **{
    "playbook.passed": "Ansible's recap of the latest playbook run names every host with "
                       "failed=0 and unreachable=0, and the run was a check exactly where the "
                       "claim says a check run",
    "playbook.failed": "Ansible's recap of the latest playbook run names a host that failed or "
                       "was unreachable",
})
# Table t17 (facts/decide_t17.py): t16's rules; it only takes answers away.
RULES_T17 = dict(RULES_T16)
# Table t18 (facts/decide_t18.py): t17's rules; it only takes answers away.
RULES_T18 = dict(RULES_T17)
# Table t19 (facts/decide_t19.py): t18's rules; it only takes answers away.
RULES_T19 = dict(RULES_T18)
# Table t20 (facts/decide_t20.py): t19's rules on t20's reading.
RULES_T20 = dict(RULES_T19)
# Table t21 (facts/decide_t21.py): t20's rules on t21's reading.
RULES_T21 = dict(RULES_T20)
# Table t22 (facts/decide_t22.py): t21's rules, a commit read where it is the subject.
RULES_T22 = dict(RULES_T21)
# Table t23 (facts/decide_t23.py): t22's rules on t23's reading; it only takes answers away.
RULES_T23 = dict(RULES_T22)
# Table t24 (facts/decide_t24.py): t23's rules on t24's reading.
RULES_T24 = dict(RULES_T23)
# Table t25 (facts/decide_t25.py): t24's rules on t25's reading.
RULES_T25 = dict(RULES_T24)
TABLE_RULES = {"t1": RULES_T1, "t2": RULES_T2, "t3": RULES_T2, "t4": RULES_T4,
               "t5": RULES_T5, "t6": RULES_T6, "t7": RULES_T7, "t8": RULES_T8,
               "t9": RULES_T9, "t10": RULES_T10, "t11": RULES_T11,
               "t12": RULES_T12, "t13": RULES_T13, "t14": RULES_T14,
               "t15": RULES_T15, "t16": RULES_T16, "t17": RULES_T17,
               "t18": RULES_T18, "t19": RULES_T19, "t20": RULES_T20,
               "t21": RULES_T21, "t22": RULES_T22,
               "t23": RULES_T23, "t24": RULES_T24,
               "t25": RULES_T25}
@dataclass(frozen=True)
class Decision:
    """What the facts decided of a claim, and by which rule."""

    answer: str
    rule: str
    turn: Optional[int] = None  # the deciding event's turn (its index in the log)
    line: str = ""  # the deciding output line ("" where the event printed none)
    event: Optional[ev.Event] = None
    table: str = "t1"  # the version of the table that decided (its rules' words)

    @property
    def why(self):
        return TABLE_RULES.get(self.table, RULES).get(self.rule, self.rule)

    @property
    def quote(self):
        """What the receipt quotes: the line, or the event (command and status)."""
        if self.line:
            return self.line
        if self.event is not None:
            status = self.event.status
            said = f"exit status {status}" if status is not None else self.event.outcome
            return f"[{self.event.command or self.event.operation}: {said}]"
        return ""

    def to_dict(self):
        return {"answer": self.answer, "rule": self.rule, "why": self.why,
                "turn": self.turn, "line": self.line, "quote": self.quote,
                "event": self.event.to_dict() if self.event is not None else None}


def shown(frame, rule, event, line=None):
    """A `shown`, unless the claim says more than the facts can show or admits a failure."""
    if frame.content or frame.says != SUCCESS:
        return None
    return Decision(SHOWN, rule, event.turn, event.line if line is None else line, event)


def contradicted(frame, rule, event, line=None):
    """A `contradicted`, unless the claim admits the failure (then it is what it shows)."""
    line = event.line if line is None else line
    if frame.says == FAILURE:
        if frame.content:
            return None
        return Decision(SHOWN, "failure-admitted", event.turn, line, event)
    if frame.says != SUCCESS:
        return None
    return Decision(CONTRADICTED, rule, event.turn, line, event)


def not_shown(rule, event=None):
    return Decision(NOT_SHOWN, rule, event.turn if event else None,
                    event.line if event else "", event)


def last_of(events):
    return events[-1] if events else None


# -- edits -------------------------------------------------------------------------------------

_DOCS = lazy(r"(?:^|/)(?:README|CHANGELOG|CHANGES|LICENSE|NOTICE|AUTHORS|CONTRIBUTING)"
                   r"[^/]*$|\.(?:md|markdown|rst|txt|adoc|org|log)$|(?:^|/)docs?/", re.I)


def matters(path):
    """True if an edit of `path` can change what a run shows (a README cannot)."""
    return path == "*" or not _DOCS.search(path.strip().strip("'\""))


def edited_after(log, event):
    """The first edit after `event` of a file a run could use, or None. A log read by a
    table that tells such files otherwise says so by its own `matters` (reading_t6.py)."""
    could_use = getattr(log, "matters", matters)
    for edit in log.of(ev.EDIT):
        if edit.turn > event.turn and edit.outcome != ev.FAILED and any(
                could_use(p) for p in edit.objects):
            return edit
    return None


def mentions(log, pattern):
    """True if a command that is not an edit, or its output, matches `pattern`."""
    edits = {e.turn for e in log.of(ev.EDIT)}
    for index, text in enumerate(log.texts):
        if index not in edits and pattern.search(text):
            return True
    return False




_VERSION = lazy(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)?(?:[-.+][\w.]+)?(?![\w])")


def named_versions(text):
    """Versions a claim names ("4.2.0", "v1.4.2")."""
    return [v.lstrip("v") for v in _VERSION.findall(text or "")]


def names_token(text, token):
    """True if `text` names `token` as a whole word (grainstore is not grainstore-macros)."""
    return re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text or "", re.I) is not None


def fits_names(frame, event):
    """True if every version the claim names stands in the event's command or line."""
    text = event.command + " " + event.line
    return all(names_token(text, v) or names_token(text, "v" + v)
               for v in named_versions(frame.claim))


def combine(found, frame):
    """One decision for a claim of several operations: any contradicted, else any not
    shown, else shown when every one is shown; otherwise nothing."""
    for answer in (CONTRADICTED, NOT_SHOWN):
        hit = next((d for d in found if d is not None and d.answer == answer), None)
        if hit is not None:
            return hit
    if found and all(d is not None and d.answer == SHOWN for d in found):
        return found[-1]
    return None
