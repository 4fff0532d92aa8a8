"""`install AGENT` and `uninstall AGENT`: the hook merged into, or taken out of, the agent's
own settings file (hooks/install.py does it; this module parses and prints)."""

from ..hooks.agents import AGENTS
from ..hooks.install import install, uninstall
from .hook import add_checking_options, hook_options
from .options import note, print_flush, print_lines
from .visible import visible


def add_install(commands):
    p = commands.add_parser(
        "install", help="merge the hook into an agent's settings file, keeping all else",
        description="Merge receipt-pair's hook into the agent's own settings file (the first "
                    "of its user settings files that is there, or --settings FILE), with the "
                    "hook's options given here carried into the command it writes. Every "
                    "other key and hook is kept; receipt-pair's own entry is replaced, so a "
                    "second install changes nothing and one with other options changes that "
                    "entry only. A copy of the file goes beside it first, and it is replaced "
                    "through a temporary file. A file that is not a JSON object is refused.")
    p.add_argument("agent", choices=list(AGENTS), help="which agent")
    _add_file_options(p)
    add_checking_options(p)
    p.set_defaults(func=_cmd_install)


def add_uninstall(commands):
    p = commands.add_parser(
        "uninstall", help="take the hook out of an agent's settings file, keeping all else",
        description="Take receipt-pair's hook out of the agent's settings file (as install "
                    "finds it, or --settings FILE), keeping every other key and hook; a copy "
                    "of the file goes beside it first. A file of receipt-pair's own left "
                    "with nothing is removed.")
    p.add_argument("agent", choices=list(AGENTS), help="which agent")
    _add_file_options(p)
    p.set_defaults(func=_cmd_uninstall)


def _add_file_options(p):
    p.add_argument("--settings", metavar="FILE",
                   help="the settings file to change (default: the agent's user settings "
                        "file, see docs/agents.md)")
    p.add_argument("--dry-run", action="store_true",
                   help="print the change as a diff and write nothing")


def _cmd_install(args):
    change = install(hook_options(args), args.settings, args.dry_run)
    _tell(change, args.dry_run, f"installed receipt-pair's hook for {change.agent} in",
          "holds receipt-pair's hook as it would be written: nothing changed")
    return 0


def _cmd_uninstall(args):
    change = uninstall(args.agent, args.settings, args.dry_run)
    if change.before is None:
        print_flush(f"{visible(change.path)} is not there: nothing to take out")
        return 0
    done = "removed" if change.after is None else \
        f"took receipt-pair's hook for {change.agent} out of"
    _tell(change, args.dry_run, done, f"holds no hook of receipt-pair for {change.agent}: "
                                      "nothing changed")
    return 0


def _tell(change, dry_run, done, unchanged):
    """Print what was done (or, in a dry run, the diff), then the notes."""
    path = visible(change.path)
    if dry_run:
        if change.changed:
            print_lines([visible(line) for line in change.diff().splitlines()]
                        + [f"dry run: nothing was written to {path}"])
        else:
            print_flush(f"{path} {unchanged}")
    elif change.changed:
        print_flush(f"{done} {path}" + (f" (the file before: {visible(change.backup)})"
                                        if change.backup else ""))
    else:
        print_flush(f"{path} {unchanged}")
    for line in change.notes:
        note(line)
