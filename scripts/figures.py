#!/usr/bin/env python3
"""Figures in the README and docs/measured.md come from sealed files, never from a hand.

A block in README.md or docs/measured.md such as

    <!-- figures score receipts/run-1/score-v1.json -->
    ...table...
    <!-- /figures -->

is rendered from the named file(s). `scripts/figures.py --update` rewrites every block;
`scripts/figures.py --check` (and tests/test_readme_figures.py) fails if any block differs
from what its files give.

Kinds: `score FILE` (every measure for every arm), `variants [ARM] FILE...` (one row per
reader for one arm, R2 when no arm is named), `choice FILE` (run 2's sealed choice),
`choice3 FILE` (run 3's), `targets FILE...` (one reader's R2 figures against issue 15's
targets), `traps FILE` (right per trap and arm), `bench FILE` (the benchmark's summary),
`codes FILE` (the quote check's reason codes per model), `plain LABEL FILE` (one reader's
R2 figures in words, every denominator given); run 6's kinds are in figures_run6.py.
"""

import json
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from receipt_pair import ARMS  # noqa: E402  (after the path is set)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import figures_run6  # noqa: E402
BLOCK = re.compile(r"(<!-- figures (?P<spec>[^>]*?) -->\n)(?P<body>.*?)(<!-- /figures -->)", re.S)
MEASURES = [("right", "right"), ("false_shown", "false shown"),
            ("true_shown_kept", "true shown kept"), ("correct_not_shown", "correct not shown"),
            ("false_contradicted", "false contradicted"),
            ("true_contradicted_kept", "true contradicted kept")]


def load(path):
    with open(os.path.join(ROOT, path)) as handle:
        return json.load(handle)


def cell(value):
    return (f"{value['k']} of {value['n']} ({100 * value['low']:.0f}-{100 * value['high']:.0f}%)")


def arms_of(score):
    """The arms a score file holds, in ARMS order: a file sealed before an arm existed has
    none of its figures."""
    return [arm for arm in ARMS if arm in score["arms"]]


def render_score(paths, arm_list=None):
    score = load(paths[0])
    arms = arm_list or arms_of(score)
    lines = ["| measure | " + " | ".join(arms) + " |", "|---" * (len(arms) + 1) + "|"]
    for key, name in MEASURES:
        lines.append(f"| {name} | " + " | ".join(cell(score["arms"][a][key]) for a in arms) + " |")
    return lines


def render_variants(paths):
    """`variants ARM FILE...`: one row per reader's score file, for one arm."""
    arm, paths = (paths[0], paths[1:]) if paths and paths[0] in ARMS else ("R2", paths)
    lines = ["| reader | " + " | ".join(name for _, name in MEASURES) + " |",
             "|---" * (len(MEASURES) + 1) + "|"]
    for path in paths:
        score = load(path)
        lines.append(f"| {score['reader']} | " + " | ".join(
            cell(score["arms"][arm][key]) for key, _ in MEASURES) + " |")
    return lines


def render_traps(paths):
    score = load(paths[0])
    arms = arms_of(score)
    lines = ["| trap | items | " + " | ".join(arms) + " |", "|---" * (len(arms) + 2) + "|"]
    for trap, block in sorted(score["traps"].items()):
        lines.append(f"| {trap} | {block['items']} | " + " | ".join(
            str(block["arms"][a]["right"]["k"]) for a in arms) + " |")
    return lines


def render_codes(paths):
    score = load(paths[0])
    codes = sorted(set(score["codes"]["A"]) | set(score["codes"]["B"]))
    lines = ["| reason code | model A | model B |", "|---|---|---|"]
    for code in codes:
        lines.append(f"| `{code}` | {score['codes']['A'].get(code, 0)} | "
                     f"{score['codes']['B'].get(code, 0)} |")
    for arm in ("A", "B"):
        changed = score["check_changed"][arm]
        lines.append(f"| right verdicts the check overturned ({arm}) | "
                     + (f"{changed['overturned_right']} | |" if arm == "A"
                        else f"| {changed['overturned_right']} |"))
        lines.append(f"| wrong verdicts the check caught ({arm}) | "
                     + (f"{changed['caught_wrong']} | |" if arm == "A"
                        else f"| {changed['caught_wrong']} |"))
    return lines


