"""The narrow reader (n1): two extraction questions per model over e1's menu, "which line
shows the claimed operation succeeded?" and "which line shows it failed or was undone?";
plain code decides (the later of the two lines, by label, wins; neither is not shown)."""

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, Optional, Tuple

from .labelled import LabelledReader
from .menu_words import decide_narrow, menu_messages, resolve_line

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from .base import Reader


@dataclass(frozen=True)
class Question:
    """One of the questions a narrow reader asks each model."""

    name: str
    instructions: str
    schema: Callable  # shown turns -> the reply's JSON schema
    verdict: str  # the verdict a line found by this question stands for


@dataclass(frozen=True)
class NarrowReader(LabelledReader):
    """Several questions per model, each answered by a label or none."""

    questions: Tuple[Question, ...] = ()  # type: ignore[assignment]  # the base has none

    def bodies(self, claim, shown, model, extra=None, constrained=True, server=None,
               partner=None):
        from ..server.request import build_body  # only a question asked needs it (the hook)
        return [(q.name, build_body(menu_messages(q.instructions, claim, shown),
                                    q.schema(shown) if constrained else None, model, extra,
                                    server, self.logprobs))
                for q in self.questions]

    def schemas(self, shown):
        return {q.name: q.schema(shown) for q in self.questions}

    def judge(self, replies, shown, confidence=None):
        found = {q.name: super(LabelledReader, self).check_reply(
                     resolve_line(replies.get(q.name), shown, q.verdict), shown)
                 for q in self.questions}
        return decide_narrow(found["success"], found["failure"], shown)


def pack_replies(replies):
    """The stored reply text: the one reply as it came, or several as one JSON object."""
    if set(replies) == {"answer"}:
        return replies["answer"]
    return json.dumps(replies, ensure_ascii=False, sort_keys=True)


def unpack_replies(reader: "Reader", text: Optional[str]) -> Dict[str, Optional[str]]:
    """{question name: raw reply} from a stored reply text (None where it cannot be read)."""
    if not reader.questions:
        return {"answer": text}
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        value = None
    value = value if isinstance(value, dict) else {}
    return {q.name: value.get(q.name) if isinstance(value.get(q.name), str) else None
            for q in reader.questions}
