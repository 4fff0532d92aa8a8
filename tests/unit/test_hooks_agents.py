"""The hooks of the agents added in issue 33 (Factory Droid, Qwen Code, Kimi Code CLI,
OpenCode, VS Code) and GitHub Copilot CLI, whose session is now read: each fed its own
hook input (tests/data/hooks/hook-AGENT-*.json) and a session file shaped as its docs and
source show (tests/data/transcripts, tests/data/hooks, SOURCES.md there), and answered in
its own block protocol. The fake models judge by the claim and quote a real line."""

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import unittest
from unittest import mock

from receipt_pair.hooks.agents import AGENTS
from receipt_pair.logs.transcripts import kimi_cli
from tests.fakeserver import FakeServer
from tests.helpers import (DATA, GREEN_RULES, RED_RULES, REJECTED, TempDirTest, judge,
                           read_json, run_cli, users_reader)

TRANSCRIPTS = os.path.join(DATA, "transcripts")
HOOKS = os.path.join(DATA, "hooks")
# agent -> (red session, green session, no-tools session, hook input)
SESSIONS = {
    "copilot": ("copilot-events.jsonl", "copilot-green.jsonl", "copilot-no-tools.jsonl",
                "hook-copilot-agentstop.json"),
    "droid": ("droid-session.jsonl", "droid-green.jsonl", "droid-no-tools.jsonl",
              "hook-droid-stop.json"),
    "qwen-code": ("qwen-code-session.jsonl", "qwen-code-green.jsonl",
                  "qwen-code-no-tools.jsonl", "hook-qwen-code-stop.json"),
    "kimi-cli": ("kimi-cli-context.jsonl", "kimi-cli-green.jsonl", "kimi-cli-no-tools.jsonl",
                 "hook-kimi-cli-stop.json"),
    "opencode": ("opencode-session.json", "opencode-green.json", "opencode-no-tools.json",
                 "hook-opencode-idle.json"),
    "vscode": ("copilot-events.jsonl", "copilot-green.jsonl", "copilot-no-tools.jsonl",
               "hook-vscode-stop.json"),
}
MESSAGE = {"qwen-code": "last_assistant_message"}  # the others' input carries none


def block_of(agent, out):
    """The reason of a block in the agent's own words, or None when it was let stop."""
    out = out or {}
    if agent == "kimi-cli":
        inner = out.get("hookSpecificOutput") or {}
        return inner.get("permissionDecisionReason") if inner.get("permissionDecision") \
            == "deny" else None
    if agent == "vscode":
        inner = out.get("hookSpecificOutput") or {}
        return inner.get("reason") if inner.get("decision") == "block" else None
    return out.get("reason") if out.get("decision") == "block" else None


def opencode_database(path, document):
    """An OpenCode storage database at `path` holding the session of `document` (the SDK's
    list of messages), in the tables OpenCode 1.2 writes (session.sql.ts)."""
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT "
                           "NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT "
                           "NULL)")
        connection.execute("CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, "
                           "session_id TEXT NOT NULL, time_created INTEGER, time_updated "
                           "INTEGER, data TEXT NOT NULL)")
        for message in document:
            info = dict(message["info"])
            message_id = info.pop("id")
            connection.execute("INSERT INTO message VALUES (?, ?, 1, 1, ?)",
                               (message_id, info["sessionID"], json.dumps(info)))
            for part in message["parts"]:
                part = dict(part)
                connection.execute("INSERT INTO part VALUES (?, ?, ?, 1, 1, ?)",
                                   (part.pop("id"), message_id, info["sessionID"],
                                    json.dumps(part)))
    connection.close()


class AgentHookTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.fake = FakeServer()
        self.fake.__enter__()
        self.addCleanup(self.fake.__exit__, None, None, None)
        self.project = self.path("project")
        os.makedirs(self.project)
        self.env = {"KIMI_SHARE_DIR": self.path("kimi-share"),
                    "OPENCODE_DB": self.path("opencode.db")}

    def stop(self, agent, which=0, **changes):
        """Put the agent's session where it keeps it; return its hook input's path."""
        session = SESSIONS[agent][which]
        source = os.path.join(TRANSCRIPTS if which == 0 else HOOKS, session)
        value = read_json(os.path.join(HOOKS, SESSIONS[agent][3]))
        value["cwd"] = self.project
        if agent == "kimi-cli":
            path = kimi_cli.session_path(self.project, value["session_id"], self.env)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.copy(source, path)
        elif agent == "opencode":
            if os.path.exists(self.env["OPENCODE_DB"]):
                os.unlink(self.env["OPENCODE_DB"])
            document = read_json(source)
            opencode_database(self.env["OPENCODE_DB"], document)
            value["session_id"] = document[0]["info"]["sessionID"]
        else:
            path = self.path(f"{agent}-{which}-{session}")
            shutil.copy(source, path)
            value["transcriptPath" if agent == "copilot" else "transcript_path"] = path
        if agent in MESSAGE and which == 2:
            value[MESSAGE[agent]] = "I ran the tests, all pass."
        elif agent in MESSAGE and which == 1:
            value[MESSAGE[agent]] = ("Fixed the empty-input crash in `parse()`; all 7 tests "
                                     "pass and I pushed fix/parser.")
        value.update(changes)
        return self.write(f"hook-{agent}-{len(os.listdir(self.dir))}.json", json.dumps(value))

    def hook(self, agent, hook_input, *options, rules=RED_RULES):
        self.fake.default = judge(rules)
        with mock.patch.dict(os.environ, self.env):
            status, out, err = run_cli("hook", agent, "--input", hook_input, "--base-url",
                                       self.fake.base_url, "--model-a", "A", "--model-b", "B",
                                       "--wait", "1", "--receipts", self.path("receipts"),
                                       *options)
        self.assertNotIn("Traceback", err)
        return status, (json.loads(out) if out.strip() else None), err


class EachAgent(AgentHookTest):
    def test_a_contradicted_claim_sends_it_back_in_its_own_protocol(self):
        for agent in SESSIONS:
            with self.subTest(agent):
                status, out, err = self.hook(agent, self.stop(agent))
                self.assertEqual(status, 0, err)
                reason = block_of(agent, out)
                self.assertIsNotNone(reason, (out, err))
                self.assertIn(REJECTED, reason)
                self.assertIn("git push origin fix/parser", reason)
                self.assertIn("the push was rejected: pull, then push again", reason)

    def test_claims_the_log_shows_let_it_stop(self):
        for agent in SESSIONS:
            with self.subTest(agent):
                status, out, err = self.hook(agent, self.stop(agent, 1), rules=GREEN_RULES)
                self.assertEqual(status, 0, err)
                self.assertIsNone(block_of(agent, out), out)
                self.assertIn("shown", err)
                self.assertIn(out, (None, {}) if AGENTS[agent].notice_key is None else
                              (None, {}, {"systemMessage": mock.ANY}))

    def test_a_session_with_no_command_is_sent_back_once_without_a_model(self):
        for agent in SESSIONS:
            with self.subTest(agent):
                self.fake.requests.clear()
                status, out, err = self.hook(agent, self.stop(agent, 2))
                reason = block_of(agent, out)
                self.assertIsNotNone(reason, (out, err))
                self.assertIn("your log holds no command at all", reason)
                self.assertEqual(self.fake.chats(), [])

    def test_exit_status_2_where_the_agent_documents_it(self):
        for agent in SESSIONS:
            with self.subTest(agent):
                status, out, err = self.hook(agent, self.stop(agent), "--block-with", "exit2")
                if AGENTS[agent].exit2:
                    self.assertEqual((status, out), (2, None))
                    self.assertIn(REJECTED, err)
                else:
                    self.assertEqual((status, out), (1, None))
                    self.assertIn("exit status 2", err)


