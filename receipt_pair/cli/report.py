"""The text a person reads: one function per thing shown, each returning lines.

Nothing here prints; `cli.py` prints what these return. Every string from outside (a
model's reply, a log, a receipt, an items or answers file, an error quoting them) goes
through `visible`, so it cannot move the cursor, erase a line or recolour the verdict.
"""

import json

from ..answers import CODE_TEXT, MODEL_NOT_SHOWN, OK
from ..check.rules import RULE_NAMES
from .visible import visible


def quoted(text):
    return visible(json.dumps(text, ensure_ascii=False))


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
    lines = [f"model {answer.arm}: {visible(answer.model)}"]
    if answer.error:
        lines.append(f"  call failed: {visible(answer.error)}")
        lines.append("  it cannot vouch for anything")
        return lines
    lines.append(f"  verdict: {visible(c.verdict) if c.verdict is not None else '(none)'}"
                 f"   turn: {visible(c.turn) or '-'}")
    lines.append(f"  quote:   {quoted(c.quote) if c.quote else '(none)'}")
    if c.code == OK:
        lines.append("  check:   passed: the quote is in that turn's output")
    elif c.code == MODEL_NOT_SHOWN:
        lines.append("  check:   nothing to check (the model said not shown)")
    else:
        lines.append(f"  check:   refused, {c.code}: {CODE_TEXT.get(c.code, '')}")
    lines.append(f"  reason:  {visible(c.reason) or '(none)'}")
    lines.append(f"  answer:  {c.answer}   ({_figures(answer)})")
    return lines


def render_facts(result):
    """The lines that say what the facts decided, and by which rule."""
    decision = result.facts
    lines = [f"decided by: the facts plain code read of the log (rule {decision.rule}: "
             f"{decision.why}); no model was asked"]
    if decision.turn is not None:
        command = ""
        if result.shown.turns and decision.turn < len(result.shown.turns):
            command = (result.shown.turns[decision.turn].cmd or "").strip().split("\n")[0]
        said = f"printed: {quoted(decision.line)}" if decision.line else \
            f"printed no line: {visible(decision.quote)}"
        lines.append(f"  T{decision.turn + 1}" + (f" `{visible(command[:120])}`" if command
                                                  else "") + f" {said}")
    return lines


def render_check(result):
    if result.decided_by == "facts":
        return [f"claim:  {visible(result.claim)}", f"answer: {result.answer}"] + \
            render_facts(result)
    lines = [
        f"claim:  {visible(result.claim)}",
        f"rule:   {RULE_NAMES[result.rule]}",
        f"answer: {result.answer}",
    ]
    if result.settings.facts:
        lines.append("decided by: the models (the facts plain code read did not settle it)")
    for quote in result.quotes:
        lines.append(f"  decided by model {quote.arm}, {visible(quote.turn)}: "
                     f"{quoted(quote.quote)}")
    for answer in result.models:
        lines.append("")
        lines.extend(render_model(answer))
    return lines


def render_verify(checked):
    lines = [f"answer: {checked.answer}",
             f"code:   {checked.code}: {CODE_TEXT.get(checked.code, '')}",
             f"the model said: {visible(checked.verdict) or '(nothing usable)'}, turn "
             f"{visible(checked.turn) or '-'}, quote "
             f"{quoted(checked.quote) if checked.quote else '(none)'}"]
    if checked.reason:
        lines.append(f"its reason: {visible(checked.reason)}")
    return lines


def format_seconds(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def progress_line(event):
    """One line of batch progress (a note, or one question answered)."""
    if event.note:
        return f"note: {visible(event.note)}"
    status = f"error: {visible(event.error)}" if event.error else \
        f"{event.answer} ({event.code})"
    return (f"[{event.arm} {event.done}/{event.total}] {visible(event.item_id)}: {status} "
            f"{event.wall_s:.1f}s; about {format_seconds(event.eta_s)} left")


_ARM_TITLES = {"A": "model A alone", "B": "model B alone",
               "facts": "the facts alone (else not shown)",
               "answer": "the default answer: the facts, else the models by the default rule"}


def _pct(value):
    return f"{100 * value:.1f}%"


def render_score(result):
    from ..audit.score import ARMS, MEASURE_TEXT, MEASURES  # `score` alone needs them

    truths = ", ".join(f"{n} {t}" for t, n in sorted(result["truths"].items()))
    models = result.get("models") or {}
    lines = [f"items: {result['items']} ({truths}); reader {visible(result.get('reader'))}",
             f"model A: {visible(models.get('A'))}", f"model B: {visible(models.get('B'))}",
             ""]
    for arm in result["arms"]:
        title = _ARM_TITLES.get(arm) or (RULE_NAMES[arm.lower()] if arm in ARMS else
                                         f"the facts, else {arm[2:-2]}; only the facts "
                                         f"contradict" if arm.endswith("nc") else
                                         f"the facts, else {arm[2:]}")
        lines.append(title)
        for m in MEASURES:
            v = result["arms"][arm][m]
            lines.append(f"  {MEASURE_TEXT[m]:<52} {v['k']:>4} of {v['n']:<4} "
                         f"{_pct(v['rate']):>6}  [{_pct(v['low'])}, {_pct(v['high'])}]")
        lines.append("")
    share = result.get("facts")
    if share:
        lines.append(f"the facts decided {share['decided']} of {result['items']} claims, "
                     f"{share['right']} of them rightly; by kind (decided of items):")
        for kind, entry in share["by_kind"].items():
            lines.append(f"  {visible(kind):<28} {entry['decided']:>4} of {entry['items']:<4} "
                         f"(right {entry['right']})")
        lines.append("")
    wrong = result["wrong"]
    lines.append(f"wrong: model A {wrong['A']}, model B {wrong['B']}, both {wrong['both']}"
                 + (f" ({visible(', '.join(wrong['both_ids']))})" if wrong["both_ids"] else ""))
    for arm in ("A", "B"):
        changed = result["check_changed"][arm]
        lines.append(f"quote check on model {arm}: overturned {changed['overturned_right']} "
                     f"right verdict(s), caught {changed['caught_wrong']} wrong one(s); codes "
                     + visible(", ".join(f"{k} {v}" for k, v in result["codes"][arm].items())))
    if result["traps"]:
        lines.append("")
        lines.append("per trap (right, k of n):")
        for trap, block in result["traps"].items():
            cells = "  ".join(f"{arm} {block['arms'][arm]['right']['k']}/{block['items']}"
                              for arm in result["arms"])
            lines.append(f"  {visible(trap):<28} {cells}")
    for arm in ("A", "B"):
        lost = result["no_answer"][arm]
        if lost["failed"] or lost["missing"]:
            lines.append(visible(f"model {arm}: no usable answer, counted wrong: failed "
                                 f"{lost['failed'] or 'none'}, never asked "
                                 f"{lost['missing'] or 'none'}"))
    return lines


def render_differences(differences, what, count):
    """replay's lines: one per difference, then a summary."""
    lines = [f"differs: {visible(line)}" for line in differences]
    if differences:
        lines.append(f"replay: {len(differences)} difference(s) in {visible(what)}")
    else:
        lines.append(f"replay: {visible(what)} re-derived offline, {count} record(s), no "
                     "differences")
    return lines
