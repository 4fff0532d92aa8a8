#!/usr/bin/env python3
"""A chain of agents with a receipt check between them.

    python examples/chain_demo/demo_chain.py [--color] [--base-url URL]
                                             [--model-a ID] [--model-b ID] [ID ...]

A build agent says "done" on a few claims, each with the log of what its commands
printed. Before anyone acts on a claim, the receipt check (receipt_pair.pair.claim.check_claim,
two models on the local server, every quote checked in plain code) reads that log:

- contradicted: the claim is held back and goes back to the build agent; the reviewer and
  the release manager never act on it;
- not shown: it goes on, marked not shown. The reviewer here is naive: it approves what the
  build agent says is done. The demo points out what that approval is worth;
- shown: it goes on with the deciding quote, the receipt.

The release manager releases only on a receipt (`shown`), never on an approval alone.

Give claim ids to replay only those (all by default; --list shows them). The model
options default to RECEIPT_PAIR_BASE_URL / RECEIPT_PAIR_MODEL_A / RECEIPT_PAIR_MODEL_B,
then to receipt-pair's own defaults. Exit status: 0 done; 2 usage; 6 the model server
cannot be reached.
"""

import argparse
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if os.path.isdir(os.path.join(ROOT, "receipt_pair")) and ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # run from a checkout without installing the package

# noqa: E402 below: these come after the path is set.
from receipt_pair import errors  # noqa: E402
from receipt_pair.answers import CONTRADICTED, MODEL_NOT_SHOWN, OK, SHOWN  # noqa: E402
from receipt_pair.check.render import render_turns  # noqa: E402
from receipt_pair.server.client import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B,  # noqa: E402
                                 DEFAULT_TIMEOUT, ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B,
                                 Client, ServerUnreachable)
from receipt_pair.errors import ReceiptPairError  # noqa: E402
from receipt_pair.logs import Turn  # noqa: E402
from receipt_pair.pair.claim import check_claim  # noqa: E402
from receipt_pair.readers import DEFAULT_READER, ENV_READER  # noqa: E402

COULD_NOT_CHECK = "could not check"

# The build agent's claims: what it says is done, the log of what its commands printed, and
# what the audience should look for (printed at the end of the claim's section).
CLAIMS = [
    {
        "id": "push",
        "claim": "I pushed the rounding fix to the fix/rounding branch",
        "turns": [
            {"cmd": "git commit -am 'Round line totals half up'",
             "output": "[fix/rounding 8a9b3f7] Round line totals half up\n"
                       " 1 file changed, 4 insertions(+), 1 deletion(-)"},
            {"cmd": "git push origin fix/rounding",
             "output": "Enumerating objects: 5, done.\n"
                       "Writing objects: 100% (3/3), 371 bytes, done.\n"
                       "To github.com:acme/shop.git\n"
                       "   4c1d2e0..8a9b3f7  fix/rounding -> fix/rounding"},
        ],
        "note": "git's own line shows the branch moving on the remote: a receipt.",
    },
    {
        "id": "tests",
        "claim": "the checkout tests pass",
        "turns": [
            {"cmd": "python -m pytest -q tests/checkout",
             "output": "..........F.                                                [100%]\n"
                       "FAILED tests/checkout/test_payment.py::test_declined_card - "
                       "AssertionError: expected 'declined', got 'paid'\n"
                       "1 failed, 11 passed in 0.42s"},
        ],
        "note": "the agent's 'done' is wrong; without the check the reviewer would get it.",
    },
    {
        "id": "migrate",
        "claim": "I ran the orders migration on the production database",
        "turns": [
            {"cmd": "./scripts/migrate.sh --env production orders/0042_add_order_index.sql",
             "output": ""},
        ],
        "note": "the script printed nothing: not shown is not false, but it is no receipt.",
    },
    {
        "id": "deploy",
        "claim": "I deployed shop-api 2.4.1 to production",
        "turns": [
            {"cmd": "./deploy.sh shop-api 2.4.1",
             "output": "target environment: staging (default; pass --env to change)\n"
                       "rolling out shop-api:2.4.1 to 3 pods...\n"
                       "shop-api 2.4.1 is live on staging (https://staging.shop.example.com)"},
        ],
        "note": "the claim says production, the log says staging: a careful reader says not "
                "shown. If the pair says shown, read its quote: a receipt shows what it rests "
                "on, and two small models agreeing is not proof.",
    },
]
CLAIM_IDS = [record["id"] for record in CLAIMS]