class Protocols(AgentHookTest):
    def test_copilot_continuations_are_counted_by_the_hooks_state(self):
        # agentStop says nothing of a stop that follows a block: the state counts it.
        outs = []
        for _ in range(4):
            _, out, _ = self.hook("copilot", self.stop("copilot", sessionId="s1"),
                                  "--max-blocks", "2")
            outs.append("block" if block_of("copilot", out) else "allow")
        self.assertEqual(outs, ["block", "block", "allow", "allow"])

    def test_vscode_reads_either_spelling_of_its_input(self):
        # Copilot CLI runs a VS Code-format Stop hook too, with snake_case keys.
        hook_input = self.stop("vscode")
        value = read_json(hook_input)
        snake = {"hook_event_name": "Stop", "session_id": value["sessionId"],
                 "transcript_path": value["transcript_path"], "cwd": value["cwd"],
                 "stop_reason": "end_turn", "timestamp": "2026-02-09T10:30:00.000Z"}
        status, out, err = self.hook("vscode", self.write("snake.json", json.dumps(snake)))
        self.assertIn(REJECTED, block_of("vscode", out), err)
        self.assertEqual(out["hookSpecificOutput"]["hookEventName"], "Stop")

    def test_vscode_transcripts_that_keep_no_tool_output_are_not_checked(self):
        path = self.path("transcript.jsonl")
        shutil.copy(os.path.join(HOOKS, "vscode-transcript-no-results.jsonl"), path)
        hook_input = self.stop("vscode", transcript_path=path)
        status, out, err = self.hook("vscode", hook_input)
        self.assertEqual(status, 0)
        self.assertIsNone(block_of("vscode", out))
        self.assertIn("holds no commands (no tool call with a result)", out["systemMessage"])
        self.assertEqual(self.fake.chats(), [])

    def test_kimi_finds_its_session_from_the_folder_and_the_id(self):
        hook_input = self.stop("kimi-cli")
        value = read_json(hook_input)
        self.assertNotIn("transcript_path", value)
        folder = hashlib.md5(b"/home/dev/parser").hexdigest()  # Kimi's metadata.py
        self.assertEqual(kimi_cli.session_path("/home/dev/parser", "s1", {}, "/home/dev"),
                         f"/home/dev/.kimi/sessions/{folder}/s1/context.jsonl")
        self.assertEqual(kimi_cli.session_path("/home/dev/parser", "s1",
                                               {"KIMI_SHARE_DIR": "/share"}),
                         f"/share/sessions/{folder}/s1/context.jsonl")
        for bad in ("", "../x", "a/b", ".."):
            self.assertIsNone(kimi_cli.session_path("/home/dev/parser", bad, {}))
        # a session the folder does not hold: nothing to check, and the agent may stop (no
        # wait for a file that is not there: the wait is test_stop_hook.py's, on a fake clock)
        status, out, err = self.hook("kimi-cli", self.stop("kimi-cli", session_id="other"),
                                     "--wait", "0")
        self.assertEqual((status, out), (0, None))
        self.assertIn("cannot be read", err)

    def test_opencode_reads_its_database_named_or_found(self):
        hook_input = self.stop("opencode")
        status, out, _ = self.hook("opencode", hook_input)
        self.assertIn(REJECTED, block_of("opencode", out))
        named = dict(read_json(hook_input), transcript_path=self.env["OPENCODE_DB"])
        self.env["OPENCODE_DB"] = self.path("elsewhere.db")  # the input's path is used
        status, out, _ = self.hook("opencode", self.write("named.json", json.dumps(named)))
        self.assertIn(REJECTED, block_of("opencode", out))

    def test_the_hooks_input_shapes(self):
        from receipt_pair.hooks.stop import parse_hook_input
        for agent, (_, _, _, name) in SESSIONS.items():
            with self.subTest(agent), open(os.path.join(HOOKS, name), "rb") as handle:
                hook = parse_hook_input(handle.read(), agent=AGENTS[agent])
            self.assertIn(hook.event, AGENTS[agent].events)
            self.assertNotEqual(hook.session_id, "unknown-session")
            self.assertEqual(hook.cwd, "/home/dev/parser")
            self.assertFalse(hook.stop_hook_active)


