"""What `receipt-pair ci` checks of a pull request: the receipts and the ledgers it carries,
re-derived offline with no model (replay.py, ledger.py), and, when asked, claims checked
against logs it carries (pair.check_claim: the facts first, the models only for what they
leave). The result is data, a CiReport of one Row per receipt, ledger entry and claim, each
holding or saying why not; cli/github.py writes it as annotations and a step summary.

    from receipt_pair.audit.ci import CiOptions, run_ci
    report = run_ci(CiOptions(receipts=["receipts/*.json"], ledgers=["receipts.jsonl"]))
    report.ok            # every receipt, entry and claim holds
    report.rows          # a Row each: file, line, claim, answer, who decided, quote, problems

Nothing here prints.
"""

import glob
import os
from dataclasses import asdict, dataclass, field
from typing import Callable, List, Optional, Sequence

from ..answers import SHOWN
from ..errors import InputError, ReceiptPairError, UsageError
from ..logs import read_log
from ..logs.redact import redact as redact_text
from ..pair.claim import check_claim
from ..pair.settings import Settings
from ..store.files import decode, display_name, json_lines, loads_strict, read_bytes
from .expiry import EXPIRED, judge_receipt
from .ledger import check_ledger, log_reader
from .replay import replay_receipt

RECEIPT, ENTRY, LEDGER, CLAIM = "receipt", "ledger entry", "ledger", "claim"
_GLOB = "*?["


@dataclass
class Row:
    """One thing checked: a receipt, a ledger entry (`line` is its entry number, its line in
    the file), a ledger as a whole, or a claim of a claims file (`line` its line). What the
    record says (its claim, answer, who decided and by which rule, the first deciding turn
    and quote), and why it does not hold (`problems`) or what to know though it holds
    (`warnings`). Every string but `kind` comes from a file the pull request carries."""

    kind: str
    file: str
    line: Optional[int] = None
    claim: Optional[str] = None
    answer: Optional[str] = None
    decided_by: Optional[str] = None  # "facts" or "models" (None: not said, or unread)
    rule: Optional[str] = None  # the facts' rule that fired, or the pair rule
    turn: Optional[str] = None
    quote: Optional[str] = None
    problems: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)

    @property
    def holds(self):
        return not self.problems

    def to_dict(self):
        return {**asdict(self), "holds": self.holds}


@dataclass
class CiReport:
    """Every Row checked, in the order checked; `ok` when every one holds."""

    rows: List[Row]

    @property
    def ok(self):
        return all(row.holds for row in self.rows)

    @property
    def failed(self):
        return [row for row in self.rows if not row.holds]

    def to_dict(self):
        return {"ok": self.ok, "checked": len(self.rows), "failed": len(self.failed),
                "rows": [row.to_dict() for row in self.rows]}


@dataclass(frozen=True)
class CiOptions:
    """What `ci` checks (each the command line's option of the same name). `receipts`,
    `ledgers` and `claims` are paths or globs (`**` reaches into folders); a value may hold
    several, one per line, as an action's input does."""

    receipts: Sequence[str] = ()
    ledgers: Sequence[str] = ()
    # Claims files: JSON Lines, one {"claim": TEXT, "log": PATH} a line, the path from the
    # folder ci runs in. Only these ask anything: the facts, else the model server.
    claims: Sequence[str] = ()
    settings: Settings = field(default_factory=Settings)
    fmt: Optional[str] = None  # the claims' logs' format (None: told from the content)
    # Judge each receipt against the log it names too, as that file is now (VALID or not).
    expiry: bool = False
    # A receipt or entry that holds but does not answer `shown` fails too.
    require_shown: bool = False
    # A pattern that matches no file is a warning, not a failure.
    allow_missing: bool = False


def patterns(values):
    """The patterns a list of option values gives: one per non-blank line of each."""
    return [line.strip() for value in values for line in str(value).split("\n")
            if line.strip()]


