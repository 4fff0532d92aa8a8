"""Evidence-first readers (e1, e2, r1, f1): plain code picks the lines that may decide from
the whole log (menu.py), and the model answers with a line's label, never a copy. A label
is turned back into its turn and line, and the quote check judges that line exactly as it
judges a copied quote: a menu only takes away the chance to invent or misquote.

- r1 (`partner`): model B is told model A's checked answer and label;
- f1 (menu m3): each turn also carries the facts plain code read of it (facts.py).
"""

from dataclasses import dataclass
from typing import Callable

from ..check.render import DEFAULT_MAX_TURNS, Shown
from .base import Reader
from .menu import render_menu_turns
from .menu_words import menu_messages, resolve_line, verdict_line_schema


@dataclass(frozen=True)
class LabelledReader(Reader):
    """One question over a menu of labelled lines."""

    schema: Callable = verdict_line_schema
    menu: bool = True
    log_first: bool = False  # the log before the claim (f2: a stop's claims share a prefix)

    def render(self, turns, max_turns=DEFAULT_MAX_TURNS, claim="", menu_claims=None):
        """Lines picked from the whole log, and the last `max_turns` commands besides. The
        lines are picked for the claim, or, when the claims of one stop are asked about
        together, for all of them (`menu_claims`): then every claim is shown the same log."""
        turns = list(turns)
        picked_for = " ".join(menu_claims) if menu_claims else claim
        return Shown(render_menu_turns(picked_for, turns, max_turns, self.menu_version), claim,
                     turns, menu_claims)

    def messages(self, claim, shown, partner=None):
        return menu_messages(self.instructions, claim, shown,
                             partner if self.partner else None, self.log_first)

    def check_reply(self, reply_text, shown):
        return super().check_reply(resolve_line(reply_text, shown), shown)
