"""Claims from what the agent said: the spans of its final message that claim finished work.

    from receipt_pair.claims import split_claims
    for claim in split_claims("Pushed fix/parser; the suite is green. Want me to tag it?"):
        claim.start, claim.end, claim.text   # 0, 17, "Pushed fix/parser" ...

Plain code, no model, one pass over the message's lines. Each line is a row of some kind
(a sentence, a list item, a ticked line, a "label: value" line, a table row; code fences,
quotes and headings are not read), and rows are read in two ways:

- by their words: cut into sentences and clauses, each piece sorted by the words it uses.
  A claim says an operation was done ("I pushed", "Deployed to staging", "the fix was
  merged") or a check came out well ("the tests pass", "42 passed", "`./run.sh` exits 0",
  "lint: clean"). Questions, plans ("next I will"), hedges ("should work"), admissions
  ("the build still fails") and instructions to the reader are not claims; anything else
  (a description of code, "`parse()` now returns None") is neither, and is kept with the
  piece beside it rather than checked on its own.
- by where they stand: a row under a heading or a lead line that reports done work
  ("## Changes made", "Here's what I did:", "**Files created**: 3"), a row with a tick
  ("✅ Footer simplified") and a row of a before/after table is a claim as a whole, even
  when its words alone ("`api.py` (40 lines)") would not say so; under a heading of next
  steps or instructions no item is a claim, and under a lead that says what something
  contains ("The guide includes:") only the words count.

A short status ("Fixed.", "Deployed.", "Types check.") is read with the sentence it leans
on (claim_status.py), a table row as a statement of its cells (claim_tables.py).

Every claim stands on a span of the message, `claim.start` to `claim.end`, and its `text` is
what is checked. A claim that needs nothing beside it has no `context` and its text is its
span: `message[claim.start:claim.end] == claim.text`. A short status spans its own words
and carries the sentence it leans on as `context`; its text runs from one to the other as
written ("Added a lock around the charge path. Fixed"). A table row spans the row between
its outer pipes and carries its header row as `context`; its text is the row read ("Tests:
52 passing"). A claim that names no result, followed by the failure it admits, carries
those words as `context` and its text runs to their end ("ran the tests. One still fails";
claim_admits.py). Spans are in order and apart, so eval/claims-5's measure.py matches them as
before. Nothing here prints, and nothing is guessed from outside the message. The time
taken grows with the message's length, never faster.
"""

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .claim_admits import admitted
from .claim_status import lean, status_of
from .claim_text import (after_marks, ends_with, last_sentence, last_span, mask_code,
                         sentence_spans, tick_before, trim)
from .claim_tables import read_row, table_head
from .claim_words import (CARRIED, CLAIM, CONTENT, CROSSES, DETAIL, DONE, HOWTO, MARK_CHARS,
                          NEGATIVE, NEUTRAL, REMOVED, TICKS, classify, context_of, not_a_result,
                          plain)
from ..patterns import lazy

__all__ = ["CLAIM", "NEGATIVE", "NEUTRAL", "Claim", "classify", "given_claims", "is_claim",
           "split_claims", "split_redacted"]


# -- the shape of lines ---------------------------------------------------------------------

_FENCE = lazy(r"^\s*(?:```|~~~)")
_HEADING = lazy(r"^\s{0,3}(#{1,6})\s+")
_RULE_LINE = lazy(r"^\s*(?:[-*_]\s*){3,}$")
_QUOTE = lazy(r"^\s*>")
_TABLE = lazy(r"^\s*\|")
_TABLE_RULE = lazy(r"^\s*\|?[\s:|-]*-{2,}[\s:|-]*$")
_ITEM = lazy(r"([ \t]*)(?:[-*+•]|\d{1,3}[.)])[ \t]+")
_BOX = lazy(r"\[([ xX])\][ \t]+")
_LABEL = lazy(r"[*_]*(?:done|status|summary|result|results|update|completed|finished|"
                    r"changes|thought)[*_]*\s*[:—–-]\s*[*_]*\s*", re.I)
