"""The gate: the pair's answer decides whether an action runs.

`gate` is the whole flow, as `receipt-pair gate` runs it: the log read (or a witness run
recorded first), the claim checked, the decision taken, the receipt kept before anything
runs; `Gated.run` then runs the action if the decision lets it. `decide` is the policy, a
pure table; `run_action` starts the program. The action is an argument list run with no
shell, so `;`, `&&`, `$HOME` and `*` are plain characters to it. (On Windows, a `.cmd` or
`.bat` program is run by cmd.exe, which does read `&` and `%`: give such a program only
arguments you trust.) Nothing here prints; the command line is told through `show` and the
options' `note`.

    from receipt_pair import GateOptions, Settings, gate
    gated = gate("I pushed the fix", "session.jsonl", ["./deploy.sh"],
                 GateOptions(Settings(rule="r3")))
    status, problem = gated.run()  # the action's own status, or 3, 4 or 1 when it did not run
"""

import shlex
import subprocess
from dataclasses import dataclass, field
from typing import IO, Callable, Mapping, Optional, Sequence, Tuple

from .. import errors
from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN
from ..check.testcounts import describe
from ..errors import ReceiptPairError, UsageError
from ..logs import LogRead, log_notes, read_log
from ..logs.redact import redact_turns
from ..store.files import display_name
from .claim import check_claim
from .pins import Pin
from .receipts import Keeper
from .settings import Settings
from .witness import record_turn

GATE_RULES = ("r2", "r3")
COULD_NOT_CHECK = "could not check: no receipt, no action"
# An answer as an exit status, wherever a command says it by its status (the gate when it
# does not run the action, `check --exit-code`): one table, so the two never drift apart.
ANSWER_STATUS = {SHOWN: errors.EXIT_OK, NOT_SHOWN: errors.EXIT_NOT_SHOWN,
                 CONTRADICTED: errors.EXIT_CONTRADICTED}
LINES = {
    NOT_SHOWN: ("not shown: no receipt, no action", ANSWER_STATUS[NOT_SHOWN]),
    CONTRADICTED: ("contradicted: the log shows it failed", ANSWER_STATUS[CONTRADICTED]),
}


def shown_line(argv):
    # Only the program's name: the arguments can hold tokens and passwords.
    return f"shown: the log shows it worked, so the command runs: {argv[0]}"


def dry_run_line(argv):
    return f"shown: the log shows it worked; dry run, so nothing runs: {shlex.join(argv)}"


@dataclass(frozen=True)
class Decision:
    """What the pair's answer means for the action: whether it runs, the line, the status."""

    runs: bool
    line: str  # the last line printed before the action runs, or instead of it
    status: int  # the exit status when the action does not run
    why: str = ""  # a line printed before `line` when the witness overrode the models


def decide(answer, could_check, action, dry_run=False, witness_problem=None):
    """The gate's policy: a pair answer (and whether both models could be asked) becomes a
    Decision. It fails closed: only `shown` from two models that both answered runs, and
    never when the witness run itself failed or fell short of its pinned tests
    (`witness_problem` says how), whatever the models said.
    """
    if not could_check:
        return Decision(False, COULD_NOT_CHECK, errors.EXIT_NO_RECEIPT)
    if answer == SHOWN and witness_problem:
        line, status = LINES[NOT_SHOWN]
        return Decision(False, line, status, why=f"the witness run {witness_problem}, so the "
                                                 "claim about it cannot be shown")
    if answer != SHOWN:
        line, status = LINES[answer]
        return Decision(False, line, status)
    if dry_run:
        return Decision(False, dry_run_line(action), errors.EXIT_OK)
    return Decision(True, shown_line(action), errors.EXIT_OK)


def run_action(argv, env=None):
    """Run `argv` with no shell; return (exit status, error message or None).

    127 when the program cannot be found, 126 when it is found but cannot be started, a
    signal's death as 128 + the signal number, else the command's own status.
    """
    try:
        completed = subprocess.run(argv, env=env)
    except FileNotFoundError:
        return errors.EXIT_NOT_FOUND, f"cannot run {argv[0]}: no such program"
    except PermissionError:
        return errors.EXIT_CANNOT_EXECUTE, f"cannot run {argv[0]}: permission denied"
    except OSError as exc:
        return errors.EXIT_CANNOT_EXECUTE, f"cannot run {argv[0]}: {exc.strerror or exc}"
    status = completed.returncode
    return (128 - status if status < 0 else status), None


