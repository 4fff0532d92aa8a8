"""The readers: what one model is asked about a claim. Imports check and server.

Every version is a plain constant in the one literal table READERS, made of the kinds of
reader in base.py (what every reader is), classic.py, labelled.py and narrow.py; their
words are in classic.py and menu_words.py. The retired v1-v5 are made from their frozen
words in legacy/classic_words.py the first time one is asked for (a replay of a sealed
run): no live reader loads anything of legacy/.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Optional

from ..errors import UsageError
from .base import Reader  # noqa: F401 (the names readers are used by)
from .classic import INSTRUCTIONS_V6, ClassicReader
from .labelled import LabelledReader
from .menu_words import (INSTRUCTIONS_E1, INSTRUCTIONS_E2, INSTRUCTIONS_F1, INSTRUCTIONS_F2,
                         INSTRUCTIONS_N1_FAILURE, INSTRUCTIONS_N1_SUCCESS, INSTRUCTIONS_R1,
                         line_first_schema, line_schema, short_reason_schema)
from .narrow import NarrowReader, Question, pack_replies, unpack_replies  # noqa: F401
from .vocabulary import VOCABULARIES  # noqa: F401

_RETIRED = ("its request fences could be forged from inside a log, and its quote check "
            "judged a quote without its line; kept to replay sealed runs")
_FROZEN_WORDS = "receipt_pair.legacy.classic_words"


@dataclass(frozen=True)
class Retired:
    """A retired classic reader of the v1 era, by the names of its frozen words (its
    instructions, its reply schema if not the classic one): made when first asked for."""

    version: str
    instructions: str
    schema: Optional[str] = None
    description: str = ""
    retired: str = _RETIRED

    def make(self):
        words = import_module(_FROZEN_WORDS)
        schema = {"schema": getattr(words, self.schema)} if self.schema else {}
        return ClassicReader(self.version, getattr(words, self.instructions), **schema,
                             build_messages=words.messages_v1, check="c1", sealed_check="c1",
                             retired=self.retired, description=self.description)


class ReaderTable(Mapping):
    """{version: Reader} in the order written: each Retired entry becomes its reader the
    first time it is looked up."""

    def __init__(self, entries):
        self._entries = dict(entries)

    def __getitem__(self, version):
        entry = self._entries[version]
        if isinstance(entry, Retired):
            entry = self._entries[version] = entry.make()
        return entry

    def __contains__(self, version):
        return version in self._entries  # without making the reader

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def why_retired(self, version):
        """Why `version` is retired ("" for a reader new questions use), told without
        making a retired reader."""
        return self._entries[version].retired


# Every reader version, once. A version is never replaced: a change is a new version.
READERS = ReaderTable({
    "v1": Retired("v1", "INSTRUCTIONS_V1",
                  description="one question, free quote, JSON shape constrained"),
    "v2": Retired("v2", "INSTRUCTIONS_V2", "lines_schema",
                  description="constrained quote: a cited turn comes with one of its own "
                              "output lines"),
    "v3": Retired("v3", "INSTRUCTIONS_V3", "lines_schema_reason_first",
                  description="look first: constrained quote, answers' meanings spelled out, "
                              "reason first"),
    "v4": Retired("v4", "INSTRUCTIONS_V4",
                  description="worked examples: v3's meanings, free quote, three short "
                              "examples"),
    "v5": Retired("v5", "INSTRUCTIONS_V5", "lines_schema",
                  description="meanings, constrained: v2's constrained quote with v3's "
                              "instructions"),
    "v6": ClassicReader("v6", INSTRUCTIONS_V6,
                        description="v1 hardened: v1's question with fences a log cannot "
                                    "forge, the claim on one line, and the line-judging "
                                    "quote check"),
    "e1": LabelledReader("e1", INSTRUCTIONS_E1, logprobs=True,
                         description="evidence first: lines picked from the whole log by "
                                     "plain code, answered by label"),
    "e2": LabelledReader("e2", INSTRUCTIONS_E2, schema=line_first_schema, logprobs=True,
                         description="line first: e1's menu, the reply names the deciding "
                                     "line before the verdict"),
    "n1": NarrowReader("n1", INSTRUCTIONS_N1_SUCCESS + "\n\n" + INSTRUCTIONS_N1_FAILURE,
                       questions=(Question("success", INSTRUCTIONS_N1_SUCCESS, line_schema,
                                           "shown"),
                                  Question("failure", INSTRUCTIONS_N1_FAILURE, line_schema,
                                           "contradicted")),
                       description="narrow questions: which line shows success, which shows "
                                   "failure or undoing; the later decides"),
    "r1": LabelledReader("r1", INSTRUCTIONS_R1, logprobs=True, partner=True,
                         description="roles: e1, and model B is told model A's answer and "
                                     "line to check, and looks for a later failure"),
    "f1": LabelledReader("f1", INSTRUCTIONS_F1, logprobs=True, menu_version="m3",
                         sealed_check="c3", sealed_menu="m3",
                         description="facts: lines and the facts plain code read of each "
                                     "turn (operation, later runs, exit status, test counts, "
                                     "pushed refs); A and B asked the same question apart"),
    "f2": LabelledReader("f2", INSTRUCTIONS_F2, schema=short_reason_schema, logprobs=True,
                         menu_version="m3", sealed_check="c3", sealed_menu="m3",
                         log_first=True,
                         description="f1 asked log first and claim last, with a shorter "
                                     "reason: the claims of one stop share one menu and "
                                     "everything before the claim"),
})
# The default is the winner of the latest sealed choice (receipts/run-5-real/choice.json: f2,
# an independent pair, over r1 on 109 real items). Run 3 had chosen r1
# (receipts/run-3-structure/choice.json); run 2 had sealed v1 (receipts/run-2-readers), which
# is retired: v6, its question with the hardened fences and check, stood in for it until run 3.
DEFAULT_READER = "f2"
SEALED_DEFAULT = {"v1": "v6", "r1": "r1", "f2": "f2"}
ENV_READER = "RECEIPT_PAIR_READER"  # a user's own default, read by the command line only


def get_reader(version: Optional[str] = None, replay: bool = False) -> Reader:
    """The reader of `version` (the default reader when None). A retired reader is given
    only to replay what it answered, never to ask a new question."""
    version = version or DEFAULT_READER
    if version not in READERS:
        raise UsageError(f"unknown reader {version!r}; known: {', '.join(sorted(READERS))}")
    retired = READERS.why_retired(version)
    if retired and not replay:
        raise UsageError(f"reader {version} is retired ({retired}); use one of "
                         f"{', '.join(usable_readers())}")
    return READERS[version]


def usable_readers():
    """The versions a new question may use."""
    return [version for version in READERS if not READERS.why_retired(version)]


def __getattr__(name):
    # The retired v1, which tests and sealed scripts name, is made only when it is asked for.
    if name == "READER_V1":
        return READERS["v1"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