# A mark right after a row's label: "**Status:** ✅ Pushed", "Deploy: ❌ timed out".
_LABEL_TICK = lazy(r"[^:\n]{0,40}:[\s*_]*[✅✔☑✓]")
_LABEL_CROSS = lazy(r"[^:\n]{0,40}:[\s*_]*[❌✗✘🚫⛔⏳⌛⚠]")
_WHOLE_BOLD = lazy(r"\*\*([^*]+)\*\*[\s:]*$")
_BOLD_START = lazy(r"\*\*[^*]+\*\*")
# Where a clause may end: a semicolon, a dash between spaces, and ", and"/" but"/" then".
_CLAUSE_END = lazy(r"\s*;\s*|\s+[—–-]\s+|,?\s+(?:and|but|then|so)\s+(?:then\s+)?"
                         r"|,\s+(?=\S)", re.I)
# Pieces are joined into one claim up to this length; past it they stay apart, so that a
# sentence of thousands of clauses is still split in time that grows with its length.
_MAX_JOIN = 2000


@dataclass(frozen=True)
class Claim:
    """One claim: its text and, when it came from a message, where it sits in it."""

    text: str
    start: Optional[int] = None
    end: Optional[int] = None
    source: str = "rules"  # "rules" (this module), "model" (claims_model) or "given"
    # What the claim leans on, where its own span cannot be checked alone: the sentence a
    # short status leans on, the header row a table row is read with. None: text is the span.
    context: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        return {"text": self.text, "start": self.start, "end": self.end, "source": self.source,
                "context": self.context}


def split_claims(message: str) -> List[Claim]:
    """The claims of finished work in `message`, in order: each stands on a span of it, and
    its text is what is checked (the span itself, unless it leans on a context)."""
    if not isinstance(message, str):
        raise TypeError("the message must be a string")
    masked = mask_code(message)
    rows = admitted(message, masked, list(_rows(message, masked)))
    return [Claim(message[start:end] if text is None else text, start, end, context=context)
            for start, end, text, context in rows]


def split_redacted(message, redact=True):
    """(the claims of `message`, how many credentials were replaced): the message with its
    credentials replaced by [REDACTED] first, as every text that enters the tool is (the
    hook splits the final message so), then split. The claims' spans are positions in that
    redacted message, not in the one given. `redact` False splits the message as it is."""
    if redact and isinstance(message, str):
        from ..logs.redact import redact as redact_text

        message, count = redact_text(message)
        return split_claims(message), count
    return split_claims(message), 0


def is_claim(text):
    return classify(text) == CLAIM


def given_claims(text):
    """Claims given by hand: one per non-empty line of `text` (no span in any message)."""
    return [Claim(line.strip(), source="given") for line in text.splitlines() if line.strip()]


# -- rows and where they stand --------------------------------------------------------------

