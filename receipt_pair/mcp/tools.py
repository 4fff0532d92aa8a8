"""The tools the server offers, one row each: its name, what it is for, the JSON Schemas of
its arguments and of its result, and the library call it makes.

Each tool reads the files it is given and writes none; each calls what the command line
calls (check_claim, verify_reply, replay_receipt, split_claims) and returns plain data,
the structured content of its result. A ReceiptPairError it raises is the tool's error,
its message the line the agent reads.
"""

from dataclasses import dataclass
from typing import Callable

from ..answers import CODE_TEXT, CONTRADICTED, NOT_SHOWN, SHOWN
from ..audit.replay import replay_receipt
from ..audit.verify import receipt_redacted, verify_reply
from ..check.rules import RULES
from ..hooks.claims import split_redacted
from ..logs import FORMATS, log_notes, read_log
from ..pair.claim import FACTS, MODELS, check_claim
from ..readers import READERS, usable_readers
from ..store.files import display_name, read_json
from .arguments import path_argument


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: dict
    output_schema: dict
    run: Callable  # (arguments, settings) -> the result's structured content


def _text(description, **more):
    return {"type": "string", "description": description, **more}


def _nullable(description):
    return {"type": ["string", "null"], "description": description}


def _obj(properties, required=(), description=None):
    schema = {"type": "object", "properties": properties, "required": list(required),
              "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def _list(items, description):
    return {"type": "array", "items": items, "description": description}


_LOG = _text("path of the agent's log or session file (or the folder it keeps one in), "
             "relative to the folder the server runs in; read only, never written")
_FORMAT = _text("the log's format (default: told from its content)", enum=list(FORMATS))
_ANSWER = _text("shown, contradicted or not shown", enum=[SHOWN, CONTRADICTED, NOT_SHOWN])
_NOTES = _list({"type": "string"}, "anything the reading skipped, and how many credentials "
                                   "were replaced by [REDACTED]")


# -- check_claim ----------------------------------------------------------------------------

_QUOTE = _obj({"arm": _text("who quoted it: facts, A or B"),
               "turn": _nullable("the turn it is from (T1 is the log's first)"),
               "quote": _text("the line, as the log has it")},
              ["arm", "turn", "quote"])
_MODEL = _obj({"arm": _text("A or B"), "model": _text("the model's id"),
               "verdict": _nullable("what the model said, as it said it"),
               "turn": _nullable("the turn it quoted"),
               "quote": _text("what it quoted"), "reason": _text("its reason"),
               "answer": _text("its answer after the quote check", enum=[SHOWN, CONTRADICTED,
                                                                         NOT_SHOWN]),
               "code": _text("ok, or the quote check's rule that refused the quote"),
               "error": _nullable("why the model could not be asked")},
              ["arm", "model", "verdict", "turn", "quote", "reason", "answer", "code", "error"])

CHECK_INPUT = _obj({
    "claim": _text("what the agent says it did, one claim: 'I pushed the fix to main'",
                   minLength=1),
    "log": _LOG,
    "format": _FORMAT,
    "reader": _text("the reader the models are asked with (default: the server's)",
                    enum=usable_readers()),
    "rule": _text("the pair rule that combines the two models' answers (default: the "
                  "server's)", enum=list(RULES)),
    "models_only": {"type": "boolean", "description": "ask the two models even where the "
                    "facts of the log settle the claim (default false: the facts decide "
                    "what they settle, and no model server is needed for it)"},
}, ["claim", "log"])
CHECK_OUTPUT = _obj({
    "answer": _ANSWER,
    "decided_by": _text("facts (plain code read the log; no model asked) or models",
                        enum=[FACTS, MODELS]),
    "rule": _text("the rule that decided: the facts' rule (push.updated) when the facts "
                  "decided, else the pair rule (r1, r2, r3)"),
    "why": _nullable("what the facts' rule says, when the facts decided"),
    "pair_rule": _text("the pair rule the models' answers are combined by"),
    "claim": _text("the claim as checked (credentials replaced)"),
    "reader": _text("the reader version"),
    "quotes": _list(_QUOTE, "the quotes that decide the answer"),
    "models": _list(_MODEL, "each model's checked answer (none when the facts decided)"),
    "log": _obj({"name": _text("the log as named"), "sha256": _text("of its bytes"),
                 "turns": {"type": "integer", "description": "how many turns it holds"},
                 "notes": _NOTES}, ["name", "sha256", "turns", "notes"], "the log read"),
}, ["answer", "decided_by", "rule", "why", "pair_rule", "claim", "reader", "quotes",
    "models", "log"])


def read_path(path, fmt, redact=True):
    """The LogRead of the log at `path`, and the lines a person is told of the reading."""
    warnings = []
    read = read_log(path_argument(path, "log"), fmt, warnings, redact)
    return read, log_notes(read, warnings)


def run_check_claim(arguments, settings):
    read, notes = read_path(arguments["log"], arguments.get("format"), settings.redact)
    changes = {"reader": arguments.get("reader"), "rule": arguments.get("rule")}
    if arguments.get("models_only"):
        changes["facts"] = False
    settings = settings.replace(**{k: v for k, v in changes.items() if v is not None})
    # A model that cannot be asked cannot vouch: ModelCallFailed, the tool's error.
    result = check_claim(arguments["claim"], read.turns, settings)
    by_facts = result.decided_by == FACTS
    return {
        "answer": result.answer, "decided_by": result.decided_by,
        "rule": result.facts.rule if by_facts else result.rule,
        "why": result.facts.why if by_facts else None,
        "pair_rule": result.rule, "claim": result.claim, "reader": result.reader.version,
        "quotes": [q.to_dict() for q in result.quotes],
        "models": [{key: model.to_dict()[key] for key in _MODEL["required"]}
                   for model in result.models],
        "log": {"name": read.name, "sha256": read.sha256, "turns": len(read.turns),
                "notes": notes},
    }


# -- verify_reply ---------------------------------------------------------------------------

VERIFY_INPUT = _obj({
    "reply": _text("the model's saved reply: its text, or a whole chat response as JSON "
                   "text"),
    "log": _LOG,
    "claim": _text("the claim the reply answers (needed by readers that pick the log's "
                   "lines by the claim: f2, e1, n1, r1)"),
    "reader": _text("the reader the reply was asked with (default: the server's); a retired "
                    "one may judge a saved reply", enum=sorted(READERS)),
    "max_turns": {"type": "integer", "minimum": 1,
                  "description": "how many of the last turns the model saw"},
    "format": _FORMAT,
}, ["reply", "log"])
VERIFY_OUTPUT = _obj({
    "answer": _ANSWER,
    "code": _text("ok, model_not_shown, or the quote check's rule that refused the quote"),
    "code_text": _text("what the code means"),
    "verdict": _nullable("what the model said, as it said it"),
    "turn": _nullable("the turn it quoted"),
    "quote": _text("what it quoted"), "reason": _text("its reason"),
    "reader": _text("the reader version that judged it"),
    "log": _obj({"name": _text("the log as named"), "notes": _NOTES}, ["name", "notes"],
                "the log read"),
}, ["answer", "code", "code_text", "verdict", "turn", "quote", "reason", "reader", "log"])


def run_verify_reply(arguments, settings):
    read, notes = read_path(arguments["log"], arguments.get("format"), settings.redact)
    verified = verify_reply(arguments["reply"], read.turns, settings,
                            arguments.get("claim", ""), reader=arguments.get("reader"),
                            max_turns=arguments.get("max_turns"))
    return {**verified.to_dict(), "code_text": CODE_TEXT.get(verified.checked.code, ""),
            "log": {"name": read.name, "notes": notes}}


# -- rederive_receipt -----------------------------------------------------------------------

REDERIVE_INPUT = _obj({
    "receipt": _text("path of a receipt (check --save, a hook's receipts folder); read only"),
    "log": _text("path of the log the receipt was made from: it must be that log, read as "
                 "the receipt's was (default: the receipt alone, re-derived from the turns "
                 "it holds)"),
    "format": _FORMAT,
}, ["receipt"])
REDERIVE_OUTPUT = _obj({
    "holds": {"type": "boolean", "description": "true when it re-derives offline, "
                                                "with no difference"},
    "differences": _list({"type": "string"}, "what replay found that differs, one line "
                                             "each (none when it holds)"),
    "receipt": _text("the receipt as named"),
    "log": _nullable("the log as named, when one was given"),
}, ["holds", "differences", "receipt", "log"])


def run_rederive_receipt(arguments, settings):
    path = path_argument(arguments["receipt"], "receipt")
    receipt = read_json(path)
    turns = sha256 = name = None
    if "log" in arguments:  # read as the receipt's log was read: redacted if it was
        read = read_log(path_argument(arguments["log"], "log"), arguments.get("format"),
                        None, receipt_redacted(receipt))
        turns, sha256, name = read.turns, read.sha256, read.name
    differences = replay_receipt(receipt, turns, sha256)
    return {"holds": not differences, "differences": differences,
            "receipt": display_name(path), "log": name}


# -- split_claims ---------------------------------------------------------------------------

SPLIT_INPUT = _obj({"message": _text("the agent's message, as it would say it")},
                   ["message"])
SPLIT_OUTPUT = _obj({
    "claims": _list(_obj({"text": _text("the claim, as the message says it (credentials "
                                        "replaced by [REDACTED])"),
                          "start": {"type": "integer", "description": "where it starts in "
                                                                      "the message, its "
                                                                      "credentials replaced "
                                                                      "by [REDACTED]"},
                          "end": {"type": "integer", "description": "where it ends"}},
                         ["text", "start", "end"]),
                    "the claims of finished work, in order (a plan or a question is none)"),
    "redactions": {"type": "integer", "description": "credentials in the message replaced "
                                                     "by [REDACTED] before it was split"},
}, ["claims", "redactions"])


def run_split_claims(arguments, settings):
    claims, count = split_redacted(arguments["message"], settings.redact)
    return {"claims": [{"text": c.text, "start": c.start, "end": c.end} for c in claims],
            "redactions": count}


TOOLS = {tool.name: tool for tool in (
    Tool("check_claim", "Check a claim against the log",
         "Before you say work is finished, ask whether your own log shows it: one claim "
         "('I pushed the fix to main', 'the tests pass') against a log or session file. "
         "Answers shown, contradicted or not shown, with who decided (the facts plain code "
         "reads of the log, which need no model server, else two local models whose quotes "
         "are checked character for character), the rule that fired and the deciding "
         "quotes. Claim only what is shown.",
         CHECK_INPUT, CHECK_OUTPUT, run_check_claim),
    Tool("verify_reply", "Quote-check a saved reply",
         "The quote check alone, no model server: does a model's saved reply quote a line "
         "the log really holds, and what answer does that leave?",
         VERIFY_INPUT, VERIFY_OUTPUT, run_verify_reply),
    Tool("rederive_receipt", "Re-derive a receipt",
         "Re-derive a saved receipt offline, no model server: every quote, check and answer "
         "it records is derived again from what it pins (and, given the log, it must be "
         "that log). Lists the differences; none when it holds.",
         REDERIVE_INPUT, REDERIVE_OUTPUT, run_rederive_receipt),
    Tool("split_claims", "Split a message into claims",
         "The claims of finished work a message makes, each a span of it (plain code, no "
         "model): check each with check_claim before you send the message.",
         SPLIT_INPUT, SPLIT_OUTPUT, run_split_claims),
)}
