"""Terminal control sequences: made readable for the models, replayed for the hiding rule.

A log captured from a terminal carries colours, carriage returns, cursor movement, saved
and restored cursors, erasing, an alternate screen, concealed text and strings a terminal
never draws. The models must see every character that was printed (an overwritten
"ERROR" is still evidence), so `make_readable` keeps all text and marks every sequence that
moves, hides or swallows text. `screen.py` replays the same sequences to find what a person
watching the terminal would no longer see.

8-bit controls (U+0080-U+009F: CSI, RI, NEL, DCS, OSC...) are read as their ESC forms, so
they hide nothing a 7-bit sequence could not. Cursor numbers are capped, so a sequence
may move the cursor far but never costs memory.
"""

import re
from ..patterns import lazy

CR_MARK = "<CR>"
BS_MARK = "<BS>"

# Numbers in a sequence are capped: a cursor may move far, but never costs memory or time.
MAX_PARAM = 100_000

_LINE_ENDS = lazy(r"\r+\n")
_C1 = lazy("[\x80-\x9f]")
# One escape sequence, whichever kind: CSI, a string (OSC, DCS, SOS, PM, APC) up to its
# terminator, a charset designation, or a two-byte escape.
SEQUENCE = lazy(
    r"\x1b\[(?P<params>[0-?]*)(?P<inter>[ -/]*)(?P<final>[@-~])"
    r"|\x1b(?P<string>[\]PX^_])(?P<body>.*?)(?:\x07|\x1b\\|\Z)"
    r"|\x1b[()*+\-./][ -~]"
    r"|\x1b(?P<esc>[ -~])"
    r"|\x1b",
    re.S,
)
# C0 controls other than tab, newline, carriage return, backspace, VT, FF and ESC; and DEL.
OTHER_CONTROLS = lazy(r"[\x00-\x07\x0e-\x1a\x1c-\x1f\x7f]")
# Two-byte escapes that leave text and cursor alone (keypad modes, charset shifts).
HARMLESS_ESC = set("=><NO")
# SGR colour codes: a foreground drawn in the background's colour is concealed text.
_STRINGS = {"]": "OSC", "P": "DCS", "X": "SOS", "^": "PM", "_": "APC"}


def _c1_as_esc(text):
    return _C1.sub(lambda m: "\x1b" + chr(ord(m.group(0)) - 0x40), text)


def prepare(raw):
    """Line endings to \\n, 8-bit controls to their ESC forms."""
    return _c1_as_esc(_LINE_ENDS.sub("\n", raw))


def numbers(params):
    """The numbers of a CSI parameter string, capped; empty fields are None."""
    out = []
    for field in params.replace(":", ";").split(";"):
        digits = field.lstrip("?>=<")
        if digits.isdigit():
            out.append(min(int(digits[:7]), MAX_PARAM))
        else:
            out.append(None)
    return out


# xterm's sixteen colours, as RGB.
_BASIC = ((0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
          (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
          (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255))
# Two colours this close (in every channel) are one colour to a person reading them.
SAME_COLOUR = 24


def _indexed(n):
    """An xterm 256-colour index as RGB."""
    n = max(0, min(255, n))
    if n < 16:
        return _BASIC[n]
    if n < 232:
        n -= 16
        steps = (0, 95, 135, 175, 215, 255)
        return steps[n // 36], steps[n // 6 % 6], steps[n % 6]
    grey = 8 + 10 * (n - 232)
    return grey, grey, grey


def _colour(codes, i):
    """(RGB colour or None, next index) for an SGR colour starting at codes[i] (the 38/48
    forms included): written as a basic, a 256-colour or a 24-bit colour, it is compared as
    what it looks like."""
    code = codes[i]
    if code in (38, 48) and i + 1 < len(codes):
        if codes[i + 1] == 5 and i + 2 < len(codes):
            return _indexed(codes[i + 2]), i + 3
        if codes[i + 1] == 2 and i + 4 < len(codes):
            return tuple(max(0, min(255, c)) for c in codes[i + 2:i + 5]), i + 5
        return None, len(codes)
    if 30 <= code <= 37 or 40 <= code <= 47:
        return _BASIC[code % 10], i + 1
    if 90 <= code <= 97 or 100 <= code <= 107:
        return _BASIC[code % 10 + 8], i + 1
    return None, i + 1


class Style:
    """The SGR state that decides whether printed text can be seen at all."""

    def __init__(self):
        self.conceal = False
        self.fg = self.bg = None

    def apply(self, params):
        codes = [n if n is not None else 0 for n in numbers(params)] or [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.conceal, self.fg, self.bg = False, None, None
                i += 1
            elif code == 8:
                self.conceal, i = True, i + 1
            elif code == 28:
                self.conceal, i = False, i + 1
            elif code in (39, 49):
                self.fg, self.bg = (None, self.bg) if code == 39 else (self.fg, None)
                i += 1
            elif code in (38, 48) or 30 <= code <= 47 or 90 <= code <= 107:
                colour, i = _colour(codes, i)
                if code in (38,) or 30 <= code <= 37 or 90 <= code <= 97:
                    self.fg = colour
                else:
                    self.bg = colour
            else:
                i += 1

    @property
    def hidden(self):
        if self.conceal:
            return True
        if self.fg is None or self.bg is None:
            return False
        return max(abs(a - b) for a, b in zip(self.fg, self.bg)) <= SAME_COLOUR


def _sgr_hides(params):
    style = Style()
    style.apply(params)
    return style.hidden


def make_readable(raw):
    """Return `raw` as the models see it: every character kept, every hiding sequence shown.

    Colours that hide nothing are dropped. A carriage return that would move back over a
    line becomes "<CR>", a backspace "<BS>", a cursor or screen sequence "<ESC[...>" or
    "<ESC7>", concealing colours stay as "<ESC[8m>", and the text of a string a terminal
    never draws (OSC, DCS, APC...) is shown inside a mark, so nothing printed is lost.
    """
    text = prepare(raw)

    def mark(match):
        if match.group("final") is not None:
            params, inter, final = match.group("params", "inter", "final")
            if final == "m" and not _sgr_hides(params):
                return ""
            return "<ESC[" + params + inter + final + ">"
        if match.group("string") is not None:
            body = OTHER_CONTROLS.sub("", match.group("body"))
            return f"<{_STRINGS[match.group('string')]} {body}>"
        esc = match.group("esc")
        if esc is not None:
            return "" if esc in HARMLESS_ESC else f"<ESC{esc}>"
        if match.group(0) == "\x1b":
            return "<ESC>"
        return ""  # a charset designation: it changes no text and hides none

    text = SEQUENCE.sub(mark, text)
    text = text.rstrip("\r")  # a carriage return at the very end overwrites nothing
    text = text.replace("\r\n", "\n").replace("\r", CR_MARK).replace("\b", BS_MARK)
    text = text.replace("\x0b", "\n").replace("\x0c", "\n")
    return OTHER_CONTROLS.sub("", text)


_PLAIN_SGR = lazy(r"\x1b\[[0-9;:]*m")


def has_overwrite(raw):
    """True if `raw` holds anything that can move, erase or hide printed text (colours
    alone cannot, unless they conceal it)."""
    text = _LINE_ENDS.sub("\n", raw).rstrip("\r")
    if "\r" in text or "\b" in text or _C1.search(text):
        return True
    if "\x1b" not in text:
        return False
    leftover = _PLAIN_SGR.sub(lambda m: m.group(0) if _sgr_hides(m.group(0)[2:-1]) else "", text)
    return "\x1b" in leftover
