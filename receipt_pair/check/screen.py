"""The screen a person watching the terminal would have seen at the end of a command.

`replay_screen` replays the output's control sequences (see terminal.py); seen.py judges
the result: what is no longer visible (overwritten, erased, concealed, scrolled out of a
scroll region, left on the alternate screen) or was never drawn at all. A terminal has a
size the log does not record, and the same bytes hide different text on different sizes (a
long line wraps on a narrow screen; a cursor sent to row 500 stops at the bottom of a short
one), so the output is replayed on several screens, one without edges and common real
sizes, and a marker hidden on any of them counts (fail closed). Text that merely scrolls
off the top of the whole screen stays in the scrollback, where a person scrolling back sees
it: that is not hidden.

Work is bounded: a replay that would take too long is itself reported as hidden text, so
such output can never back a `shown`.
"""

import unicodedata

from .terminal import (HARMLESS_ESC, MAX_PARAM, OTHER_CONTROLS, SEQUENCE, Style, numbers,
                       prepare)


# Units of replay work (cells written or erased, rows shifted) before a replay gives up.
MAX_WORK = 4_000_000
TOO_COMPLEX = "(terminal sequences too many to replay)"
# The screens replayed: (columns, rows), None for no edge.
GEOMETRIES = ((None, None), (80, 24), (132, 43))


class _TooMuch(Exception):
    pass


def _cell_width(ch):
    """Columns a character takes: 0 for combining marks and format characters, 2 for wide
    East Asian letters, else 1."""
    if ch.isascii():
        return 1
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


class _Screen:
    """Rows of cells, each holding the id of the character drawn in it; rows are absolute
    (0 is the first line ever printed), and `top` is the row shown at the screen's top.

    A printed character is visible at the end only if its id is still in a cell of the
    screen being shown (its rows and the scrollback above them) and it was not printed
    concealed.
    """

    def __init__(self, width=None, height=None):
        self.width, self.height = width, height
        self.buffers = {"main": {}, "alt": {}}
        self.current = "main"
        self.top = 0
        self.row = self.col = 0
        self.saved = (0, 0)
        self.region = None  # (first, last) screen rows of a scroll region, 0-based
        self.origin = False  # origin mode: row 1 is the region's first row
        self.autowrap = True
        self.style = Style()
        self.chars = []  # id -> (character, concealed)
        self.printed = []  # ids in the order printed, with None where a line ended
        self.last = None  # the last character printed (for CSI b, repeat)
        self.work = 0

    @property
    def rows(self):
        return self.buffers[self.current]

    def spend(self, units):
        self.work += units
        if self.work > MAX_WORK:
            raise _TooMuch()

    # -- where the cursor may go ---------------------------------------------------------

    def bounds(self):
        """(first, last) absolute rows the cursor may move within (the region, if any)."""
        if self.height is None:
            return 0, None
        if self.region and self.region_holds_cursor():
            return self.top + self.region[0], self.top + self.region[1]
        return self.top, self.top + self.height - 1

    def region_holds_cursor(self):
        first, last = self.region
        return self.top + first <= self.row <= self.top + last

    def set_row(self, row):
        first, last = self.bounds()
        row = max(first, row)
        self.row = row if last is None else min(last, row)

    def set_col(self, col):
        col = max(0, col)
        self.col = col if self.width is None else min(self.width - 1, col)

    def home_row(self, n):
        """The absolute row of screen row `n` (1-based), as CSI H reads it."""
        if self.height is None:
            return n - 1
        if self.origin and self.region:
            return self.top + self.region[0] + n - 1
        return self.top + n - 1

    # -- scrolling -----------------------------------------------------------------------

    def line_feed(self):
        """Down a line; at the bottom of a region or of the screen, scroll."""
        if self.height is None:
            self.row += 1
            return
        first, last = self.bounds()
        if self.row < last:
            self.row += 1
        elif self.region and self.region != (0, self.height - 1):
            self.scroll_rows(first, last, -1)  # the region's top line is gone
        else:
            self.top += 1  # the whole screen scrolls; its top line goes to the scrollback
            self.row += 1

    def reverse_line_feed(self):
        first, last = self.bounds()
        if self.row > first:
            self.row -= 1
        elif last is None:
            self.shift_rows(0, 1)
        else:
            self.scroll_rows(first, last, 1)

    def scroll_rows(self, first, last, by):
        """Move rows first..last by `by` (negative: up); rows pushed past the edges are gone."""
        rows = self.rows
        self.spend(len(rows))
        moved = {}
        for row, line in rows.items():
            if first <= row <= (last if last is not None else row):
                target = row + by
                if first <= target <= (last if last is not None else target):
                    moved[target] = line
            else:
                moved[row] = line
        self.buffers[self.current] = moved

    def shift_rows(self, start, by):
        rows = self.rows
        self.spend(len(rows))
        self.buffers[self.current] = {(r + by if r >= start else r): line
                                      for r, line in rows.items() if r < start or r + by >= 0}

    # -- drawing -------------------------------------------------------------------------

    def put(self, ch):
        width = _cell_width(ch)
        self.spend(1)
        ident = len(self.chars)
        self.chars.append((ch, self.style.hidden))
        self.printed.append(ident)
        if width == 0:  # a combining mark: drawn with the character before it
            return
        if self.width is not None and self.col + width > self.width:
            if self.autowrap:
                self.line_feed()
                self.col = 0
            else:
                self.col = self.width - width  # the last column is written over
        line = self.rows.setdefault(self.row, {})
        for offset in range(width):
            line[self.col + offset] = ident
        self.col += width
        self.last = ch

    def unseen(self, text):
        """Text a terminal never draws (the body of an OSC or DCS string): a line of its own
        among the printed characters, never glued to what is drawn around it."""
        self.printed.append(None)
        for ch in text:
            self.spend(1)
            self.printed.append(len(self.chars))
            self.chars.append((ch, True))
        self.printed.append(None)

    def erase_in_line(self, start, end):
        line = self.rows.get(self.row)
        if line:
            self.spend(len(line))
            for col in [c for c in line if start <= c < end]:
                del line[col]

    def shift_columns(self, start, by):
        line = self.rows.get(self.row)
        if not line:
            return
        self.spend(len(line))
        self.rows[self.row] = {(c + by if c >= start else c): ident
                               for c, ident in line.items()
                               if c < start or (c + by >= 0 and (self.width is None
                                                                 or c + by < self.width))}

    def clear_rows(self, first, last):
        """Erase rows first..last (None: to the end)."""
        rows = self.rows
        self.spend(len(rows))
        for row in [r for r in rows if r >= first and (last is None or r <= last)]:
            del rows[row]

    def visible_ids(self):
        return {ident for line in self.rows.values() for ident in line.values()
                if not self.chars[ident][1]}


