"""What the commands share: argument types, the model options, printing, one check.

Only the command line prints; these helpers are its own.
"""

import argparse
import os
import sys

from .. import errors
from ..server.client import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B, DEFAULT_TIMEOUT,
                     ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B, Client)
from ..errors import InputError, ServerError
from ..store.files import decode, display_name, loads_strict, read_bytes
from ..logs import FORMATS as LOG_FORMATS
from ..store.ledger import ENV_LEDGER, ledger_path
from ..logs import read_log
from ..pair.claim import check_claim
from ..pair.settings import Settings
from ..readers import DEFAULT_READER, ENV_READER, READERS, usable_readers
from ..pair.receipts import keep_receipt as store_receipt
from ..check.render import DEFAULT_MAX_TURNS
from .report import render_differences
from ..check.rules import DEFAULT_RULE, RULES
from ..server.transport import MAX_TIMEOUT
from .visible import json_text, visible

def json_object(text):
    try:
        value = loads_strict(text)
    except ValueError as exc:  # NaN, nesting beyond reason and lone surrogates included
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object, like '{\"top_k\": 1}'")
    return value


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def count_int(text):
    """A whole number, 0 or more (a count that may be none)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= MAX_TIMEOUT:  # the longest wait any option may ask for
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_TIMEOUT:g}")
    return value


def add_format_option(parser):
    parser.add_argument("--format", choices=LOG_FORMATS, default=None,
                        help="the log's format, when telling it from the content is not "
                             "wanted (default: told from the content)")
    parser.add_argument("--no-redact", action="store_true",
                        help="keep credentials in the log as they are (default: tokens, "
                             "keys and passwords are replaced by [REDACTED] when the log is "
                             "read, before any model sees it or any receipt keeps it)")


def read_log_args(args, path=None, redact=None):
    """The LogRead (turns, sha256, redactions) of the log named by --log (or `path`), in
    --format if given, redacted unless --no-redact (or `redact` says otherwise); anything
    skipped (a torn last line) is said on stderr."""
    warnings = []
    if redact is None:
        redact = not getattr(args, "no_redact", False)
    read = read_log(path or args.log, getattr(args, "format", None), warnings, redact)
    for warning in warnings:
        print(f"note: {visible(warning)}", file=sys.stderr, flush=True)
    if read.redactions:
        print(f"note: {read.redactions} credential(s) in the log replaced by [REDACTED] "
              "before the models saw it", file=sys.stderr, flush=True)
    return read


def add_reading_options(parser, retired=False):
    """--max-turns and --reader; `retired` offers the retired readers too (no new question
    is asked with them except by a re-run of a sealed run)."""
    parser.add_argument("--max-turns", type=positive_int, default=DEFAULT_MAX_TURNS,
                        help="how many of the last turns the models see (default: %(default)s)")
    parser.add_argument("--reader", default=os.environ.get(ENV_READER) or None,
                        choices=sorted(READERS) if retired else usable_readers(),
                        help=f"reader version (default: ${ENV_READER} or {DEFAULT_READER})")


def add_model_options(parser, rules=RULES, retired=False):
    add_reading_options(parser, retired)
    if rules:
        parser.add_argument("--rule", choices=rules, default=DEFAULT_RULE,
                            help="pair rule (default: %(default)s)")
    parser.add_argument("--model-a", default=os.environ.get(ENV_MODEL_A, DEFAULT_MODEL_A),
                        help=f"model A's id (default: ${ENV_MODEL_A} or %(default)s)")
    parser.add_argument("--model-b", default=os.environ.get(ENV_MODEL_B, DEFAULT_MODEL_B),
                        help=f"model B's id (default: ${ENV_MODEL_B} or %(default)s)")
    parser.add_argument("--extra-a", type=json_object, default=None, metavar="JSON",
                        help="extra request fields for model A, as a JSON object")
    parser.add_argument("--extra-b", type=json_object, default=None, metavar="JSON",
                        help="extra request fields for model B, as a JSON object")
    parser.add_argument("--base-url", default=os.environ.get(ENV_BASE_URL, DEFAULT_BASE_URL),
                        help=f"OpenAI-compatible server (default: ${ENV_BASE_URL} or "
                             "%(default)s, Lemonade)")
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow a server that is not on this machine (the log goes there)")
    parser.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                        help="seconds to wait for one model call (default: %(default)s)")


def add_concurrent_option(parser, help_text):
    parser.add_argument("--concurrent", choices=("auto", "yes", "no"), default="no",
                        help=help_text)


def client_for(args):
    return Client(args.base_url, timeout=args.timeout, allow_remote=args.allow_remote)


def print_json(value):
    print(json_text(value, indent=2))


def print_lines(lines, stream=None):
    print("\n".join(lines), file=stream or sys.stdout, flush=True)


def print_flush(line, stream=None):
    print(line, file=stream or sys.stdout, flush=True)


def settings_from(args, **changes):
    """The Settings the command line's options give (the options a command has)."""
    given = {"model_a": args.model_a, "model_b": args.model_b,
             "extra_a": args.extra_a or {}, "extra_b": args.extra_b or {},
             "reader": args.reader, "rule": getattr(args, "rule", DEFAULT_RULE),
             "max_turns": args.max_turns, "base_url": args.base_url,
             "timeout": args.timeout, "allow_remote": args.allow_remote,
             "concurrent": concurrency(args),
             "redact": not getattr(args, "no_redact", False),
             "allow_retired": getattr(args, "allow_retired", False)}
    return Settings(**{**given, **changes})


