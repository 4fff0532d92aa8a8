"""The readers: what one model is asked about a claim, one versioned unit per version.

A reader is its instructions, how turns are rendered and capped, the JSON shape the model
may answer in, and the version of the quote check its answers are judged by. Change any of
them and it is a new version; its fingerprint (the sha256 of its instructions) goes into
every answer. Every version is a plain constant in the one literal table READERS; the
words of the classic readers are in readers_classic.py, those of the evidence-first ones
in readers_menu.py.
"""

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Callable, Tuple

from ..answers import LOW_CONFIDENCE, NOT_SHOWN, OK, CheckedAnswer
from ..errors import UsageError
from .menu import CURRENT_MENU, MENUS, render_menu_turns
from ..check import evidence
from ..check.quote import CHECKS, CURRENT_CHECK, check_reply
from ..legacy import evidence_c1, evidence_c2
from .classic import (INSTRUCTIONS_V1, INSTRUCTIONS_V2, INSTRUCTIONS_V3,
                              INSTRUCTIONS_V4, INSTRUCTIONS_V5, INSTRUCTIONS_V6, answer_schema,
                              lines_schema, lines_schema_reason_first, messages,
                              messages_v1)
from .menu_words import (INSTRUCTIONS_E1, INSTRUCTIONS_E2, INSTRUCTIONS_N1_FAILURE,
                           INSTRUCTIONS_F1, INSTRUCTIONS_N1_SUCCESS, INSTRUCTIONS_R1,
                           line_first_schema,
                           decide_narrow, line_schema, menu_messages, resolve_line,
                           verdict_line_schema)
from ..check.render import DEFAULT_MAX_TURNS, Shown, render_turns
from ..server.request import build_body


# The words each version of the quote check reads lines by (the sealed ones are frozen).
VOCABULARIES = {"c1": evidence_c1, "c2": evidence_c2, "c3": evidence}


@dataclass(frozen=True)
class Question:
    """One of the questions a reader asks each model (most readers ask one)."""

    name: str
    instructions: str
    schema: Callable  # shown turns -> the reply's JSON schema
    verdict: str  # the verdict a line found by this question stands for


@dataclass(frozen=True)
class Reader:
    """One versioned reader: instructions, rendering, caps, reply shape, check version."""

    version: str
    instructions: str
    build_messages: Callable = messages
    schema: Callable = answer_schema
    cmd_cap: int = 300
    output_cap: int = 1500
    description: str = ""
    check: str = CURRENT_CHECK  # the version of the quote check its answers are judged by
    # A retired reader is kept so its sealed answers replay; no new question uses it.
    retired: str = ""
    menu: bool = False  # evidence first: chosen lines from the whole log, answered by label
    questions: Tuple[Question, ...] = ()  # more than one question per model (n1)
    partner: bool = False  # roles: model B is told model A's checked answer
    logprobs: bool = False  # ask for the verdict's probability where the server gives it
    min_confidence: float = 0.0  # below this probability, an answer becomes not shown
    # How a menu reader picks its lines (menu.py); every answer records it with the check.
    menu_version: str = CURRENT_MENU
    # The check and menu this reader's sealed answers (runs 1 to 4, the demos) were made
    # with: an answers file or receipt that records none was made with these.
    sealed_check: str = "c2"
    sealed_menu: str = "m1"

    def judged_by(self, check=None, menu=None):
        """This reader with the quote check and menu of a recorded answer (None: the ones
        its sealed answers had); an unknown version is a ValueError."""
        check = check or self.sealed_check
        menu = menu or self.sealed_menu
        if check not in CHECKS or menu not in MENUS:
            raise ValueError(f"unknown check {check!r} or menu {menu!r}")
        return dataclasses.replace(self, check=check, menu_version=menu)

    @property
    def versions(self):
        """The versions that judge this reader's answers, as records keep them."""
        return {"check": self.check, "menu": self.menu_version if self.menu else None}

    @property
    def fingerprint(self):
        return hashlib.sha256(self.instructions.encode("utf-8")).hexdigest()

    def render(self, turns, max_turns=DEFAULT_MAX_TURNS, claim=""):
        """The turns as the models see them. A menu reader picks lines from the whole log and
        lists the last `max_turns` commands besides."""
        turns = list(turns)
        if self.menu:
            return Shown(render_menu_turns(claim, turns, max_turns, self.menu_version), claim,
                         turns)
        return Shown(render_turns(turns, max_turns, self.cmd_cap, self.output_cap), claim,
                     turns[-max_turns:])

    def messages(self, claim, shown, partner=None):
        if self.menu:
            return menu_messages(self.instructions, claim, shown, partner)
        return self.build_messages(self, claim, shown)

    def bodies(self, claim, shown, model, extra=None, constrained=True, server=None,
               partner=None):
        """[(question name, request body)] for one model."""
        if self.questions:
            return [(q.name, build_body(menu_messages(q.instructions, claim, shown),
                                        q.schema(shown) if constrained else None, model,
                                        extra, server, self.logprobs))
                    for q in self.questions]
        schema = self.schema(shown) if constrained else None
        return [("answer", build_body(self.messages(claim, shown, partner if self.partner
                                                    else None),
                                      schema, model, extra, server, self.logprobs))]

    def schemas(self, shown):
        """The reply schema of each question, by name."""
        if self.questions:
            return {q.name: q.schema(shown) for q in self.questions}
        return {"answer": self.schema(shown)}

    def check_reply(self, reply_text, shown):
        """The quote check this reader's answers are judged by (one reply, one question)."""
        if self.menu:
            reply_text = resolve_line(reply_text, shown)
        return check_reply(reply_text, shown, self.check, VOCABULARIES[self.check])

    def judge(self, replies, shown, confidence=None):
        """The checked answer from this model's replies ({question name: raw text}), and the
        verdict's probability when known (None: the server gave none)."""
        if self.questions:
            found = {q.name: self.check_reply(resolve_line(replies.get(q.name), shown,
                                                           q.verdict), shown)
                     for q in self.questions}
            return decide_narrow(found["success"], found["failure"], shown)
        checked = self.check_reply(replies.get("answer"), shown)
        if (self.min_confidence and confidence is not None and checked.code == OK
                and confidence < self.min_confidence):
            return CheckedAnswer(checked.verdict, checked.turn, checked.quote, checked.reason,
                                 NOT_SHOWN, LOW_CONFIDENCE, checked.line)
        return checked