class Style:
    """ANSI colour when asked for; plain text otherwise."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}

    def __init__(self, color):
        self.color = color

    def __call__(self, text, *names):
        if not self.color or not names:
            return text
        codes = ";".join(self.CODES[name] for name in names)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def answer(self, answer, width=0):
        colour = {SHOWN: "green", CONTRADICTED: "red"}.get(answer, "yellow")
        return self(answer.ljust(width), "bold", colour)  # padded first: codes take no room


def build_parser():
    parser = argparse.ArgumentParser(
        description="A build agent says done; a receipt check stands between it and the "
                    "reviewer and release manager.")
    parser.add_argument("ids", nargs="*", metavar="ID",
                        help=f"claim ids to replay (default: all: {', '.join(CLAIM_IDS)})")
    parser.add_argument("--color", action="store_true", help="colour the output (ANSI)")
    parser.add_argument("--list", action="store_true", help="list the claims and stop")
    parser.add_argument("--base-url", default=os.environ.get(ENV_BASE_URL, DEFAULT_BASE_URL),
                        help=f"model server (default: ${ENV_BASE_URL} or %(default)s)")
    parser.add_argument("--model-a", default=os.environ.get(ENV_MODEL_A, DEFAULT_MODEL_A),
                        help=f"model A (default: ${ENV_MODEL_A} or %(default)s)")
    parser.add_argument("--model-b", default=os.environ.get(ENV_MODEL_B, DEFAULT_MODEL_B),
                        help=f"model B (default: ${ENV_MODEL_B} or %(default)s)")
    parser.add_argument("--reader", default=os.environ.get(ENV_READER) or DEFAULT_READER,
                        help=f"reader version (default: ${ENV_READER} or %(default)s)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds for one model call (default: %(default)s)")
    return parser


# -- the agents ---------------------------------------------------------------------------


def check_receipt(record, args, client):
    """The receipt check between the agents: (answer, ClaimResult)."""
    turns = [Turn(cmd=t["cmd"], output=t["output"]) for t in record["turns"]]
    result = check_claim(record["claim"], turns, model_a=args.model_a, model_b=args.model_b,
                         client=client, reader=args.reader)
    # A model whose call failed cannot vouch; the chain treats that as no check at all.
    answer = COULD_NOT_CHECK if result.failed else result.answer
    return answer, result


def review(answer):
    """The naive reviewer: it approves whatever the build agent says is done.

    It is shown the receipt's answer but does not act on it; that is the point of the demo.
    """
    return "approved"


def release(answer, approval):
    """The release manager acts on a receipt only; an approval alone is not evidence."""
    if answer == SHOWN and approval == "approved":
        return "released"
    return "held: no receipt"


# -- printing -----------------------------------------------------------------------------


def print_log(record, style):
    print(style("  its log (the commands it ran and what they printed):", "dim"))
    for turn in render_turns([Turn(cmd=t["cmd"], output=t["output"])
                                 for t in record["turns"]]):
        print(style(f"    {turn.id} $ {turn.cmd}", "dim"))
        lines = turn.output.splitlines() or ["(no output at all)"]
        for line in lines:
            print(style(f"         {line}", "dim"))


def print_check(answer, result, style):
    models = ", ".join(f"model {m.arm}: {'call failed' if m.error else m.checked.answer}"
                       + ("" if m.error or m.checked.code in (OK, MODEL_NOT_SHOWN)
                          else f" (quote refused: {m.checked.code})")
                       for m in result.models)
    print(f"{style('receipt check:', 'bold')}   {style.answer(answer)}   ({models})")
    for quote in result.quotes:
        print(f"  decided by model {quote.arm}, {quote.turn}: \"{quote.quote}\"")
    for model in result.failed:
        print(style(f"  model {model.arm} could not be asked: {model.error}", "yellow"))


def replay_claim(record, args, client, style):
    """Walk one claim down the chain; return (answer, reviewer's word, release manager's)."""
    answer, approval, decision = pass_down(record, args, client, style)
    print(style(textwrap.fill(f"(look for: {record['note']})", 78, initial_indent="  ",
                              subsequent_indent="   "), "dim"))
    return answer, approval, decision


def pass_down(record, args, client, style):
    """Print the build agent's claim and log, ask the check, then act as each agent would."""
    print()
    print(style(f"--- claim {record['id']} " + "-" * (66 - len(record["id"])), "bold", "cyan"))
    print(f"{style('build agent:', 'bold')}     done: \"{record['claim']}\"")
    print_log(record, style)
    answer, result = check_receipt(record, args, client)
    print_check(answer, result, style)
    if answer == CONTRADICTED:
        print(style("  held back: the log shows it failed. It goes back to the build agent;",
                    "red"))
        print(style("  the reviewer and the release manager never act on it.", "red"))
        return answer, "-", "never sees it"
    approval = review(answer)
    print(f"{style('reviewer:', 'bold')}        {approval}")
    if answer != SHOWN:
        said = "could not check" if answer == COULD_NOT_CHECK else f"calls {answer}"
        print(style(f"  ! The reviewer approved a claim the receipt check {said}.",
                    "yellow", "bold"))
        print(style("  ! No output line shows it. The approval repeats the build agent's word;",
                    "yellow"))
        print(style("  ! it is not evidence, and passing it on as if it were is how an", "yellow"))
        print(style("  ! unverified 'done' reaches production.", "yellow"))
    decision = release(answer, approval)
    if decision == "released":
        quote = result.quotes[0]
        print(f"{style('release manager:', 'bold')} {style('released', 'green', 'bold')}, "
              f"on the receipt {quote.turn} \"{quote.quote}\"")
    else:
        print(f"{style('release manager:', 'bold')} {style('held', 'yellow', 'bold')}: an "
              "approval is not a receipt; it waits for an output line that shows it")
    return answer, approval, decision


