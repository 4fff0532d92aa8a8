"""A receipt, or a ledger of them, as one static HTML page a person can read.

First the claim and the answer, then each model's verdict, quote, reason code and reason,
then the log as the models saw it with every quoted span marked in its turn (a quote that
passed the check one way, a refused quote another, labelled with its code), and last the
hashes and settings. The page has no script, no image, no font, no form and no link out:
one file with inline CSS, and a Content-Security-Policy that would forbid scripts and
fetches even if markup slipped through. A log is hostile input: every string taken from a
receipt (claim, log, quotes, reasons, model names, hashes) is escaped with
`html.escape(..., quote=True)`, in text and in attributes alike, after its control, format
and direction characters are shown as marks (`visible.visible`), and ids and classes are
made from counters and fixed words, never from the receipt.
"""

import html
import json

from ..answers import CODE_TEXT, OK
from ..check.testcounts import describe
from .visible import visible

CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; "
       "base-uri 'none'")
ANSWER_CLASS = {"shown": "a-shown", "contradicted": "a-contradicted", "not shown": "a-not-shown"}

STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;
color:#1d2330}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:20px;margin:0 0 12px}h2{font-size:18px;margin:0 0 8px}
h3{font-size:15px;margin:22px 0 8px;color:#39424e}
section.receipt{background:#fff;border:1px solid #d8dce3;border-radius:8px;padding:20px;
margin:0 0 28px}
.claim{font-size:17px;margin:4px 0 10px}.label{color:#5b6573;font-size:13px;margin-right:6px}
.answer{display:inline-block;font-weight:700;font-size:18px;padding:4px 14px;border-radius:6px;
border:2px solid}
.a-shown{background:#e6f4ea;border-color:#1e7e34;color:#14532d}
.a-contradicted{background:#fdecea;border-color:#b71c1c;color:#7f1d1d}
.a-not-shown,.a-unknown{background:#eceff1;border-color:#607080;color:#2f3a45}
.note{color:#39424e}.bad{color:#9b1c1c;font-weight:600}.good{color:#1e6b35}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{border:1px solid #d8dce3;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#f0f2f5}td code,dd code{white-space:pre-wrap;word-break:break-all}
.turn{border:1px solid #d8dce3;border-radius:6px;margin:0 0 12px;overflow:hidden}
.turn-id{background:#f0f2f5;padding:3px 8px;font-weight:700;font-size:13px}
pre{margin:0;padding:8px;white-space:pre-wrap;word-break:break-all;
font:13px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}
pre.cmd{background:#1d2330;color:#e8eaee}pre.out{background:#fbfbfc}
.line.hit-ok{background:#fff4c2}.line.hit-refused{background:#fbe3e6}
pre.cmd .line.hit-ok{background:#5c4b0f}pre.cmd .line.hit-refused{background:#5c2231}
.q{padding:1px 0}.q.ok{background:#ffd43b;color:#1d2330;outline:2px solid #e0a800}
.q.refused{background:#f5c2c7;color:#1d2330;outline:2px dashed #b02a37}
.q.ok.refused{outline-style:double}
.q::after{content:" \\2190  " attr(data-label);font:600 11px system-ui,sans-serif;
color:#5b3a00;background:#fff;border:1px solid #e0a800;border-radius:3px;padding:0 4px;
margin-left:4px}
.q.refused::after{color:#842029;border-color:#b02a37}
table.kv td:first-child{width:220px;color:#39424e}
.legend{font-size:13px;color:#39424e;margin:0 0 8px}table.contents{margin:0 0 24px}
"""


def esc(value):
    """Text for HTML, in an element or a double-quoted attribute: & < > " ' escaped, and
    every control, format or direction character but a line break or a tab as a mark."""
    return html.escape(visible(value, lines=True), quote=True)


def _json(value):
    return esc(json.dumps(value, sort_keys=True, ensure_ascii=False))


def _models(receipt):
    """Each model's entry, flat (schema 1 nested its checked answer under "checked")."""
    out, models = [], receipt.get("models")
    for entry in models if isinstance(models, list) else []:
        if isinstance(entry, dict):
            flat = dict(entry)
            if isinstance(entry.get("checked"), dict):
                flat.update(entry["checked"])
            out.append(flat)
    return out


def _shown(receipt):
    turns = receipt.get("shown")
    return [t for t in turns if isinstance(t, dict)] if isinstance(turns, list) else []


def _text(turn, key):
    value = turn.get(key)
    return value if isinstance(value, str) else ""


def _locate(quote, cited, shown):
    """Where a quote sits: (turn index, "output" or "cmd", start, end), or None.

    The cited turn's output first, then its command (a quote_from_command), then the other
    turns' output (a quote_from_other_turn); surrounding whitespace ignored, as the check
    does. A quote found nowhere is listed in the models' table only.
    """
    quote = quote.strip() if isinstance(quote, str) else ""
    if not quote:
        return None
    order = [i for i, t in enumerate(shown) if t.get("id") == cited]
    places = [(i, "output") for i in order] + [(i, "cmd") for i in order]
    places += [(i, "output") for i in range(len(shown)) if i not in order]
    for index, key in places:
        start = _text(shown[index], key).find(quote)
        if start >= 0:
            return index, key, start, start + len(quote)
    return None


def _mark(text, cover):
    ok = any(m["ok"] for m in cover)
    refused = any(not m["ok"] for m in cover)
    classes = "q" + (" ok" if ok else "") + (" refused" if refused else "")
    label = " · ".join(f"{m['arm']}: {m['code']}" for m in cover)
    return f'<mark class="{classes}" data-label="{esc(label)}">{esc(text)}</mark>'


def marked_lines(text, marks):
    """`text` as one span per line, every marked span (start, end, mark) inside a <mark>."""
    out, position = [], 0
    for line in text.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        inside = [(max(s, start), min(e, end), m) for s, e, m in marks if s < end and e > start]
        if not inside:
            out.append(f'<span class="line">{esc(line)}</span>')
            continue
        cuts = sorted({start, end} | {s for s, _, _ in inside} | {e for _, e, _ in inside})
        parts = []
        for a, b in zip(cuts, cuts[1:]):
            piece = line[a - start:b - start]
            cover = [m for s, e, m in inside if s <= a and e >= b]
            parts.append(_mark(piece, cover) if cover else esc(piece))
        kinds = {"ok" if m["ok"] else "refused" for _, _, m in inside}
        classes = "line hit" + "".join(f" hit-{kind}" for kind in sorted(kinds))
        out.append(f'<span class="{classes}">{"".join(parts)}</span>')
    return "\n".join(out)


def _models_table(models):
    rows = ["<tr><th>model</th><th>verdict</th><th>turn</th><th>quote</th><th>check</th>"
            "<th>reason</th></tr>"]
    for m in models:
        code = m.get("code")
        check = f"{esc(m.get('answer'))} <code>{esc(code)}</code>"
        if isinstance(code, str) and code in CODE_TEXT:
            check += f"<br><span class=\"note\">{esc(CODE_TEXT[code])}</span>"
        if m.get("error"):
            check += f"<br><span class=\"bad\">call failed: {esc(m.get('error'))}</span>"
        quote = m.get("quote")
        rows.append(f"<tr><td>{esc(m.get('arm'))}: {esc(m.get('model'))}</td>"
                    f"<td>{esc(m.get('verdict'))}</td><td>{esc(m.get('turn'))}</td>"
                    f"<td>{'<code>' + esc(quote) + '</code>' if quote else '-'}</td>"
                    f"<td>{check}</td><td>{esc(m.get('reason'))}</td></tr>")
    return "<table class=\"models\">" + "".join(rows) + "</table>"


def _log_html(shown, models, prefix):
    marks = {}
    for m in models:
        place = _locate(m.get("quote"), m.get("turn"), shown)
        if place:
            index, key, start, end = place
            marks.setdefault((index, key), []).append(
                (start, end, {"arm": str(m.get("arm")), "ok": m.get("code") == OK,
                              "code": str(m.get("code"))}))
    parts = ['<p class="legend">Each turn as the models saw it. <span class="q ok" '
             'data-label="model: ok">a quote that passed the check</span> '
             '<span class="q refused" data-label="model: its code">a refused quote</span></p>']
    for index, turn in enumerate(shown):
        cmd, output = _text(turn, "cmd"), _text(turn, "output")
        parts.append(f'<div class="turn" id="{prefix}-t{index + 1}">'
                     f'<div class="turn-id">{esc(turn.get("id"))}</div>')
        if cmd:
            parts.append(f'<pre class="cmd">{marked_lines(cmd, marks.get((index, "cmd"), []))}'
                         "</pre>")
        parts.append(f'<pre class="out">{marked_lines(output, marks.get((index, "output"), []))}'
                     "</pre></div>")
    return "".join(parts)


def _kv(rows):
    body = "".join(f"<tr><td>{esc(key)}</td><td><code>{value}</code></td></tr>"
                   for key, value in rows)
    return f'<table class="kv">{body}</table>'


def _hashes(receipt, models, entry):
    reader = receipt.get("reader") if isinstance(receipt.get("reader"), dict) else {}
    log = receipt.get("log") if isinstance(receipt.get("log"), dict) else {}
    rows = [("time", esc(receipt.get("time"))),
            ("made by", esc(receipt.get("made_by") or "(not recorded)")),
            ("package version", esc(receipt.get("package_version"))),
            ("log file", esc(log.get("file"))), ("log sha256", esc(log.get("sha256"))),
            ("reader", esc(f"{reader.get('version')} (check {reader.get('check', 'c1')})")),
            ("reader fingerprint", esc(reader.get("fingerprint"))),
            ("rule", esc(receipt.get("rule"))), ("max turns", esc(receipt.get("max_turns"))),
            ("settings", _json(receipt.get("settings")))]
    for m in models:
        arm = m.get("arm")
        rows += [(f"model {arm} request sha256", esc(m.get("request_sha256"))),
                 (f"model {arm} reply sha256", esc(m.get("reply_sha256"))),
                 (f"model {arm} extra fields", _json(m.get("extra") or {})),
                 (f"model {arm} timings", _json(m.get("timings")))]
    witness = receipt.get("witness")
    if isinstance(witness, dict):
        rows.append(("witness record sha256", esc(witness.get("record_sha256"))))
    rows.append(("receipt sha256", esc(receipt.get("receipt_sha256", "(schema 1: none)"))))
    if entry is not None:
        rows += [("ledger entry", esc(entry.number)), ("entry sha256", esc(entry.sha256)),
                 ("previous entry sha256", esc((entry.record or {}).get("prev_sha256"))),
                 ("appended", esc((entry.record or {}).get("time")))]
    return _kv(rows)


def _gate_and_witness(receipt):
    parts = []
    gate = receipt.get("gate")
    if isinstance(gate, dict):
        if gate.get("dry_run"):
            did = "dry run: nothing ran"
        elif gate.get("runs"):
            did = "it ran"
        else:
            did = f"it did not run (exit status {esc(gate.get('status'))})"
        parts.append(f"<p><span class=\"label\">Gate</span>the command "
                     f"<code>{esc(gate.get('program'))}</code>: {did}</p>")
    witness = receipt.get("witness")
    if isinstance(witness, dict):
        problem = witness.get("problem")
        parts.append("<p><span class=\"label\">Witness</span>" + (
            f"<span class=\"bad\">the witness run {esc(problem)}</span>" if problem else
            esc(witness.get("reading") or "no problem with the witness run")) + "</p>")
        pin, counts = witness.get("pin"), witness.get("counts")
        if isinstance(pin, dict):
            read = esc(describe(counts)) if isinstance(counts, dict) else "no readable count"
            parts.append(f"<p><span class=\"label\">Pin</span>{esc(pin.get('tests'))} tests, "
                         f"at most {esc(pin.get('skipped'))} skipped or expected to fail; the "
                         f"run reported {read}; "
                         f"shortfall {_json(witness.get('shortfall'))}</p>")
    return "".join(parts)


def _integrity(differences, in_ledger):
    if not differences:
        return ('<p class="good">Re-derived offline from its own replies'
                + (", and chained to the entry before it" if in_ledger else "")
                + ": no differences.</p>")
    items = "".join(f"<li>{esc(d)}</li>" for d in differences)
    said = (f"This entry has {len(differences)} problem(s) (its place in the chain, or its "
            "receipt)" if in_ledger else
            f"Does not re-derive offline ({len(differences)} difference(s))")
    return f'<div class="bad"><p>{said}: no receipt to rely on.</p><ul>{items}</ul></div>'


def _answer_class(answer):
    return ANSWER_CLASS.get(answer, "a-unknown") if isinstance(answer, str) else "a-unknown"


def receipt_section(receipt, differences, number=1, entry=None):
    """One receipt as a <section>: claim and answer, models, the log, hashes and settings."""
    models, shown = _models(receipt), _shown(receipt)
    answer = receipt.get("answer")
    prefix = f"entry-{number}"
    made_by = f", made by {esc(receipt['made_by'])}" if receipt.get("made_by") else ""
    return "".join((
        f'<section class="receipt" id="{prefix}">',
        f"<h2>Entry {number}</h2>" if entry is not None else "",
        f'<p class="claim"><span class="label">Claim</span>{esc(receipt.get("claim"))}</p>',
        f'<p><span class="answer {_answer_class(answer)}">{esc(answer)}</span> '
        f'<span class="note">rule {esc(receipt.get("rule"))}{made_by}</span></p>',
        _integrity(differences, entry is not None),
        _gate_and_witness(receipt),
        f"<h3>The two models</h3>{_models_table(models)}",
        f"<h3>The log as the models saw it</h3>{_log_html(shown, models, prefix)}",
        f"<h3>Hashes and settings</h3>{_hashes(receipt, models, entry)}</section>",
    ))


def _page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
            '<meta name="referrer" content="no-referrer">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{STYLE}</style></head>"
            f"<body><main>{body}</main></body></html>\n")


def receipt_page(receipt, differences, name):
    """The page of one receipt; `differences`: what re-deriving it offline found."""
    return _page(f"receipt-pair: {receipt.get('claim')}",
                 f"<h1>receipt-pair receipt <span class=\"note\">{esc(name)}</span></h1>"
                 + receipt_section(receipt, differences))


def ledger_page(entries, differences, name):
    """The page of a ledger: its integrity, a contents table, then one section per entry.
    `entries` are ledger.Entry; `differences` what verify_ledger found."""
    whole = [e for e in entries if e.receipt is not None]
    summary = ('<p class="good">The chain holds and every receipt re-derives offline.</p>'
               if not differences else
               f'<div class="bad"><p>{len(differences)} difference(s): no receipt in it to '
               "rely on until they are explained.</p><ul>"
               + "".join(f"<li>{esc(d)}</li>" for d in differences) + "</ul></div>")
    rows = ["<tr><th>entry</th><th>time</th><th>answer</th><th>claim</th></tr>"]
    for e in whole:
        rows.append(f'<tr><td><a href="#entry-{e.number}">{e.number}</a></td>'
                    f"<td>{esc(e.receipt.get('time'))}</td><td>{esc(e.receipt.get('answer'))}"
                    f"</td><td>{esc(e.receipt.get('claim'))}</td></tr>")
    sections = "".join(receipt_section(e.receipt, e.problems, e.number, e) for e in whole)
    heading = (f'<h1>receipt-pair ledger <span class="note">{esc(name)}</span> '
               f"({len(entries)} entries)</h1>")
    contents = f'<table class="contents">{"".join(rows)}</table>'
    return _page(f"receipt-pair ledger: {name}", heading + summary + contents + sections)
