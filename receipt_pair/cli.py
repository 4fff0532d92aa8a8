"""The command line: check, batch, score, verify, replay, gate, record, selftest.

Only this module prints. Every error of the ReceiptPairError family is caught once in
`main` and becomes one line on stderr and its named exit status.
"""

import argparse
import json
import os
import sys

from . import __version__, errors
from . import gate as gating
from . import reader as rd
from .client import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B, DEFAULT_TIMEOUT,
                     ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B)
from .errors import InputError, ReceiptPairError, ServerError, UsageError
from .rules import DEFAULT_RULE, RULE_NAMES, RULES

# Commands whose arguments after the first "--" are a command to run, not options.
_RUNS_A_COMMAND = ("gate", "record")


# -- argument helpers -----------------------------------------------------------------


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
    parser.add_argument("--max-turns", type=_positive_int, default=rd.DEFAULT_MAX_TURNS,
                        help="how many of the last turns the models see (default: %(default)s)")
    parser.add_argument("--reader", default=None, choices=sorted(rd.READERS),
                        help=f"reader version (default: {rd.DEFAULT_READER})")


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


def _client(args):
    from .client import Client

    return Client(args.base_url, timeout=args.timeout, allow_remote=args.allow_remote)


# -- rendering ------------------------------------------------------------------------


def _quoted(text):
    return json.dumps(text, ensure_ascii=False)


def _figures(answer):
    parts = [f"{answer.wall_s:.1f} s"]
    usage = answer.usage or {}
    if "prompt_tokens" in usage:
        parts.append(f"{usage['prompt_tokens']} prompt + {usage.get('completion_tokens', '?')} "
                     "generated tokens")
    return ", ".join(parts)


def render_model(answer):
    """The lines that show one model's checked answer."""
    c = answer.checked
    lines = [f"model {answer.arm}: {answer.model}"]
    if answer.error:
        lines.append(f"  call failed: {answer.error}")
        lines.append("  it cannot vouch for anything")
        return lines
    lines.append(f"  verdict: {c.verdict if c.verdict is not None else '(none)'}"
                 f"   turn: {c.turn or '-'}")
    lines.append(f"  quote:   {_quoted(c.quote) if c.quote else '(none)'}")
    if c.code == rd.OK:
        lines.append("  check:   passed: the quote is in that turn's output")
    elif c.code == rd.MODEL_NOT_SHOWN:
        lines.append("  check:   nothing to check (the model said not shown)")
    else:
        lines.append(f"  check:   refused, {c.code}: {rd.CODE_TEXT.get(c.code, '')}")
    lines.append(f"  reason:  {c.reason or '(none)'}")
    lines.append(f"  answer:  {c.answer}   ({_figures(answer)})")
    return lines


def render_check(result):
    lines = [
        f"claim:  {result.claim}",
        f"rule:   {RULE_NAMES[result.rule]}",
        f"answer: {result.answer}",
    ]
    for quote in result.quotes:
        lines.append(f"  decided by model {quote.arm}, {quote.turn}: {_quoted(quote.quote)}")
    for answer in result.models:
        lines.append("")
        lines.extend(render_model(answer))
    return lines


def check_json(result):
    return {
        "answer": result.answer,
        "rule": result.rule,
        "claim": result.claim,
        "reader": result.reader.version,
        "quotes": [q.to_dict() for q in result.quotes],
        "models": [
            {"arm": m.arm, "model": m.model, "verdict": m.checked.verdict, "turn": m.checked.turn,
             "quote": m.checked.quote, "answer": m.checked.answer, "code": m.checked.code,
             "reason": m.checked.reason, "error": m.error, "wall_s": m.wall_s,
             "usage": m.usage, "timings": m.timings}
            for m in result.models
        ],
    }


def _print_json(value):
    print(json.dumps(value, indent=2, ensure_ascii=False))


# -- check ----------------------------------------------------------------------------


def _run_check(args, claim, turns):
    """Ask the pair about `claim`; a server that failed for both models is an error."""
    from .pair import check_claim

    result = check_claim(
        claim, turns, model_a=args.model_a, model_b=args.model_b, rule=args.rule,
        reader=rd.get_reader(args.reader), max_turns=args.max_turns, extra_a=args.extra_a,
        extra_b=args.extra_b, client=_client(args), concurrent=_concurrency(args))
    if len(result.failed) == 2:
        raise ServerError(result.models[0].error if result.models[0].error == result.models[1].error
                          else f"{result.models[0].error}; {result.models[1].error}")
    return result


def _concurrency(args):
    return {"auto": None, "yes": True, "no": False}[getattr(args, "concurrent", "auto")]