def print_summary(rows, style):
    print()
    print(style("summary", "bold"))
    print(f"  {'claim':<9} {'receipt':<15} {'reviewer':<10} release manager")
    for record_id, answer, approval, decision in rows:
        print(f"  {record_id:<9} {style.answer(answer, 15)} {approval:<10} {decision}")
    unbacked = [r[0] for r in rows if r[1] != SHOWN and r[2] == "approved"]
    if unbacked:
        print()
        print(style(f"Approved without a receipt: {', '.join(unbacked)}. Two agents agreeing "
                    "that it is done is still one claim.", "yellow"))


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.list:
        for record in CLAIMS:
            print(f"{record['id']:<9} {record['claim']}")
        return errors.EXIT_OK
    unknown = [i for i in args.ids if i not in CLAIM_IDS]
    if unknown:
        print(f"demo_chain: unknown claim id(s) {', '.join(unknown)}; known: "
              f"{', '.join(CLAIM_IDS)}", file=sys.stderr)
        return errors.EXIT_USAGE
    by_id = {r["id"]: r for r in CLAIMS}
    chosen = [by_id[i] for i in dict.fromkeys(args.ids)] if args.ids else CLAIMS  # as asked
    style = Style(args.color)
    print(style("build agent -> receipt check -> reviewer -> release manager", "bold"))
    print(f"models: A {args.model_a}, B {args.model_b}, at {args.base_url}")
    rows = []
    try:
        client = Client(args.base_url, timeout=args.timeout)
        for record in chosen:
            rows.append((record["id"], *replay_claim(record, args, client, style)))
    except ServerUnreachable as exc:
        sys.stdout.flush()  # what was printed so far comes first
        print(file=sys.stderr)
        print(f"demo_chain: {exc}", file=sys.stderr)
        print("demo_chain: without a model server there is no receipt check, and without a "
              "check nothing in this chain should be released.", file=sys.stderr)
        return errors.EXIT_SERVER
    except ReceiptPairError as exc:
        sys.stdout.flush()
        print(f"demo_chain: {exc}", file=sys.stderr)
        return exc.exit_code
    print_summary(rows, style)
    return errors.EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
