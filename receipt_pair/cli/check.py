"""The commands about one claim: check, verify, gate, record."""

import argparse
import sys

from .. import errors
from ..pair import gate as gating
from .options import (add_concurrent_option, add_format_option, add_model_options,
                          add_reading_options, count_int, positive_int, read_log_args,
                          message, print_flush, print_json, print_lines,
                          report_differences, run_check, keep_receipt, keeper_from,
                          add_ledger_option, note, settings_from)
from ..errors import UsageError
from ..audit.expiry import INVALID, VALID, judge_receipt
from ..store.files import decode, display_name, read_bytes, read_json
from ..pair.pins import Pin, read_pin
from ..audit.replay import replay_receipt
from ..audit.verify import receipt_redacted, verify_reply
from .report import render_check, render_verify
from .visible import visible
from ..pair.witness import record_turn

# -- check --------------------------------------------------------------------------------


def add_check(commands):
    p = commands.add_parser("check", help="check one claim against one log")
    p.add_argument("--claim", required=True, help="what the agent says it did")
    p.add_argument("--log", required=True,
                   help="the agent's log, or the folder it keeps one in (an OpenHands "
                        "session, a GitHub Actions job's step logs); - for standard input")
    add_format_option(p)
    p.add_argument("--json", action="store_true", help="machine output")
    p.add_argument("--exit-code", action="store_true",
                   help=f"say the answer by the exit status too, as gate does: "
                        f"{errors.EXIT_OK} shown, {errors.EXIT_NOT_SHOWN} not shown, "
                        f"{errors.EXIT_CONTRADICTED} contradicted (default: "
                        f"{errors.EXIT_OK} whatever the answer; errors keep their own "
                        f"statuses)")
    p.add_argument("--save", metavar="RECEIPT", help="keep the whole receipt as JSON")
    add_ledger_option(p)
    add_concurrent_option(p, "ask A and B at once (auto: when the server says it holds two "
                              "models); default no: on a 2-core machine asking at once "
                              "measured slower (see the benchmark)")
    add_model_options(p)
    p.set_defaults(func=_cmd_check)


def _cmd_check(args):
    keeper = keeper_from(args)
    log = read_log_args(args)
    result = run_check(args, args.claim, log.turns)
    keep_receipt(keeper, result, log)
    if args.json:
        print_json(result.to_dict())
    else:
        print_lines(render_check(result))
        if args.save:
            print(f"\nreceipt saved: {args.save}")
    if result.failed:
        failed = result.failed[0]
        print(f"receipt-pair: model {failed.arm} could not be asked: {visible(failed.error)}",
              file=sys.stderr)
        return errors.EXIT_SERVER
    return gating.ANSWER_STATUS[result.answer] if args.exit_code else errors.EXIT_OK


# -- verify -------------------------------------------------------------------------------


def add_verify(commands):
    p = commands.add_parser("verify", help="the quote check alone, on a saved reply; no server")
    p.add_argument("--log", help="the log the model was shown")
    add_format_option(p)
    p.add_argument("--reply", help="the model's raw reply (or a whole chat response)")
    p.add_argument("--claim", default="",
                   help="the claim the reply answers (needed by readers that pick lines "
                        "by the claim: e1, n1, r1)")
    p.add_argument("--receipt", help="re-derive a receipt saved by check --save instead; with "
                                     "--log, say whether it is VALID or EXPIRED for that log")
    p.add_argument("--json", action="store_true", help="machine output")
    add_reading_options(p, retired=True)
    p.set_defaults(func=_cmd_verify)


def _cmd_verify(args):
    if args.receipt:
        return expiry_of_receipt(args) if args.log else rederive_receipt(args)
    if not args.log or not args.reply:
        raise UsageError("verify needs --log FILE and --reply FILE (or --receipt FILE)")
    turns, _ = read_log_args(args)
    reply = decode(read_bytes(args.reply), display_name(args.reply))
    verified = verify_reply(reply, turns, settings_from(args), args.claim)
    if args.json:
        print_json(verified.to_dict())
    else:
        print_lines(render_verify(verified.checked))
    return errors.EXIT_OK


def rederive_receipt(args):
    """replay --receipt: re-derive it offline (against --log, if given); exit 1 on any
    difference."""
    receipt = read_json(args.receipt)
    log_turns = log_sha = None
    if args.log:  # read as the receipt's log was read: redacted if it was
        log_turns, log_sha = read_log_args(args, redact=receipt_redacted(receipt))
    differences = replay_receipt(receipt, log_turns, log_sha)
    return report_differences(differences, f"receipt {args.receipt}", 1)


def expiry_of_receipt(args):
    """verify --receipt R --log FILE: VALID (exit 0), or EXPIRED / INVALID with the reasons
    (exit 1: no receipt to rely on)."""
    receipt = read_json(args.receipt)
    judged = judge_receipt(receipt, read_bytes(args.log))
    if args.json:
        print_json({"receipt": display_name(args.receipt), "log": display_name(args.log),
                    **judged.to_dict()})
    else:
        print_lines(render_expiry(judged, display_name(args.receipt)))
    return errors.EXIT_OK if judged.status == VALID else errors.EXIT_NO_RECEIPT


