"""`doctor`: each check of a user's set-up against the fake loopback server of each kind and
temporary HOME and project folders. No model is ever asked anything (no chat request)."""

import json
import os
from unittest import mock

from receipt_pair.errors import EXIT_SETUP
from receipt_pair.hooks.doctor import check_python, check_reader
from tests.fakeserver import FakeServer, Reply
from tests.helpers import TempDirTest, closed_port, run_cli, users_reader


class DoctorTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.home = self.path("home")
        self.project = self.path("project")
        os.makedirs(self.home)
        os.makedirs(self.project)
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("RECEIPT_PAIR_LEDGER", "RECEIPT_PAIR_READER")}
        environment["HOME"] = self.home
        patch = mock.patch.dict(os.environ, environment, clear=True)
        patch.start()
        self.addCleanup(patch.stop)

    def doctor(self, *options, base_url=None):
        """(status, {check name: its dict}, stdout) of `doctor --json`."""
        status, out, err = run_cli("doctor", "--json", "--project", self.project,
                                   "--base-url", base_url or
                                   f"http://127.0.0.1:{closed_port()}/v1",
                                   "--model-a", "A", "--model-b", "B", "--timeout", "10",
                                   *options)
        self.assertNotIn("Traceback", err)
        report = json.loads(out)
        checks = {check["check"]: check for check in report["checks"]}
        self.assertEqual(report["ok"], status == 0)
        return status, checks

    def settings_file(self, where, value):
        path = os.path.join(self.home if where.startswith("~/") else self.project,
                            where[2:] if where.startswith("~/") else where)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(value if isinstance(value, str) else json.dumps(value))
        return path

    def snippet(self, agent, *options):
        env = {k: v for k, v in os.environ.items() if k != "RECEIPT_PAIR_FACTS"}
        with mock.patch.dict(os.environ, env, clear=True):  # the facts on, as for a user
            status, out, _ = run_cli("hook", agent, "--install-snippet", *options)
        self.assertEqual(status, 0)
        return json.loads(out)


class Server(DoctorTest):
    def test_a_server_that_is_down(self):
        status, checks = self.doctor()
        self.assertEqual(status, EXIT_SETUP)
        self.assertFalse(checks["server"]["ok"])
        self.assertIn("cannot reach the model server", checks["server"]["said"])
        self.assertTrue(checks["server"]["fix"])
        for arm in ("A", "B"):
            self.assertIsNone(checks[f"model {arm}"]["ok"])  # not checked, not a problem

    def test_each_kind_lists_and_loads_without_a_chat(self):
        for kind, prepare, said in (
                ("lemonade", lambda f: f.recipes.update(A="llamacpp", B="llamacpp"),
                 "listed; it loads"),
                ("ollama", lambda f: f.loaded.extend(["A", "B"]), "listed; it loads"),
                ("llama-router", lambda f: f.loaded.extend(["A", "B"]), "listed and loaded"),
                ("openai", lambda f: None, "loading not checked"),
                ("llama-server", lambda f: None, "the name is not checked")):
            with self.subTest(kind), FakeServer(kind) as fake:
                prepare(fake)
                status, checks = self.doctor(base_url=fake.base_url)
                self.assertTrue(checks["server"]["ok"], checks["server"])
                for arm in ("A", "B"):
                    self.assertTrue(checks[f"model {arm}"]["ok"], checks[f"model {arm}"])
                    self.assertIn(said, checks[f"model {arm}"]["said"])
                self.assertEqual(fake.chats(), [])

    def test_a_model_the_server_does_not_list_or_cannot_load(self):
        with FakeServer("ollama") as fake:
            fake.loaded.extend(["qwen", "A"])
            _, checks = self.doctor(base_url=fake.base_url)
        self.assertTrue(checks["model A"]["ok"])
        self.assertFalse(checks["model B"]["ok"])
        self.assertIn("not among the models the server lists (A, qwen)",
                      checks["model B"]["said"])
        self.assertIn("--model-b", checks["model B"]["fix"])
        with FakeServer("lemonade") as fake:
            fake.recipes.update(A="llamacpp", B="llamacpp")
            fake.manage_reply = Reply(500, {"error": {"message": "model B failed to load"}})
            status, checks = self.doctor(base_url=fake.base_url)
            self.assertEqual(fake.chats(), [])
        self.assertEqual(status, EXIT_SETUP)
        self.assertIn("does not load", checks["model A"]["said"])

    def test_all_well_is_status_0_and_text_is_one_line_a_check(self):
        self.settings_file("~/.claude/settings.json", self.snippet("claude-code"))
        with FakeServer("llama-router") as fake:
            fake.loaded.extend(["A", "B"])
            status, checks = self.doctor(base_url=fake.base_url)
            self.assertEqual(status, 0, checks)
            status, out, _ = run_cli("doctor", "--project", self.project, "--base-url",
                                     fake.base_url, "--model-a", "A", "--model-b", "B")
        self.assertEqual(status, 0)
        lines = out.splitlines()
        self.assertEqual(len(lines), len(checks) + 1)
        self.assertTrue(all(line.startswith("OK ") for line in lines[:-1]), out)
        self.assertEqual(lines[-1], f"{len(checks)} of {len(checks)} OK, 0 problems")