def _save_receipt(args, result, log_name, log_sha256, turns, witness=None):
    from .records import build_receipt, write_json_atomic

    settings = dict(rd.SETTINGS)
    receipt = build_receipt(result, log_name, log_sha256, turns, args.max_turns, settings,
                            witness)
    try:
        write_json_atomic(args.save, receipt)
    except OSError as exc:
        raise InputError(f"{args.save}: cannot write the receipt: {exc.strerror or exc}") from None
    return receipt


def cmd_check(args):
    from .logs import display_name, read_log

    turns, log_sha256 = read_log(args.log)
    result = _run_check(args, args.claim, turns)
    if args.save:
        _save_receipt(args, result, display_name(args.log), log_sha256, turns)
    if args.json:
        _print_json(check_json(result))
    else:
        print("\n".join(render_check(result)))
        if args.save:
            print(f"\nreceipt saved: {args.save}")
    if result.failed:
        failed = result.failed[0]
        print(f"receipt-pair: model {failed.arm} could not be asked: {failed.error}",
              file=sys.stderr)
        return errors.EXIT_SERVER
    return errors.EXIT_OK


# -- verify ---------------------------------------------------------------------------


def reply_text(data, name):
    """The model's reply from a saved file: the raw text, or a whole chat response's content."""
    from .logs import decode

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


def cmd_verify(args):
    from .logs import display_name, read_bytes, read_log

    if args.receipt:
        return _verify_receipt(args)
    if not args.log or not args.reply:
        raise UsageError("verify needs --log FILE and --reply FILE (or --receipt FILE)")
    turns, _ = read_log(args.log)
    reply = reply_text(read_bytes(args.reply), display_name(args.reply))
    reader = rd.get_reader(args.reader)
    shown = reader.render(turns, args.max_turns)
    checked = rd.check_reply(reply, shown)
    if args.json:
        _print_json({"answer": checked.answer, "code": checked.code, "verdict": checked.verdict,
                     "turn": checked.turn, "quote": checked.quote, "reason": checked.reason,
                     "reader": reader.version})
        return errors.EXIT_OK
    print(f"answer: {checked.answer}")
    print(f"code:   {checked.code}: {rd.CODE_TEXT.get(checked.code, '')}")
    print(f"the model said: {checked.verdict or '(nothing usable)'}, turn {checked.turn or '-'}, "
          f"quote {_quoted(checked.quote) if checked.quote else '(none)'}")
    if checked.reason:
        print(f"its reason: {checked.reason}")
    return errors.EXIT_OK


def _verify_receipt(args):
    from .replay import replay_receipt

    receipt = _read_json_file(args.receipt)
    log_turns = log_sha = None
    if args.log:
        from .logs import read_log

        log_turns, log_sha = read_log(args.log)
    differences = replay_receipt(receipt, log_turns, log_sha)
    return _report_differences(differences, f"receipt {args.receipt}", 1)


def _read_json_file(path):
    from .logs import decode, display_name, read_bytes

    name = display_name(path)
    try:
        return json.loads(decode(read_bytes(path), name))
    except ValueError as exc:
        raise InputError(f"{name}: not valid JSON: {exc}") from None


def _report_differences(differences, what, count):
    for line in differences:
        print(f"differs: {line}")
    if differences:
        print(f"replay: {len(differences)} difference(s) in {what}")
        return errors.EXIT_DIFFERS
    print(f"replay: {what} re-derived offline, {count} record(s), no differences")
    return errors.EXIT_OK


# -- batch, score, replay -------------------------------------------------------------


