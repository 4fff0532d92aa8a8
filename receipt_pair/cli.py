"""The command line: one small `_add_x` (its options) and `_cmd_x` (its I/O) per command.

Only this module prints. Every error of the ReceiptPairError family is caught once in
`main` and becomes one line on stderr and its named exit status.
"""

import argparse
import json
import os
import sys

from . import __version__, errors
from . import gate as gating
from .answers import SHOWN
from .batch import run_batch
from .client import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B, DEFAULT_TIMEOUT,
                     ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B, Client)
from .errors import InputError, ReceiptPairError, ServerError, UsageError
from .items import read_items
from .logs import decode, display_name, read_bytes, read_log
from .pair import check_claim
from .quote_check import check_reply
from .readers import DEFAULT_READER, READERS, get_reader
from .records import build_receipt, read_answers, write_json_atomic
from .render import DEFAULT_MAX_TURNS
from .replay import replay_answers, replay_receipt
from .report import (check_json, progress_line, render_check, render_differences,
                     render_score, render_verify)
from .request import SETTINGS
from .rules import DEFAULT_RULE, RULES
from .score import missing_any, score
from .selftest import run_probes
from .witness import record_turn

# Commands whose arguments after the first "--" are a command to run, not options.
_RUNS_A_COMMAND = ("gate", "record")


# -- argument types and shared options ----------------------------------------------------


def _json_object(text):
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object, like '{\"top_k\": 1}'")
    return value


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def _add_reading_options(parser):
    parser.add_argument("--max-turns", type=_positive_int, default=DEFAULT_MAX_TURNS,
                        help="how many of the last turns the models see (default: %(default)s)")
    parser.add_argument("--reader", default=None, choices=sorted(READERS),
                        help=f"reader version (default: {DEFAULT_READER})")


def _add_model_options(parser, rules=RULES):
    _add_reading_options(parser)
    if rules:
        parser.add_argument("--rule", choices=rules, default=DEFAULT_RULE,
                            help="pair rule (default: %(default)s)")
    parser.add_argument("--model-a", default=os.environ.get(ENV_MODEL_A, DEFAULT_MODEL_A),
                        help=f"model A's id (default: ${ENV_MODEL_A} or %(default)s)")
    parser.add_argument("--model-b", default=os.environ.get(ENV_MODEL_B, DEFAULT_MODEL_B),
                        help=f"model B's id (default: ${ENV_MODEL_B} or %(default)s)")
    parser.add_argument("--extra-a", type=_json_object, default=None, metavar="JSON",
                        help="extra request fields for model A, as a JSON object")
    parser.add_argument("--extra-b", type=_json_object, default=None, metavar="JSON",
                        help="extra request fields for model B, as a JSON object")
    parser.add_argument("--base-url", default=os.environ.get(ENV_BASE_URL, DEFAULT_BASE_URL),
                        help=f"OpenAI-compatible server (default: ${ENV_BASE_URL} or "
                             "%(default)s, Lemonade)")
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow a server that is not on this machine (the log goes there)")
    parser.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT,
                        help="seconds to wait for one model call (default: %(default)s)")


def _add_concurrent_option(parser, help_text):
    parser.add_argument("--concurrent", choices=("auto", "yes", "no"), default="no",
                        help=help_text)


def _client(args):
    return Client(args.base_url, timeout=args.timeout, allow_remote=args.allow_remote)


def _print_json(value):
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _print_lines(lines, stream=None):
    print("\n".join(lines), file=stream or sys.stdout, flush=True)


def _print_flush(line, stream=None):
    print(line, file=stream or sys.stdout, flush=True)


def _run_check(args, claim, turns):
    """Ask the pair about `claim`; a server that failed for both models is an error."""
    result = check_claim(
        claim, turns, model_a=args.model_a, model_b=args.model_b, rule=args.rule,
        reader=get_reader(args.reader), max_turns=args.max_turns, extra_a=args.extra_a,
        extra_b=args.extra_b, client=_client(args), concurrent=_concurrency(args))
    if len(result.failed) == 2:
        raise ServerError(result.models[0].error if result.models[0].error == result.models[1].error
                          else f"{result.models[0].error}; {result.models[1].error}")
    return result


