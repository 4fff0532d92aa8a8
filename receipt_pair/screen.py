"""The screen a person watching the terminal would have seen at the end of a command.

`hidden_text` replays the output's control sequences (see terminal.py) on an unbounded
screen and reports the failure markers of which some character is no longer visible:
overwritten, erased, concealed, scrolled away, left on the alternate screen, or never drawn
at all. Work is bounded: a replay that would take too long is itself reported as hidden
text, so such output can never back a `shown` (fail closed).
"""

from .terminal import (HARMLESS_ESC, MAX_PARAM, OTHER_CONTROLS, SEQUENCE, Style, has_overwrite,
                       numbers, prepare)

# Units of replay work (cells written or erased, rows shifted) before the replay gives up.
MAX_WORK = 4_000_000
TOO_COMPLEX = "(terminal sequences too many to replay)"


class _TooMuch(Exception):
    pass


class _Screen:
    """An unbounded screen: rows of cells, each cell holding the id of the character in it.

    A printed character is visible at the end only if its id is still in a cell of the
    screen being shown and it was not printed concealed.
    """

    def __init__(self):
        self.buffers = {"main": {}, "alt": {}}
        self.current = "main"
        self.row = self.col = 0
        self.saved = (0, 0)
        self.style = Style()
        self.chars = []  # id -> (character, concealed)
        self.runs = [[]]  # ids printed between two cursor operations
        self.work = 0

    @property
    def rows(self):
        return self.buffers[self.current]

    def spend(self, units):
        self.work += units
        if self.work > MAX_WORK:
            raise _TooMuch()

    def end_run(self):
        if self.runs[-1]:
            self.runs.append([])

    def put(self, ch):
        self.spend(1)
        ident = len(self.chars)
        self.chars.append((ch, self.style.hidden))
        self.rows.setdefault(self.row, {})[self.col] = ident
        self.runs[-1].append(ident)
        self.col += 1

    def unseen(self, text):
        """Text a terminal never draws (the body of an OSC or DCS string)."""
        self.end_run()
        for ch in text:
            self.spend(1)
            self.runs[-1].append(len(self.chars))
            self.chars.append((ch, True))
        self.end_run()

    def erase_in_line(self, start, end):
        line = self.rows.get(self.row)
        if line:
            self.spend(len(line))
            for col in [c for c in line if start <= c < end]:
                del line[col]

    def shift_columns(self, start, by):
        """Move the cells of this row from column `start` on by `by` columns; a cell moved
        before column 0 is gone."""
        line = self.rows.get(self.row)
        if not line:
            return
        self.spend(len(line))
        self.rows[self.row] = {(c + by if c >= start else c): ident
                               for c, ident in line.items() if c < start or c + by >= 0}

    def shift_rows(self, start, by):
        """Move the rows from `start` on by `by` rows; a row moved above row 0 is gone."""
        rows = self.rows
        self.spend(len(rows))
        self.buffers[self.current] = {(r + by if r >= start else r): line
                                      for r, line in rows.items() if r < start or r + by >= 0}

    def delete_rows(self, start, count):
        """Remove `count` rows from `start`; the rows below move up."""
        rows = self.rows
        self.spend(len(rows))
        self.buffers[self.current] = {(r - count if r >= start + count else r): line
                                      for r, line in rows.items()
                                      if not start <= r < start + count}

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
    screen.end_run()
    if final in "hl" and private:
        modes = {m for m in values if m is not None}
        if modes & {47, 1047, 1049}:
            # Text on the alternate screen is gone once the program leaves it.
            screen.buffers["alt"] = {}
            screen.current = "alt" if final == "h" else "main"
        return
    if final in "AF":
        screen.row = max(0, screen.row - n)
        screen.col = 0 if final == "F" else screen.col
    elif final in "BeE":
        screen.row += n
        screen.col = 0 if final == "E" else screen.col
    elif final in "Ca":
        screen.col += n
    elif final == "D":
        screen.col = max(0, screen.col - n)
    elif final in "G`":
        screen.col = max(0, n - 1)
    elif final == "d":
        screen.row = max(0, n - 1)
    elif final in "Hf":
        rows_cols = (values + [None, None])[:2]
        screen.row = max(0, (rows_cols[0] or 1) - 1)
        screen.col = max(0, (rows_cols[1] or 1) - 1)
    elif final == "I":
        screen.col = (screen.col // 8 + n) * 8
    elif final == "Z":
        screen.col = max(0, ((screen.col - 1) // 8 - (n - 1)) * 8)
    elif final == "K":
        mode = first or 0
        bounds = {0: (screen.col, MAX_PARAM * 2), 1: (0, screen.col + 1)}.get(mode, (0, MAX_PARAM * 2))
        screen.erase_in_line(*bounds)
    elif final == "X":
        screen.erase_in_line(screen.col, screen.col + n)
    elif final == "P":
        screen.erase_in_line(screen.col, screen.col + n)
        screen.shift_columns(screen.col + n, -n)  # lands on the erased columns
    elif final == "@":
        screen.shift_columns(screen.col, n)
    elif final == "J":
        mode = first or 0
        if mode == 0:
            screen.erase_in_line(screen.col, MAX_PARAM * 2)
            screen.spend(len(screen.rows))
            for row in [r for r in screen.rows if r > screen.row]:
                del screen.rows[row]
        elif mode == 1:
            screen.erase_in_line(0, screen.col + 1)
            screen.spend(len(screen.rows))
            for row in [r for r in screen.rows if r < screen.row]:
                del screen.rows[row]
        else:
            screen.buffers[screen.current] = {}
    elif final == "L":
        screen.shift_rows(screen.row, n)
    elif final == "M":
        screen.delete_rows(screen.row, n)
    elif final == "S":
        # Scrolled off the top: no longer on the screen a person is looking at.
        screen.shift_rows(0, -n)
    elif final == "T":
        screen.shift_rows(0, n)
    elif final == "s":
        screen.saved = (screen.row, screen.col)
    elif final == "u":
        screen.row, screen.col = screen.saved
    elif final == "r":
        screen.row = screen.col = 0


def _esc(screen, esc):
    if esc in HARMLESS_ESC:
        return
    screen.end_run()
    if esc == "7":
        screen.saved = (screen.row, screen.col)
    elif esc == "8":
        screen.row, screen.col = screen.saved
    elif esc == "M":  # reverse index: up a line, scrolling down at the top
        if screen.row == 0:
            screen.shift_rows(0, 1)
        else:
            screen.row -= 1
    elif esc == "D":
        screen.row += 1
    elif esc == "E":
        screen.row, screen.col = screen.row + 1, 0
    elif esc == "c":  # full reset: the screen is cleared
        screen.buffers = {"main": {}, "alt": {}}
        screen.current = "main"
        screen.row = screen.col = 0
        screen.style = Style()


def replay_screen(raw):
    """Replay `raw`; return (the screen, the runs of printed character ids)."""
    text = prepare(raw)
    screen = _Screen()
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
            screen.end_run()
            screen.row, screen.col = screen.row + 1, 0
        elif ch in "\x0b\x0c":
            screen.end_run()
            screen.row += 1
        elif ch == "\r":
            screen.end_run()
            screen.col = 0
        elif ch == "\b":
            screen.end_run()
            screen.col = max(0, screen.col - 1)
        elif ch == "\t":
            screen.end_run()
            screen.col = (screen.col // 8 + 1) * 8
        elif not OTHER_CONTROLS.match(ch):
            screen.put(ch)
    screen.end_run()
    return screen


def hidden_text(raw, find_spans):
    """Failure markers (found by `find_spans` in printed runs) of which some character is
    not visible on the final screen: overwritten, erased, concealed, scrolled away, left on
    the alternate screen, or never drawn at all.
    """
    if not has_overwrite(raw):
        return []
    try:
        screen = replay_screen(raw)
    except _TooMuch:
        return [TOO_COMPLEX]
    visible = screen.visible_ids()
    hidden = []
    for run in screen.runs:
        text = "".join(screen.chars[ident][0] for ident in run)
        for start, end in find_spans(text):
            if any(ident not in visible for ident in run[start:end]):
                marker = text[start:end]
                if marker not in hidden:
                    hidden.append(marker)
    return hidden