def _rows(message, masked):
    """The claim spans of the message's rows, line by line, in order."""
    headings = []  # (level, what the heading says of the rows under it)
    lead = None    # the same, said by the last lead line under the current heading
    items = []     # (indent, what the item says of its sub-items) of the open list items
    table = None   # the Table being read (claim_tables.py)
    before = None  # the last sentence of the prose line before, in the same paragraph
    in_fence, first = False, True
    gap = listed = False  # a blank line since the last row; the last row a list item
    position = 0
    for line in message.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        end = start + len(line.rstrip("\r"))
        text = masked[start:end]
        leaning_on, before = before, None
        if _FENCE.match(text):
            in_fence = not in_fence
            continue
        if in_fence:
            # A ticked line in a fence is a report boxed for show ("✅ Pushed to GitHub").
            body = after_marks(masked, start + len(text) - len(text.lstrip()), end)
            if tick_before(masked, start, body):
                yield from _read_row(message, masked, (body, end), True)
            continue
        if not text.strip() or _RULE_LINE.match(text):
            if not text.strip():
                table, gap = None, True
            continue
        # A paragraph after a list ends the lead into that list ("I should check:",
        # "Proposed push:"): what follows stands under the heading again.
        after_list, gap, listed = gap and listed, False, False
        is_title, first = first, False
        section = headings[-1][1] if headings else None
        here = lead if lead is not None else section

        heading = _HEADING.match(text)
        if heading:
            level = len(heading.group(1))
            while headings and headings[-1][0] >= level:
                headings.pop()
            own = context_of(text[heading.end():], markdown=True)
            items, table = [], None
            if is_title:
                # The message's title ("# Phase 1 Complete!") speaks for the rows right
                # under it, not for the sections that follow, which name their own.
                headings.append((level, None))
                lead = own
                continue
            headings.append((level, _under(own, headings[-1][1] if headings else None)))
            lead = None
            continue
        if _QUOTE.match(text):
            continue
        if _TABLE.match(text):
            if table is None:  # the header row
                table = table_head(message, masked, start, end, here)
            elif not _TABLE_RULE.match(text):
                for row_start, row_end, read, head in read_row(message, masked, start, end,
                                                               table):
                    row_start, row_end = trim(message, row_start, row_end)
                    if row_end > row_start:
                        yield row_start, row_end, read, head
            continue
        table = None

        item = _ITEM.match(masked, start, end)
        if after_list and not item:
            lead, here = None, section
        indent = len(item.group(1)) if item else len(text) - len(text.lstrip())
        body = item.end() if item else start + indent
        box = _BOX.match(masked, body, end)
        if box:
            if box.group(1) == " ":  # an open box is work not done
                continue
            body = box.end()
        marked = after_marks(masked, body, end)
        tick = tick_before(masked, body, marked) or _LABEL_TICK.match(masked, marked, end) \
            or ends_with(masked, marked, end, TICKS)
        cross = any(ch in CROSSES for ch in masked[body:marked]) \
            or _LABEL_CROSS.match(masked, marked, end) or ends_with(masked, marked, end, CROSSES)
        label = _LABEL.match(masked, marked, end)
        body = label.end() if label else marked

        if item:
            listed = True
            while items and items[-1][0] >= indent:
                items.pop()
            place = items[-1][1] if items else here
            if cross and place != REMOVED:
                # a cross marks a failure, except under a heading of removals
                items.append((indent, DETAIL))
                continue
            # An item that ends with ":" leads its sub-items; only its words can claim.
            ends_lead = masked[start:end].rstrip(" *_\t").endswith(":")
            whole = _whole_by_place(place, tick)
            found = _read_row(message, masked, (body, end), whole and not ends_lead)
            yield from found
            if ends_lead:
                own = context_of(masked[marked:end]) or (DONE if found else None)
            else:
                own = DETAIL
            items.append((indent, _under(own, place)))
            continue

        # A line that is not an item: a sentence, a bold line, a "label: value" line.
        items = [] if indent == 0 else items
        if cross:
            continue
        bold = _WHOLE_BOLD.match(masked[marked:end].rstrip(MARK_CHARS + " "))
        if bold and _is_bold_heading(bold.group(1), is_title):
            # A bold line that is not a sentence is a heading of the rows under it; a tick
            # on it claims that one thing, and the rows under it are its details.
            own = context_of(bold.group(1))
            if own is None and tick:
                own = DETAIL
            lead = _under(own, here)
            continue
        whole = bool(tick) and here not in (CONTENT, HOWTO)
        yield from _read_row(message, masked, (body, end), whole, leaning_on, here != HOWTO)
        before = last_span(message, masked, body, end)
        if masked[start:end].rstrip(" *_\t").endswith(":") \
                or _BOLD_START.match(masked, marked, end):
            # The sentence that leads in speaks for the list ("... Here's what the app
            # includes:"); when it says nothing, the line's other sentences do ("I've
            # implemented the feature. Here's a breakdown:").
            own = context_of(last_sentence(masked, marked, end))
            if own is None:
                own = context_of(masked[marked:end])
            lead = _under(own, here)
        else:
            lead = None


def _under(own, place):
    """What a heading, lead or item standing in `place` says of the rows under it: its own
    word, except that the parts of a thing described, or of the steps ahead, stay so."""
    return place if own is None or place in (CONTENT, HOWTO) else own


def _whole_by_place(place, tick):
    """Whether an item is a claim as a whole where it stands (None: not even its words)."""
    if place == HOWTO:
        return None
    if place in (DONE, REMOVED):
        return True
    return bool(tick) and place != CONTENT


