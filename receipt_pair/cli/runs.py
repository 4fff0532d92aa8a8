"""The commands about many claims and the checker itself: batch, score, replay, selftest."""

import sys

from .. import errors
from ..pair.batch import run_batch
from .options import (add_model_options, settings_from, positive_int, print_json, print_lines,
                          report_differences)
from ..errors import UsageError
from ..logs.items import read_items
from ..store.files import display_name
from ..store.records import read_answers
from ..audit.replay import replay_answers
from .report import progress_line, render_score
from ..audit.score import missing_any, score
from ..audit.selftest import run_probes
from .check import rederive_receipt
from .visible import visible

# -- batch, score, replay -----------------------------------------------------------------


def add_batch(commands):
    p = commands.add_parser("batch", help="ask both models about every item of a file")
    p.add_argument("items", help="items file, one JSON object per line")
    p.add_argument("--out", default="answers.jsonl",
                   help="answers file, appended to and resumed (default: %(default)s)")
    p.add_argument("--allow-retired", action="store_true",
                   help="ask with a retired reader, to re-run a sealed run as it was designed")
    p.add_argument("--parallel", type=positive_int, default=1, metavar="N",
                   help="keep up to N questions in flight, for a server with N parallel slots "
                        "(llama-server -np N); the answers are the same (default: 1)")
    add_model_options(p, rules=(), retired=True)
    p.set_defaults(func=_cmd_batch)


def _progress_printer(stream):
    def progress(event):
        print(progress_line(event), file=stream, flush=True)

    return progress


def _cmd_batch(args):
    items, items_sha256 = read_items(args.items)
    asked = run_batch(items, items_sha256, args.out, settings_from(args),
                      items_name=display_name(args.items),
                      progress=_progress_printer(sys.stderr), parallel=args.parallel)
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


def _load_run(answers_path, items_path, bad_lines=None, facts=None):
    items, items_sha256 = read_items(items_path)
    header, rows, warnings = read_answers(answers_path, bad_lines, facts)
    for warning in warnings:
        print(f"warning: {visible(warning)}", file=sys.stderr)
    return items, items_sha256, header, rows


def add_score(commands):
    p = commands.add_parser("score", help="score an answers file against labelled items")
    p.add_argument("answers")
    p.add_argument("items")
    p.add_argument("--json", action="store_true", help="machine output")
    p.set_defaults(func=_cmd_score)


def _cmd_score(args):
    facts = {}
    items, items_sha256, header, rows = _load_run(args.answers, args.items, facts=facts)
    result = score(items, items_sha256, header, rows, facts)
    if args.json:
        print_json(result)
    else:
        print_lines(render_score(result))
    if missing_any(result):
        print("receipt-pair: some items were never asked (an unfinished batch); they are "
              "counted wrong above. Run batch again to finish it.", file=sys.stderr)
        return errors.EXIT_USAGE
    return errors.EXIT_OK


def add_replay(commands):
    p = commands.add_parser("replay", help="re-derive recorded answers offline; exit 1 on any "
                                           "difference")
    p.add_argument("answers", nargs="?")
    p.add_argument("items", nargs="?")
    p.add_argument("--receipt", help="re-derive a receipt saved by check --save")
    p.add_argument("--log", help="with --receipt: the log it must have been made from")
    p.set_defaults(func=_cmd_replay)


def _cmd_replay(args):
    if args.receipt:
        return rederive_receipt(args)
    if not args.answers or not args.items:
        raise UsageError("replay needs ANSWERS ITEMS (or --receipt FILE)")
    bad_lines, facts = [], {}
    items, items_sha256, header, rows = _load_run(args.answers, args.items, bad_lines, facts)
    differences = bad_lines + replay_answers(items, items_sha256, header, rows, facts)
    return report_differences(differences, args.answers, len(rows))


# -- selftest -----------------------------------------------------------------------------


def add_selftest(commands):
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