class Reader(DoctorTest):
    def test_the_reader_in_use(self):
        with users_reader(None):
            self.assertTrue(check_reader(None).ok)
        with users_reader("v6"):  # a reader a user chose that can ask: said, not a fault
            status, checks = self.doctor()
            self.assertTrue(checks["reader"]["ok"])
            self.assertIn("reader v6 (from $RECEIPT_PAIR_READER), which can ask",
                          checks["reader"]["said"])
        for reader, words in (("zz", "unknown reader"), ("v1", "retired")):
            with self.subTest(reader), users_reader(reader):
                status, checks = self.doctor()
                self.assertFalse(checks["reader"]["ok"])
                self.assertIn(words, checks["reader"]["said"])
                self.assertIn("(from $RECEIPT_PAIR_READER)", checks["reader"]["said"])
                self.assertIn("RECEIPT_PAIR_READER", checks["reader"]["fix"])

    def test_python(self):
        self.assertTrue(check_python((3, 9, 0)).ok)
        old = check_python((3, 8, 18))
        self.assertFalse(old.ok)
        self.assertIn("3.8.18", old.said)


class Agents(DoctorTest):
    def test_no_hook_anywhere_is_no_problem(self):
        _, checks = self.doctor()
        for agent in ("claude-code", "codex", "gemini-cli", "cursor", "copilot"):
            self.assertTrue(checks[f"agent {agent}"]["ok"])
            self.assertIn(f"receipt-pair hook {agent} --install-snippet",
                          checks[f"agent {agent}"]["said"])

    def test_the_documented_files_and_the_command_each_holds(self):
        self.settings_file("~/.claude/settings.json", self.snippet("claude-code"))
        self.settings_file(".gemini/settings.json", self.snippet("gemini-cli"))
        self.settings_file(".cursor/hooks.json", self.snippet("cursor"))
        self.settings_file("~/.copilot/hooks/receipt-pair.json", self.snippet("copilot"))
        _, checks = self.doctor()
        said = checks["agent claude-code"]["said"]
        self.assertIn("~/.claude/settings.json runs `", said)
        self.assertIn("hook claude-code` at Stop and SubagentStop", said)
        self.assertIn(os.path.join(self.project, ".gemini", "settings.json"),
                      checks["agent gemini-cli"]["said"])
        self.assertIn("at AfterAgent", checks["agent gemini-cli"]["said"])
        self.assertIn("cannot read Cursor's session file yet", checks["agent cursor"]["said"])
        self.assertIn("~/.copilot/hooks/receipt-pair.json runs", checks["agent copilot"]["said"])
        for agent in ("claude-code", "gemini-cli", "cursor", "copilot"):
            self.assertTrue(checks[f"agent {agent}"]["ok"], checks[f"agent {agent}"])

    def test_what_would_stop_a_hook_from_working(self):
        codex = self.snippet("codex")
        self.settings_file("~/.claude/settings.json", codex)  # the other agent's hook
        self.settings_file("~/.codex/hooks.json", {"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "/nowhere/receipt-pair hook codex"}]}]}})
        self.settings_file(".codex/hooks.json", {"hooks": {"PreToolUse": codex["hooks"]["Stop"]}})
        self.settings_file("~/.gemini/settings.json", "{not json")
        self.settings_file(".gemini/settings.json", {"tools": {"enableHooks": False}})
        command = self.snippet("cursor")["hooks"]["stop"][0]["command"] + " --reader v1"
        self.settings_file("~/.cursor/hooks.json",
                           {"version": 1, "hooks": {"stop": [{"command": command}]}})
        status, checks = self.doctor()
        self.assertEqual(status, EXIT_SETUP)
        for agent, words in (("claude-code", "runs the hook of codex, not of claude-code"),
                             ("codex", "its program /nowhere/receipt-pair is not there"),
                             ("codex", "at PreToolUse, where Codex does not stop"),
                             ("gemini-cli", "~/.gemini/settings.json cannot be read"),
                             ("gemini-cli", "switches Gemini CLI's hooks off"),
                             ("cursor", "its reader cannot ask")):
            with self.subTest(agent=agent, words=words):
                check = checks[f"agent {agent}"]
                self.assertFalse(check["ok"])
                self.assertIn(words, check["said"])
                self.assertIn(f"receipt-pair hook {agent} --install-snippet", check["fix"])


class Ledger(DoctorTest):
    def test_the_ledger_given_or_from_the_environment(self):
        _, checks = self.doctor()
        self.assertTrue(checks["ledger"]["ok"])
        self.assertIn("no ledger", checks["ledger"]["said"])
        new = self.path("new.jsonl")
        _, checks = self.doctor("--ledger", new)
        self.assertTrue(checks["ledger"]["ok"])
        self.assertIn("it will be created", checks["ledger"]["said"])
        self.assertFalse(os.path.exists(new))  # nothing is written
        entry = {"schema": "receipt-pair/ledger/1", "entry": 1, "prev_sha256": "0" * 64,
                 "time": "2026-01-01T00:00:00Z", "receipt": {}}
        ledger = self.write("ledger.jsonl", json.dumps(entry) + "\n")
        with mock.patch.dict(os.environ, {"RECEIPT_PAIR_LEDGER": ledger}):
            _, checks = self.doctor()
        self.assertTrue(checks["ledger"]["ok"])
        self.assertIn(ledger, checks["ledger"]["said"])

    def test_a_ledger_that_cannot_take_a_receipt(self):
        for name, path, words in (
                ("no folder", self.path("gone/ledger.jsonl"), "does not exist"),
                ("a folder", self.dir, "not a regular file"),
                ("not a ledger", self.write("notes.txt", "my notes\n"),
                 "not a receipt-pair ledger entry"),
                ("standard output", "-", "standard output is no ledger")):
            with self.subTest(name):
                status, checks = self.doctor("--ledger", path)
                self.assertEqual(status, EXIT_SETUP)
                self.assertFalse(checks["ledger"]["ok"])
                self.assertIn(words, checks["ledger"]["said"])
                self.assertTrue(checks["ledger"]["fix"])
