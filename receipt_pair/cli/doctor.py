"""`doctor`: one line per check of the set-up, each OK or the problem and its fix."""

from .. import errors
from ..hooks.doctor import all_well, report, run_doctor
from ..hooks.doctor_check import NOT_CHECKED, OK, PROBLEM
from .hook import options_of_words
from .visible import one_line
from .options import add_ledger_option, add_model_options, ledger_from, print_json, settings_from


def add_doctor(commands):
    p = commands.add_parser(
        "doctor", help="check the set-up: server, models, reader, agents' hooks, ledger, Python",
        description="Check this machine's set-up as it will be used, one line per check, "
                    "each OK or the problem and what to change: the server answers, each "
                    "model is listed and loads where the server says, and answers one "
                    "question of a single token (max_tokens 1, within a few seconds), the "
                    "reader is the current one, which agents' settings files hold the hook "
                    "and with what command (read by this command line's own parser, its "
                    "server and models asked the same way; hooks switched off, timeouts "
                    "shorter than the hook's budget), the ledger can be appended to, and the "
                    "Python version. An agent whose session receipt-pair cannot read is NOT "
                    f"CHECKED, a problem. Exit status 0 when all are OK, {errors.EXIT_SETUP} "
                    "otherwise.")
    p.add_argument("--project", metavar="DIR",
                   help="the project whose agents' settings files are read (default: this "
                        "folder)")
    p.add_argument("--json", action="store_true", help="machine output")
    add_ledger_option(p)
    add_model_options(p, rules=None)
    p.set_defaults(func=_cmd_doctor)


MARKS = (OK, PROBLEM, NOT_CHECKED)


def _cmd_doctor(args):
    checks = run_doctor(settings_from(args), ledger=ledger_from(args), project=args.project,
                        read_command=options_of_words)
    if args.json:
        print_json(report(checks))
    else:
        width = max(len(check.name) for check in checks)
        mark_width = max(len(mark) for mark in MARKS)
        for check in checks:
            print(f"{check.mark.ljust(mark_width)}  {check.name.ljust(width)}  "
                  f"{one_line(check.said)}")
            if check.fix:
                print(f"{' ' * (mark_width + width + 4)}fix: {one_line(check.fix)}")
        problems = sum(check.ok is False for check in checks)
        print(f"{sum(check.ok is True for check in checks)} of {len(checks)} OK, "
              f"{problems} {'problem' if problems == 1 else 'problems'}")
    return errors.EXIT_OK if all_well(checks) else errors.EXIT_SETUP
