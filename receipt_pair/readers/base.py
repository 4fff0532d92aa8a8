"""What every reader is: a versioned question, judged by a versioned quote check.

A reader is its instructions, how turns are rendered and capped, the JSON shape the model
may answer in, and the versions of the quote check (and menu) its answers are judged by.
Change any of them and it is a new version; its fingerprint (the sha256 of its
instructions) goes into every answer. The kinds of reader are subclasses, one module each:
classic.py (the last turns, a copied quote), labelled.py (a menu of lines answered by
label, with roles or facts), narrow.py (two narrow questions per model).
"""

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Callable, Optional

from ..answers import LOW_CONFIDENCE, NOT_SHOWN, OK, CheckedAnswer
from ..check.quote import CHECKS, CURRENT_CHECK, check_reply
from ..check.render import DEFAULT_MAX_TURNS
from .menu import CURRENT_MENU, MENUS
from .vocabulary import vocabulary


@dataclass(frozen=True)
class Reader:
    """One versioned reader that asks each model one question."""

    version: str
    instructions: str
    schema: Optional[Callable] = None  # shown turns -> the reply's JSON schema
    description: str = ""
    check: str = CURRENT_CHECK  # the version of the quote check its answers are judged by
    # A retired reader is kept so its sealed answers replay; no new question uses it.
    retired: str = ""
    logprobs: bool = False  # ask for the verdict's probability where the server gives it
    min_confidence: float = 0.0  # below this probability, an answer becomes not shown
    menu: bool = False  # evidence first: lines picked from the whole log, answered by label
    menu_version: str = CURRENT_MENU  # how a menu reader picks its lines (menu.py)
    partner: bool = False  # roles: model B is told model A's checked answer
    # The check and menu this reader's sealed answers (runs 1 to 4, the demos) were made
    # with: an answers file or receipt that records none was made with these.
    sealed_check: str = "c2"
    sealed_menu: str = "m1"

    questions = ()  # the questions of a reader that asks more than one (narrow.py)

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

    def render(self, turns, max_turns=DEFAULT_MAX_TURNS, claim="", menu_claims=None):
        """The turns as the models see them (a render.Shown)."""
        raise NotImplementedError

    def messages(self, claim, shown, partner=None):
        raise NotImplementedError

    def bodies(self, claim, shown, model, extra=None, constrained=True, server=None,
               partner=None):
        """[(question name, request body)] for one model."""
        from ..server.request import build_body  # only a question asked needs it (the hook)
        schema = self.schema(shown) if constrained else None
        return [("answer", build_body(self.messages(claim, shown, partner), schema, model,
                                      extra, server, self.logprobs))]

    def schemas(self, shown):
        """The reply schema of each question, by name."""
        return {"answer": self.schema(shown)}

    def check_reply(self, reply_text, shown):
        """The quote check this reader's answers are judged by (one reply, one question)."""
        return check_reply(reply_text, shown, self.check, vocabulary(self.check))

    def judge(self, replies, shown, confidence=None):
        """The checked answer from this model's replies ({question name: raw text}), and the
        verdict's probability when known (None: the server gave none)."""
        checked = self.check_reply(replies.get("answer"), shown)
        if (self.min_confidence and confidence is not None and checked.code == OK
                and confidence < self.min_confidence):
            return CheckedAnswer(checked.verdict, checked.turn, checked.quote, checked.reason,
                                 NOT_SHOWN, LOW_CONFIDENCE, checked.line)
        return checked