def render_expiry(judged, name):
    lines = [f"differs: {visible(line)}" for line in judged.differences]
    lines += [f"expired: {visible(line)}" for line in judged.reasons]
    name = visible(name)
    if judged.status == VALID:
        lines.append(f"receipt {name}: VALID: it re-derives offline, the log still holds what "
                     "it was made from, and its reader is installed and current")
    elif judged.status == INVALID:
        lines.append(f"receipt {name}: INVALID: it does not re-derive offline "
                     f"({len(judged.differences)} difference(s)): no receipt to rely on")
    else:
        lines.append(f"receipt {name}: EXPIRED: it can no longer be relied on for this log "
                     f"({len(judged.reasons)} reason(s) above)")
    return lines


# -- gate and record ----------------------------------------------------------------------


def add_gate(commands):
    p = commands.add_parser(
        "gate", help="run a command only if the log shows the claim",
        usage="receipt-pair gate --claim TEXT (--log FILE | --witness --log FILE) [options] "
              "-- [TEST ... --] COMMAND ...")
    p.add_argument("--claim", required=True, help="what the agent says it did")
    p.add_argument("--log", help="the agent's log; with --witness, the record is appended here")
    add_format_option(p)
    p.add_argument("--witness", action="store_true",
                   help="run the test command after -- yourself, record it, and check the "
                        "claim against that fresh record only")
    p.add_argument("--expect-tests", type=positive_int, metavar="N",
                   help="with --witness: the test run must report at least N tests, or the "
                        "claim cannot be shown whatever the models say")
    p.add_argument("--pin", metavar="FILE",
                   help="with --witness: the tests the run must report, from a pin file "
                        "written by `witness pin`")
    p.add_argument("--allow-skipped", type=count_int, metavar="K",
                   help="with --expect-tests or --pin: at most K tests may be skipped or "
                        "fail as expected (xfail; not passes) (default: 0, or what the pin "
                        "file allows)")
    p.add_argument("--dry-run", action="store_true",
                   help="ask the models and print the command, but run nothing")
    p.add_argument("--save", metavar="RECEIPT", help="keep the whole receipt as JSON")
    add_ledger_option(p)
    add_concurrent_option(p, argparse.SUPPRESS)
    add_model_options(p, rules=gating.GATE_RULES)
    p.set_defaults(func=_cmd_gate)


def _split_witness(argv):
    """(test command, action) from `TEST ... -- ACTION ...`; both must be there."""
    if not argv or "--" not in argv:
        raise UsageError("gate --witness needs: -- TEST COMMAND ... -- ACTION ...")
    split = argv.index("--")
    test, action = argv[:split], argv[split + 1:]
    if not test:
        raise UsageError("gate --witness: the test command before the second -- is empty")
    return test, action


def _gate_pin(args):
    """The Pin of --expect-tests or --pin (None without them); read before anything runs."""
    if args.expect_tests is None and args.pin is None:
        if args.allow_skipped is not None:
            raise UsageError("--allow-skipped goes with --expect-tests or --pin")
        return None
    if not args.witness:
        raise UsageError("--expect-tests and --pin pin the tests of a witness run: add "
                         "--witness")
    if args.expect_tests is not None and args.pin is not None:
        raise UsageError("give --expect-tests N or --pin FILE, not both")
    if args.pin is not None:
        pin = read_pin(args.pin)
        if args.allow_skipped is not None:
            pin = Pin(pin.tests, args.allow_skipped, pin.source, pin.source_sha256)
        return pin
    return Pin(args.expect_tests, args.allow_skipped or 0, "--expect-tests")


def gate_request(args):
    """(the action, the GateOptions) the gate's options give; a usage error for options
    that do not go together, before anything runs."""
    action, test = args.command_argv, None
    pin = _gate_pin(args)
    if args.witness:
        test, action = _split_witness(action)
    if not action:
        raise UsageError("gate needs the action after --, like: gate --claim ... --log ... "
                         "-- git push")
    if not args.log:
        raise UsageError("gate --witness needs --log FILE to append the record to"
                         if args.witness else "gate needs --log FILE (or --witness)")
    return action, gating.GateOptions(settings_from(args), keeper_from(args), args.dry_run,
                                      test, pin, args.format, echo=sys.stderr, note=note)


def _cmd_gate(args):
    """Check the claim, then run the action only on `shown`; fail closed on any doubt."""
    action, options = gate_request(args)
    gated = gating.gate(args.claim, args.log, action, options,
                        show=lambda gated: print_lines(render_check(gated.result)))
    if gated.error is not None:
        print_flush(f"receipt-pair: {message(gated.error)}", sys.stderr)
    elif gated.result.failed:  # one model failed: whatever the rule, nothing runs
        failed = gated.result.failed[0]
        print_flush(f"receipt-pair: model {failed.arm} could not be asked: "
                    f"{visible(failed.error)}", sys.stderr)
    if gated.decision.why:
        print_flush(f"receipt-pair: {visible(gated.decision.why)}")
    print_flush(visible(gated.decision.line))
    status, problem = gated.run()
    if problem:
        print_flush(f"receipt-pair: {visible(problem)}", sys.stderr)
    return status


def add_record(commands):
    p = commands.add_parser("record", help="run a command and append it to a witness log",
                            usage="receipt-pair record --log FILE -- COMMAND ...")
    p.add_argument("--log", required=True, help="log file to append the record to")
    p.set_defaults(func=_cmd_record)


def _cmd_record(args):
    if not args.command_argv:
        raise UsageError("record needs the command after --, like: record --log run.jsonl "
                         "-- pytest -q")
    witness = record_turn(args.log, args.command_argv, echo=sys.stdout, note=note)
    return witness.turn.exit_status



