"""Run 6's figure blocks (scripts/figures.py renders them; issue 31): the chooser's table,
what the facts decided by kind, the default against the issue's targets, the peer beside
it, and the default answer in words.

Kinds: `choice6 FILE` (choice.json), `facts FILE` (a score file with the facts' records),
`targets6 FILE CHOICE` (the chosen arm of a score file against issue 31's targets),
`peer FILE` (peer-compare.json), `answer LABEL FILE CHOICE` (the chosen arm in words),
`factarms FILE` (every arm with the facts first, a column each).
"""

import json
import os
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What each arm of run 6 is, in words.
ARM_WORDS = {"answer": "the facts first, then the pair under R2, where shown needs both",
             "F+R4": "the facts first, then the pair under R4, where A decides and B can only "
                     "veto",
             "F+A": "the facts first, then model A alone",
             "F+R3": "the facts first, then the pair under R3, agree or not shown",
             "F+R1": "the facts first, then the pair under R1",
             "F+B": "the facts first, then model B alone",
             "F+R2": "the facts first, then the pair under R2, where shown needs both",
             "F+R2nc": "the facts first, then the pair under R2, where only the facts "
                       "contradict (a model's contradicted is not shown)",
             "F+Anc": "the facts first, then model A alone, where only the facts contradict "
                      "(its contradicted is not shown)",
             "facts": "the facts alone, not shown where they do not decide"}

# Issue 31's targets for the default answer: (measure, at least / at most, rate).
TARGETS_6 = (("true_shown_kept", "at least", 0.60), ("false_shown", "at most", 0.02),
             ("false_contradicted", "at most", 0.04), ("right", "at least", 0.72))


def load(path):
    with open(os.path.join(ROOT, path)) as handle:
        return json.load(handle)


def _of(value):
    return f"{value['k']} of {value['n']}"


def _cell(value):
    return f"{value['k']} of {value['n']} ({100 * value['low']:.0f}-{100 * value['high']:.0f}%)"


def render_choice6(paths):
    choice = load(paths[0])
    lines = ["| arm | right | true shown kept | false shown | false contradicted | qualifies "
             "| hook: false blocks | hook: contradictions caught | block-facts: blocks "
             "(on a shown claim) |", "|---|---|---|---|---|---|---|---|---|"]
    for row in choice["candidates"]:
        hook = row["hook"]
        status = ("yes" if row["qualifies"] else "no") + \
            (" (baseline)" if row["arm"] == choice["baseline"] else "")
        lines.append(
            f"| {row['arm']} | {row['right']} | {row['true_shown_kept']} | "
            f"{row['false_shown']} ({100 * row['false_shown_rate']:.1f}%) | "
            f"{row['false_contradicted']} ({100 * row['false_contradicted_rate']:.1f}%) | "
            f"{status} | {hook['false_blocks']} of {hook['not_contradicted']} | "
            f"{hook['caught']} of {hook['contradictions']} | {hook['facts_blocks']} "
            f"({hook['facts_false_blocks']} of {hook['shown_claims']}) |")
    lines.append("")
    lines.append(f"The sealed rule picks **{choice['winner']}**: {ARM_WORDS[choice['winner']]}.")
    return lines


def render_facts(paths):
    score = load(paths[0])
    facts, total = score["facts"], score["items"]
    lines = [f"The facts decided {facts['decided']} of {total} claims, {facts['right']} of "
             f"them rightly; the models were asked the rest.", "",
             "| the claim's kinds (plain code's reading) | claims | decided by the facts "
             "| of them right |", "|---|---|---|---|"]
    for kind, entry in facts["by_kind"].items():
        lines.append(f"| {kind} | {entry['items']} | {entry['decided']} | {entry['right']} |")
    lines += ["", "| the facts' rule | decided | right |", "|---|---|---|"]
    for rule, entry in facts["by_rule"].items():
        lines.append(f"| `{rule}` | {entry['decided']} | {entry['right']} |")
    return lines


