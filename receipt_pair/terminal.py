"""Terminal control sequences: made readable for the models, replayed for the overwrite rule.

A log captured from a terminal carries colour codes, carriage returns and cursor movement.
The models must see every character that was printed (an overwritten "ERROR" is still
evidence), so `make_readable` keeps overwritten text and marks where the overwrite happened.
`hidden_text` replays the same bytes on a simple screen to find what a person watching the
terminal would no longer see.
"""

import re

CR_MARK = "<CR>"
BS_MARK = "<BS>"

# CSI: ESC [ params intermediates final. OSC: ESC ] ... BEL or ESC \. Then two-byte escapes.
_CSI = re.compile(r"\x1b\[([0-?]*)([ -/]*)([@-~])")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")
_ESC_OTHER = re.compile(r"\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\^_`a-z{|}~=>78]")
# C0 controls other than tab, newline, carriage return and backspace, plus DEL.
_OTHER_CONTROLS = re.compile(r"[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]")
_LINE_ENDS = re.compile(r"\r+\n")
# Cursor movement and erasing: these can hide text that was printed.
_MOVES = set("ABCDEFGHJKf")


def _normalise(raw):
    """Line endings to \\n, OSC and two-byte escapes dropped: nothing here hides text."""
    text = _LINE_ENDS.sub("\n", raw)
    text = _OSC.sub("", text)
    return _ESC_OTHER.sub("", text)


def make_readable(raw):
    """Return `raw` as the models see it: colours gone, overwrites visible.

    A carriage return that would move back over a line becomes the visible mark "<CR>", a
    backspace "<BS>", a cursor movement "<ESC[...>": the text before and after it all stays.
    """
    text = _normalise(raw)

    def csi(match):
        params, inter, final = match.groups()
        if final == "m":  # colour and style: no text is hidden by it
            return ""
        return "<ESC[" + params + inter + final + ">"

    text = _CSI.sub(csi, text)
    text = text.rstrip("\r")  # a carriage return at the very end overwrites nothing
    text = text.replace("\r\n", "\n").replace("\r", CR_MARK).replace("\b", BS_MARK)
    return _OTHER_CONTROLS.sub("", text)


def has_overwrite(raw):
    """True if `raw` holds a control that can print over earlier text."""
    text = _LINE_ENDS.sub("\n", raw).rstrip("\r")
    if "\r" in text or "\b" in text:
        return True
    return any(m.group(3) in _MOVES for m in _CSI.finditer(text))


def _csi_number(params, default=1):
    first = params.split(";")[0]
    return int(first) if first.isdigit() else default


def replay_screen(raw):
    """Replay `raw` on a simple screen; return (final screen text, runs of text written).

    Each run is a piece of text printed between two control operations. Comparing runs
    with the final screen tells what was printed and then hidden.
    """
    text = _OTHER_CONTROLS.sub("", _normalise(raw))
    screen = [[]]
    row = col = 0
    runs = []
    run = []

    def end_run():
        if run:
            runs.append("".join(run))
            run.clear()

    def put(ch):
        line = screen[row]
        if col >= len(line):
            line.extend(" " * (col - len(line)))
            line.append(ch)
        else:
            line[col] = ch

    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\x1b":
            match = _CSI.match(text, pos)
            if not match:
                pos += 1
                continue
            pos = match.end()
            params, _, final = match.groups()
            if final not in _MOVES:
                continue
            end_run()
            n = _csi_number(params)
            if final in "AF":
                row = max(0, row - n)
                col = 0 if final == "F" else col
            elif final in "BE":
                row += n
                col = 0 if final == "E" else col
            elif final == "C":
                col += n
            elif final == "D":
                col = max(0, col - n)
            elif final == "G":
                col = max(0, n - 1)
            elif final in "Hf":
                parts = (params.split(";") + ["", ""])[:2]
                row = max(0, int(parts[0]) - 1) if parts[0].isdigit() else 0
                col = max(0, int(parts[1]) - 1) if parts[1].isdigit() else 0
            elif final == "K":
                mode = _csi_number(params, 0)
                line = screen[row] if row < len(screen) else []
                if mode == 0:
                    del line[col:]
                elif mode == 1:
                    line[: col + 1] = " " * min(len(line), col + 1)
                else:
                    line.clear()
            elif final == "J":
                mode = _csi_number(params, 0)
                if mode == 0:
                    if row < len(screen):
                        del screen[row][col:]
                        del screen[row + 1:]
                else:
                    screen = [[] for _ in screen]
            while row >= len(screen):
                screen.append([])
            continue
        pos += 1
        if ch == "\n":
            end_run()
            row += 1
            col = 0
            while row >= len(screen):
                screen.append([])
        elif ch == "\r":
            end_run()
            col = 0
        elif ch == "\b":
            end_run()
            col = max(0, col - 1)
        else:
            run.append(ch)
            put(ch)
            col += 1
    end_run()
    final = "\n".join("".join(line).rstrip() for line in screen)
    return final, runs


def hidden_text(raw, find_markers):
    """Markers (found by `find_markers` in printed runs) that the final screen no longer shows."""
    if not has_overwrite(raw):
        return []
    final, runs = replay_screen(raw)
    hidden = []
    for run in runs:
        for marker in find_markers(run):
            if marker not in final and marker not in hidden:
                hidden.append(marker)
    return hidden
