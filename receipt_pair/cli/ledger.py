"""The commands about receipts over time: ledger verify, ledger show, witness pin."""

import re
import sys

from .. import errors
from .options import count_int, print_flush, print_json, print_lines
from ..errors import InputError, UsageError
from ..store.files import decode, display_name, loads_strict, read_bytes
from ..audit.ledger import check_ledger, verify_ledger
from ..store.ledger import LEDGER_SCHEMA, entry_summary, read_ledger
from .page import ledger_page, receipt_page
from ..pair.pins import pin_file_record, pin_from_collection, pin_from_junit
from ..store.jsonl import write_atomic, write_json_atomic
from ..store.records import RECEIPT_SCHEMAS, utc_now
from ..audit.replay import replay_receipt
from .visible import one_line, visible

# -- ledger verify, ledger show -----------------------------------------------------------


def add_ledger(commands):
    p = commands.add_parser("ledger", help="verify or list a hash-chained ledger of receipts")
    actions = p.add_subparsers(dest="ledger_command", metavar="ACTION")
    actions.required = True
    verify = actions.add_parser(
        "verify", help="check the chain and re-derive every receipt offline; exit 1 on any "
                       "break or difference")
    verify.add_argument("ledger", help="the ledger file")
    verify.add_argument("--head", metavar="SHA256",
                        help="a head noted earlier (ledger verify and ledger show print it): "
                             "it must still be one of the entries, so entries removed from "
                             "the end are caught")
    verify.add_argument("--expiry", action="store_true",
                        help="also judge each receipt VALID or EXPIRED against the log it "
                             "names, as that file is now; exit 1 unless every one is VALID")
    verify.add_argument("--json", action="store_true", help="machine output")
    verify.set_defaults(func=_cmd_ledger_verify)
    show = actions.add_parser("show", help="list the entries: time, claim, answer, command "
                                           "gated")
    show.add_argument("ledger", help="the ledger file")
    show.add_argument("--json", action="store_true", help="machine output")
    show.set_defaults(func=_cmd_ledger_show)




def _cmd_ledger_verify(args):
    name = display_name(args.ledger)
    check = check_ledger(read_bytes(args.ledger), args.head, args.expiry)
    if args.json:
        print_json({"ledger": name, **check.to_dict()})
        return errors.EXIT_OK if check.ok else errors.EXIT_NO_RECEIPT
    lines = [f"differs: {visible(line)}" for line in check.differences]
    for judged in check.expiry or ():
        reasons = judged["reasons"] + judged["differences"]
        lines.append(f"entry {judged['entry']}: {judged['status']}"
                     + (f": {visible('; '.join(reasons))}" if reasons else ""))
    name, entries = visible(name), len(check.entries)
    if check.differences:
        lines.append(f"ledger verify: {len(check.differences)} difference(s) in {name} "
                     f"({entries} entries)")
    else:
        lines.append(f"ledger verify: {name}: {entries} entries, the chain holds and "
                     "every receipt re-derives offline")
    if check.head and not check.differences:  # a head worth noting: pass it back with --head
        lines.append(f"head: entry {check.head['entry']} sha256 {check.head['sha256']}")
    print_lines(lines)
    return errors.EXIT_OK if check.ok else errors.EXIT_NO_RECEIPT


def _action(summary):
    gate = summary["gate"]
    if not gate:
        return "-"
    program = one_line(re.split(r"[/\\]", str(gate.get("program")))[-1], 24)
    if gate.get("dry_run"):
        return f"{program}: dry run"
    return f"{program}: ran" if gate.get("runs") else \
        f"{program}: blocked ({one_line(gate.get('status'), 8)})"


def _cmd_ledger_show(args):
    entries = read_ledger(read_bytes(args.ledger))
    summaries = [entry_summary(e) for e in entries]
    if args.json:
        print_json({"ledger": display_name(args.ledger), "entries": summaries})
    else:
        rows = [("entry", "time", "answer", "made by", "command gated", "claim")]
        for s in summaries:
            if s["claim"] is None and s["problems"]:
                rows.append((str(s["entry"]), "-", "-", "-", "-",
                             "(cannot be read: " + one_line(s["problems"][0], 60) + ")"))
                continue
            rows.append((str(s["entry"]), one_line(s["time"], 20), one_line(s["answer"], 12),
                         one_line(s["made_by"] or "-", 8), _action(s),
                         one_line(s["claim"], 70)))
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        print_lines(["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[5]
                     for row in rows])
        whole = [e for e in entries if e.record is not None]
        if whole:
            print(f"head: entry {whole[-1].number} sha256 {whole[-1].sha256}")
    troubled = [e.number for e in entries if e.problems]
    if troubled:
        print_flush(f"note: entries {', '.join(map(str, troubled))} have problems; run "
                    f"receipt-pair ledger verify {visible(args.ledger)}", sys.stderr)
    return errors.EXIT_OK

