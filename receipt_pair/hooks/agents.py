"""The agents whose stop a hook can hold, one row each: what the agent sends the hook, how
the hook sends it back, and where its settings go.

Every fact comes from the agent's own documentation or source; docs/agents.md names each.
Code elsewhere asks a row (`agent.events`, `agent.block`, `agent.snippet(...)`) and never
compares an agent's name, so a new agent is a new row.

A row says:
- which of its hook events are a stop, and the event to assume when its input names none;
- which key of its JSON input carries each field the hook reads (`FIELDS`);
- how it says that this stop follows one the hook sent back: a flag (`stop_hook_active`),
  a count (Cursor's `loop_count`), or nothing (the hook's own state must tell);
- the format of its session file among the log readers' formats (`logs.FORMATS`), and so
  whether receipt-pair can read it yet (`logs.transcripts.SESSION_FORMATS`);
- how a block is written (the JSON on standard output), whether it documents exit status 2
  as a block, and where a line for the person goes;
- its documented settings files, the shape of the snippet that installs the hook, the unit
  of a handler's timeout, and the switch its settings turn every hook off with (doctor).
"""

from dataclasses import dataclass, field
from typing import Mapping, Optional, Tuple, Union

from ..logs.transcripts import SESSION_FORMATS
from . import text_settings

# The hook's input fields, as HookInput names them. A row maps each it has to its own key.
FIELDS = ("event", "session_id", "transcript_path", "cwd", "continued", "message",
          "agent_id", "agent_transcript_path", "status")
# Seconds the snippets give the hook; its own budget (540 s) stays under it, so it answers,
# and saves its receipts, before the agent would kill it.
SNIPPET_SECONDS = 600
SNIPPET_NAME = "receipt-pair"


@dataclass(frozen=True)
class Agent:
    """One agent that runs a command where it stops."""

    name: str  # the command line's word: `hook NAME`
    label: str  # for people: "Gemini CLI"
    events: Tuple[str, ...]  # its hook events that are a stop, as it spells them
    # FIELDS name -> the key of its JSON input (or its keys, the first present read: an
    # agent whose input comes in two spellings)
    keys: Mapping[str, Union[str, Tuple[str, ...]]]
    # "grouped" (Claude Code's), "gemini", "cursor", "copilot", "flat" (VS Code's), or a
    # settings file of text: "kimi" (a TOML block), "opencode" (a plugin file)
    snippet_shape: str
    settings_files: Tuple[str, ...]  # documented places, "~" for the home folder
    where: str  # where the snippet goes, for the person installing it
    default_event: Optional[str] = None  # the event when the input names none
    continued_by: str = "flag"  # "flag" (a boolean), "count" (a count > 0) or "state"
    session_format: Optional[str] = None  # its session file's format among logs.FORMATS
    block: Mapping[str, str] = field(default_factory=lambda: {"decision": "block"})
    reason_key: str = "reason"  # the key of the block's text the agent reads
    nest: Optional[str] = None  # the key the block sits under (VS Code: hookSpecificOutput)
    exit2: bool = True  # documents exit status 2 (reason on standard error) as a block
    notice_key: Optional[str] = "systemMessage"  # a line the person reads, if it has one
    quiet: Optional[dict] = None  # what to print with nothing to say (None: nothing at all)
    checked_statuses: Optional[Tuple[str, ...]] = None  # stops of other statuses: unchecked
    timeout_key: str = "timeout"  # a handler's time limit, as its settings name it
    timeout_ms: bool = False  # that limit is in milliseconds (Gemini CLI), not seconds
    # How its settings switch every hook off, for doctor: "claude" (disableAllHooks),
    # "gemini" (hooksConfig.enabled), "codex" ([features] hooks in config.toml), or None.
    switch: Optional[str] = None
    # Why its session cannot back a claim even where it is read, said plainly (Cursor's
    # transcripts hold no command output), or None.
    unreadable_why: Optional[str] = None
    # Where `install` writes when no user-level settings file is there yet (None: the
    # first of them; a "*" is receipt-pair's own file in a folder the agent reads).
    install_file: Optional[str] = None

    @property
    def reads_session(self):
        """Whether receipt-pair can read this agent's session file yet."""
        return self.session_format in SESSION_FORMATS

    @property
    def why_unchecked(self):
        """Why the hook checks nothing for this agent (its session cannot be read), or
        None when it checks its claims."""
        if self.reads_session:
            return None
        return self.unreadable_why or (f"receipt-pair cannot read {self.label}'s session "
                                       "file yet")

    def reply(self, decision):
        """The JSON object to print on standard output for a StopDecision, or None to print
        nothing: a block in the agent's own words, else a notice where it shows one."""
        if decision.block:
            reply = {**self.block, self.reason_key: decision.reason}
            if self.nest:
                reply = {self.nest: reply}
            if decision.notice and self.notice_key:
                reply[self.notice_key] = decision.notice
            return reply
        if decision.notice and self.notice_key:
            return {self.notice_key: decision.notice}
        return None if self.quiet is None else dict(self.quiet)

    @property
    def text_settings(self):
        """Whether its settings file is text of its own (TOML, a plugin), not JSON."""
        return self.snippet_shape in ("kimi", "opencode")

    def snippet(self, command, max_blocks):
        """The settings that run `command` where this agent stops, in its documented shape:
        a JSON object, or the text of a TOML block or a plugin file."""
        seconds = SNIPPET_SECONDS * 1000 if self.timeout_ms else SNIPPET_SECONDS
        if self.snippet_shape == "kimi":
            return text_settings.kimi_block(command, self.events[0], seconds)
        if self.snippet_shape == "opencode":
            return text_settings.opencode_plugin(command, max_blocks, SNIPPET_SECONDS)
        if self.snippet_shape == "gemini":
            handler = {"name": SNIPPET_NAME, "type": "command", "command": command,
                       "timeout": seconds}
            return {"hooks": {event: [{"hooks": [handler]}] for event in self.events}}
        if self.snippet_shape == "flat":
            handler = {"type": "command", "command": command, "timeout": seconds}
            return {"hooks": {event: [dict(handler)] for event in self.events}}
        if self.snippet_shape == "cursor":
            # loop_limit is Cursor's own cap on follow-ups; it agrees with --max-blocks.
            handler = {"command": command, "timeout": SNIPPET_SECONDS, "loop_limit": max_blocks}
            return {"version": 1, "hooks": {event: [handler] for event in self.events}}
        if self.snippet_shape == "copilot":
            handler = {"type": "command", "bash": command, "timeoutSec": SNIPPET_SECONDS}
            return {"version": 1, "hooks": {event: [handler] for event in self.events}}
        handler = {"type": "command", "command": command, "timeout": seconds}
        return {"hooks": {event: [{"hooks": [dict(handler)]}] for event in self.events}}


