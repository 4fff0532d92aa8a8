"""What the commands share: argument types, the model options, printing, one check.

Only the command line prints; these helpers are its own.
"""

import argparse
import sys

from .. import errors
from ..check.render import DEFAULT_MAX_TURNS
from ..check.rules import CONTRADICTIONS, DEFAULT_CONTRADICTIONS, DEFAULT_RULE, RULES
from ..logs import FORMATS as LOG_FORMATS, log_notes, read_log
from ..pair.settings import Settings
from ..readers import DEFAULT_READER, ENV_READER, READERS, usable_readers
from ..server.defaults import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B,
                               DEFAULT_TIMEOUT, ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B,
                               MAX_TIMEOUT)
from ..store.files import loads_strict
from ..store.ledger import ENV_LEDGER, ledger_path
from .report import render_differences
from .visible import json_text, message, print_json, visible  # noqa: F401 (the commands import them here)


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
    add_redact_option(parser)


def add_redact_option(parser):
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
    for line in log_notes(read, warnings):
        note(line)
    return read


def note(line):
    """A line for the person, on standard error."""
    print_flush(f"note: {visible(line)}", sys.stderr)


# The model and reading options default to None, "not given": what is not given is read,
# in one place, by Settings.from_environment (the environment, else the default).


def add_reading_options(parser, retired=False):
    """--max-turns and --reader. Every command offers every reader it knows, so the choices
    are the same wherever --reader is; a retired one asks no new question (Settings says
    why), except where `retired` says the command may use one (a sealed run's re-run, a
    saved reply judged)."""
    parser.add_argument("--max-turns", type=positive_int, default=None,
                        help=f"how many of the last turns the models see (default: "
                             f"{DEFAULT_MAX_TURNS})")
    usable = ", ".join(usable_readers())
    parser.add_argument("--reader", default=None, choices=sorted(READERS),
                        help=f"reader version (default: ${ENV_READER} or {DEFAULT_READER}; "
                             + ("a retired one only with --allow-retired or to judge a saved "
                                "reply)" if retired else f"a new question uses one of {usable})"))


def add_model_options(parser, rules=RULES, retired=False):
    add_reading_options(parser, retired)
    if rules:
        parser.add_argument("--rule", choices=rules, default=None,
                            help=f"pair rule (default: {DEFAULT_RULE})")
        parser.add_argument("--contradictions", choices=CONTRADICTIONS, default=None,
                            help=f"who may say contradicted: any (the models too) or facts "
                                 f"(plain code only; a model's contradicted is not shown) "
                                 f"(default: {DEFAULT_CONTRADICTIONS})")
    parser.add_argument("--model-a", default=None,
                        help=f"model A's id (default: ${ENV_MODEL_A} or {DEFAULT_MODEL_A})")
    parser.add_argument("--model-b", default=None,
                        help=f"model B's id (default: ${ENV_MODEL_B} or {DEFAULT_MODEL_B})")
    parser.add_argument("--extra-a", type=json_object, default=None, metavar="JSON",
                        help="extra request fields for model A, as a JSON object")
    parser.add_argument("--extra-b", type=json_object, default=None, metavar="JSON",
                        help="extra request fields for model B, as a JSON object")
    parser.add_argument("--base-url", default=None,
                        help=f"OpenAI-compatible server (default: ${ENV_BASE_URL} or "
                             f"{DEFAULT_BASE_URL}, Lemonade)")
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow a server that is not on this machine (the log goes there)")
    parser.add_argument("--timeout", type=positive_float, default=None,
                        help=f"seconds to wait for one model call (default: {DEFAULT_TIMEOUT})")
    parser.add_argument("--models-only", action="store_true",
                        help="ask the two models even where the facts plain code reads of the "
                             "log settle the claim (default: the facts decide what they "
                             "settle, with no model asked)")


def add_concurrent_option(parser, help_text):
    parser.add_argument("--concurrent", choices=("auto", "yes", "no"), default="no",
                        help=help_text)




def print_lines(lines, stream=None):
    print("\n".join(lines), file=stream or sys.stdout, flush=True)


def print_flush(line, stream=None):
    print(line, file=stream or sys.stdout, flush=True)


# The options of Settings a command may have, by the name argparse gives each.
_SETTINGS = ("model_a", "model_b", "extra_a", "extra_b", "reader", "rule", "contradictions",
             "max_turns", "base_url", "timeout", "allow_remote", "allow_retired")


def settings_from(args):
    """The Settings a command's options give: those given, else the environment's, else
    the defaults (Settings.from_environment)."""
    given = {name: getattr(args, name, None) for name in _SETTINGS}
    return Settings.from_environment(**given, concurrent=concurrency(args),
                                     redact=not getattr(args, "no_redact", False),
                                     facts=not getattr(args, "models_only", False))


def run_check(args, claim, turns):
    """Ask the pair about `claim`; a server that failed for both models is an error."""
    settings = settings_from(args)
    from ..pair.claim import check_claim

    return check_claim(claim, turns, settings, keep_failed=True)


def concurrency(args):
    return {"auto": None, "yes": True, "no": False}[getattr(args, "concurrent", "no")]


def ledger_from(args):
    """The ledger --ledger names, else $RECEIPT_PAIR_LEDGER, else None: read in one place."""
    return ledger_path(getattr(args, "ledger", None))


def add_ledger_option(parser):
    parser.add_argument("--ledger", metavar="FILE",
                        help=f"append the receipt to this hash-chained ledger (default: "
                             f"${ENV_LEDGER}, if set)")


def keeper_from(args):
    """Where the receipts of a command go: --save and --ledger (or $RECEIPT_PAIR_LEDGER);
    a line the ledger mends is said on standard error."""
    from ..pair.receipts import Keeper

    return Keeper(getattr(args, "save", None), ledger_from(args), note=note)


def keep_receipt(keeper, result, log, made_by="check", **blocks):
    """Keep the receipt of `result` for `log` where `keeper` says, saying on standard error
    where it went. Return it, or None when nothing keeps it."""
    receipt, entry = keeper.keep(result, log, made_by, **blocks)
    if entry is not None:
        print_flush(f"receipt-pair: receipt appended to {visible(keeper.ledger)} as entry "
                    f"{entry['entry']}", sys.stderr)
    return receipt


def report_differences(differences, what, count):
    print_lines(render_differences(differences, what, count))
    return errors.EXIT_NO_RECEIPT if differences else errors.EXIT_OK