# -- show --html --------------------------------------------------------------------------


def add_show(commands):
    p = commands.add_parser(
        "show", help="write a receipt or a ledger as one static HTML page",
        description="Write one self-contained HTML page (no scripts, no network): the claim "
                    "and the answer, each model's verdict, quote and reason, the log as the "
                    "models saw it with the quoted lines marked, then hashes and settings. "
                    "Exit 1 when what it shows does not re-derive offline (the page says so).")
    p.add_argument("file", metavar="RECEIPT_OR_LEDGER", help="a receipt (check --save) or a "
                                                             "ledger (--ledger)")
    p.add_argument("--html", required=True, metavar="OUT.html",
                   help="the page to write (- for standard output)")
    p.set_defaults(func=_cmd_show)


def _kind(data, name):
    """("receipt", receipt) or ("ledger", None), told from the content."""
    text = decode(data, name)
    try:
        value = loads_strict(text)
    except ValueError:
        value = None
    if isinstance(value, dict) and value.get("schema") in RECEIPT_SCHEMAS:
        return "receipt", value
    first = text.split("\n", 1)[0]
    try:
        entry = loads_strict(first)
    except ValueError:
        entry = None
    if isinstance(entry, dict) and entry.get("schema") == LEDGER_SCHEMA:
        return "ledger", None
    raise InputError(f"{name}: neither a receipt-pair receipt nor a ledger")


def _cmd_show(args):
    name = display_name(args.file)
    data = read_bytes(args.file)
    kind, receipt = _kind(data, name)
    if kind == "receipt":
        differences = replay_receipt(receipt)
        page, what = receipt_page(receipt, differences, name), "1 receipt"
    else:
        entries, differences = verify_ledger(data)
        page, what = ledger_page(entries, differences, name), f"{len(entries)} entries"
    if args.html == "-":
        sys.stdout.write(page)
    else:
        write_atomic(args.html, page.encode("utf-8", "backslashreplace"), "the page")
    print_flush(f"show: wrote {args.html} ({what}"
                + (f"; {len(differences)} difference(s), shown on the page)" if differences
                   else "; re-derived offline, no differences)"),
                sys.stderr if args.html == "-" else sys.stdout)
    return errors.EXIT_NO_RECEIPT if differences else errors.EXIT_OK


# -- witness pin --------------------------------------------------------------------------


def add_witness(commands):
    p = commands.add_parser("witness", help="pin the tests a witness run must report")
    actions = p.add_subparsers(dest="witness_command", metavar="ACTION")
    actions.required = True
    pin = actions.add_parser(
        "pin", help="write a pin file from a JUnit report or pytest's collection",
        description="Write a pin file: how many tests a `gate --witness --pin FILE` run must "
                    "report, and how many it may skip. From a JUnit report (a run you trust) "
                    "or from `pytest --collect-only -q` output.")
    source = pin.add_mutually_exclusive_group(required=True)
    source.add_argument("--junit", metavar="REPORT", help="a JUnit XML report (pytest "
                        "--junitxml=report.xml): its test cases, and as many skipped as it has")
    source.add_argument("--collect", metavar="FILE",
                        help="the output of `pytest --collect-only -q` (- for standard input): "
                             "the tests collected, none skipped")
    pin.add_argument("--out", required=True, metavar="FILE", help="the pin file to write")
    pin.add_argument("--allow-skipped", type=count_int, metavar="K",
                     help="how many tests a run may skip or have fail as expected (xfail) "
                          "(default: as many as the report did; 0 for a collection)")
    pin.set_defaults(func=_cmd_witness_pin)


def _cmd_witness_pin(args):
    path = args.junit or args.collect
    name = display_name(path)
    data = read_bytes(path)
    if args.junit:
        pin = pin_from_junit(data, name, args.allow_skipped)
    else:
        pin = pin_from_collection(data, name, args.allow_skipped)
    if args.out == "-":
        raise UsageError("witness pin --out needs a file name")
    write_json_atomic(args.out, pin_file_record(pin, utc_now()), "the pin")
    print_flush(f"pinned {pin.tests} tests, at most {pin.skipped} skipped or expected to fail, "
                f"from {pin.source}: {args.out}")
    print_flush(f"next: receipt-pair gate --witness --pin {args.out} ...", sys.stderr)
    return errors.EXIT_OK
