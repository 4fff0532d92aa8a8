"""What a person watching the terminal saw at the end of a command, judged on the screens
screen.py replays: failure markers that some screen size would not show (for the rule that
a `shown` may not stand over hidden failure), and whether a quoted text was drawn at all
(text in a string a terminal never draws, concealed or overwritten was not seen).

The log does not say how big the terminal was, so every judgment holds on every screen in
GEOMETRIES (fail closed); a replay that would take too long counts as hiding.
"""

from .screen import GEOMETRIES, TOO_COMPLEX, _TooMuch, replay_screen
from .terminal import has_overwrite, prepare


def _hidden_on(screen, find_spans):
    """Markers in the printed characters (in the order printed, line by line, whatever
    sequences came between them) of which some character is not visible at the end."""
    visible = screen.visible_ids()
    hidden = []
    line = []
    for ident in screen.printed + [None]:
        if ident is not None:
            line.append(ident)
            continue
        if line and any(i not in visible for i in line):
            text = "".join(screen.chars[i][0] for i in line)
            for start, end in find_spans(text):
                if any(i not in visible for i in line[start:end]):
                    hidden.append(text[start:end])
        line = []
    return hidden


def hidden_text(raw, find_spans):
    """Failure markers (found by `find_spans`) that some screen size would not show at the
    end: overwritten, erased, concealed, scrolled out of a region, or never drawn."""
    if not has_overwrite(raw):
        return []
    hidden = []
    for width, height in GEOMETRIES:
        try:
            screen = replay_screen(raw, width, height)
        except _TooMuch:
            return [TOO_COMPLEX]
        for marker in _hidden_on(screen, find_spans):
            if marker not in hidden:
                hidden.append(marker)
    return hidden


def _drawn_on(screen, text):
    """True if some place where `text` was printed is wholly visible on this screen."""
    visible = screen.visible_ids()
    line = []
    for ident in screen.printed + [None]:
        if ident is not None:
            line.append(ident)
            continue
        printed = "".join(screen.chars[i][0] for i in line)
        at = printed.find(text)
        while at != -1:
            if all(i in visible for i in line[at:at + len(text)]):
                return True
            at = printed.find(text, at + 1)
        line = []
    return False


def drawn(raw, text):
    """True if a person watching the terminal saw `text` at the end, on every screen size:
    text inside a string a terminal never draws (OSC), concealed, overwritten or erased was
    not seen. Text that `raw` does not hold as printed characters is not judged here (True).
    A replay that would take too long counts as not seen."""
    if not text or not has_overwrite(raw) or text not in prepare(raw):
        return True
    for width, height in GEOMETRIES:
        try:
            screen = replay_screen(raw, width, height)
        except _TooMuch:
            return False
        if not _drawn_on(screen, text):
            return False
    return True
