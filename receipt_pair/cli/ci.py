"""`ci`: in a pull request's job, re-derive the receipts and ledgers it carries (no model, no
server), and check the claims of a claims file where one is named; GitHub annotations on
standard output, a Markdown step summary appended to $GITHUB_STEP_SUMMARY, the step's
outputs to $GITHUB_OUTPUT. The action at the repository's root (action.yml) runs it; the
work is audit/ci.py's, the formats cli/github.py's."""

import os
import sys

from .. import errors
from ..audit.ci import CiOptions, run_ci
from ..store.jsonl import append_text
from .github import (ENV_OUTPUT, ENV_SUMMARY, ENV_WORKSPACE, annotations, decided,
                     status_of, step_outputs, step_summary, what)
from .options import (add_format_option, add_model_options, print_flush, print_json,
                      print_lines, settings_from)
from .visible import one_line
from .visible import visible

_PATHS = ("a path or a glob (** reaches into folders); repeat the option, or give several "
          "in one value, one per line")


def add_ci(commands):
    p = commands.add_parser(
        "ci", help="re-derive the receipts and ledgers a pull request carries; exit 1 on "
                   "any that does not hold",
        description="Re-derive the receipts and ledgers a pull request carries, offline "
                    "(no model, no server), and, with --claims, check claims against logs "
                    "(the facts first, then the model server). Prints a line per receipt, "
                    "ledger entry and claim, then a GitHub annotation for each that does "
                    "not hold; appends a Markdown summary to $GITHUB_STEP_SUMMARY and the "
                    "step's outputs (result, checked, failed) to $GITHUB_OUTPUT when set. "
                    f"Exit {errors.EXIT_OK} when every one holds, "
                    f"{errors.EXIT_NO_RECEIPT} otherwise.")
    p.add_argument("--receipts", action="append", default=[], metavar="PATHS",
                   help=f"receipts (check --save, gate --save) to re-derive: {_PATHS}")
    p.add_argument("--ledgers", action="append", default=[], metavar="PATHS",
                   help=f"ledgers (--ledger) to verify, every entry re-derived: {_PATHS}")
    p.add_argument("--claims", action="append", default=[], metavar="PATHS",
                   help='claims to check (off unless given): JSON Lines files of {"claim": '
                        'TEXT, "log": PATH}, the log a file under this folder; each must be '
                        "shown. The facts decide what they settle; the rest asks the model "
                        f"server (--base-url and the model options). Each is {_PATHS}")
    p.add_argument("--expiry", action="store_true",
                   help="also judge each receipt against the log it names, as that file is "
                        "now: one that is not VALID fails")
    p.add_argument("--require-shown", action="store_true",
                   help="a receipt or entry that holds but does not answer shown fails too "
                        "(default: a warning)")
    p.add_argument("--allow-missing", action="store_true",
                   help="a path or glob that matches no file is a warning (default: it "
                        "fails: a receipt the pull request should carry is missing)")
    p.add_argument("--summary", metavar="FILE",
                   help=f"append the Markdown summary here (default: ${ENV_SUMMARY}, when set)")
    p.add_argument("--github-output", metavar="FILE",
                   help=f"append the step's outputs here (default: ${ENV_OUTPUT}, when set)")
    p.add_argument("--json", action="store_true",
                   help="machine output: the report as one JSON object, no annotations")
    add_format_option(p)
    add_model_options(p)
    p.set_defaults(func=_cmd_ci)


def ci_options(args):
    """The CiOptions the command line's options give."""
    return CiOptions(receipts=args.receipts, ledgers=args.ledgers, claims=args.claims,
                     settings=settings_from(args), fmt=args.format, expiry=args.expiry,
                     require_shown=args.require_shown, allow_missing=args.allow_missing)


def row_line(row):
    """One row for the job's log: ok, warn or FAIL, what and where, what it says, why."""
    mark = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}[status_of(row)]
    said = ", ".join(one_line(part, 80) for part in (row.answer, decided(row)) if part)
    line = f"{mark} {what(row)} of {one_line(row.file, 120)}" + (f": {said}" if said else "")
    if row.claim:
        line += f": {one_line(row.claim, 100)!r}"
    return line + "".join(f"\n     {one_line(p, 300)}" for p in row.problems + row.warnings)


def _cmd_ci(args):
    report = run_ci(ci_options(args), progress=None if args.json else
                    lambda row: print_flush(row_line(row)))
    root = os.environ.get(ENV_WORKSPACE) or None
    # The files first: one that cannot be written is an error, and standard output then
    # holds its JSON object alone.
    summary = args.summary or os.environ.get(ENV_SUMMARY)
    if summary:
        append_text(summary, step_summary(report, root), "the step summary")
        print_flush(f"ci: summary appended to {visible(summary)}", sys.stderr)
    outputs = args.github_output or os.environ.get(ENV_OUTPUT)
    if outputs:
        append_text(outputs, step_outputs(report), "the step's outputs")
    if args.json:
        print_json(report.to_dict())
    else:
        print_lines(annotations(report, root) + [
            f"ci: {len(report.rows)} checked, {len(report.failed)} do not hold"])
    return errors.EXIT_OK if report.ok else errors.EXIT_NO_RECEIPT