def expand(pattern):
    """The files `pattern` names, sorted: the matches of a glob (no folders), or the path
    itself when it is there."""
    if any(ch in pattern for ch in _GLOB):
        return sorted(path for path in glob.glob(pattern, recursive=True)
                      if not os.path.isdir(path))
    return [pattern] if os.path.lexists(pattern) else []


def _files(values, kind, options):
    """(the files of `values`, each once; a Row for each pattern that matches none: a
    failure, or with allow_missing a warning)."""
    found, rows = {}, []
    for pattern in patterns(values):
        matched = expand(pattern)
        if not matched:
            said = f"no file matches {pattern!r}: a {kind} the pull request should carry " \
                   "is missing"
            rows.append(Row(kind, pattern, warnings=[said]) if options.allow_missing
                        else Row(kind, pattern, problems=[said]))
        found.update(dict.fromkeys(matched))
    return list(found), rows


def _text(value):
    return value if isinstance(value, str) else None


def described(row, record):
    """`row` with what a receipt (or a result's to_dict) says: its claim, its answer, who
    decided and by which rule, and its first deciding quote. A record of any shape is
    read without error: a field that is not what it should be is left out."""
    if not isinstance(record, dict):
        return row
    row.claim, row.answer = _text(record.get("claim")), _text(record.get("answer"))
    row.decided_by = _text(record.get("decided_by")) or (
        "models" if isinstance(record.get("models"), list) and record["models"] else None)
    facts = record.get("facts") if isinstance(record.get("facts"), dict) else {}
    row.rule = _text(facts.get("rule")) if row.decided_by == "facts" else \
        _text(record.get("rule"))
    quotes = record.get("quotes") if isinstance(record.get("quotes"), list) else []
    first = next((q for q in quotes if isinstance(q, dict)), {})
    row.turn, row.quote = _text(first.get("turn")), _text(first.get("quote"))
    return row


def _answer_said(row, options):
    """A record that holds but does not answer `shown`: a warning, or with require_shown a
    problem."""
    if row.holds and row.answer is not None and row.answer != SHOWN:
        said = f"it holds, and it answers {row.answer!r}: the log does not show the claim"
        (row.problems if options.require_shown else row.warnings).append(said)


def check_receipt(path, options, read_log_file=None):
    """The Row of the receipt at `path`: re-derived offline from itself (and with
    `options.expiry`, judged against the log it names, read by `read_log_file`)."""
    name = display_name(path)
    row = Row(RECEIPT, name)
    try:
        receipt = loads_strict(decode(read_bytes(path), name))
    except InputError as exc:
        row.problems.append(str(exc))
        return row
    except ValueError as exc:
        row.problems.append(f"not valid JSON: {exc}")
        return row
    described(row, receipt)
    if options.expiry and isinstance(receipt, dict):
        try:  # a log name no file can have fails this receipt, not the whole run
            judged = judge_receipt(receipt, *(read_log_file or log_reader())(receipt))
        except UsageError as exc:
            row.problems.append(str(exc))
            return row
        row.problems += judged.differences
        if judged.status == EXPIRED:
            row.problems += [f"EXPIRED: {reason}" for reason in judged.reasons]
    else:
        row.problems += replay_receipt(receipt)
    _answer_said(row, options)
    return row


def check_ledger_file(path, options):
    """The Rows of the ledger at `path`: one per entry (its chain and its receipt), and one
    for the ledger as a whole when it cannot be read or has no entries."""
    name = display_name(path)
    try:
        check = check_ledger(read_bytes(path), expiry=options.expiry)
    except (InputError, UsageError) as exc:  # a log name no file can have: this ledger fails
        return [Row(LEDGER, name, problems=[str(exc)])]
    standing = {judged["entry"]: judged for judged in check.expiry or ()}
    rows, said = [], set()
    for entry in check.entries:
        row = described(Row(ENTRY, name, entry.number), entry.receipt)
        row.problems += list(entry.problems)
        said.update(f"entry {entry.number}: {problem}" for problem in entry.problems)
        judged = standing.get(entry.number)
        if judged and judged["status"] == EXPIRED:
            row.problems += [f"EXPIRED: {reason}" for reason in judged["reasons"]]
        _answer_said(row, options)
        rows.append(row)
    whole = [line for line in check.differences if line not in said]
    if whole:
        rows.append(Row(LEDGER, name, problems=whole))
    return rows


