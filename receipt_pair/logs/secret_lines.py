"""Where a secret's value ends on its lines (redactor s3): an ini or .properties line's
value of several words, a YAML plain value that runs to the end of its line, a YAML block
scalar's lines. Pure functions over (text, positions); secret_names.py reads with them.
"""

from ..patterns import lazy


def ini_line(text, start, name, sep):
    """Whether the name starts its line and gives its value as an ini or .properties file
    does (`password = ...`, `db.password=...`), where the value runs to the line's end: a
    shell's `PASSWORD=x cmd` has no space around its `=` and no dot in its name."""
    return sep.strip() == "=" and not text[line_start(text, start):start].strip(" \t") \
        and (sep != "=" or "." in name)


def line_value_end(text, at):
    """The end of a value that runs to the end of its line, before a comment (` #`, ` ;`)
    and trailing space."""
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    ends = [i for i in (text.find(" #", at, line_end), text.find(" ;", at, line_end)) if i >= 0]
    end = min(ends) if ends else line_end
    while end > at and text[end - 1] in " \t\r":
        end -= 1
    return end


# A YAML block scalar's header: `secret: |`, `secret: >-`, with an indentation indicator or
# a comment after it; its value is the lines under it, indented deeper than the key's line.
YAML_BLOCK = lazy(r"[\"']?[ \t]*:[ \t]+[|>][1-9+-]{0,2}[ \t]*(?:#[^\n]*)?\r?\n")


def yaml_block(text, start, end, accepts):
    """The span of the lines of a YAML block scalar under the name text[start:end], if
    `accepts(value, quoted)` takes its value: its lines as they stand, or joined (a long
    key folded over several lines)."""
    header = YAML_BLOCK.match(text, end)
    if not header:
        return None
    key_line = text[line_start(text, start):start]
    if key_line.strip(" \t-"):
        return None  # not a key of its own line
    indent = len(key_line) - len(key_line.lstrip(" \t"))
    at, first, last = header.end(), None, None
    while at < len(text):
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        line = text[at:line_end]
        if line.strip():
            if len(line) - len(line.lstrip(" \t")) <= indent:
                break
            first = at + len(line) - len(line.lstrip(" \t")) if first is None else first
            last = at + len(line.rstrip(" \t\r"))
        at = line_end + 1
    if first is None:
        return None
    value = text[first:last]
    return (first, last) if accepts(value, True) or accepts("".join(value.split()), True) \
        else None


def line_start(text, at):
    return text.rfind("\n", max(0, at - 500), at) + 1 or max(0, at - 500)


def yaml_end(text, at):
    """The end of a YAML plain value that goes on after a space (p@ss w0rd), before a
    comment and trailing space."""
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    comment = text.find(" #", at, line_end)
    end = line_end if comment < 0 else comment
    while end > at and text[end - 1] in " \t\r":
        end -= 1
    return end
