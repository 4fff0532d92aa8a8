"""The commands where agents stop: `hook AGENT` (hooks/agents.py has one row per agent) and
`claims`.

`hook AGENT` is run by the agent itself where it stops, with the hook's JSON on standard
input. It answers in the agent's own protocol (the row's `reply`): to send the agent back,
the agent's block on standard output and exit status 0 (Claude Code's and Codex's
`{"decision": "block", "reason": ...}`, Gemini CLI's `"deny"`, Cursor's
`{"followup_message": ...}`), or, with `--block-with exit2` where the agent documents it,
the reason on standard error and status 2; to let it stop, nothing (or `{}`), or the
agent's line for the person (`{"systemMessage": ...}`) where it has one. No other outcome
ever exits 2: a hook that fails for any other reason must let the agent stop, never trap
it, so even a usage error exits 1 (cli/__init__.py).
"""

import contextlib
import io
import sys

from ..errors import ReceiptPairError, UsageError
from ..hooks import stop as stop_hook
from ..hooks.agents import AGENTS, SNIPPET_SECONDS
from ..hooks.claims import split_redacted
from ..hooks.options import (BLOCK_WITH, CONTRADICTED_POLICIES, DEFAULT_BUDGET, DEFAULT_CONTRADICTED,
                             SPLITS, HookOptions, setup)
from ..hooks.run import answer, let_stop, run_hook
from ..hooks.session import DEFAULT_WAIT
from ..store.files import decode, display_name, read_bytes
from .options import (add_ledger_option, add_model_options, add_redact_option, ledger_from,
                      message, note,
                      positive_float, positive_int, print_json, settings_from)
from .visible import json_text, one_line

MAX_NOTES = 40  # lines on standard error per stop


def add_hook(commands):
    p = commands.add_parser(
        "hook", help="run where an agent stops: check the claims of its last message",
        description="Run by an agent where it stops (Claude Code, Codex, Factory Droid, "
                    "Qwen Code, Kimi Code CLI and VS Code at Stop, Gemini CLI at AfterAgent, "
                    "Copilot CLI at agentStop, OpenCode through receipt-pair's plugin at "
                    "session.idle, Cursor at stop) with the hook's JSON on standard input. "
                    "Sends the agent back when its own session log contradicts a claim of its "
                    "last message. `receipt-pair install AGENT` sets it up.")
    p.add_argument("agent", choices=list(AGENTS), help="which agent runs the hook")
    p.add_argument("--install-snippet", action="store_true",
                   help="print the settings JSON that installs this hook, and exit")
    p.add_argument("--input", default="-", metavar="FILE",
                   help="the hook's JSON (default: standard input)")
    p.add_argument("--claims-from", metavar="FILE",
                   help="check these claims, one per line (- for standard input, with "
                        "--input FILE), instead of splitting the last message")
    add_checking_options(p)
    p.set_defaults(func=_cmd_hook)


def add_checking_options(p):
    """How the hook checks a stop: the options `hook` takes and `install` carries into the
    command it writes (HookOptions)."""
    p.add_argument("--split", choices=SPLITS, default="rules",
                   help="how the last message is split into claims: plain-code rules "
                        "(default), or one model request whose spans plain code checks")
    p.add_argument("--split-model", metavar="MODEL",
                   help="the model that splits with --split model (default: model A)")
    p.add_argument("--not-shown", choices=stop_hook.NOT_SHOWN_POLICIES,
                   default=stop_hook.DEFAULT_NOT_SHOWN,
                   help="what a claim the log does not show does: block once in a session "
                        "only when the session holds no command at all (default); block "
                        "once where the facts read that its operation did not run after "
                        "the last edit (never ran, ran nothing, masked, cut off, left "
                        "running, a dry run, before an edit), with the command to run; "
                        "block once in a session; never block; or block at every stop "
                        "that is not already a continuation")
    p.add_argument("--contradicted", choices=CONTRADICTED_POLICIES,
                   default=DEFAULT_CONTRADICTED,
                   help="what a claim the log contradicts does: send the agent back "
                        "(default); send it back only where plain code settled the "
                        "contradiction (the facts), telling you of the models' ones; or "
                        "never send it back, only tell you")
    p.add_argument("--max-blocks", type=positive_int, default=stop_hook.DEFAULT_MAX_BLOCKS,
                   help="blocks in a row for contradicted claims before the agent is let "
                        "stop anyway (default: %(default)s)")
    p.add_argument("--block-with", choices=BLOCK_WITH, default="decision",
                   help="block by the agent's JSON on standard output (default) or by exit "
                        "status 2 with the reason on standard error (where the agent "
                        "documents it: not Cursor, Copilot CLI or OpenCode)")
    p.add_argument("--receipts", metavar="DIR",
                   help="where receipts go (default: receipt-pair/ beside the session file)")
    p.add_argument("--wait", type=float, default=DEFAULT_WAIT, metavar="SECONDS",
                   help="how long the session file may lag the hook (default: %(default)s)")
    p.add_argument("--budget", type=positive_float, default=DEFAULT_BUDGET, metavar="SECONDS",
                   help="time for all the checks; claims left when it runs out are not "
                        f"checked (default: %(default)s, under the snippets' {SNIPPET_SECONDS})")
    add_ledger_option(p)
    add_redact_option(p)
    add_model_options(p)


