"""`ci`'s report in GitHub Actions' own formats: workflow commands that annotate the files
(`::error file=...,line=...,title=...::message`), a Markdown step summary, and step outputs.

Every string in them but our own words comes from a file a pull request carries (a receipt,
a ledger, a claims file, a file name), so every one is escaped for where it goes. An
annotation's message and properties follow the workflow-command rules (`%`, CR and LF
percent-encoded; `:` and `,` too in a property), so a line break in a claim cannot start a
workflow command of its own. A summary cell is one line of plain text: whitespace runs
become one space, hidden characters become marks (cli/visible.py), `&`, `<` and `>` become
entities (no HTML, no autolink), and every other ASCII punctuation character is
backslash-escaped (no `|` that ends a cell, no emphasis, link, image or code span).
"""

import os
import string

from .visible import visible

ENV_SUMMARY = "GITHUB_STEP_SUMMARY"
ENV_OUTPUT = "GITHUB_OUTPUT"
ENV_WORKSPACE = "GITHUB_WORKSPACE"
# GitHub refuses a step summary over 1 MiB; ours stops short of it and says how many rows
# it left out.
MAX_SUMMARY_BYTES = 900 * 1024
CELL = 200  # characters of one summary cell, before escaping
MESSAGE = 600  # characters of one problem in an annotation
MAX_PROBLEMS = 10  # problems in one annotation or one list item
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# Each character a Markdown cell must not render as itself: an entity for HTML's three, a
# backslash before every other punctuation mark.
_CELL_ESCAPES = str.maketrans({**{ch: "\\" + ch for ch in string.punctuation}, **_ENTITIES})
MARKS = {"ok": "✅", "warn": "⚠️", "fail": "❌"}


def escape_data(text):
    """A workflow command's message: `%`, CR and LF percent-encoded (`%` first)."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text):
    """A workflow command's property value: as a message, and `:` and `,` too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name, message, **properties):
    """One workflow command line, `::name key=value,...::message`, every part escaped;
    properties that are None are left out."""
    given = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items()
                     if value is not None)
    return f"::{name}{' ' + given if given else ''}::{escape_data(message)}"


def cut(text, limit):
    return text if len(text) <= limit else text[:limit - 3] + "..."


def markdown_cell(text, limit=CELL):
    """`text` (from a file) as one line of Markdown that renders as that text and nothing
    else: no line break, no cell border, no HTML, no link, no emphasis."""
    if text is None or text == "":
        return "—"
    flat = cut(visible(" ".join(str(text).split())), limit)
    return flat.translate(_CELL_ESCAPES)


def where(file, root=None):
    """A file as annotations name it: from the repository's root when it lies under it."""
    if root and os.path.isabs(file):
        relative = os.path.relpath(file, root)
        if not relative.startswith(os.pardir):
            return relative.replace(os.sep, "/")
    return file


def status_of(row):
    return "fail" if not row.holds else "warn" if row.warnings else "ok"


def what(row):
    """What a row is, in our words: "receipt", "ledger entry 3", "claim on line 2"."""
    if row.line is None:
        return row.kind
    return f"{row.kind} {row.line}" if row.kind == "ledger entry" else \
        f"{row.kind} on line {row.line}"


def decided(row):
    """Who decided, in a few words: "facts (push.updated)", "models (r2)"."""
    if not row.decided_by:
        return None
    return f"{row.decided_by} ({row.rule})" if row.rule else row.decided_by


def _message(row, lines):
    said = [f"claim: {cut(visible(row.claim), MESSAGE)}"] if row.claim else []
    said += [cut(visible(line), MESSAGE) for line in lines[:MAX_PROBLEMS]]
    if len(lines) > MAX_PROBLEMS:
        said.append(f"and {len(lines) - MAX_PROBLEMS} more")
    return "\n".join(said)


def annotations(report, root=None):
    """The workflow commands of a CiReport: an error for each row that does not hold, a
    warning for each that holds with something to know."""
    lines = []
    for row in report.rows:
        level = {"fail": "error", "warn": "warning"}.get(status_of(row))
        if level is None:
            continue
        title = f"receipt-pair: {what(row)} " + ("does not hold" if level == "error" else
                                                  "holds, with a warning")
        lines.append(command(level, _message(row, row.problems or row.warnings),
                             file=visible(where(row.file, root)), line=row.line,
                             title=title))
    return lines


def _heading(report):
    count, failed = len(report.rows), len(report.failed)
    if not count:
        return "## receipt-pair ci: nothing was found to check"
    if not failed:
        return f"## receipt-pair ci: all {count} hold"
    return f"## receipt-pair ci: {failed} of {count} do not hold"


def step_summary(report, root=None):
    """The Markdown summary of a CiReport: a table of what each claim, answer, who decided
    and the quoted line were, then what does not hold and why; kept under GitHub's limit."""
    head = [_heading(report), "",
            "| | what | file | claim | answer | decided by | quoted line |",
            "|---|---|---|---|---|---|---|"]
    rows = [f"| {MARKS[status_of(row)]} | {markdown_cell(what(row))} | "
            f"{markdown_cell(where(row.file, root))} | {markdown_cell(row.claim)} | "
            f"{markdown_cell(row.answer)} | {markdown_cell(decided(row))} | "
            f"{markdown_cell(_quoted(row))} |" for row in report.rows]
    notes = [f"- {MARKS[status_of(row)]} **{markdown_cell(what(row))}** of "
             f"{markdown_cell(where(row.file, root))}: "
             + "; ".join(markdown_cell(line, 2 * CELL)
                         for line in (row.problems or row.warnings)[:MAX_PROBLEMS])
             for row in report.rows if row.problems or row.warnings]
    tail = (["", "### What does not hold, or holds with a warning", ""] if notes else [])
    return _within(head, rows, tail, notes)


def _quoted(row):
    if not row.quote:
        return None
    return f"{row.turn}: {row.quote}" if row.turn else row.quote


def _within(head, rows, tail, notes):
    """The summary's lines, rows and notes left out from the end where they would pass
    MAX_SUMMARY_BYTES, with a line saying how many."""
    budget = MAX_SUMMARY_BYTES - sum(len(line.encode()) + 1 for line in head + tail) - 200
    lines = list(head)
    for part, then in ((rows, tail), (notes, [])):
        kept = 0
        for line in part:
            size = len(line.encode()) + 1
            if size > budget:
                break
            budget -= size
            kept += 1
        lines += part[:kept]
        if kept < len(part):
            lines.append(f"\n{len(part) - kept} more left out here (GitHub's summary limit); "
                         "the job's log has every one")
        lines += then
    return "\n".join(lines) + "\n"


def step_outputs(report):
    """The step's outputs, as $GITHUB_OUTPUT takes them (`name=value` lines)."""
    return (f"result={'pass' if report.ok else 'fail'}\nchecked={len(report.rows)}\n"
            f"failed={len(report.failed)}\n")
