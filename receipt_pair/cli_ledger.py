"""The commands about receipts over time: witness pin (and the ledger's commands)."""

import sys

from . import errors
from .cli_options import count_int, print_flush
from .errors import InputError, UsageError
from .files import display_name, read_bytes
from .pins import pin_file_record, pin_from_collection, pin_from_junit
from .records import utc_now, write_json_atomic

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
                     help="how many tests a run may skip (default: as many as the report "
                          "skipped; 0 for a collection)")
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
    try:
        write_json_atomic(args.out, pin_file_record(pin, utc_now()))
    except OSError as exc:
        raise InputError(f"{args.out}: cannot write the pin: {exc.strerror or exc}") from None
    print_flush(f"pinned {pin.tests} tests, at most {pin.skipped} skipped, from {pin.source}: "
                f"{args.out}")
    print_flush(f"next: receipt-pair gate --witness --pin {args.out} ...", sys.stderr)
    return errors.EXIT_OK