def _concurrency(args):
    return {"auto": None, "yes": True, "no": False}[getattr(args, "concurrent", "auto")]


def _save_receipt(args, result, log_name, log_sha256, turns, witness=None):
    receipt = build_receipt(result, log_name, log_sha256, turns, args.max_turns, dict(SETTINGS),
                            witness)
    try:
        write_json_atomic(args.save, receipt)
    except OSError as exc:
        raise InputError(f"{args.save}: cannot write the receipt: {exc.strerror or exc}") from None
    return receipt


def _read_json_file(path):
    name = display_name(path)
    try:
        return json.loads(decode(read_bytes(path), name))
    except ValueError as exc:
        raise InputError(f"{name}: not valid JSON: {exc}") from None


def _report_differences(differences, what, count):
    _print_lines(render_differences(differences, what, count))
    return errors.EXIT_DIFFERS if differences else errors.EXIT_OK


# -- check --------------------------------------------------------------------------------


def _add_check(commands):
    p = commands.add_parser("check", help="check one claim against one log")
    p.add_argument("--claim", required=True, help="what the agent says it did")
    p.add_argument("--log", required=True, help="the agent's log (- for standard input)")
    p.add_argument("--json", action="store_true", help="machine output")
    p.add_argument("--save", metavar="RECEIPT", help="keep the whole receipt as JSON")
    _add_concurrent_option(p, "ask A and B at once (auto: when the server says it holds two "
                              "models); default no: on a 2-core machine asking at once "
                              "measured slower (see the benchmark)")
    _add_model_options(p)
    p.set_defaults(func=_cmd_check)


def _cmd_check(args):
    turns, log_sha256 = read_log(args.log)
    result = _run_check(args, args.claim, turns)
    if args.save:
        _save_receipt(args, result, display_name(args.log), log_sha256, turns)
    if args.json:
        _print_json(check_json(result))
    else:
        _print_lines(render_check(result))
        if args.save:
            print(f"\nreceipt saved: {args.save}")
    if result.failed:
        failed = result.failed[0]
        print(f"receipt-pair: model {failed.arm} could not be asked: {failed.error}",
              file=sys.stderr)
        return errors.EXIT_SERVER
    return errors.EXIT_OK


# -- verify -------------------------------------------------------------------------------


def reply_text(data, name):
    """The model's reply from a saved file: the raw text, or a whole chat response's content."""
    text = decode(data, name)
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, dict) and isinstance(value.get("choices"), list) and value["choices"]:
        try:
            content = value["choices"][0]["message"]["content"]
        except (KeyError, TypeError):
            return text
        return content if isinstance(content, str) else ""
    return text


def _add_verify(commands):
    p = commands.add_parser("verify", help="the quote check alone, on a saved reply; no server")
    p.add_argument("--log", help="the log the model was shown")
    p.add_argument("--reply", help="the model's raw reply (or a whole chat response)")
    p.add_argument("--receipt", help="re-derive a receipt saved by check --save instead")
    p.add_argument("--json", action="store_true", help="machine output")
    _add_reading_options(p)
    p.set_defaults(func=_cmd_verify)


def _cmd_verify(args):
    if args.receipt:
        return _verify_receipt(args)
    if not args.log or not args.reply:
        raise UsageError("verify needs --log FILE and --reply FILE (or --receipt FILE)")
    turns, _ = read_log(args.log)
    reply = reply_text(read_bytes(args.reply), display_name(args.reply))
    reader = get_reader(args.reader)
    checked = check_reply(reply, reader.render(turns, args.max_turns))
    if args.json:
        _print_json({"answer": checked.answer, "code": checked.code, "verdict": checked.verdict,
                     "turn": checked.turn, "quote": checked.quote, "reason": checked.reason,
                     "reader": reader.version})
    else:
        _print_lines(render_verify(checked))
    return errors.EXIT_OK


def _verify_receipt(args):
    receipt = _read_json_file(args.receipt)
    log_turns = log_sha = None
    if args.log:
        log_turns, log_sha = read_log(args.log)
    differences = replay_receipt(receipt, log_turns, log_sha)
    return _report_differences(differences, f"receipt {args.receipt}", 1)


# -- batch, score, replay -----------------------------------------------------------------


