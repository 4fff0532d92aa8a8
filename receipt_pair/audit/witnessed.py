"""What a receipt's witness block and gate decision must agree with, derived again from
the record and the pair's answer: an edited count, problem or decision cannot let a short
run or a blocked action through. Used by replay.py for every receipt."""

import hashlib
import json

from ..check.testcounts import count_tests
from ..errors import InputError
from ..pair import gate as gating
from ..pair.pins import pin_from_record, witness_problem
from ..store.records import RECEIPT_SCHEMAS


def witness_problems(receipt, turns):
    """Differences between a receipt's witness block and the turn it claims to record."""
    witness = receipt.get("witness")
    if witness is None:
        return []
    if not isinstance(witness, dict):
        return ["the witness block must be an object"]
    if receipt["schema"] == RECEIPT_SCHEMAS[0]:  # schema 1 kept the record's fields only
        return _witness_problems_v1(receipt, witness, turns)
    if not isinstance(witness.get("record"), dict):
        return ["the witness block must hold the record it pins"]
    record = witness["record"]
    problems = []
    line = json.dumps(record, ensure_ascii=False)
    # A record whose credentials were redacted cannot give the sha256 of the line as it
    # was written: that one is checked against the witness log itself (expiry, --log).
    if not witness.get("record_redactions") and hashlib.sha256(
            line.encode("utf-8", "surrogatepass")).hexdigest() != witness.get("record_sha256"):
        problems.append("the witness record's sha256 differs: the record was changed")
    if witness.get("record_sha256") != receipt["log"].get("sha256"):
        problems.append("the witness record is not the log this receipt was made from")
    if len(turns) != 1 or (turns[0].cmd, turns[0].output, turns[0].exit_status) != (
            record.get("cmd"), record.get("output"), record.get("exit_status")):
        problems.append("the turn checked is not the witness record's command, output and "
                        "exit status")
    return problems + _witness_reading_problems(witness, record)


def _witness_reading_problems(witness, record):
    """The witness block's problem, counts and shortfall, derived again from the record and
    the pin: an edited count cannot let a short run through."""
    pin = None
    if "pin" in witness:
        try:
            pin = pin_from_record(witness["pin"], "the witness block's pin")
        except InputError as exc:
            return [str(exc)]
    output = record.get("output")
    counts = count_tests(output) if pin and isinstance(output, str) else None
    problems = []
    expected = witness_problem(record.get("exit_status"), pin, counts)
    if witness.get("problem") != expected:
        problems.append(f"the witness problem recorded {witness.get('problem')!r} is not what "
                        f"the record gives ({expected!r})")
    if pin is not None:
        recorded = witness.get("counts")
        if isinstance(recorded, dict) and "expected_failures" not in recorded:
            # Written before expected failures were counted apart: none were, if it matches.
            recorded = dict(recorded, expected_failures=0)
        if recorded != (counts and counts.to_dict()):
            problems.append("the test counts recorded are not what the record's output reports")
        if witness.get("shortfall") != pin.shortfall(counts):
            problems.append("the shortfall recorded is not what the pin and the counts give")
    return problems


def _witness_problems_v1(receipt, witness, turns):
    problems = []
    if witness.get("record_sha256") != receipt["log"].get("sha256"):
        problems.append("the witness record is not the log this receipt was made from")
    if len(turns) != 1 or (turns[0].cmd, turns[0].exit_status) != (
            witness.get("cmd"), witness.get("exit_status")):
        problems.append("the turn checked is not the witness record's command and exit status")
    return problems


def gate_problems(receipt, pair_answer, all_answered):
    """Differences between a gate receipt's recorded decision and what its answer decides."""
    gate = receipt.get("gate")
    if receipt.get("made_by") != "gate" and gate is None:
        return []
    if not isinstance(gate, dict):
        return ["a gate receipt must hold the gate's decision"]
    problems = []
    if receipt.get("rule") not in gating.GATE_RULES:
        problems.append(f"the gate takes only {', '.join(gating.GATE_RULES)}; this receipt "
                        f"says {receipt.get('rule')!r}")
    witness = receipt.get("witness") if isinstance(receipt.get("witness"), dict) else {}
    decision = gating.decide(pair_answer, all_answered, [str(gate.get("program"))],
                             bool(gate.get("dry_run")), witness.get("problem"))
    if (gate.get("runs"), gate.get("status")) != (decision.runs, decision.status):
        problems.append(f"the gate's decision recorded (runs {gate.get('runs')!r}, status "
                        f"{gate.get('status')!r}) is not what the answer decides (runs "
                        f"{decision.runs}, status {decision.status})")
    return problems
