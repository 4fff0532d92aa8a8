"""Does a reply really follow the JSON schema we sent? No model involved.

A server may answer HTTP 200 and ignore `response_format` (an unknown field, a schema form
it does not read, a backend without grammar support). An answer should record
`constrained: true` only when the reply shows the constraint held, so this checks the reply
against the schema itself.

It knows the subset of JSON Schema our readers use (`readers.answer_schema`,
`readers.lines_schema`): type (object, string, null, and the other JSON types), properties,
required, additionalProperties false, enum, const, anyOf, maxLength. A schema keyword
outside that subset makes the reply count as not conforming: what cannot be checked is not
vouched for. The reply is parsed exactly as the quote check parses it (one code fence may
be removed, a key given twice is refused).

Work is bounded: the schema is walked to a fixed depth, and the reply's own depth is only
followed where the schema leads.
"""

from ..check.quote import parse_reply

MAX_DEPTH = 32  # schema levels followed; ours use four
# Keywords that say nothing about validity.
_ANNOTATIONS = frozenset(("title", "description", "$schema", "$id", "default", "examples",
                          "$comment"))
_KNOWN = frozenset(("type", "properties", "required", "additionalProperties", "enum", "const",
                    "anyOf", "maxLength")) | _ANNOTATIONS


def conforms(reply_text, schema):
    """True only if `reply_text` is one JSON object that validates against `schema`."""
    try:
        value = parse_reply(reply_text)
    except (RecursionError, ValueError, TypeError):
        return False
    if value is None or not isinstance(schema, dict):
        return False
    try:
        return _valid(value, schema, 0)
    except RecursionError:
        return False


def _valid(value, schema, depth):
    if depth > MAX_DEPTH or not isinstance(schema, dict):
        return False
    if any(key not in _KNOWN for key in schema):
        return False
    if "type" in schema and not _type_ok(value, schema["type"]):
        return False
    if "const" in schema and not _same(value, schema["const"]):
        return False
    if "enum" in schema:
        if not isinstance(schema["enum"], list) or \
                not any(_same(value, option) for option in schema["enum"]):
            return False
    if "maxLength" in schema and isinstance(value, str):
        limit = schema["maxLength"]
        if not _is_int(limit) or len(value) > limit:  # code points, as JSON Schema counts
            return False
    if "anyOf" in schema:
        branches = schema["anyOf"]
        if not isinstance(branches, list) or not branches or \
                not any(_valid(value, branch, depth + 1) for branch in branches):
            return False
    if isinstance(value, dict):
        return _object_ok(value, schema, depth)
    return True


def _object_ok(value, schema, depth):
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if not isinstance(properties, dict) or not isinstance(required, list):
        return False
    if any(not isinstance(name, str) or name not in value for name in required):
        return False
    for key, item in value.items():
        if key in properties:
            if not _valid(item, properties[key], depth + 1):
                return False
        elif extra is False:
            return False
        elif extra is not True:
            # A schema for additional properties is outside the subset we check.
            return False
    return True


def _type_ok(value, expected):
    if isinstance(expected, list):
        return bool(expected) and any(_type_ok(value, one) for one in expected)
    checks = {
        "object": lambda v: isinstance(v, dict),
        "string": lambda v: isinstance(v, str),
        "null": lambda v: v is None,
        "boolean": lambda v: isinstance(v, bool),
        "integer": lambda v: _is_int(v) or (isinstance(v, float) and v.is_integer()),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
    }
    check = checks.get(expected)
    return check is not None and check(value)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _same(a, b):
    """JSON equality: true is not 1, and 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return False