def render_targets6(paths):
    score, choice = load(paths[0]), load(paths[1])
    arm = score["arms"][choice["winner"]]
    lines = [f"| measure | target | {choice['winner']} |", "|---|---|---|"]
    for key, way, rate in TARGETS_6:
        value = arm[key]
        met = value["rate"] >= rate if way == "at least" else value["rate"] <= rate
        lines.append(f"| {key.replace('_', ' ')} | {way} {100 * rate:.0f}% | {_cell(value)}: "
                     f"{'met' if met else 'not met'} |")
    facts = score["arms"]["facts"]
    for key, way, rate in (("false_shown", "at most", 0.0),
                           ("false_contradicted", "at most", 0.01)):
        value = facts[key]
        met = value["rate"] <= rate
        lines.append(f"| the facts' own {key.replace('_', ' ')} | {way} {100 * rate:.0f}% | "
                     f"{_cell(value)}: {'met' if met else 'not met'} |")
    row = next(r for r in choice["candidates"] if r["arm"] == choice["winner"])
    hook = row["hook"]
    for name, k, n, way, rate in (
            ("hook: false blocks", hook["false_blocks"], hook["not_contradicted"], "at most",
             0.03),
            ("hook: contradictions caught", hook["caught"], hook["contradictions"], "at least",
             0.50)):
        share = k / n if n else 0.0
        met = share >= rate if way == "at least" else share <= rate
        lines.append(f"| {name} | {way} {100 * rate:.0f}% | {k} of {n} ({100 * share:.0f}%): "
                     f"{'met' if met else 'not met'} |")
    return lines


def render_peer(paths):
    table = load(paths[0])
    ours, peer = table["ours"], table["peer"]
    lines = [f"| measure | receipt-pair ({table['ours_arm']}) | proof-of-done |",
             "|---|---|---|"]
    for key in ("right", "true_shown_kept", "false_shown", "false_contradicted",
                "true_contradicted_kept", "correct_not_shown"):
        lines.append(f"| {key.replace('_', ' ')} | {_cell(ours[key])} | {_cell(peer[key])} |")
    lines.append("")
    lines.append(f"proof-of-done found a claim it reads in {table['peer_claims_detected']} of "
                 f"{ours['right']['n']} items; where it found none it says nothing, counted "
                 f"here as `not shown`.")
    return lines


def render_fact_arms(paths):
    """`factarms FILE`: every arm with the facts first (the facts alone, the default answer,
    and the facts with each other arm of the models in their place), a column each."""
    score = load(paths[0])
    arms = [arm for arm in score["arms"] if arm in ARM_WORDS]
    lines = ["| measure | " + " | ".join(arms) + " |", "|---" * (len(arms) + 1) + "|"]
    for key in ("right", "false_shown", "true_shown_kept", "correct_not_shown",
                "false_contradicted", "true_contradicted_kept"):
        lines.append(f"| {key.replace('_', ' ')} | " + " | ".join(
            _cell(score["arms"][arm][key]) for arm in arms) + " |")
    return lines


def render_answer(paths):
    label, score, choice = paths[0].replace("_", " "), load(paths[1]), load(paths[2])
    arm = score["arms"][choice["winner"]]
    words = ARM_WORDS[choice["winner"]]

    def of(key):
        return _of(arm[key])

    return textwrap.wrap(
        f"On {label}, the default answer ({words}; reader {score['reader']}) gave a receipt "
        f"(`shown`) for {of('true_shown_kept')} claims the log shows, and a false one for "
        f"{of('false_shown')} claims it does not show. It said `contradicted` for "
        f"{of('true_contradicted_kept')} claims the log contradicts, and wrongly for "
        f"{of('false_contradicted')} claims it does not contradict. It said `not shown` "
        f"rightly for {of('correct_not_shown')} claims the log neither shows nor "
        f"contradicts. Right in all: {of('right')}. The facts decided "
        f"{score['facts']['decided']} of the {score['items']} claims with no model asked.", 92)


RENDERERS = {"choice6": render_choice6, "factarms": render_fact_arms, "facts": render_facts, "targets6": render_targets6,
             "peer": render_peer, "answer": render_answer}
