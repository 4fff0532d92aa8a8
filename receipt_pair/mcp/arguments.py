"""A tool's arguments, checked against its own inputSchema before it runs, and the paths
they name checked before anything reads them.

Only the few JSON Schema words the tools use are read here (type, enum, minLength,
minimum, required, additionalProperties false); each problem is one line an agent can act
on, returned to it as a tool error (the 2025-11-25 revision asks for that rather than a
protocol error, so the model sees what to fix).
"""

import os

from ..errors import UsageError

_TYPES = {"string": str, "boolean": bool, "integer": int, "object": dict}


def argument_problem(schema, arguments):
    """The first thing wrong with `arguments` (a dict) for `schema`, as a line, or None."""
    known = schema["properties"]
    for name in arguments:
        if name not in known:
            return f"unknown argument {name!r}; known: {', '.join(known)}"
    for name in schema.get("required", ()):
        if name not in arguments:
            return f"missing argument {name!r}: {known[name]['description']}"
    for name, value in arguments.items():
        problem = _value_problem(known[name], value)
        if problem:
            return f"argument {name!r} {problem}"
    return None


def _value_problem(schema, value):
    kind = schema["type"]
    wanted = _TYPES[kind]
    # A bool is an int to Python, never to JSON.
    if not isinstance(value, wanted) or (kind == "integer" and isinstance(value, bool)):
        return f"must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}, not {_json_kind(value)}"
    if "enum" in schema and value not in schema["enum"]:
        return f"must be one of {', '.join(map(str, schema['enum']))}, not {value!r}"
    if kind == "string" and len(value) < schema.get("minLength", 0):
        return "must not be empty"
    if kind == "integer" and value < schema.get("minimum", value):
        return f"must be at least {schema['minimum']}"
    return None


def _json_kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "an array", dict: "an object"}.get(type(value), "that")


def path_argument(value, what):
    """The path `value` names, for reading only: "~" expanded, relative to the folder the
    server was started in; standard input ("-") refused, since it carries the protocol."""
    if value.strip() in ("", "-"):
        raise UsageError(f"the {what} must be a file's path (standard input carries the "
                         "protocol, so '-' cannot name it)")
    if "\0" in value:
        raise UsageError(f"the {what}'s path holds a NUL character, which no path can hold")
    path = os.path.expanduser(value)
    if _is_standard_input(path):  # /dev/stdin, /dev/fd/0: reading it would eat the protocol
        raise UsageError(f"the {what} {value!r} is this server's standard input, which "
                         "carries the protocol: give a file's path")
    return path


def _is_standard_input(path):
    try:
        return os.path.samestat(os.stat(path), os.fstat(0))
    except (OSError, ValueError):  # no such file, or no standard input to be
        return False