def _is_bold_heading(text, is_title):
    """A bold line is a heading when it opens the message, ends with ":" or is written in
    Title Case ("**Project Structure**"); otherwise it is a sentence set in bold."""
    text = text.strip()
    if is_title or text.endswith(":"):
        return True
    words = [w for w in re.findall(r"[^\W\d_][\w'-]*", text) if len(w) > 3]
    return not any(w[0].islower() for w in words)


# -- reading a row ----------------------------------------------------------------------------

def _read_row(message, masked, row, whole, before=None, statuses=True):
    """A row's claims, as (start, end, text, context): those its words make, a short status
    with the sentence it leans on (claim_status.py; `before`, the last sentence of the prose
    line before it), or, where its place makes it a claim as a whole (`whole` True) and its
    words make none, the row itself. `whole` None: nothing. `row`: its (start, end)."""
    if whole is None:
        return []
    start, end = row
    sentences = list(sentence_spans(masked, start, end))
    spans = [trim(message, s_start, s_end) for s_start, s_end in sentences]
    found = []
    for index, (s_start, s_end) in enumerate(sentences):
        kind = status_of(message[s_start:s_end]) if statuses else None
        if kind:
            leaning = lean(message, spans, index, kind, before)
            found.extend([leaning] if leaning else [])
        else:
            found.extend((c_start, c_end, None, None)
                         for c_start, c_end in _clauses(message, masked, s_start, s_end))
    return found or (_whole_row(message, start, end) if whole else [])


def _whole_row(message, start, end):
    """The row as one claim, unless what it says is no result wherever it stands."""
    start, end = trim(message, start, end)
    return [] if not_a_result(message[start:end]) else [(start, end, None, None)]


def _clauses(message, masked, start, end):
    """The claim spans of one sentence: cut between two pieces that each stand alone."""
    pieces, joints, cut = [], [], start
    for match in _CLAUSE_END.finditer(masked, start, end):
        pieces.append((cut, match.start()))
        joints.append(match.group().strip(" ,").lower())
        cut = match.end()
    pieces.append((cut, end))
    kinds = []
    for (a, b), joint in zip(pieces, [None] + joints):
        kind = classify(message[a:b])
        if kinds and joint in ("", "and") and CARRIED.match(plain(message[a:b])):
            # A verb without its own subject shares the one before it, and what was said
            # of it: "Updated `jjwt`, and modularized its dependencies" is a second report,
            # "can be referenced and attached as reactions" a second ability.
            if kinds[-1] == CLAIM and kind == NEUTRAL:
                kind = CLAIM
            elif kinds[-1] == NEGATIVE and kind == CLAIM:
                kind = NEGATIVE
        kinds.append(kind)
    # Each piece is read once, and a joined span again at most once (when a claim joins a
    # piece before it, or at the end), so the time grows with the sentence's length.
    kept = []
    current, here = None, None
    for piece, there in zip(pieces, kinds):
        if current is None:
            current, here = piece, there
            continue
        joined = (current[0], piece[1])
        if here != NEUTRAL and there != NEUTRAL or joined[1] - joined[0] > _MAX_JOIN:
            kept.append((current, here))
            current, here = piece, there
        elif here == CLAIM:  # what follows a claim and says nothing alone belongs to it
            current = joined
        elif there == CLAIM:
            # A claim keeps a piece before it only if together they still read as a claim,
            # or if it is a participle that carries on that piece as its subject ("The
            # resulting code, saved in `a.scala`").
            if classify(message[joined[0]:joined[1]]) == CLAIM \
                    or CARRIED.match(plain(message[piece[0]:piece[1]])):
                current, here = joined, CLAIM
            else:
                kept.append((current, here))
                current, here = piece, there
        else:  # pieces that say nothing alone belong together ("is recreated and ready")
            current, here = joined, NEGATIVE if NEGATIVE in (here, there) else NEUTRAL
    kept.append((current, here))
    for (c_start, c_end), kind in kept:
        if kind == NEUTRAL:
            kind = classify(message[c_start:c_end])
        if kind != CLAIM:
            continue
        c_start, c_end = trim(message, c_start, c_end)
        if c_end > c_start:
            yield c_start, c_end
