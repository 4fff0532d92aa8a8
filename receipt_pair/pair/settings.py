"""The settings every question is asked with, in one frozen object that travels through the
library instead of a dozen keyword arguments: the models and their extra request fields,
the reader, the pair rule, how many turns a classic reader sees, the server and its limits,
and whether credentials are redacted when a log is read.

    from receipt_pair import Settings, check_claim
    settings = Settings(model_a="qwen2.5-coder-1.5b", model_b="qwen2.5-coder-0.5b",
                        base_url="http://127.0.0.1:18080/v1")
    check_claim("the tests pass", turns, settings)

`Settings.from_environment(**given)` is where the settings are read, once, for the command
line and for Python alike: what is given, else RECEIPT_PAIR_BASE_URL, _MODEL_A, _MODEL_B and
_READER, else the defaults. `checked()` checks every value before any model is asked and
resolves the reader, once, to the Reader the settings then carry.
"""

import dataclasses
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple, Union

from .. import readers
from ..check.render import DEFAULT_MAX_TURNS
from ..check.rules import CONTRADICTIONS, DEFAULT_CONTRADICTIONS, DEFAULT_RULE, RULES
from ..errors import UsageError
from ..server.defaults import (DEFAULT_BASE_URL, DEFAULT_MODEL_A, DEFAULT_MODEL_B,
                               DEFAULT_TIMEOUT, ENV_BASE_URL, ENV_MODEL_A, ENV_MODEL_B,
                               MAX_TIMEOUT)

if TYPE_CHECKING:  # names for annotations alone, whatever is loaded at run time
    from ..server.client import Client

# The settings a user's environment may give, by the variable that gives each.
ENVIRONMENT = {"base_url": ENV_BASE_URL, "model_a": ENV_MODEL_A, "model_b": ENV_MODEL_B,
               "reader": readers.ENV_READER}
# RECEIPT_PAIR_FACTS=off asks the models every claim, as --models-only does.
ENV_FACTS = "RECEIPT_PAIR_FACTS"
_OFF = ("off", "0", "no", "false")


@dataclass(frozen=True)
class Settings:
    """What a claim is checked with; `replace(**changes)` gives a changed copy."""

    model_a: str = DEFAULT_MODEL_A
    model_b: str = DEFAULT_MODEL_B
    extra_a: Mapping = field(default_factory=dict)  # extra request fields for model A
    extra_b: Mapping = field(default_factory=dict)
    # A reader version or a Reader (None: the default reader); checked() makes it the Reader.
    reader: Union[str, readers.Reader, None] = None
    rule: str = DEFAULT_RULE
    # Who may say `contradicted`: "any" (the models too) or "facts" (plain code only).
    contradictions: str = DEFAULT_CONTRADICTIONS
    max_turns: int = DEFAULT_MAX_TURNS
    base_url: str = DEFAULT_BASE_URL
    timeout: float = DEFAULT_TIMEOUT
    allow_remote: bool = False
    # Ask A and B at once (True), in turn (False), or at once when the server holds both.
    concurrent: Optional[bool] = False
    redact: bool = True  # replace credentials when a log is read
    allow_retired: bool = False  # a retired reader, only to re-run a sealed run
    # The facts plain code reads of the log decide first, and the models only what they do
    # not settle (False: the models are asked every claim, as a sealed run asks them).
    facts: bool = True

    @classmethod
    def from_environment(cls, **given: Any) -> "Settings":
        """The settings `given` (None: not given), each one not given taken from the
        user's environment where it sets it, else the default."""
        found: Dict[str, Any] = {name: os.environ.get(variable) or None
                                 for name, variable in ENVIRONMENT.items()}
        if os.environ.get(ENV_FACTS, "").strip().lower() in _OFF:
            found["facts"] = False
        given = {name: value for name, value in given.items()
                 if value is not None and not (name == "facts" and value is True)}
        return cls(**{name: value for name, value in {**found, **given}.items()
                      if value is not None})

    def replace(self, **changes: Any) -> "Settings":
        return dataclasses.replace(self, **changes)

    def checked(self) -> "Settings":
        """These settings, each value checked (a UsageError names the first that is not),
        with the reader they name resolved to its Reader (a retired one only with
        allow_retired; a Reader given is kept as given, once its version is known)."""
        if self.rule not in RULES:
            raise UsageError(f"unknown rule {self.rule!r}; known: {', '.join(RULES)}")
        if self.contradictions not in CONTRADICTIONS:
            raise UsageError(f"contradictions must be one of {', '.join(CONTRADICTIONS)}, "
                             f"not {str(self.contradictions)[:40]!r}")
        given = self.reader
        version = given.version if isinstance(given, readers.Reader) else given
        reader = readers.get_reader(version, replay=self.allow_retired)
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int) \
                or self.max_turns < 1:
            raise UsageError(f"max_turns must be a whole number of at least 1, not "
                             f"{self.max_turns!r}")
        for arm, extra in (("A", self.extra_a), ("B", self.extra_b)):
            if not isinstance(extra, Mapping):
                raise UsageError(f"the extra request fields of model {arm} must be a mapping")
        if not (isinstance(self.timeout, (int, float)) and 0 < self.timeout <= MAX_TIMEOUT):
            raise UsageError(f"timeout must be more than 0 and at most {MAX_TIMEOUT:g} s")
        return self.replace(reader=given if isinstance(given, readers.Reader) else reader)

    def client(self) -> "Client":
        """A client of the server these settings name."""
        from ..server.client import Client  # HTTP is loaded only where a model is asked

        return Client(self.base_url, timeout=self.timeout, allow_remote=self.allow_remote)

    @property
    def reader_version(self) -> Optional[str]:
        """The version of the reader these settings name (None: the default reader)."""
        return self.reader.version if isinstance(self.reader, readers.Reader) else self.reader

    @property
    def models(self) -> Tuple[Tuple[str, str, Dict[str, Any]], ...]:
        """(arm, model, extra fields) of A and B."""
        return (("A", self.model_a, dict(self.extra_a)), ("B", self.model_b,
                                                            dict(self.extra_b)))

    def model(self, arm: str) -> Tuple[str, Dict[str, Any]]:
        """(model, extra fields) of `arm`, "A" or "B"."""
        return (self.model_a, dict(self.extra_a)) if arm == "A" else \
            (self.model_b, dict(self.extra_b))
