"""Table rows as claims: which rows of a Markdown table report done work or a result, and how
a row is read for checking ("| Tests | 52 passing |" is read "Tests: 52 passing").

A row is read as its first cell, a colon, then its other cells: "Tests: 52 passing" in a
table of two columns; with three or more, each value after its column's name, "Lint —
Status: ✅, Details: 0 problems", since a bare "52 | 0" says nothing without "Passed" and
"Failed". The claim's span is the row between its outer pipes, its text the row so read,
and its context the header row it is read with.

Which rows are claims, where no heading of next steps stands over the table and no cell
holds a cross (❌, ⏳, ⚠: a failure or work pending):

- every row of a before/after table and every row under a heading of done work, unless
  what it says is no result (claim_words.not_a_result);
- in a table with a column of how each row came out ("Status", "Result", "Estado", "状态"):
  every row whose status says what came out ("ok", "200 OK", "15 pages", "ebb5654 →
  1b50dbd"), unless it is empty or says the row is not done ("pending", "planned",
  "todo", "skipped", "n/a") or its words, so read, are an admission, a plan or a hedge;
- elsewhere, a row with a tick, unless ticks stand in two or more of its cells (a
  comparison of options, "| Single agent | ✅ | ❌ |"), and a row whose words, so read,
  claim ("Tests: 52 passing", "Lint: 0 problems");
- never a row that counts failures ("Failed: 3").
"""

from dataclasses import dataclass
from typing import Optional, Tuple

from .claim_words import CHANGE_TABLE, CLAIM, CROSSES, DONE, HOWTO, NEGATIVE, REMOVED, TICKS, \
    classify, not_a_result, plain, strip_marks
from ..patterns import lazy

# A column that says how each row came out.
_STATUS_HEAD = lazy(r"^(?:status|state|result|results|outcome|verdict|estado|"
                          r"resultado|statut|résultat|ergebnis|状态|狀態|结果|結果|状況)$")
# What a status cell says of a row that is not done, or not the agent's to report.
_NOT_DONE = lazy(r"^(?:-|—|–|n/?a|none|tbd|todo|to do|wip|planned|pending|skipped|"
                       r"blocked|later|next|missing|partial|manual|optional|unknown|"
                       r"not\b|no\b|fail|error|broken|timed? ?out|crash|red\b|rejected|"
                       r"regress|flaky|待|未|失败)")
_FAILED_COUNT = lazy(r"\b(?:failed|failures?|failing|errors?)\s*:\s*[1-9]")
_EMPHASIS = lazy(r"\*\*|__")


@dataclass(frozen=True)
class Table:
    """A table's header row, read once: its cells, whether it is a before/after table, which
    column holds each row's status, and what the heading or lead above it says."""

    head: Tuple[str, ...]
    change: bool
    status: Optional[int]
    place: Optional[str]


def table_head(message, masked, start, end, place):
    """The Table whose header row is message[start:end]."""
    head = tuple(_cell_text(message, a, b) for a, b in _cells(masked, start, end))
    status = next((i for i, name in enumerate(head) if i and _STATUS_HEAD.match(
        plain(strip_marks(name)))), None)
    change = len(CHANGE_TABLE.findall(masked[start:end].lower())) >= 2
    return Table(head, change, status, place)


def read_row(message, masked, start, end, table):
    """The claims of one row of `table` as (start, end, text, context): none, or the row."""
    if table.place == HOWTO or any(ch in CROSSES for ch in masked[start:end]):
        return []
    cells = _cells(masked, start, end)
    texts = [_cell_text(message, a, b) for a, b in cells]
    if not any(texts):
        return []
    read = read_cells(texts, table.head)
    if not _is_claim(read, texts, masked[start:end], table) \
            or _FAILED_COUNT.search(plain(read)):
        return []
    return [(cells[0][0], cells[-1][1], read, " | ".join(table.head))]


def read_cells(texts, head):
    """A row's cells as one statement: "label: value", or "label — Name: value, ..."."""
    label, values = texts[0], texts[1:]
    names = list(head[1:len(texts)])
    names += [""] * (len(values) - len(names))
    named = len(values) > 1 and any(names)
    rest = ", ".join((f"{name}: {value}" if name and named else value)
                     for name, value in zip(names, values) if value)
    if not label or not rest:
        return label or rest
    return f"{label} — {rest}" if named else f"{label}: {rest}"


def _is_claim(read, texts, row, table):
    if table.change or table.place in (DONE, REMOVED):
        return not not_a_result(read)
    if table.status is not None and table.status < len(texts):
        status = texts[table.status]
        cell = plain(strip_marks(status))
        return bool(cell or any(ch in TICKS for ch in status)) \
            and not _NOT_DONE.match(cell) and classify(read) != NEGATIVE
    if any(ch in TICKS for ch in row):
        # Ticks in two or more cells compare options; a tick in one marks a row done.
        return sum(1 for text in texts if any(ch in TICKS for ch in text)) < 2 \
            and not not_a_result(read)
    return classify(read) == CLAIM


def _cells(masked, start, end):
    """The (start, end) of each cell between the row's outer pipes (a pipe inside a code
    span is masked and does not cut)."""
    text = masked[start:end]
    first = text.find("|")
    last = text.rstrip().rfind("|")
    if first < 0:
        return [(start, end)]
    if last <= first:
        last = len(text)
    cuts = [first] + [i for i in range(first + 1, last) if text[i] == "|"
                      and text[i - 1] != "\\"] + [last]
    return [(start + a + 1, start + b) for a, b in zip(cuts, cuts[1:])]


def _cell_text(message, start, end):
    return " ".join(_EMPHASIS.sub("", message[start:end]).split())
