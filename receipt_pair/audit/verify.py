"""The quote check alone, on a saved reply; a saved receipt's log read as it was read.

No server is involved: `verify_reply` shows the reader's turns as the model was shown them
and checks the reply's quote against them, as `verify --log --reply` does (and the MCP
server's `verify_reply` tool). Nothing here prints.

    from receipt_pair import read_log, verify_reply
    verified = verify_reply(reply_text, read_log("session.jsonl").turns, reader="v6")
    verified.checked.answer, verified.to_dict()
"""

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Dict, Iterable, Optional, Union, cast

from ..answers import CheckedAnswer
from ..errors import UsageError
from ..pair.claim import as_turns
from ..pair.settings import Settings
from ..readers import unpack_replies
from ..store.records import reply_content
from ..turn import Turn

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from ..readers import Reader


@dataclass
class Verified:
    """A saved reply after the quote check: the checked answer and the reader's version."""

    checked: CheckedAnswer
    reader: str

    def to_dict(self) -> Dict[str, Any]:
        """The keys of `verify --json`."""
        c = self.checked
        return {"answer": c.answer, "code": c.code, "verdict": c.verdict, "turn": c.turn,
                "quote": c.quote, "reason": c.reason, "reader": self.reader}


def verify_reply(reply: str, turns: Iterable[Union[Turn, dict]],
                 settings: Optional[Settings] = None, claim: str = "",
                 **changes: Any) -> Verified:
    """The quote check on `reply`, a model's saved reply (its text, or a whole chat
    response as JSON text), against `turns` as the settings' reader shows them; a Verified.

    A saved reply asks nothing new, so a retired reader may judge it. Any Settings field may
    be given by keyword (`reader="v6"`, `max_turns=`). A reader that picks the log's lines
    by the claim needs the claim the reply answers."""
    if not isinstance(reply, str):
        raise UsageError("the reply must be a string")
    if not isinstance(claim, str):
        raise UsageError("the claim must be a string")
    unknown = sorted(set(changes) - {f.name for f in fields(Settings)})
    if unknown:
        raise UsageError(f"verify_reply has no setting {unknown[0]!r}")
    given = {name: value for name, value in changes.items() if value is not None}
    settings = (settings or Settings()).replace(**given, allow_retired=True).checked()
    reader = cast("Reader", settings.reader)  # a Reader: the settings are checked
    if reader.menu and not claim.strip():
        raise UsageError(f"reader {reader.version} picks the log's lines by the claim: give "
                         "the claim the reply answers", cli_hint="pass --claim")
    shown = reader.render(as_turns(turns), settings.max_turns, claim)
    checked = reader.judge(unpack_replies(reader, reply_content(reply)), shown)
    return Verified(checked, reader.version)


def receipt_redacted(receipt):
    """The redactor version a receipt's log was read with, or False: a receipt that names
    none was read with s1, the first; one made before redaction records nothing, and its log
    was read as it was."""
    redaction = receipt.get("redaction") if isinstance(receipt, dict) else None
    if not (isinstance(redaction, dict) and redaction.get("on") is True):
        return False
    version = redaction.get("version")
    return version if isinstance(version, str) else "s1"
