"""Labelled items files: one claim and its log per line, with its truth when labelled.

    {"id": "h1-001", "claim": "...", "turns": [{"cmd": ..., "output": ...}], "truth": "shown"}
"""

import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..errors import InputError
from ..store.files import decode, display_name, json_lines, loads_strict, read_bytes, sha256_bytes
from ..turn import kind_of, turn_from_json
from ..turn import Turn

TRUTHS = ("shown", "contradicted", "not_shown")


@dataclass(frozen=True)
class Item:
    """A claim with its log, as a line of an items file; `truth` is the label, if any."""

    id: str
    claim: str
    turns: Tuple[Turn, ...]
    truth: Optional[str] = None
    trap: Optional[str] = None
    why: Optional[str] = None
    extra: dict = field(default_factory=dict, compare=False)



def read_items(path: str) -> Tuple[List[Item], str]:
    """Read a labelled items file (JSON Lines); return (items, sha256 of its bytes)."""
    data = read_bytes(path)
    name = display_name(path)
    text = decode(data, name)
    items = []
    seen: Dict[str, int] = {}  # id -> the line it was first used on
    for number, line in json_lines(text):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            value = loads_strict(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where} column {exc.colno}: not valid JSON: {exc.msg}") from None
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON: {exc}") from None
        item = item_from_json(value, where)
        if item.id in seen:
            raise InputError(f"{where}: id {item.id!r} already used on line {seen[item.id]}")
        seen[item.id] = number
        items.append(item)
    if not items:
        raise InputError(f"{name}: no items (the file is empty)")
    return items, sha256_bytes(data)


def item_from_json(value, where):
    if not isinstance(value, dict):
        raise InputError(f"{where}: an item must be an object, not {kind_of(value)}")
    item_id = value.get("id")
    if isinstance(item_id, bool) or not isinstance(item_id, (str, int)) or item_id == "":
        raise InputError(f"{where}: 'id' must be a non-empty string")
    claim = value.get("claim")
    if not isinstance(claim, str) or not claim.strip():
        raise InputError(f"{where}: 'claim' must be a non-empty string")
    turns = value.get("turns")
    if not isinstance(turns, list):
        raise InputError(f"{where}: 'turns' must be a list")
    if not turns:
        raise InputError(f"{where}: 'turns' is empty; an item needs a log")
    parsed = tuple(turn_from_json(t, f"{where} turn {i}") for i, t in enumerate(turns, 1))
    truth = value.get("truth")
    if truth is not None and truth not in TRUTHS:
        raise InputError(f"{where}: 'truth' must be one of {', '.join(TRUTHS)}, not {truth!r}")
    for key in ("trap", "why"):
        if value.get(key) is not None and not isinstance(value[key], str):
            raise InputError(f"{where}: '{key}' must be a string")
    known = {"id", "claim", "turns", "truth", "trap", "why"}
    return Item(id=str(item_id), claim=claim, turns=parsed, truth=truth,
                trap=value.get("trap"), why=value.get("why"),
                extra={k: v for k, v in value.items() if k not in known})