def _add_batch(commands):
    p = commands.add_parser("batch", help="ask both models about every item of a file")
    p.add_argument("items", help="items file, one JSON object per line")
    p.add_argument("--out", default="answers.jsonl",
                   help="answers file, appended to and resumed (default: %(default)s)")
    _add_model_options(p, rules=())
    p.set_defaults(func=_cmd_batch)


def _progress_printer(stream):
    def progress(event):
        print(progress_line(event), file=stream, flush=True)

    return progress


def _cmd_batch(args):
    items, items_sha256 = read_items(args.items)
    reader = get_reader(args.reader)
    client = _client(args)
    asked = run_batch(items, items_sha256, args.out, client, reader, model_a=args.model_a,
                      model_b=args.model_b, max_turns=args.max_turns, extra_a=args.extra_a,
                      extra_b=args.extra_b, items_name=display_name(args.items),
                      progress=_progress_printer(sys.stderr))
    _, rows, _ = read_answers(args.out)
    usable = {(r["id"], r["arm"]) for r in rows if not r.get("error")}
    left = 2 * len(items) - len(usable)
    print(f"batch: asked {asked} question(s); {len(usable)} of {2 * len(items)} answers usable "
          f"in {args.out}")
    if left:
        print(f"receipt-pair: {left} question(s) have no usable answer (their calls failed); "
              "run the same command again to ask them", file=sys.stderr)
        return errors.EXIT_SERVER
    print(f"next: receipt-pair score {args.out} {args.items}")
    return errors.EXIT_OK


def _load_run(answers_path, items_path, bad_lines=None):
    items, items_sha256 = read_items(items_path)
    header, rows, warnings = read_answers(answers_path, bad_lines)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return items, items_sha256, header, rows


def _add_score(commands):
    p = commands.add_parser("score", help="score an answers file against labelled items")
    p.add_argument("answers")
    p.add_argument("items")
    p.add_argument("--json", action="store_true", help="machine output")
    p.set_defaults(func=_cmd_score)


def _cmd_score(args):
    items, items_sha256, header, rows = _load_run(args.answers, args.items)
    result = score(items, items_sha256, header, rows)
    if args.json:
        _print_json(result)
    else:
        _print_lines(render_score(result))
    if missing_any(result):
        print("receipt-pair: some items were never asked (an unfinished batch); they are "
              "counted wrong above. Run batch again to finish it.", file=sys.stderr)
        return errors.EXIT_USAGE
    return errors.EXIT_OK


def _add_replay(commands):
    p = commands.add_parser("replay", help="re-derive recorded answers offline; exit 1 on any "
                                           "difference")
    p.add_argument("answers", nargs="?")
    p.add_argument("items", nargs="?")
    p.add_argument("--receipt", help="re-derive a receipt saved by check --save")
    p.add_argument("--log", help="with --receipt: the log it must have been made from")
    p.set_defaults(func=_cmd_replay)


def _cmd_replay(args):
    if args.receipt:
        return _verify_receipt(args)
    if not args.answers or not args.items:
        raise UsageError("replay needs ANSWERS ITEMS (or --receipt FILE)")
    bad_lines = []
    items, items_sha256, header, rows = _load_run(args.answers, args.items, bad_lines)
    differences = bad_lines + replay_answers(items, items_sha256, header, rows)
    return _report_differences(differences, args.answers, len(rows))


# -- gate and record ----------------------------------------------------------------------


def _add_gate(commands):
    p = commands.add_parser(
        "gate", help="run a command only if the log shows the claim",
        usage="receipt-pair gate --claim TEXT (--log FILE | --witness --log FILE) [options] "
              "-- [TEST ... --] COMMAND ...")
    p.add_argument("--claim", required=True, help="what the agent says it did")
    p.add_argument("--log", help="the agent's log; with --witness, the record is appended here")
    p.add_argument("--witness", action="store_true",
                   help="run the test command after -- yourself, record it, and check the "
                        "claim against that fresh record only")
    p.add_argument("--dry-run", action="store_true",
                   help="ask the models and print the command, but run nothing")
    p.add_argument("--save", metavar="RECEIPT", help="keep the whole receipt as JSON")
    _add_concurrent_option(p, argparse.SUPPRESS)
    _add_model_options(p, rules=gating.GATE_RULES)
    p.set_defaults(func=_cmd_gate)


