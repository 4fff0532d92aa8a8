"""How the hook checks a stop (HookOptions, each field the command line's option of the same
name), and the one place that turns those options back into the command an agent runs
where it stops (`hook_command`), for `hook --install-snippet` and anything that installs
the hook. Nothing here prints.
"""

import dataclasses
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from typing import Optional

from ..errors import UsageError
from ..pair.settings import Settings
from ..store.files import check_path
from . import session as hook_session, stop as stop_hook
from .agents import get_agent
from .run import HookOutput

DEFAULT_BUDGET = 540.0
SPLITS = ("rules", "model")
BLOCK_WITH = ("decision", "exit2")
# What a claim the log contradicts does: send the agent back (the default); only where
# plain code settled the contradiction (the facts), the models' contradictions told to the
# person; or never send it back. The models accuse falsely far more often than the facts,
# and catch far more (docs/agents.md, "Which contradicted policy", from sealed run 7).
CONTRADICTED_POLICIES = ("block", "block-facts", "allow")
DEFAULT_CONTRADICTED = "block"


@dataclass(frozen=True)
class HookOptions:
    """How the hook checks a stop (each the command line's option of the same name)."""

    agent: str
    settings: Settings = field(default_factory=Settings)
    not_shown: str = stop_hook.DEFAULT_NOT_SHOWN
    contradicted: str = DEFAULT_CONTRADICTED
    max_blocks: int = stop_hook.DEFAULT_MAX_BLOCKS
    receipts: Optional[str] = None  # where receipts go (None: beside the session file)
    ledger: Optional[str] = None
    wait: float = hook_session.DEFAULT_WAIT
    budget: float = DEFAULT_BUDGET
    claims_from: Optional[str] = None  # a file of claims, one per line, instead of a split
    split: str = "rules"
    split_model: Optional[str] = None
    # How a block reaches the agent: its JSON on standard output ("decision"), or the
    # reason on standard error and exit status 2 ("exit2", where the agent documents it).
    block_with: str = "decision"

    def __post_init__(self):
        agent = get_agent(self.agent)  # a ValueError names the agents there are
        if self.block_with == "exit2" and not agent.exit2:
            raise UsageError(f"{agent.label} documents no block by exit status 2 where it "
                             "stops: block with its JSON (the default)")

    def checked(self):
        """These options with their settings checked, as an installed hook needs them (a
        UsageError names what is wrong). A stop checks them when it asks."""
        for path in (self.receipts, self.ledger, self.claims_from):
            if path not in (None, "-"):
                check_path(path)
        return dataclasses.replace(self, settings=self.settings.checked())


# The options carried into the hook's command, by the field of HookOptions or of Settings
# (a server or a reader set by environment variable here may not be set where the agent
# runs): each one that is set and differs from its default.
_CARRIED = (("--base-url", "base_url"), ("--model-a", "model_a"), ("--model-b", "model_b"),
            ("--rule", "rule"), ("--contradictions", "contradictions"), ("--reader", "reader"),
            ("--max-turns", "max_turns"),
            ("--timeout", "timeout"), ("--not-shown", "not_shown"),
            ("--contradicted", "contradicted"),
            ("--max-blocks", "max_blocks"), ("--block-with", "block_with"),
            ("--receipts", "receipts"), ("--ledger", "ledger"), ("--wait", "wait"),
            ("--budget", "budget"), ("--split", "split"), ("--split-model", "split_model"),
            ("--claims-from", "claims_from"))
_PATHS = ("receipts", "ledger", "claims_from")  # where the agent's shell may stand elsewhere
_DEFAULTS = {**vars(Settings()), **{f.name: f.default for f in dataclasses.fields(HookOptions)
                                    if f.default is not dataclasses.MISSING}}


def hook_command(options):
    """The shell command the agent should run where it stops: this program, `hook`, the
    agent, and every option of `options` (a HookOptions) that is given and differs from its
    default. Options that cannot run make no command: a hook that never checks anything
    (a reader unknown or retired, say) is a UsageError here, not at the agent's stop."""
    options.checked()
    if options.claims_from == "-":
        raise UsageError("claims from standard input cannot be installed: where the agent "
                         "stops, standard input carries the hook's JSON; name a file")
    settings = options.settings
    values = {**vars(options), **vars(settings), "reader": settings.reader_version}
    words = _program() + ["hook", options.agent]
    for flag, name in _CARRIED:
        value = values[name]
        if value is not None and value != _DEFAULTS[name]:
            words += [flag, os.path.abspath(value) if name in _PATHS else str(value)]
    for flag, extra in (("--extra-a", settings.extra_a), ("--extra-b", settings.extra_b)):
        if extra:
            words += [flag, json.dumps(dict(extra))]
    if settings.allow_remote:
        words.append("--allow-remote")
    if not settings.facts:
        words.append("--models-only")
    if not settings.redact:
        words.append("--no-redact")
    return " ".join(word if word.startswith("PYTHONPATH=") else shlex.quote(word)
                    for word in words)


def install_snippet(agent, command, max_blocks=stop_hook.DEFAULT_MAX_BLOCKS):
    """The settings that run `command` where `agent` (its command-line name) stops."""
    return get_agent(agent).snippet(command, max_blocks)


def setup(options):
    """What `hook --install-snippet` prints (a HookOutput): the settings snippet that
    runs the hook with `options` where the agent stops, and the lines that tell the person
    where it goes and what it cannot do yet."""
    agent = get_agent(options.agent)
    lines = [agent.where]
    if agent.why_unchecked:
        lines.append(f"{agent.why_unchecked}, so this hook lets the agent stop with a notice "
                     "and checks nothing")
    snippet = install_snippet(options.agent, hook_command(options), options.max_blocks)
    if isinstance(snippet, str):  # a settings file of text: a TOML block, a plugin
        return HookOutput(0, notes=lines, text=snippet)
    return HookOutput(0, snippet, notes=lines, indent=2)


def _program():
    """How the agent's shell can start receipt-pair: the installed command, or this Python
    with the package's folder on its path (a clone that was never installed)."""
    installed = shutil.which("receipt-pair")
    if installed:
        return [os.path.abspath(installed)]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return ["PYTHONPATH=" + shlex.quote(root), sys.executable, "-m", "receipt_pair"]