def add_claims(commands):
    p = commands.add_parser("claims", help="split a message into its claims of finished work")
    p.add_argument("--message", default="-", metavar="FILE",
                   help="the agent's message (default: standard input)")
    p.add_argument("--json", action="store_true", help="machine output")
    p.add_argument("--no-redact", action="store_true",
                   help="split the message as it is (default: credentials in it are "
                        "replaced by [REDACTED] first, and the spans are of that text)")
    p.set_defaults(func=_cmd_claims)


def _cmd_claims(args):
    text = decode(read_bytes(args.message), display_name(args.message))
    claims, count = split_redacted(text, not args.no_redact)
    if count:
        note(f"{count} credential(s) in the message replaced by [REDACTED]; the spans are "
             "positions in the message so redacted")
    if args.json:
        print_json([c.to_dict() for c in claims])
    else:
        for claim in claims:
            print(f"{claim.start}-{claim.end}: {claim.text}")
    return 0


# -- the hook -------------------------------------------------------------------------------


def _cmd_hook(args):
    options = hook_options(args)
    if args.install_snippet and args.input != "-":
        raise UsageError("--input names this stop's input; an installed hook reads the "
                         "agent's on standard input: leave it out of --install-snippet")
    if args.install_snippet:
        return tell(setup(options))
    if args.claims_from == "-" and args.input == "-":
        raise UsageError("--claims-from - reads standard input, which carries the hook's "
                         "JSON: give the hook's JSON with --input FILE")
    try:
        output = answer(options, *run_hook(args.input, options))
    except ReceiptPairError as exc:  # the input or the session: never a reason to trap
        output = let_stop(options, message(exc))
    except (OSError, ValueError, RecursionError) as exc:
        # Whatever else the agent's input or this machine does, the hook lets the agent
        # stop and says why: a hook that fails must never trap it.
        output = let_stop(options, stop_hook.cut(f"{type(exc).__name__}: {exc}", 1000))
    return tell(output)


def hook_options(args):
    """The HookOptions the command line's options give."""
    return HookOptions(agent=args.agent, settings=settings_from(args),
                       not_shown=args.not_shown, contradicted=args.contradicted,
                       max_blocks=args.max_blocks,
                       receipts=args.receipts, ledger=ledger_from(args), wait=args.wait,
                       budget=args.budget, claims_from=getattr(args, "claims_from", None),
                       split=args.split,
                       split_model=args.split_model, block_with=args.block_with)


def options_of_words(words):
    """The HookOptions of a hook command's words from `hook` on, read by this command
    line's own parser, as the agent's shell will run them (doctor checks what an agent's
    settings hold with it); a UsageError says what the parser refuses."""
    from . import _parser  # the one parser; cli/__init__.py imports this module first
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            args = _parser().parse_args(list(words))
    except SystemExit:
        lines = [line for line in said.getvalue().splitlines() if line.strip()]
        why = lines[-1].split(": error: ", 1)[-1] if lines else "the command line refuses it"
        raise UsageError(why) from None
    if args.command != "hook" or getattr(args, "install_snippet", False):
        raise UsageError("it does not run `receipt-pair hook AGENT`")
    return hook_options(args)


def tell(output):
    """Print a HookOutput: what the agent reads, and the person's lines made safe for a
    terminal and bounded."""
    if output.reason:
        # Everything on standard error is the reason the agent reads: nothing else goes there.
        print(output.reason, file=sys.stderr, flush=True)
    for line in output.notes[:MAX_NOTES]:
        print(one_line(f"receipt-pair: {line}", stop_hook.MAX_NOTICE_CHARS), file=sys.stderr,
              flush=True)
    if output.notice:
        print("\n".join(one_line(line) for line in output.notice.split("\n")),
              file=sys.stderr, flush=True)
    if output.text is not None:
        print(output.text, end="", flush=True)
    if output.reply is not None:
        print(json_text(output.reply, indent=output.indent), flush=True)
    return output.status
