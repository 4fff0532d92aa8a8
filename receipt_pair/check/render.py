"""What a model sees of a log: the last turns, made readable, capped and numbered T1..Tn.

The rendering is part of a reader version: the caps, the cut marker and the fences change
what a model is asked, so a change here is a new reader version.
"""

import re
import unicodedata
from dataclasses import dataclass
from typing import Optional, Tuple

from . import terminal
from ..patterns import lazy

DEFAULT_MAX_TURNS = 6


@dataclass(frozen=True)
class ShownTurn:
    """A turn as the model sees it, with what the quote check needs to judge a quote."""

    id: str  # "T1", "T2", ... in the order the model sees them
    cmd: str  # rendered and capped
    output: str  # rendered and capped, cut markers included
    output_parts: Tuple[str, ...]  # the output between cut markers: a quote may not cross one
    raw_output: str  # the output as logged, for the terminal-overwrite rule
    exit_status: Optional[int] = None
    # The whole output made readable, uncut (with its exit status line), and where each
    # part starts in it: a quote is judged with the whole line it sits in, wherever the cut.
    readable: str = ""
    part_starts: Tuple[int, ...] = (0,)
    finished: bool = True  # False: the command still ran when the log was written
    index: int = -1  # where the turn stands among the turns the reader read (-1: unknown)
    facts: str = ""  # what plain code read of the turn for sure (facts.py), for menu m3


class Shown(list):
    """The turns a model was shown (ShownTurns, in order), with what they were read from:
    the claim and every turn the reader read, for the rules that look past the cited turn
    (the latest attempt decides)."""

    def __init__(self, shown=(), claim="", turns=None, menu_claims=None):
        super().__init__(shown)
        self.claim = claim
        self.turns = tuple(turns) if turns is not None else None
        # The claims a menu's lines were picked for, when they are a stop's claims and not
        # this claim alone (a receipt keeps them, so the menu re-derives).
        self.menu_claims = list(menu_claims) if menu_claims else None


def cut_middle(text, cap):
    """Cut `text` to about `cap` characters in the middle, at line breaks.

    Returns (rendered text, parts): the head and the tail joined by a visible marker that
    says how much was left out, and the pieces on either side of it.
    """
    if len(text) <= cap:
        return text, (text,)
    half = cap // 2
    lines = text.splitlines(keepends=True)
    head, size = [], 0
    for line in lines:
        if size + len(line) > half:
            break
        head.append(line)
        size += len(line)
    tail, size = [], 0
    for line in reversed(lines[len(head):]):
        if size + len(line) > half:
            break
        tail.insert(0, line)
        size += len(line)
    head_text = "".join(head) if head else text[:half]
    tail_text = "".join(tail) if tail else text[-half:]
    left_out = text[len(head_text):len(text) - len(tail_text)]
    marker = (f"[... {len(left_out):,} characters ({left_out.count(chr(10)):,} line breaks) "
              "left out here ...]")
    head_part = head_text[:-1] if head_text.endswith("\n") else head_text
    return head_part + "\n" + marker + "\n" + tail_text, (head_part, tail_text)


def exit_status_line(status):
    """The line a non-zero recorded exit status adds to the output the models see.

    A zero status adds nothing: it must never be the quote that makes a claim `shown`.
    """
    return f"[exit status {status}]"


UNFINISHED_LINE = "[still running when the log was written]"


def status_lines(turn):
    """The lines the log's own record of how a turn ended adds after its output: a non-zero
    exit status, or that the command had not finished."""
    lines = []
    if turn.exit_status:
        lines.append(exit_status_line(turn.exit_status))
    if not turn.finished:
        lines.append(UNFINISHED_LINE)
    return "\n".join(lines)


def show_invisible(text):
    """Characters a terminal draws as nothing (zero-width, bidi controls) made visible."""
    if text.isascii():
        return text
    return "".join(f"<U+{ord(c):04X}>" if _invisible(c) else c for c in text)


_SHOWN_INVISIBLE = lazy(r"<U\+([0-9A-F]{4,6})>")


def unshow_invisible(text):
    """The characters `show_invisible` marked, put back, for patterns that read them (a
    right-to-left override reorders the letters after it)."""
    def back(match):
        code = int(match.group(1), 16)
        return chr(code) if code <= 0x10FFFF and _invisible(chr(code)) else match.group(0)

    return _SHOWN_INVISIBLE.sub(back, text)


def _invisible(ch):
    return not ch.isascii() and (unicodedata.category(ch) == "Cf" or ch in "\u3164\u115f\u1160")


def readable(text):
    """Text as the models see it before any cut: control sequences and invisibles shown."""
    return show_invisible(terminal.make_readable(text))


def render_turns(turns, max_turns=DEFAULT_MAX_TURNS, cmd_cap=300, output_cap=1500):
    """The last `max_turns` turns as the models see them, numbered T1..Tn."""
    if max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    shown = []
    for number, turn in enumerate(turns[-max_turns:], 1):
        cmd, _ = cut_middle(readable(turn.cmd), cmd_cap)
        full = readable(turn.output)
        output, parts = cut_middle(full, output_cap)
        line = status_lines(turn)
        if line:
            glue = "" if not output or output.endswith("\n") else "\n"
            output = output + glue + line
            parts = parts[:-1] + (parts[-1] + glue + line,)
            full = full + ("" if not full or full.endswith("\n") else "\n") + line
        starts = (0,) if len(parts) == 1 else (0, len(full) - len(parts[-1]))
        shown.append(ShownTurn(id=f"T{number}", cmd=cmd, output=output, output_parts=parts,
                               raw_output=turn.output, exit_status=turn.exit_status,
                               readable=full, part_starts=starts, finished=turn.finished,
                               index=number - 1))
    return shown


# Anything in a log (or a claim) that reads as one of the request's own fences.
FENCE_LIKE = lazy(r"<(?=\s*/?\s*(?:turn|output|command|claim|log)\b)", re.I)
FENCE_ESCAPE = "\u2039"  # "‹": the same shape to a reader, never a fence to the parser


def unfence(text):
    """`text` with every fence-like "<" turned into "‹", so a log cannot close its turn."""
    return FENCE_LIKE.sub(FENCE_ESCAPE, text)


def render_log(shown):
    """The turns as one block of text, each command and output fenced by tags that nothing
    inside a log can forge: every fence-like "<" inside the turns is shown as "‹"."""
    blocks = []
    for turn in shown:
        blocks.append(
            f'<turn id="{turn.id}">\n<command>\n{unfence(turn.cmd)}\n</command>\n'
            f"<output>\n{unfence(turn.output).rstrip(chr(10))}\n</output>\n</turn>"
        )
    return "\n".join(blocks)


def output_lines(turn):
    """The distinct non-empty lines of a turn's output as the model saw it, stripped."""
    lines = []
    for part in turn.output_parts:
        for line in part.splitlines():
            line = line.strip()
            if line and line not in lines:
                lines.append(line)
    return lines


def longest_line(shown):
    """The longest output line the model saw (at least 1): no quote can be longer."""
    return max([len(line) for t in shown for part in t.output_parts
                for line in part.splitlines()] + [1])
