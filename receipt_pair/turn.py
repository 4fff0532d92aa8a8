"""A turn: one step of the agent, the command it ran and what the command printed.

A leaf module, so that every log reader (logs.py, transcripts/) can make turns without
importing another reader.
"""

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Turn:
    """One step of the agent: the command it ran and what the command printed."""

    cmd: str = ""
    output: str = ""
    exit_status: Optional[int] = None  # when the log records it (a witness, a transcript)