def _cmd_gate(args):
    """Check the claim, then run the action only on `shown`; fail closed on any doubt."""
    action = args.command_argv
    if args.witness:
        test, action = gating.split_witness(action)
    if not action:
        raise UsageError("gate needs the action after --, like: gate --claim ... --log ... "
                         "-- git push")
    if not args.log:
        raise UsageError("gate --witness needs --log FILE to append the record to"
                         if args.witness else "gate needs --log FILE (or --witness)")
    witness = None
    try:
        if args.witness:
            witness = record_turn(args.log, test, echo=sys.stderr)
            turns, log_sha256 = [witness.turn], witness.record_sha256
        else:
            turns, log_sha256 = read_log(args.log)
        result = _run_check(args, args.claim, turns)
    except UsageError:
        raise
    except ReceiptPairError as exc:
        _print_flush(f"receipt-pair: {exc}", sys.stderr)
        decision = gating.decide(None, could_check=False, action=action)
        _print_flush(decision.line)
        return decision.status
    _print_lines(render_check(result))
    if args.save:
        _save_receipt(args, result, display_name(args.log), log_sha256, turns,
                      witness.receipt_note() if witness else None)
    if result.failed:  # one model failed: whatever the rule, nothing runs
        failed = result.failed[0]
        _print_flush(f"receipt-pair: model {failed.arm} could not be asked: {failed.error}",
                     sys.stderr)
    decision = gating.decide(result.answer, could_check=not result.failed, action=action,
                             dry_run=args.dry_run)
    _print_flush(decision.line)
    if not decision.runs:
        return decision.status
    status, problem = gating.run_action(action)
    if problem:
        _print_flush(f"receipt-pair: {problem}", sys.stderr)
    return status


def _add_record(commands):
    p = commands.add_parser("record", help="run a command and append it to a witness log",
                            usage="receipt-pair record --log FILE -- COMMAND ...")
    p.add_argument("--log", required=True, help="log file to append the record to")
    p.set_defaults(func=_cmd_record)


def _cmd_record(args):
    if not args.command_argv:
        raise UsageError("record needs the command after --, like: record --log run.jsonl "
                         "-- pytest -q")
    witness = record_turn(args.log, args.command_argv, echo=sys.stdout)
    return witness.turn.exit_status


# -- selftest -----------------------------------------------------------------------------


def _add_selftest(commands):
    p = commands.add_parser("selftest", help="probe every quote-check rule and pair rule")
    p.set_defaults(func=_cmd_selftest)


def _cmd_selftest(args):
    results = run_probes()
    for result in results:
        mark = "ok  " if result.passed else "FAIL"
        print(f"{mark} {result.name}" + ("" if result.passed else f"  (got {result.detail})"))
    failed = sum(not r.passed for r in results)
    print(f"{len(results)} probes: {len(results) - failed} passed, {failed} failed")
    return errors.EXIT_SELFTEST_FAILED if failed else errors.EXIT_OK


# -- parser and main ----------------------------------------------------------------------

_COMMANDS = (_add_check, _add_batch, _add_score, _add_verify, _add_replay, _add_gate,
             _add_record, _add_selftest)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="receipt-pair",
        description="Does the agent's own log show that it is done? Two local models quote "
                    "the deciding output line; plain code checks every quote.")
    parser.add_argument("--version", action="version", version=f"receipt-pair {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for add in _COMMANDS:
        add(commands)
    return parser


def _split_command(argv):
    """Split off the command to run (after the first --) for gate and record."""
    if argv and argv[0] in _RUNS_A_COMMAND and "--" in argv:
        split = argv.index("--")
        return argv[:split], argv[split + 1:]
    return argv, []


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    argv, command_argv = _split_command(argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help is 0, a usage error is 2
        return exc.code if isinstance(exc.code, int) else errors.EXIT_USAGE
    args.command_argv = command_argv
    try:
        return args.func(args)
    except ReceiptPairError as exc:
        print(f"receipt-pair: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("receipt-pair: interrupted; anything already written is kept", file=sys.stderr)
        return 130