def render_bench(paths):
    bench = load(paths[0])
    lines = ["| model | reader | claims | median s/claim | p90 s/claim | median prompt tokens "
             "| median generated tokens | server s / client s | load s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in bench["models"]:
        lines.append(
            f"| {row['model']} | {row['reader']} | {row['claims']} | {row['median_s']:.2f} "
            f"| {row['p90_s']:.2f} | {row['median_prompt_tokens']:.0f} "
            f"| {row['median_generated_tokens']:.0f} | {row['server_over_client']:.3f} "
            + (f"| {row['load_s']:.1f} |" if row["load_s"] is not None else "| n/a |"))
    lines.append("")
    lines.append(f"The client's own work per claim (rendering, hashing, the quote check): "
                 f"{bench['client_ms_per_claim']:.2f} ms. Memory: the client's peak "
                 f"{bench['client_rss_mb']:.0f} MB; the server's "
                 f"{bench['server_rss_mb']:.0f} MB with both models loaded.")
    check = bench.get("check")
    if check:
        lines.append("")
        by = f" (reader {check['reader']})" if check.get("reader") else ""
        lines.append(f"`check`, both models asked at once against in turn{by}, median of "
                     f"{check['runs']} runs: {check['concurrent_s']:.2f} s against "
                     f"{check['sequential_s']:.2f} s (ratio {check['ratio']:.2f}; same answers: "
                     f"{'yes' if check['same_answers'] else 'NO'}).")
    parallel = bench.get("parallel")
    if parallel:
        lines.append("")
        over = f", `{parallel['items_file']}`" if parallel.get("items_file") else ""
        lines.append(f"`batch` with {parallel['n']} questions in flight against one "
                     f"(reader {parallel['reader']}{over}): {parallel['parallel_s']:.1f} s against "
                     f"{parallel['sequential_s']:.1f} s (ratio {parallel['ratio']:.2f}; same "
                     f"answers: {'yes' if parallel['same_answers'] else 'NO'}).")
    for reader, seconds in bench.get("pair_median_s", {}).items():
        lines.append("")
        lines.append(f"The pair's median seconds per claim (model A then model B, reader "
                     f"{reader}): {seconds:.2f} s.")
    stop = bench.get("stop")
    if stop:
        lines.append("")
        lines.append(f"A Stop hook (`hook claude-code`) with {len(stop['claims'])} claims "
                     f"against one real session ({stop['turns']} turns of item {stop['item']}), "
                     f"median of {len(stop['runs'])} runs: {stop['stop_s']:.1f} s. The same "
                     f"claims through `check_claims` as the hook asks them (one menu for all, "
                     f"the server's prompt cache on): {stop['cached_s']:.1f} s; the very same "
                     f"requests with the cache off: {stop['cold_s']:.1f} s, with "
                     f"{'the same' if stop['cache_agrees'] else 'DIFFERENT'} answers; one "
                     f"claim at a time as `check` asks (a menu each, no cache): "
                     f"{stop['uncached_s']:.1f} s, with "
                     f"{'the same' if stop['cached_agrees'] else 'DIFFERENT'} answers.")
    replay = bench.get("replay")
    if replay:
        lines.append("")
        lines.append(f"`replay` of {replay['answers']} answers (`{replay['source']}` copied "
                     f"{replay['copies']} times; exit {replay['exit']}): median "
                     f"{replay['median_s']} s (the whole process).")
    unit = bench.get("unit_suite")
    if unit:
        lines.append("")
        lines.append(f"The unit suite (`{unit['command']}`): median {unit['median_s']} s "
                     f"(the whole process).")
    facts = bench.get("facts")
    if facts:
        lines.append("")
        lines.append(f"Claims the facts decide ({facts['decided']} of the claims of "
                     f"{', '.join('`' + name + '`' for name in facts['items'])}), each "
                     f"checked in process by `check_claim` with no model asked: median "
                     f"{facts['median_s']} s per claim, at most {facts['max_s']} s.")
    peer = bench.get("facts_stop_vs_peer")
    if peer:
        timing = peer["timing"]
        lines.append("")
        lines.append(f"A stop the facts decide (item {peer['item']}: \"{peer['claim']}\"), "
                     f"the whole `hook claude-code` process from the agent's input to its "
                     f"output against proof-of-done's Stop hook on the same session, timed in "
                     f"turn {timing['runs']} times: median {timing['A']['wall_s']['median']} s "
                     f"against {timing['B']['wall_s']['median']} s, ratio pair by pair "
                     f"{timing['ratio_wall']['median']}.")
    return lines


# (count, out of): the hook's figures and B's repeats of A (scripts/pair_figures.py).
HOOK_COUNTS = (("false accusation blocks", "claims not contradicted"),
               ("not-shown blocks on a shown claim", "claims shown"),
               ("B confirms A's accusation", "A accuses"),
               ("B repeats A's error", "A wrong (shown/contradicted)"))


def render_choice5(paths):
    """Run 5's sealed choice: r1 the baseline, the independent pairs the candidates (R2),
    with what a Stop hook would do and how often B repeats A."""
    choice = load(paths[0])
    lines = ["| reader | R2 right | true shown kept | false shown | false contradicted "
             "| qualifies | hook: false accusations | hook: asks for evidence it has "
             "| B confirms A's accusations | B repeats A's error | model A median s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in choice["candidates"]:
        hook, seconds = row["hook"], row["median_wall_s_a"]
        status = "baseline" if row["reader"] == choice["baseline"] else \
            ("yes" if row["qualifies"] else "no")
        lines.append(
            f"| {row['reader']} | {row['right']} | {row['true_shown_kept']} | "
            f"{row['false_shown']} | {row['false_contradicted']} | {status} | "
            + " | ".join(f"{hook.get(k, 0)} of {hook.get(n, 0)}" for k, n in HOOK_COUNTS)
            + (f" | {seconds:.1f} |" if seconds is not None else " | n/a |"))
    lines.append("")
    lines.append(f"The sealed rule picks **{choice['winner']}**.")
    return lines


def render_choice(paths):
    choice = load(paths[0])
    lines = ["| reader | R2 false shown | within the limit | R2 true shown kept | R2 right "
             "| model A median s |", "|---|---|---|---|---|---|"]
    for row in choice["readers"]:
        lines.append(f"| {row['reader']} | {row['false_shown']} | "
                     f"{'yes' if row['qualifies'] else 'no'} (at most "
                     f"{choice['false_shown_limit']}) | {row['true_shown_kept']} | {row['right']} "
                     f"| {row['median_s_model_a']:.2f} |")
    lines.append("")
    lines.append(f"The sealed rule picks **{choice['winner']}**.")
    return lines


def render_choice3(paths):
    """Run 3's sealed choice: every candidate, counts summed over the item sets (R2)."""
    choice = load(paths[0])
    lines = ["| reader | R2 false shown | within the limit | R2 true shown kept | R2 right "
             "| R2 false contradicted | model A median prompt tokens |",
             "|---|---|---|---|---|---|---|"]
    for row in choice["candidates"]:
        tokens = row["median_prompt_tokens_a"]
        lines.append(f"| {row['reader']} | {row['false_shown']} | "
                     f"{'yes' if row['qualifies'] else 'no'} (at most "
                     f"{choice['false_shown_limit']}) | {row['true_shown_kept']} | {row['right']} "
                     f"| {row['false_contradicted']} | "
                     + (f"{tokens:.0f} |" if tokens is not None else "n/a |"))
    lines.append("")
    lines.append(f"The sealed rule picks **{choice['winner']}**.")
    return lines


# Issue 15's targets for the chosen default under R2: (measure, at least / at most, rate).
TARGETS = (("true_shown_kept", "at least", 0.50), ("false_shown", "at most", 0.03),
           ("false_contradicted", "at most", 0.15), ("right", "at least", 0.60))


# Issue 24's targets for run 5, on the real test half under R2.
TARGETS_5 = (("false_contradicted", "at most", 0.10), ("true_shown_kept", "at least", 0.50),
             ("false_shown", "at most", 0.02), ("right", "at least", 0.65))


def render_targets5(paths):
    return render_targets(paths, TARGETS_5)


def render_targets(paths, targets=TARGETS):
    """`targets FILE...`: the R2 figures of one reader's score files (one per item set)
    against the targets, and whether each is met."""
    scores = [load(path) for path in paths]
    lines = ["| measure | target | " + " | ".join(
        f"{score.get('reader')} on {os.path.basename(path)}" for score, path in zip(scores, paths))
        + " |", "|---" * (len(paths) + 2) + "|"]
    for key, way, rate in targets:
        cells = []
        for score in scores:
            value = score["arms"]["R2"][key]
            met = value["rate"] >= rate if way == "at least" else value["rate"] <= rate
            cells.append(f"{cell(value)}: {'met' if met else 'not met'}")
        name = dict(MEASURES)[key]
        lines.append(f"| {name} | {way} {100 * rate:.0f}% | " + " | ".join(cells) + " |")
    return lines


def render_plain(paths):
    """`plain LABEL FILE`: what one reader's pair does under R2 on one item set, in words,
    with every denominator (LABEL names the logs, with _ for spaces)."""
    label, score = paths[0].replace("_", " "), load(paths[1])
    r2 = score["arms"]["R2"]

    def of(key):
        return f"{r2[key]['k']} of {r2[key]['n']}"

    return textwrap.wrap(f"On {label}, the pair under reader {score['reader']} and R2 gave a receipt "
            f"(`shown`) for {of('true_shown_kept')} claims the log shows, and a false one for "
            f"{of('false_shown')} claims it does not show. It said `contradicted` for "
            f"{of('true_contradicted_kept')} claims the log contradicts, and wrongly for "
            f"{of('false_contradicted')} claims it does not contradict. It said `not shown` "
            f"rightly for {of('correct_not_shown')} claims the log neither shows nor "
            f"contradicts. Right in all: {of('right')}.", 92)


RENDERERS = {"plain": render_plain, "score": render_score, "variants": render_variants, "traps": render_traps,
             "bench": render_bench, "codes": render_codes,
             "choice": render_choice, "choice3": render_choice3, "choice5": render_choice5,
             "targets": render_targets, "targets5": render_targets5,
             **figures_run6.RENDERERS}


def render(spec):
    kind, *paths = spec.split()
    return "\n".join(RENDERERS[kind](paths)) + "\n"


def blocks(text):
    return [(m.group("spec"), m.group("body")) for m in BLOCK.finditer(text)]


def update(text):
    return BLOCK.sub(lambda m: m.group(1) + render(m.group("spec")) + m.group(4), text)


# The pages whose figure blocks are rendered from sealed files.
PAGES = ("README.md", os.path.join("docs", "measured.md"))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    stale = []
    for page in PAGES:
        path = os.path.join(ROOT, page)
        with open(path) as handle:
            text = handle.read()
        if argv and argv[0] == "--update":
            with open(path, "w") as handle:
                handle.write(update(text))
            print(f"{page}: updated {len(blocks(text))} figure block(s)")
            continue
        stale += [f"{page}: {spec}" for spec, body in blocks(text) if render(spec) != body]
    for spec in stale:
        print(f"stale: {spec}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