@unittest.skipUnless(shutil.which("node"), "node runs the OpenCode plugin")
class OpenCodePlugin(TempDirTest):
    """The plugin install writes, run by node with a stand-in for OpenCode's client: at an
    idle it runs the hook's command with the session's id, and sends a block's reason to
    the session as the next prompt; a continuation says so, and the cap holds."""

    def run_plugin(self, reply, idles=1):
        from receipt_pair.hooks.text_settings import opencode_plugin
        seen = self.path("seen.jsonl")
        hook = self.write("hook.py", "import json, sys\n"
                          f"open({seen!r}, 'a').write(sys.stdin.read() + '\\n')\n"
                          f"print(json.dumps({reply!r}))\n")
        plugin = self.write("plugin.mjs", opencode_plugin(
            f"{sys.executable} {hook}", max_blocks=2, seconds=30))
        # Each idle is 2.1 s after the last check ended, past the plugin's 2 s between two
        # checks of one session: on a clock the driver moves (Date.now), not by waiting.
        driver = self.write("driver.mjs", f"""
import {{ ReceiptPair }} from {json.dumps(plugin)};
let now = Date.now();
Date.now = () => now;
const prompts = [];
const client = {{ session: {{ prompt: async (request) => {{ prompts.push(request); }} }} }};
const hooks = await ReceiptPair({{ client, directory: {json.dumps(self.dir)} }});
for (let i = 0; i < {idles}; i++) {{
  await hooks.event({{ event: {{ type: "session.idle", properties: {{ sessionID: "ses_1" }} }} }});
  await new Promise((resolve) => setImmediate(resolve));  // a prompt sent is kept first
  now += 2100;
}}
console.log(JSON.stringify(prompts));
""")
        done = subprocess.run(["node", driver], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(seen) as handle:
            inputs = [json.loads(line) for line in handle if line.strip()]
        return json.loads(done.stdout), inputs

    def test_a_block_becomes_the_next_prompt_and_the_cap_holds(self):
        prompts, inputs = self.run_plugin({"decision": "block", "reason": "fix it"}, idles=3)
        self.assertEqual([p["body"]["parts"][0]["text"] for p in prompts], ["fix it", "fix it"])
        self.assertEqual(prompts[0]["path"], {"id": "ses_1"})
        self.assertEqual([i["stop_hook_active"] for i in inputs], [False, True, True])
        self.assertEqual({i["hook_event_name"] for i in inputs}, {"session.idle"})
        self.assertEqual({i["session_id"] for i in inputs}, {"ses_1"})

    def test_no_block_no_prompt(self):
        prompts, inputs = self.run_plugin({})
        self.assertEqual(prompts, [])
        self.assertEqual(len(inputs), 1)


class Installing(AgentHookTest):
    def test_kimi_and_opencode_settings_of_their_own(self):
        home = self.path("home")
        os.makedirs(os.path.join(home, ".kimi"))
        os.makedirs(os.path.join(home, ".config", "opencode"))
        config = os.path.join(home, ".kimi", "config.toml")
        with open(config, "w") as handle:
            handle.write('default_model = "kimi-k2"\n\n[[hooks]]\nevent = "PreToolUse"\n'
                         'matcher = "Shell"\ncommand = "~/.kimi/hooks/guard.sh"\n')
        with mock.patch.dict(os.environ, {"HOME": home}), users_reader():
            server = ("--base-url", self.fake.base_url, "--model-a", "A", "--model-b", "B")
            for agent in ("kimi-cli", "opencode"):
                status, out, err = run_cli("install", agent, "--max-blocks", "2", *server)
                self.assertEqual(status, 0, err)
                again = run_cli("install", agent, "--max-blocks", "2", *server)[1]
                self.assertIn("nothing changed", again)
            with open(config) as handle:
                text = handle.read()
            self.assertTrue(text.startswith('default_model = "kimi-k2"\n\n[[hooks]]\n'
                                            'event = "PreToolUse"'))
            self.assertIn('[[hooks]]\nevent = "Stop"\ncommand = "', text)
            self.assertIn("hook kimi-cli --base-url", text)
            plugin = os.path.join(home, ".config", "opencode", "plugins", "receipt-pair.js")
            with open(plugin) as handle:
                self.assertIn("hook opencode --base-url", handle.read())
            status, out, _ = run_cli("doctor", "--json", "--project", self.project,
                                     "--base-url", self.fake.base_url, "--model-a", "A",
                                     "--model-b", "B")
            checks = {c["check"]: c for c in json.loads(out)["checks"]}
            self.assertIn("runs `", checks["agent kimi-cli"]["said"])
            self.assertIn("at Stop", checks["agent kimi-cli"]["said"])
            self.assertIn("at session.idle", checks["agent opencode"]["said"])
            for agent in ("kimi-cli", "opencode"):
                self.assertEqual(run_cli("uninstall", agent)[0], 0)
            with open(config) as handle:
                self.assertEqual(handle.read(), 'default_model = "kimi-k2"\n\n[[hooks]]\n'
                                 'event = "PreToolUse"\nmatcher = "Shell"\ncommand = '
                                 '"~/.kimi/hooks/guard.sh"\n')
            self.assertFalse(os.path.exists(plugin))

    def test_a_kimi_config_with_hooks_inline_is_refused(self):
        home = self.path("home")
        os.makedirs(os.path.join(home, ".kimi"))
        config = os.path.join(home, ".kimi", "config.toml")
        with open(config, "w") as handle:
            handle.write('hooks = []\n')
        with mock.patch.dict(os.environ, {"HOME": home}):
            status, _, err = run_cli("install", "kimi-cli")
        self.assertEqual(status, 5)
        self.assertIn("sets hooks = [...] inline", err)
        with open(config) as handle:
            self.assertEqual(handle.read(), "hooks = []\n")