def _format_seconds(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def _progress_printer(stream):
    def progress(event):
        if event.note:
            print(f"note: {event.note}", file=stream, flush=True)
            return
        status = f"error: {event.error}" if event.error else f"{event.answer} ({event.code})"
        print(f"[{event.arm} {event.done}/{event.total}] {event.item_id}: {status} "
              f"{event.wall_s:.1f}s; about {_format_seconds(event.eta_s)} left",
              file=stream, flush=True)

    return progress


def cmd_batch(args):
    from .batch import run_batch
    from .logs import display_name, read_items
    from .records import read_answers

    items, items_sha256 = read_items(args.items)
    reader = rd.get_reader(args.reader)
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
    from .logs import read_items
    from .records import read_answers

    items, items_sha256 = read_items(items_path)
    header, rows, warnings = read_answers(answers_path, bad_lines)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return items, items_sha256, header, rows


def _pct(value):
    return f"{100 * value:.1f}%"


def render_score(result):
    from .score import ARMS, MEASURE_TEXT, MEASURES

    truths = ", ".join(f"{n} {t}" for t, n in sorted(result["truths"].items()))
    models = result.get("models") or {}
    lines = [f"items: {result['items']} ({truths}); reader {result.get('reader')}",
             f"model A: {models.get('A')}", f"model B: {models.get('B')}", ""]
    for arm in ARMS:
        title = {"A": "model A alone", "B": "model B alone"}.get(arm) or RULE_NAMES[arm.lower()]
        lines.append(title)
        for m in MEASURES:
            v = result["arms"][arm][m]
            lines.append(f"  {MEASURE_TEXT[m]:<52} {v['k']:>4} of {v['n']:<4} "
                         f"{_pct(v['rate']):>6}  [{_pct(v['low'])}, {_pct(v['high'])}]")
        lines.append("")
    wrong = result["wrong"]
    lines.append(f"wrong: model A {wrong['A']}, model B {wrong['B']}, both {wrong['both']}"
                 + (f" ({', '.join(wrong['both_ids'])})" if wrong["both_ids"] else ""))
    for arm in ("A", "B"):
        changed = result["check_changed"][arm]
        lines.append(f"quote check on model {arm}: overturned {changed['overturned_right']} "
                     f"right verdict(s), caught {changed['caught_wrong']} wrong one(s); codes "
                     + ", ".join(f"{k} {v}" for k, v in result["codes"][arm].items()))
    if result["traps"]:
        lines.append("")
        lines.append("per trap (right, k of n):")
        for trap, block in result["traps"].items():
            cells = "  ".join(f"{arm} {block['arms'][arm]['right']['k']}/{block['items']}"
                              for arm in ARMS)
            lines.append(f"  {trap:<28} {cells}")
    for arm in ("A", "B"):
        lost = result["no_answer"][arm]
        if lost["failed"] or lost["missing"]:
            lines.append(f"model {arm}: no usable answer, counted wrong: failed "
                         f"{lost['failed'] or 'none'}, never asked {lost['missing'] or 'none'}")
    return lines


def cmd_score(args):
    from .score import missing_any, score

    items, items_sha256, header, rows = _load_run(args.answers, args.items)
    result = score(items, items_sha256, header, rows)
    if args.json:
        _print_json(result)
    else:
        print("\n".join(render_score(result)))
    if missing_any(result):
        print("receipt-pair: some items were never asked (an unfinished batch); they are "
              "counted wrong above. Run batch again to finish it.", file=sys.stderr)
        return errors.EXIT_USAGE
    return errors.EXIT_OK


def cmd_replay(args):
    from .replay import replay_answers

    if args.receipt:
        return _verify_receipt(args)
    if not args.answers or not args.items:
        raise UsageError("replay needs ANSWERS ITEMS (or --receipt FILE)")
    bad_lines = []
    items, items_sha256, header, rows = _load_run(args.answers, args.items, bad_lines)
    differences = bad_lines + replay_answers(items, items_sha256, header, rows)
    return _report_differences(differences, args.answers, len(rows))


# -- gate and record ------------------------------------------------------------------


def _print_flush(line, stream=None):
    print(line, file=stream or sys.stdout, flush=True)


def cmd_gate(args):
    """Check the claim, then run the action only on `shown`; fail closed on any doubt."""
    from .logs import display_name, read_log

    action = args.command_argv
    if args.witness:
        if not action or "--" not in action:
            raise UsageError("gate --witness needs: -- TEST COMMAND ... -- ACTION ...")
        split = action.index("--")
        test, action = action[:split], action[split + 1:]
        if not test:
            raise UsageError("gate --witness: the test command before the second -- is empty")
    if not action:
        raise UsageError("gate needs the action after --, like: gate --claim ... --log ... "
                         "-- git push")
    witness = None
    try:
        if args.witness:
            from .record import record_turn

            if not args.log:
                raise UsageError("gate --witness needs --log FILE to append the record to")
            witness = record_turn(args.log, test, echo=sys.stderr)
            turns = [witness.turn]
            log_sha256 = witness.record_sha256
        else:
            if not args.log:
                raise UsageError("gate needs --log FILE (or --witness)")
            turns, log_sha256 = read_log(args.log)
        result = _run_check(args, args.claim, turns)
    except UsageError:
        raise
    except ReceiptPairError as exc:
        _print_flush(f"receipt-pair: {exc}", sys.stderr)
        _print_flush(gating.COULD_NOT_CHECK)
        return errors.EXIT_GATE_COULD_NOT_CHECK
    print("\n".join(render_check(result)))
    if args.save:
        _save_receipt(args, result, display_name(args.log), log_sha256, turns,
                      witness.receipt_note() if witness else None)
    if result.failed:  # one model failed: whatever the rule, nothing runs
        failed = result.failed[0]
        _print_flush(f"receipt-pair: model {failed.arm} could not be asked: {failed.error}",
                     sys.stderr)
        _print_flush(gating.COULD_NOT_CHECK)
        return errors.EXIT_GATE_COULD_NOT_CHECK
    if result.answer != rd.SHOWN:
        line, status = gating.decide(result.answer)
        _print_flush(line)
        return status
    if args.dry_run:
        _print_flush(gating.dry_run_line(action))
        return errors.EXIT_OK
    _print_flush(gating.shown_line(action))
    status, problem = gating.run_action(action)
    if problem:
        _print_flush(f"receipt-pair: {problem}", sys.stderr)
    return status


def cmd_record(args):
    from .record import record_turn

    if not args.command_argv:
        raise UsageError("record needs the command after --, like: record --log run.jsonl "
                         "-- pytest -q")
    witness = record_turn(args.log, args.command_argv, echo=sys.stdout)
    return witness.turn.exit_status


# -- selftest -------------------------------------------------------------------------


def cmd_selftest(args):
    from .selftest import run_probes

    results = run_probes()
    for result in results:
        mark = "ok  " if result.passed else "FAIL"
        print(f"{mark} {result.name}" + ("" if result.passed else f"  (got {result.detail})"))
    failed = sum(not r.passed for r in results)
    print(f"{len(results)} probes: {len(results) - failed} passed, {failed} failed")
    return errors.EXIT_SELFTEST_FAILED if failed else errors.EXIT_OK


# -- parser and main ------------------------------------------------------------------


def build_parser():
    parser = argparse.ArgumentParser(
        prog="receipt-pair",
        description="Does the agent's own log show that it is done? Two local models quote "
                    "the deciding output line; plain code checks every quote.")
    parser.add_argument("--version", action="version", version=f"receipt-pair {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    p = commands.add_parser("check", help="check one claim against one log")
    p.add_argument("--claim", required=True, help="what the agent says it did")
    p.add_argument("--log", required=True, help="the agent's log (- for standard input)")
    p.add_argument("--json", action="store_true", help="machine output")
    p.add_argument("--save", metavar="RECEIPT", help="keep the whole receipt as JSON")
    p.add_argument("--concurrent", choices=("auto", "yes", "no"), default="no",
                   help="ask A and B at once (auto: when the server says it holds two "
                        "models); default no: on a 2-core machine asking at once measured "
                        "slower (see the benchmark)")
    _add_model_options(p)
    p.set_defaults(func=cmd_check)

    p = commands.add_parser("batch", help="ask both models about every item of a file")
    p.add_argument("items", help="items file, one JSON object per line")
    p.add_argument("--out", default="answers.jsonl",
                   help="answers file, appended to and resumed (default: %(default)s)")
    _add_model_options(p, rules=())
    p.set_defaults(func=cmd_batch)

    p = commands.add_parser("score", help="score an answers file against labelled items")
    p.add_argument("answers")
    p.add_argument("items")
    p.add_argument("--json", action="store_true", help="machine output")
    p.set_defaults(func=cmd_score)

    p = commands.add_parser("verify", help="the quote check alone, on a saved reply; no server")
    p.add_argument("--log", help="the log the model was shown")
    p.add_argument("--reply", help="the model's raw reply (or a whole chat response)")
    p.add_argument("--receipt", help="re-derive a receipt saved by check --save instead")
    p.add_argument("--json", action="store_true", help="machine output")
    _add_reading_options(p)
    p.set_defaults(func=cmd_verify)

    p = commands.add_parser("replay", help="re-derive recorded answers offline; exit 1 on any "
                                           "difference")
    p.add_argument("answers", nargs="?")
    p.add_argument("items", nargs="?")
    p.add_argument("--receipt", help="re-derive a receipt saved by check --save")
    p.add_argument("--log", help="with --receipt: the log it must have been made from")
    p.set_defaults(func=cmd_replay)

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
    p.add_argument("--concurrent", choices=("auto", "yes", "no"), default="no",
                   help=argparse.SUPPRESS)
    _add_model_options(p, rules=gating.GATE_RULES)
    p.set_defaults(func=cmd_gate)

    p = commands.add_parser("record", help="run a command and append it to a witness log",
                            usage="receipt-pair record --log FILE -- COMMAND ...")
    p.add_argument("--log", required=True, help="log file to append the record to")
    p.set_defaults(func=cmd_record)

    p = commands.add_parser("selftest", help="probe every quote-check rule and pair rule")
    p.set_defaults(func=cmd_selftest)
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
