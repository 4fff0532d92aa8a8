"""Text from outside, made safe to show: every character a terminal would act on, or draw as
nothing, is shown as a mark.

A log, a model's reply, a receipt or a ledger is hostile input. Printed as it is, an
escape sequence in a model's reason could erase the gate's own "not shown" line, move the
cursor over it or conceal it, and a right-to-left override could reverse what a quote
reads as. So every string from outside is printed through `visible`, `--json` output
through `json_text`, and `cli.main` writes through `MarkedStream`, the last guard: nothing
the command line prints holds a raw control character other than a line break or a tab.

Marked: C0 controls (ESC and CR included), DEL, C1 controls (U+0080-U+009F), invisible
format and direction controls (U+200B, U+202E, U+2066...: Unicode's Cf), the line and
paragraph separators, the Hangul fillers that draw as blanks, and lone surrogates (which
no stream can even encode). Imports nothing from the package.
"""

import contextlib
import json
import sys
import unicodedata
from ..patterns import lazy

_NAMES = {"\t": "<TAB>", "\n": "<LF>", "\r": "<CR>", "\b": "<BS>", "\x1b": "<ESC>",
          "\x7f": "<DEL>"}
_FILLERS = "\u115f\u1160\u3164\uffa0"  # letters by category, blanks on a screen
_CATEGORIES = ("Cc", "Cf", "Zl", "Zp", "Cs")
# Everything that is not printable ASCII; each is then judged by `hidden`.
_NOT_PLAIN = lazy(r"[^\x20-\x7e]")


def hidden(ch):
    """True for a character a terminal acts on, or draws as nothing."""
    return ch in _FILLERS or unicodedata.category(ch) in _CATEGORIES


def visible(text, lines=False):
    """`text` with every hidden character shown as a mark: "<ESC>", "<CR>", "<LF>",
    "<U+202E>"... With `lines`, line breaks and tabs are kept (text shown as several
    lines); without, a one-line field stays one line, so it cannot forge a line of its
    own."""
    text = "" if text is None else str(text)
    keep = "\n\t" if lines else ""

    def mark(match):
        ch = match.group(0)
        if ch in keep or not hidden(ch):
            return ch
        return _NAMES.get(ch) or f"<U+{ord(ch):04X}>"

    return _NOT_PLAIN.sub(mark, text)


def _json_escape(match):
    ch = match.group(0)
    if ch < " " or not hidden(ch):  # json.dumps escapes C0 in strings; the rest is layout
        return ch
    code = ord(ch)
    if code > 0xFFFF:  # JSON spells a character past the BMP as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value, indent=None):
    """`value` as JSON text with no raw control, format or direction character: json.dumps
    escapes C0 controls, and this escapes DEL, C1, format and direction controls, the
    separators and lone surrogates as \\uXXXX too. The JSON read back is the same value."""
    return _NOT_PLAIN.sub(_json_escape, json.dumps(value, ensure_ascii=False, indent=indent))


class StreamFailed(Exception):
    """Standard output or error refused a write (a closed pipe, a full disk): `name` says
    which, `error` is the OSError, `stream` the stream underneath."""

    def __init__(self, name, error, stream):
        super().__init__(f"cannot write to {name}: {error.strerror or error}")
        self.name, self.error, self.stream = name, error, stream


class MarkedStream:
    """A text stream that shows every hidden character except line breaks and tabs as a
    mark: the last guard on what the command line prints. It has no `buffer`, so nothing
    can write raw bytes past it; a write the system refuses is a StreamFailed."""

    def __init__(self, stream, name):
        self._stream, self._name = stream, name

    def write(self, text):
        try:
            self._stream.write(visible(text, lines=True))
        except OSError as exc:
            raise StreamFailed(self._name, exc, self._stream) from None
        return len(text)

    def writelines(self, texts):
        for text in texts:
            self.write(text)

    def flush(self):
        try:
            self._stream.flush()
        except OSError as exc:
            raise StreamFailed(self._name, exc, self._stream) from None

    def __getattr__(self, name):
        if name == "buffer":
            raise AttributeError("a marked stream takes text only")
        return getattr(self._stream, name)


@contextlib.contextmanager
def marked_streams():
    """Standard output and standard error as MarkedStreams, for a `with`."""
    saved = sys.stdout, sys.stderr
    sys.stdout = MarkedStream(saved[0], "standard output")
    sys.stderr = MarkedStream(saved[1], "standard error")
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def message(exc):
    """An error's line, with what to do about it on the command line when it says; what it
    quotes from a file or a server is shown with its control characters as marks."""
    hint = getattr(exc, "cli_hint", None)
    return visible(f"{exc} ({hint})" if hint else str(exc))


def print_json(value):
    print(json_text(value, indent=2))


def one_line(text, width=None):
    """Text from a file made safe for one terminal line: whitespace runs as one space,
    control, format and direction characters as marks, cut to `width`."""
    text = visible(" ".join(str(text if text is not None else "").split()))
    if width and len(text) > width:
        text = text[:width - 3] + "..."
    return text