def _merged_into(user_file, project_file, more=""):
    """Where a snippet goes for an agent with a user and a project settings file."""
    return (f"add this to {user_file} (all projects) or {project_file} (this project), "
            "merged with any \"hooks\" there" + (f"; {more}" if more else ""))


# The keys Claude Code's hooks use, which Codex and Gemini CLI share but for the message.
_COMMON_KEYS = {"event": "hook_event_name", "session_id": "session_id",
                "transcript_path": "transcript_path", "cwd": "cwd",
                "continued": "stop_hook_active"}
_CLAUDE_KEYS = {**_COMMON_KEYS, "message": "last_assistant_message", "agent_id": "agent_id",
                "agent_transcript_path": "agent_transcript_path"}

CLAUDE_CODE = Agent(
    name="claude-code", label="Claude Code", events=("Stop", "SubagentStop"),
    keys=_CLAUDE_KEYS, snippet_shape="grouped", session_format="claude-code",
    settings_files=("~/.claude/settings.json", ".claude/settings.json",
                    ".claude/settings.local.json"),
    where=_merged_into("~/.claude/settings.json", ".claude/settings.json"), switch="claude")

CODEX = Agent(
    name="codex", label="Codex", events=("Stop", "SubagentStop"), keys=_CLAUDE_KEYS,
    snippet_shape="grouped", session_format="codex",
    settings_files=("~/.codex/hooks.json", ".codex/hooks.json"),
    where=_merged_into("~/.codex/hooks.json", ".codex/hooks.json",
                       "Codex asks you to trust a new hook before it runs it (/hooks); its "
                       "hooks are on unless config.toml sets [features] hooks = false"),
    switch="codex")

GEMINI_CLI = Agent(
    name="gemini-cli", label="Gemini CLI", events=("AfterAgent",),
    keys={**_COMMON_KEYS, "message": "prompt_response"}, snippet_shape="gemini", session_format="gemini-cli",
    block={"decision": "deny"}, quiet={}, timeout_ms=True, switch="gemini",
    settings_files=("~/.gemini/settings.json", ".gemini/settings.json",
                    "/etc/gemini-cli/settings.json"),
    where=_merged_into("~/.gemini/settings.json", ".gemini/settings.json",
                       "hooks are on unless hooksConfig.enabled is false (the older "
                       "tools.enableHooks is no longer read); timeout is in milliseconds"))