def _claim_lines(path):
    """(line number, claim, log path, problem) of each line of a claims file."""
    name = display_name(path)
    for number, line in json_lines(decode(read_bytes(path), name)):
        if not line.strip():
            continue
        try:
            value = loads_strict(line)
        except ValueError as exc:
            yield number, None, None, f"{name} line {number}: not valid JSON: {exc}"
            continue
        if not (isinstance(value, dict) and isinstance(value.get("claim"), str)
                and value["claim"].strip() and isinstance(value.get("log"), str)
                and value["log"]):
            yield number, None, None, (f"{name} line {number}: a claim must be "
                                       '{"claim": TEXT, "log": PATH}')
            continue
        yield number, value["claim"], value["log"], None


def check_claims_file(path, options, progress=None):
    """The Rows of a claims file: each claim checked against its log (the facts first,
    then the models), holding only when the answer is `shown`."""
    name = display_name(path)
    try:
        lines = list(_claim_lines(path))
    except InputError as exc:
        return [Row(CLAIM, name, problems=[str(exc)])]
    rows = []
    for number, claim, log, problem in lines:
        shown = redact_text(claim)[0] if claim and options.settings.redact else claim
        row = Row(CLAIM, name, number, claim=shown)
        if problem:
            row.problems.append(problem)
        else:
            _ask(row, claim, log, options)
        rows.append(row)
        if progress:
            progress(row)
    return rows


def inside(path, folder=None):
    """Whether `path` lies in `folder` (default: the folder ci runs in), links followed. A
    claims file comes with the pull request: it must not make ci read, and quote into a
    public summary, a file of the machine it runs on."""
    here = os.path.realpath(folder or os.getcwd())
    try:
        return os.path.commonpath([here, os.path.realpath(path)]) == here
    except ValueError:  # another drive
        return False


def _ask(row, claim, log, options):
    if log == "-" or not inside(log):
        row.problems.append(f"its log {log!r} is not a file under the folder ci runs in: a "
                            "claims file may name only the repository's own files")
        return
    try:
        read = read_log(log, options.fmt, [], options.settings.redact)
        result = check_claim(claim, read.turns, options.settings, keep_failed=True)
    except UsageError:
        raise  # the settings themselves: nothing else could be asked either
    except ReceiptPairError as exc:
        row.problems.append(f"could not check it against {log}: {exc}")
        return
    described(row, result.to_dict())
    for failed in result.failed:
        row.problems.append(f"model {failed.arm} could not be asked: {failed.error}")
    if not result.failed and result.answer != SHOWN:
        row.problems.append(f"{log} does not show it: the answer is {result.answer!r}")


def run_ci(options: CiOptions, progress: Optional[Callable[[Row], None]] = None) -> CiReport:
    """The CiReport of everything `options` (a CiOptions) names: every receipt re-derived,
    every ledger verified, every claim checked; `progress` is told each Row as it is
    made. A UsageError when nothing is named, or when the settings cannot ask."""
    if not patterns(options.receipts) and not patterns(options.ledgers) and \
            not patterns(options.claims):
        raise UsageError("nothing to check: name receipts, ledgers or claims files")
    if patterns(options.claims):
        options.settings.checked()  # before anything is read: a usage error stops all
    rows = []

    def add(made):
        for row in made:
            rows.append(row)
            if progress:
                progress(row)

    read_log_file = log_reader()
    receipts, missing = _files(options.receipts, RECEIPT, options)
    add(missing)
    for path in receipts:
        add([check_receipt(path, options, read_log_file)])
    ledgers, missing = _files(options.ledgers, LEDGER, options)
    add(missing)
    for path in ledgers:
        add(check_ledger_file(path, options))
    claims, missing = _files(options.claims, "claims file", options)
    add(missing)
    for path in claims:
        rows.extend(check_claims_file(path, options, progress))
    return CiReport(rows)