def _csi(screen, params, final):
    values = numbers(params)
    first = values[0] if values and values[0] is not None else None
    n = first if first else 1
    private = params.startswith("?")
    if final == "m":
        screen.style.apply(params)
        return
    if final in "hl" and private:
        modes = {m for m in values if m is not None}
        if modes & {47, 1047, 1049}:
            # Text on the alternate screen is gone once the program leaves it.
            screen.buffers["alt"] = {}
            screen.current = "alt" if final == "h" else "main"
        if 6 in modes:
            screen.origin = final == "h"
            screen.row, screen.col = screen.home_row(1), 0
        if 7 in modes:
            screen.autowrap = final == "h"
        return
    if final in "AF":
        screen.set_row(screen.row - n)
        screen.col = 0 if final == "F" else min(screen.col, (screen.width or screen.col + 1) - 1)
    elif final in "BeE":
        screen.set_row(screen.row + n)
        screen.col = 0 if final == "E" else min(screen.col, (screen.width or screen.col + 1) - 1)
    elif final in "Ca":
        screen.set_col(screen.col + n)
    elif final == "D":
        screen.set_col(min(screen.col, (screen.width or screen.col + 1) - 1) - n)
    elif final in "G`":
        screen.set_col(n - 1)
    elif final == "d":
        screen.set_row(screen.home_row(n))
    elif final in "Hf":
        rows_cols = (values + [None, None])[:2]
        screen.set_row(screen.home_row(rows_cols[0] or 1))
        screen.set_col((rows_cols[1] or 1) - 1)
    elif final == "I":
        screen.set_col((screen.col // 8 + n) * 8)
    elif final == "Z":
        screen.set_col(((screen.col - 1) // 8 - (n - 1)) * 8)
    elif final == "b" and screen.last is not None:  # repeat the last character
        for _ in range(min(n, MAX_PARAM)):
            screen.put(screen.last)
    elif final == "K":
        mode = first or 0
        bounds = {0: (screen.col, MAX_PARAM * 4), 1: (0, screen.col + 1)}.get(
            mode, (0, MAX_PARAM * 4))
        screen.erase_in_line(*bounds)
    elif final == "X":
        screen.erase_in_line(screen.col, screen.col + n)
    elif final == "P":
        screen.erase_in_line(screen.col, screen.col + n)
        screen.shift_columns(screen.col + n, -n)  # lands on the erased columns
    elif final == "@":
        screen.shift_columns(screen.col, n)
    elif final == "J":
        _erase_display(screen, first or 0)
    elif final in "LM":
        first_row, last_row = screen.bounds()
        for _ in range(min(n, screen.height or n)):
            screen.spend(1)
            if last_row is None:
                if final == "L":
                    screen.shift_rows(screen.row, 1)
                else:
                    screen.clear_rows(screen.row, screen.row)
                    screen.shift_rows(screen.row + 1, -1)
            else:
                screen.scroll_rows(screen.row, last_row, 1 if final == "L" else -1)
    elif final in "ST":
        first_row, last_row = screen.bounds()
        for _ in range(min(n, screen.height or n)):
            screen.spend(1)
            if last_row is None:
                screen.shift_rows(0, -1 if final == "S" else 1)
            else:
                screen.scroll_rows(first_row, last_row, -1 if final == "S" else 1)
    elif final == "s":
        screen.saved = (screen.row, screen.col)
    elif final == "u":
        screen.set_row(screen.saved[0])
        screen.set_col(screen.saved[1])
    elif final == "r":
        if screen.height is not None:
            low = (values[0] if values and values[0] else 1) - 1
            high = (values[1] if len(values) > 1 and values[1] else screen.height) - 1
            high = min(high, screen.height - 1)
            screen.region = (low, high) if 0 <= low < high else None
        screen.row, screen.col = screen.home_row(1), 0


def _erase_display(screen, mode):
    last = None if screen.height is None else screen.top + screen.height - 1
    if mode == 0:
        screen.erase_in_line(screen.col, MAX_PARAM * 4)
        screen.clear_rows(screen.row + 1, last)
    elif mode == 1:
        screen.erase_in_line(0, screen.col + 1)
        screen.clear_rows(screen.top if screen.height else 0, screen.row - 1)
    elif screen.height is None:
        screen.buffers[screen.current] = {}
    else:
        screen.clear_rows(screen.top, last)  # the scrollback above stays


def _esc(screen, esc):
    if esc in HARMLESS_ESC:
        return
    if esc == "7":
        screen.saved = (screen.row, screen.col)
    elif esc == "8":
        screen.set_row(screen.saved[0])
        screen.set_col(screen.saved[1])
    elif esc == "M":  # reverse index: up a line, scrolling down at the top
        screen.reverse_line_feed()
    elif esc == "D":
        screen.line_feed()
    elif esc == "E":
        screen.line_feed()
        screen.col = 0
    elif esc == "c":  # full reset: the screen is cleared
        for buffer in screen.buffers.values():
            buffer.clear()
        screen.current = "main"
        screen.row = screen.col = 0
        screen.top = 0
        screen.region, screen.origin, screen.autowrap = None, False, True
        screen.style = Style()


def replay_screen(raw, width=None, height=None):
    """Replay `raw` on a screen of `width` columns and `height` rows (None: no edge)."""
    text = prepare(raw)
    screen = _Screen(width, height)
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\x1b":
            match = SEQUENCE.match(text, pos)
            pos = match.end()
            if match.group("final") is not None:
                _csi(screen, match.group("params"), match.group("final"))
            elif match.group("string") is not None:
                screen.unseen(match.group("body"))
            elif match.group("esc") is not None:
                _esc(screen, match.group("esc"))
            continue
        pos += 1
        if ch == "\n":
            screen.printed.append(None)
            screen.line_feed()
            screen.col = 0
        elif ch in "\x0b\x0c":
            screen.line_feed()
        elif ch == "\r":
            screen.col = 0
        elif ch == "\b":
            screen.set_col(min(screen.col, (screen.width or screen.col + 1) - 1) - 1)
        elif ch == "\t":
            screen.set_col((screen.col // 8 + 1) * 8)
        elif not OTHER_CONTROLS.match(ch):
            screen.put(ch)
    return screen
