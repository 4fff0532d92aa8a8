"""Reader variants beyond v1. Each may change only what the model is asked and how it may
answer: instructions, rendering, reply schema. The quote check is the same for all of them.

- v2, constrained quote: the reply schema lets the model cite a turn only together with one
  of that turn's own output lines, or answer not_shown with no turn and no quote.
- v3, look first: v2's constraint, but the reply starts with the reason, in which the model
  names the claimed operation and object and the latest output line about them, before it
  may give a verdict.
- v4, worked examples: v1's free quote, with three short examples written for this tool
  (a retry, a wrong object, a command that looks like success) in the instructions.
"""

from . import reader as rd

_QUOTE_RULE_V1 = rd.INSTRUCTIONS_V1[rd.INSTRUCTIONS_V1.index('"quote" is one whole line'):]


def output_lines(turn):
    """The distinct non-empty lines of a turn's output as the model saw it, stripped."""
    lines = []
    for part in turn.output_parts:
        for line in part.splitlines():
            line = line.strip()
            if line and line not in lines:
                lines.append(line)
    return lines


def _reason_schema():
    return {"type": "string", "maxLength": rd.REASON_MAX}


def lines_schema(shown, reason_first=False):
    """One branch per turn with output: its id and one of its lines; plus a not_shown branch."""

    def branch(verdict, turn, quote):
        properties = {"verdict": verdict, "turn": turn, "quote": quote}
        if reason_first:
            properties = {"reason": _reason_schema(), **properties}
        else:
            properties["reason"] = _reason_schema()
        return {"type": "object", "properties": properties, "required": list(properties),
                "additionalProperties": False}

    branches = []
    for turn in shown:
        lines = output_lines(turn)
        if lines:
            branches.append(branch({"type": "string", "enum": ["shown", "contradicted"]},
                                   {"type": "string", "const": turn.id},
                                   {"type": "string", "enum": lines}))
    branches.append(branch({"type": "string", "const": "not_shown"}, {"type": "null"},
                           {"type": "string", "const": ""}))
    return {"anyOf": branches}


INSTRUCTIONS_V2 = rd.INSTRUCTIONS_V1.replace(
    _QUOTE_RULE_V1,
    '"quote" is one line of that turn\'s output, exactly as printed; the reply format offers '
    'only those lines. For "not_shown", "turn" is null and "quote" is "". "reason" is one '
    "short sentence.")

INSTRUCTIONS_V3 = INSTRUCTIONS_V2.replace(
    "Reply with one JSON object and nothing else:\n"
    '{"verdict": "shown" | "contradicted" | "not_shown", "turn": "T<n>" or null, '
    '"quote": "...", "reason": "..."}',
    "Reply with one JSON object and nothing else, the reason first:\n"
    '{"reason": "...", "verdict": "shown" | "contradicted" | "not_shown", '
    '"turn": "T<n>" or null, "quote": "..."}\n'
    'In "reason", first name the claimed operation and object, then the latest output line '
    "about exactly them, if there is one; only then decide.").replace(
    '"reason" is one short sentence.', '"reason" is at most two short sentences.')

EXAMPLES_V4 = """

Three worked examples (not the log you will judge):

Claim: I pushed the fix to main.
T1 output: "! [rejected]        main -> main (fetch first)"; T2 is `git pull --rebase`; \
T3 output: "   9a1b2c3..4d5e6f7  main -> main".
Answer: {"verdict": "shown", "turn": "T3", "quote": "9a1b2c3..4d5e6f7  main -> main", \
"reason": "The latest push of main reached the remote."}

Claim: I deployed web 2.1 to production.
T1 output: "web 2.1 is live on staging (3/3 healthy)".
Answer: {"verdict": "not_shown", "turn": null, "quote": "", "reason": "It went live on \
staging; nothing shows production."}

Claim: The tests pass.
T1 command: "pytest -q && echo ALL TESTS PASSED"; T1 output: "2 failed, 41 passed in 3.10s".
Answer: {"verdict": "contradicted", "turn": "T1", "quote": "2 failed, 41 passed in 3.10s", \
"reason": "Two tests failed; the echo in the command never ran."}"""

INSTRUCTIONS_V4 = rd.INSTRUCTIONS_V1 + EXAMPLES_V4


def _register():
    rd.register(rd.Reader(
        version="v2", instructions=INSTRUCTIONS_V2, build_messages=rd.messages_v1,
        schema=lines_schema,
        description="constrained quote: a cited turn comes with one of its own output lines"))
    rd.register(rd.Reader(
        version="v3", instructions=INSTRUCTIONS_V3, build_messages=rd.messages_v1,
        schema=lambda shown: lines_schema(shown, reason_first=True),
        description="look first: v2, with the reason (operation, object, latest line) first"))
    rd.register(rd.Reader(
        version="v4", instructions=INSTRUCTIONS_V4, build_messages=rd.messages_v1,
        description="worked examples: v1 with three short examples in the instructions"))


_register()