def pack_replies(replies):
    """The stored reply text: the one reply as it came, or several as one JSON object."""
    if set(replies) == {"answer"}:
        return replies["answer"]
    return json.dumps(replies, ensure_ascii=False, sort_keys=True)


def unpack_replies(reader, text):
    """{question name: raw reply} from a stored reply text (None where it cannot be read)."""
    if not reader.questions:
        return {"answer": text}
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        value = None
    value = value if isinstance(value, dict) else {}
    return {q.name: value.get(q.name) if isinstance(value.get(q.name), str) else None
            for q in reader.questions}


_RETIRED = ("its request fences could be forged from inside a log, and its quote check "
            "judged a quote without its line; kept to replay sealed runs")
_V1_ERA = dict(build_messages=messages_v1, check="c1", sealed_check="c1", retired=_RETIRED)

# Every reader version, once. A version is never replaced: a change is a new version.
READERS = {
    "v1": Reader("v1", INSTRUCTIONS_V1, **_V1_ERA,
                 description="one question, free quote, JSON shape constrained"),
    "v2": Reader("v2", INSTRUCTIONS_V2, schema=lines_schema, **_V1_ERA,
                 description="constrained quote: a cited turn comes with one of its own "
                             "output lines"),
    "v3": Reader("v3", INSTRUCTIONS_V3, schema=lines_schema_reason_first, **_V1_ERA,
                 description="look first: constrained quote, answers' meanings spelled out, "
                             "reason first"),
    "v4": Reader("v4", INSTRUCTIONS_V4, **_V1_ERA,
                 description="worked examples: v3's meanings, free quote, three short "
                             "examples"),
    "v5": Reader("v5", INSTRUCTIONS_V5, schema=lines_schema, **_V1_ERA,
                 description="meanings, constrained: v2's constrained quote with v3's "
                             "instructions"),
    "v6": Reader("v6", INSTRUCTIONS_V6,
                 description="v1 hardened: v1's question with fences a log cannot forge, the "
                             "claim on one line, and the line-judging quote check"),
    "e1": Reader("e1", INSTRUCTIONS_E1, schema=verdict_line_schema, menu=True, logprobs=True,
                 description="evidence first: lines picked from the whole log by plain code, "
                             "answered by label"),
    "e2": Reader("e2", INSTRUCTIONS_E2, schema=line_first_schema, menu=True, logprobs=True,
                 description="line first: e1's menu, the reply names the deciding line before "
                             "the verdict"),
    "n1": Reader("n1", INSTRUCTIONS_N1_SUCCESS + "\n\n" + INSTRUCTIONS_N1_FAILURE, menu=True,
                 questions=(Question("success", INSTRUCTIONS_N1_SUCCESS, line_schema, "shown"),
                            Question("failure", INSTRUCTIONS_N1_FAILURE, line_schema,
                                     "contradicted")),
                 description="narrow questions: which line shows success, which shows failure "
                             "or undoing; the later decides"),
    "r1": Reader("r1", INSTRUCTIONS_R1, schema=verdict_line_schema, menu=True, logprobs=True,
                 partner=True,
                 description="roles: e1, and model B is told model A's answer and line to "
                             "check, and looks for a later failure"),
}
READERS["f1"] = Reader("f1", INSTRUCTIONS_F1, schema=verdict_line_schema, menu=True,
                       logprobs=True, menu_version="m3", sealed_check="c3",
                       sealed_menu="m3",
                       description="facts: lines and the facts plain code read of each turn "
                                   "(operation, later runs, exit status, test counts, pushed "
                                   "refs); A and B asked the same question apart")
READER_V1 = READERS["v1"]
# The default is the winner of the latest sealed choice (receipts/run-3-structure/choice.json:
# r1). Run 2 had sealed v1 (receipts/run-2-readers/choice.json); v1 is retired and v6, its
# question with the hardened fences and check, stood in for it until run 3.
DEFAULT_READER = "r1"
SEALED_DEFAULT = {"v1": "v6", "r1": "r1"}
ENV_READER = "RECEIPT_PAIR_READER"  # a user's own default, read by the command line only


def get_reader(version=None, replay=False):
    """The reader of `version` (the default reader when None). A retired reader is given
    only to replay what it answered, never to ask a new question."""
    version = version or DEFAULT_READER
    if version not in READERS:
        raise UsageError(f"unknown reader {version!r}; known: {', '.join(sorted(READERS))}")
    reader = READERS[version]
    if reader.retired and not replay:
        raise UsageError(f"reader {version} is retired ({reader.retired}); use one of "
                         f"{', '.join(usable_readers())}")
    return reader


def usable_readers():
    """The versions a new question may use."""
    return [v for v, r in READERS.items() if not r.retired]
