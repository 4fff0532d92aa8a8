"""Facts beside the lines: what plain code can read of each turn for sure, written out for
the models so that they pick among facts instead of parsing output.

For every turn a menu shows, one short line: the operation it ran (`pytest`, `git push`),
whether a later run of the same operation came after it, its recorded exit status, the
test counts it printed, the refs a push updated or that it was rejected, a dry run, a
command still running, a tool that edited files or only showed one, and an edit of a
file that came after the last run of the tests. Facts are derived from the turns alone,
so a receipt's request rebuilds from its turns; they carry no verdict, and the quote check
still judges the line a model cites.
"""

import re

from ..check import attempts, commands, kinds
from ..check.testcounts import count_tests
from ..turn import EDIT, VIEW

MAX_FACT = 240  # characters of one turn's facts


def _operation(ops):
    if not ops:
        return ""
    names = []
    for op in ops:
        name = " ".join(op.name)
        if name not in names:
            names.append(name)
    return ", then ".join(f"`{n}`" for n in names[:3])


def _counts(text):
    counts = count_tests(text)
    if counts is None:
        return ""
    parts = [f"{counts.passed} passed", f"{counts.failed} failed"]
    if counts.skipped:
        parts.append(f"{counts.skipped} skipped")
    if getattr(counts, "expected_failures", 0):
        parts.append(f"{counts.expected_failures} expected to fail")
    return "tests: " + ", ".join(parts)


def _pushes(lines):
    updated = [kinds.ref_update(line) for line in lines]
    refs = [f"{src} -> {dst}" for src, dst in filter(None, updated)]
    rejected = [line for line in lines if re.search(r"\[(?:remote )?rejected\]", line)]
    out = []
    if refs:
        out.append("pushed " + "; ".join(refs[:3]))
    if rejected:
        out.append("push rejected")
    if any(re.match(r"\s*Everything up-to-date\s*$", line) for line in lines):
        out.append("nothing to push (up to date)")
    return ", ".join(out)


def turn_facts(turns, patterns):
    """{turn index: one line of facts} for every turn of `turns`."""
    found = attempts.read_attempts(turns, patterns)
    last_test_run = max((i for i, t in enumerate(turns)
                         if kinds.runs_tests(t, "\n".join(found[i].lines))), default=None)
    facts = {}
    for index, (turn, at) in enumerate(zip(turns, found)):
        said = []
        ops = at.operations
        if turn.kind == EDIT:
            said.append("a tool that edited files")
        elif turn.kind == VIEW or commands.is_viewer(turn.cmd, fold_case=True):
            said.append("only shows a file or a listing")
        elif ops:
            said.append("ran " + _operation(ops))
        later = next((j for j in range(index + 1, len(turns))
                      if found[j].operations and commands.same_run(ops, found[j].operations)),
                     None)
        if ops and later is not None:
            said.append(f"run again later in T{{{later}}}")
        if not turn.finished:
            said.append("still running when the log was written")
        elif turn.exit_status is not None:
            said.append(f"exit status {turn.exit_status}")
        text = "\n".join(at.lines)
        said += [fact for fact in (_counts(text), _pushes(at.lines)) if fact]
        if kinds.dry_run(turn, ""):
            said.append("a dry run")
        if turn.kind == EDIT and last_test_run is not None and index > last_test_run:
            said.append("edited after the last test run")
        facts[index] = "; ".join(said)[:MAX_FACT]
    return facts


def number_turns(facts, numbers):
    """The facts with the "T{index}" of a later turn written as the id the models see
    (`numbers`: turn index -> "T3"), or as "a later turn" when it is not shown."""
    out = {}
    for index, text in facts.items():
        out[index] = re.sub(r"T\{(\d+)\}", lambda m: numbers.get(int(m.group(1)),
                                                                  "a later turn"), text)
    return out
