"""Characters as a person reading the terminal takes them: look-alike letters, invisible
characters and right-to-left overrides folded away, so that no pattern of the quote check
can be dodged by a disguise ("ЕRRОR" with Cyrillic letters reads ERROR).
"""

import functools
import re
import unicodedata
from ..patterns import lazy

# Letters from other scripts that look like Latin ones. NFKC does not touch them, and a
# person reading "ЕRRОR" (Cyrillic Е and О) reads ERROR.
_LOOK_ALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "һ": "h", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ї": "I",
    "Ј": "J", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I", "Һ": "H",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ι": "i",
    "κ": "k", "ν": "v", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "α": "a", "ε": "e",
    # Latin letters that read as others
    "ı": "i", "ȷ": "j", "ℓ": "l", "ǀ": "l",
    # Armenian, Coptic and more Greek
    "Օ": "O", "օ": "o", "Ս": "U", "ս": "u", "Տ": "S", "հ": "h", "ո": "n", "ց": "g",
    "զ": "q", "ա": "w", "ⲟ": "o", "Ⲟ": "O", "ⲣ": "p", "Ⲣ": "P", "ⲥ": "c", "Ⲥ": "C",
    "ϲ": "c", "Ϲ": "C", "ϳ": "j", "Ϳ": "J", "ɑ": "a", "ɩ": "i", "ʋ": "u",
    # Cherokee capitals (its small letters are folded to them first)
    "Ꭺ": "A", "Ᏼ": "B", "Ꮯ": "C", "Ꭰ": "D", "Ꭼ": "E", "Ꮐ": "G", "Ꮋ": "H", "Ꭵ": "I",
    "Ꭻ": "J", "Ꮶ": "K", "Ꮮ": "L", "Ꮇ": "M", "Ꮎ": "O", "Ꮲ": "P", "Ꭱ": "R", "Ꮪ": "S",
    "Ꭲ": "T", "Ꮩ": "V", "Ꮃ": "W", "Ꮓ": "Z",
    # Lisu, whose letters are drawn as Latin capitals
    "ꓮ": "A", "ꓐ": "B", "ꓚ": "C", "ꓓ": "D", "ꓰ": "E", "ꓝ": "F", "ꓖ": "G", "ꓧ": "H",
    "ꓲ": "I", "ꓙ": "J", "ꓗ": "K", "ꓡ": "L", "ꓟ": "M", "ꓠ": "N", "ꓳ": "O", "ꓑ": "P",
    "ꓣ": "R", "ꓢ": "S", "ꓔ": "T", "ꓴ": "U", "ꓦ": "V", "ꓪ": "W", "ꓫ": "X", "ꓬ": "Y",
    "ꓜ": "Z",
    # small capitals, which NFKC leaves alone
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
    "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
    "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
}
# Controls that reorder what follows them on screen: RLO, RLE, RLI.
_RIGHT_TO_LEFT = "\u202e\u202b\u2067"
_BIDI_END = "\u202c\u2069"


@functools.lru_cache(maxsize=4096)
def fold_char(ch):
    """One character as a reader takes it: compatibility forms, marks and invisibles gone."""
    if ch.isascii():
        return ch
    out = []
    for part in unicodedata.normalize("NFKD", ch):
        category = unicodedata.category(part)
        if category in ("Mn", "Me", "Cf"):  # combining strokes, zero-width and bidi controls
            continue
        out.append(_LOOK_ALIKES.get(part) or _LOOK_ALIKES.get(part.upper(), part))
    return unicodedata.normalize("NFKC", "".join(out))


def fold(text):
    """(folded text, index map): map[i] is the index in `text` of folded character i."""
    if text.isascii():
        return text, None
    chars, where = [], []
    for index, ch in enumerate(text):
        for part in fold_char(ch):
            chars.append(part)
            where.append(index)
    return "".join(chars), where


def _visual(line):
    """The line as a right-to-left override shows it, or None if it has none."""
    if not any(c in line for c in _RIGHT_TO_LEFT):
        return None
    out, pending, reversing = [], [], False
    for ch in line:
        if ch in _RIGHT_TO_LEFT:
            reversing = True
        elif ch in _BIDI_END and reversing:
            out.extend(reversed(pending))
            pending, reversing = [], False
        elif reversing:
            pending.append(ch)
        else:
            out.append(ch)
    out.extend(reversed(pending))
    return "".join(out)


def readings(text):
    """Every way a reader may take `text`: as stored and, where a right-to-left override
    reorders it, as shown; each folded."""
    found = [fold(text)[0]]
    shown = "\n".join(_visual(line) or line for line in text.split("\n"))
    if shown != text:
        found.append(fold(shown)[0])
    # The line with the marks of terminal sequences taken out, as the letters are drawn:
    # "rej<ESC[?25l>ected" reads "rejected" on a screen.
    drawn = _MARKS.sub("", text)
    if drawn != text:
        found.append(fold(drawn)[0])
    return found


_MARKS = lazy(r"<ESC[^<>\n]{0,40}>|<CR>|<BS>")