CURSOR = Agent(
    name="cursor", label="Cursor", events=("stop",),
    keys={"event": "hook_event_name", "session_id": "conversation_id",
          "transcript_path": "transcript_path", "continued": "loop_count",
          "status": "status"},
    snippet_shape="cursor", continued_by="count", session_format="cursor",
    block={}, reason_key="followup_message", exit2=False, notice_key=None, quiet={},
    checked_statuses=("completed",),
    unreadable_why="Cursor's transcripts hold the commands the agent asked for but none of "
                   "their output or exit status, so no claim can be checked against them",
    settings_files=("~/.cursor/hooks.json", ".cursor/hooks.json", "/etc/cursor/hooks.json"),
    where=_merged_into("~/.cursor/hooks.json", ".cursor/hooks.json"))

COPILOT = Agent(
    name="copilot", label="GitHub Copilot CLI", events=("agentStop",),
    keys={"session_id": "sessionId", "transcript_path": "transcriptPath", "cwd": "cwd"},
    default_event="agentStop", snippet_shape="copilot", continued_by="state",
    session_format="copilot", exit2=False, notice_key=None, quiet={}, timeout_key="timeoutSec",
    settings_files=("~/.copilot/hooks/*.json", ".github/hooks/*.json"),
    where="save this as a file of its own in ~/.copilot/hooks/ (all repositories) or "
          ".github/hooks/ (this repository), for example receipt-pair.json")

DROID = Agent(
    name="droid", label="Factory Droid", events=("Stop", "SubagentStop"), keys=_COMMON_KEYS,
    snippet_shape="grouped", session_format="droid",
    settings_files=("~/.factory/hooks.json", "~/.factory/settings.json", ".factory/hooks.json",
                    ".factory/settings.json", ".factory/settings.local.json"),
    install_file="~/.factory/settings.json",
    where=_merged_into("~/.factory/settings.json", ".factory/settings.json",
                       "where a hooks.json is beside it, Droid reads hooks from that instead"))

QWEN_CODE = Agent(
    name="qwen-code", label="Qwen Code", events=("Stop",),
    keys={**_COMMON_KEYS, "message": "last_assistant_message"}, snippet_shape="grouped",
    session_format="qwen-code", quiet={}, timeout_ms=True, switch="claude",
    settings_files=("~/.qwen/settings.json", ".qwen/settings.json"),
    where=_merged_into("~/.qwen/settings.json", ".qwen/settings.json",
                       "a command hook's timeout is in milliseconds; disableAllHooks: true "
                       "turns every hook off"))

KIMI_CLI = Agent(
    name="kimi-cli", label="Kimi Code CLI", events=("Stop",),
    keys={"event": "hook_event_name", "session_id": "session_id", "cwd": "cwd",
          "continued": "stop_hook_active"},
    snippet_shape="kimi", session_format="kimi-cli",
    block={"permissionDecision": "deny"}, reason_key="permissionDecisionReason",
    nest="hookSpecificOutput", notice_key=None,
    settings_files=("~/.kimi/config.toml",),
    where="add this [[hooks]] table to ~/.kimi/config.toml (install writes it between two "
          "marked comment lines and reads the rest of the file, never rewriting it)")

OPENCODE = Agent(
    name="opencode", label="OpenCode", events=("session.idle",),
    keys={**_COMMON_KEYS}, snippet_shape="opencode", session_format="opencode",
    exit2=False, quiet={},
    settings_files=("~/.config/opencode/plugins/receipt-pair.js",
                    ".opencode/plugins/receipt-pair.js"),
    where="save this plugin as ~/.config/opencode/plugins/receipt-pair.js (all projects) or "
          ".opencode/plugins/receipt-pair.js (this project)")

VSCODE = Agent(
    name="vscode", label="VS Code agent hooks", events=("Stop",),
    keys={"event": ("hookEventName", "hook_event_name"), "session_id": ("sessionId", "session_id"),
          "transcript_path": "transcript_path", "cwd": "cwd", "continued": "stop_hook_active"},
    snippet_shape="flat", session_format="copilot", quiet={},
    block={"hookEventName": "Stop", "decision": "block"}, nest="hookSpecificOutput",
    settings_files=("~/.copilot/hooks/*.json", ".github/hooks/*.json"),
    install_file="~/.copilot/hooks/receipt-pair-vscode.json",
    where="save this as a file of its own in ~/.copilot/hooks/ (all workspaces) or "
          ".github/hooks/ (this workspace), for example receipt-pair-vscode.json")

AGENTS = {agent.name: agent for agent in (CLAUDE_CODE, CODEX, GEMINI_CLI, CURSOR, COPILOT,
                                          DROID, QWEN_CODE, KIMI_CLI, OPENCODE, VSCODE)}


def get_agent(name):
    """The row of an agent by its command-line name; ValueError names the known ones."""
    try:
        return AGENTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(AGENTS)}") from None
