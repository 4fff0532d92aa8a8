"""A command's words as `shlex.split(text)` gives them (POSIX rules, no comments), in time
linear in the text.

The standard library's shlex builds each word one character at a time on an attribute, so
a single long word costs time that grows with its square: a log whose command holds a
200,000-character JSON argument took seconds to read. The facts' readings must give exactly
shlex's words (every sealed run replays by them), so this is shlex's own state machine for
`shlex.split(text, comments=False, posix=True)`, with each word gathered in a list. A
property test holds it to shlex on random text (`tests/unit/test_facts_words.py`).
"""

_WHITESPACE = " \t\r\n"


def split_words(text):
    """The words `shlex.split(text)` gives; ValueError where shlex raises one (an unclosed
    quote, a trailing backslash)."""
    words, token, quoted = [], [], False
    state, escaped_from = " ", "a"
    for char in text:
        if state == " ":
            if char in _WHITESPACE:
                continue
            if char == "\\":
                state, escaped_from = "\\", "a"
            elif char in "'\"":
                state = char
            else:
                token.append(char)
                state = "a"
        elif state == "a":
            if char in _WHITESPACE:
                if token or quoted:
                    words.append("".join(token))
                token, quoted, state = [], False, " "
            elif char in "'\"":
                state = char
            elif char == "\\":
                state, escaped_from = "\\", "a"
            else:
                token.append(char)
        elif state == "\\":
            if escaped_from in "'\"" and char != "\\" and char != escaped_from:
                token.append("\\")
            token.append(char)
            state = escaped_from
        else:  # inside quotes: state is the quote character
            quoted = True
            if char == state:
                state = "a"
            elif char == "\\" and state == '"':
                state, escaped_from = "\\", '"'
            else:
                token.append(char)
    if state == "\\":
        raise ValueError("No escaped character")
    if state in "'\"":
        raise ValueError("No closing quotation")
    if token or quoted:
        words.append("".join(token))
    return words