@dataclass(frozen=True)
class GateOptions:
    """How the gate checks a claim, what it keeps and what it says (each the command line's
    option of the same name)."""

    settings: Settings = field(default_factory=Settings)
    keeper: Keeper = field(default_factory=Keeper)  # where the receipt goes: --save, --ledger
    dry_run: bool = False  # ask the models and decide, but run nothing
    # --witness: a test command to run here and record to the log first; the claim is
    # checked against that fresh record alone. `pin`: the tests it must report.
    test: Optional[Sequence[str]] = None
    pin: Optional[Pin] = None
    fmt: Optional[str] = None  # the log's format (None: told from its content)
    echo: Optional[IO] = None  # where the witness run's output streams as it comes
    note: Callable[[str], None] = lambda line: None  # told a line for the person


@dataclass
class Gated:
    """What the gate made of a claim: the Decision, the pair's result and the receipt kept
    (None when it could not check: `error` says why), and the witness run, if any."""

    action: Sequence[str]
    decision: Decision
    result: object = None
    receipt: Optional[dict] = None
    entry: Optional[dict] = None  # the ledger entry the receipt was appended as
    witness: object = None
    error: Optional[ReceiptPairError] = None

    def run(self, env: Optional[Mapping[str, str]] = None) -> Tuple[int, Optional[str]]:
        """Run the action if the decision lets it: (its exit status, or the decision's when
        it does not run; why it could not be started, or None)."""
        if not self.decision.runs:
            return self.decision.status, None
        return run_action(self.action, env)


def gate(claim: str, log: str, action: Sequence[str], options: Optional[GateOptions] = None,
         show: Optional[Callable[[Gated], None]] = None) -> Gated:
    """Check `claim` against the log at `log` (with `options.test`, against a witness run
    recorded to it first), decide whether `action` (an argument list) may run, and keep the
    receipt where `options.keeper` says; return a Gated, whose `run()` runs the action.

    It fails closed: a log that cannot be read, a server or a model that cannot be asked,
    a witness run that failed or fell short of its pin: nothing runs. `show(gated)`, when
    given, is called once the pair has answered, before the receipt is kept (a receipt that
    cannot be kept is an error, and stops the action).
    """
    options = options or GateOptions()
    if not action or not all(isinstance(word, str) for word in action):
        raise UsageError("the gate's action must be a non-empty list of arguments")
    if options.settings.rule not in GATE_RULES:  # r1 lets one model's word stand alone
        raise UsageError(f"the gate takes rule {' or '.join(GATE_RULES)}, not "
                         f"{options.settings.rule!r}")
    witness = None
    try:
        if options.test:
            witness = record_turn(log, options.test, echo=options.echo, note=options.note,
                                  pin=options.pin)
            evidence = _witnessed(witness, log, options)
        else:
            evidence = _read(log, options)
        result = check_claim(claim, evidence.turns, options.settings, keep_failed=True)
    except UsageError:
        raise
    except ReceiptPairError as exc:
        return Gated(action, decide(None, could_check=False, action=action), error=exc)
    decision = decide(result.answer, could_check=not result.failed, action=action,
                      dry_run=options.dry_run,
                      witness_problem=witness.problem if witness else None)
    gated = Gated(action, decision, result, witness=witness)
    if show is not None:
        show(gated)
    # Kept before the action runs: a receipt that cannot be kept stops the action.
    gated.receipt, gated.entry = options.keeper.keep(
        result, evidence, "gate",
        witness=witness.receipt_note(options.settings.redact) if witness else None,
        gate={"program": action[0], "runs": decision.runs, "status": decision.status,
              "dry_run": options.dry_run})
    return gated


def _read(log, options):
    """The log read as the options say; what was skipped or replaced is told."""
    warnings = []
    read = read_log(log, options.fmt, warnings, options.settings.redact)
    for line in log_notes(read, warnings):
        options.note(line)
    return read


def _witnessed(witness, log, options):
    """The witness run's record as the log the models read (a LogRead of its one turn,
    pinned by the record's sha256); with a pin, what the run reported is told."""
    turns, count = redact_turns([witness.turn]) if options.settings.redact \
        else ([witness.turn], 0)
    if witness.pin is not None:
        options.note(pin_line(witness))
    return LogRead(turns, witness.record_sha256, count, display_name(log))


def pin_line(witness):
    """What a pinned witness run reported, against what its pin asks for."""
    counts, pin = witness.counts, witness.pin
    wanted = (f"the pin asks for {pin.tests} tests, at most {pin.skipped} skipped or "
              "expected to fail")
    if counts is None:
        return f"the witness run printed no test count that can be read; {wanted}"
    return (f"the witness run reported {describe(counts)} (read from {counts.source} "
            f"output); {wanted}")