def run_check(args, claim, turns):
    """Ask the pair about `claim`; a server that failed for both models is an error."""
    result = check_claim(claim, turns, settings_from(args), keep_failed=True)
    if len(result.failed) == 2:
        raise ServerError(result.models[0].error if result.models[0].error == result.models[1].error
                          else f"{result.models[0].error}; {result.models[1].error}")
    return result


def concurrency(args):
    return {"auto": None, "yes": True, "no": False}[getattr(args, "concurrent", "no")]


def ledger_from(args):
    """The ledger --ledger names, else $RECEIPT_PAIR_LEDGER, else None: read in one place."""
    return ledger_path(getattr(args, "ledger", None))


def add_ledger_option(parser):
    parser.add_argument("--ledger", metavar="FILE",
                        help=f"append the receipt to this hash-chained ledger (default: "
                             f"${ENV_LEDGER}, if set)")


def keep_receipt(args, result, log_name, log, witness=None, made_by="check", gate=None):
    """Keep the receipt of `result` as --save and --ledger (or $RECEIPT_PAIR_LEDGER) say,
    saying on standard error where it went. Return it, or None when nothing keeps it."""
    ledger = ledger_from(args)
    receipt, entry = store_receipt(
        result, log_name, log, args.max_turns, save=args.save, ledger=ledger,
        redact=not getattr(args, "no_redact", False), witness=witness, made_by=made_by,
        gate=gate, note=lambda line: print_flush(f"note: {visible(line)}", sys.stderr))
    if entry is not None:
        print_flush(f"receipt-pair: receipt appended to {visible(ledger)} as entry "
                    f"{entry['entry']}", sys.stderr)
    return receipt


def read_json_file(path):
    name = display_name(path)
    try:
        return loads_strict(decode(read_bytes(path), name))
    except ValueError as exc:
        raise InputError(f"{name}: not valid JSON: {exc}") from None


def report_differences(differences, what, count):
    print_lines(render_differences(differences, what, count))
    return errors.EXIT_NO_RECEIPT if differences else errors.EXIT_OK


def message(exc):
    """An error's line, with what to do about it on the command line when it says; what it
    quotes from a file or a server is shown with its control characters as marks."""
    hint = getattr(exc, "cli_hint", None)
    return visible(f"{exc} ({hint})" if hint else str(exc))
