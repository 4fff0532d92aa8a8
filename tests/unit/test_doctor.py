"""`doctor`: each check of a user's set-up against the fake loopback server of each kind and
temporary HOME and project folders. Each model is asked one question of a single token
(max_tokens 1), once however many hook commands name it; what the set-up would fail on is
a problem (exit 8), and the honest set-up passes."""

import functools
import http.server
import json
import os
import threading
from unittest import mock

from receipt_pair.errors import EXIT_SETUP
from receipt_pair.hooks import doctor_server
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

    def test_each_kind_asks_each_model_one_single_token_question(self):
        for kind, prepare, said in (
                ("lemonade", lambda f: f.recipes.update(A="llamacpp", B="llamacpp"),
                 "listed; it loads"),
                ("ollama", lambda f: f.loaded.extend(["A", "B"]), "listed; it loads"),
                ("llama-router", lambda f: f.loaded.extend(["A", "B"]), "listed and loaded"),
                ("openai", lambda f: None, "the server lists no models"),
                ("llama-server", lambda f: None, "the name is not checked")):
            with self.subTest(kind), FakeServer(kind) as fake:
                prepare(fake)
                status, checks = self.doctor(base_url=fake.base_url)
                self.assertTrue(checks["server"]["ok"], checks["server"])
                for arm in ("A", "B"):
                    self.assertTrue(checks[f"model {arm}"]["ok"], checks[f"model {arm}"])
                    self.assertIn(said, checks[f"model {arm}"]["said"])
                    self.assertIn("answered a one-token question", checks[f"model {arm}"]["said"])
                chats = fake.chats()
                self.assertEqual([body["model"] for body in chats], ["A", "B"])
                for body in chats:
                    self.assertEqual(body.get("max_tokens", body.get("options", {})
                                              .get("num_predict")), 1)

    def test_a_server_that_answers_404_to_everything(self):
        with FakeServer("openai") as fake:
            fake.default = Reply(404, {"error": {"message": "File Not Found"}})
            status, checks = self.doctor(base_url=fake.base_url)
        self.assertEqual(status, EXIT_SETUP)
        for arm in ("A", "B"):
            check = checks[f"model {arm}"]
            self.assertFalse(check["ok"])
            self.assertIn("a one-token question got no answer", check["said"])
            self.assertIn("HTTP 404", check["said"])
            self.assertIn("/v1 or /api/v1", check["fix"])

    def web_server(self, handler):
        """A real web server that is no model server, on a port of its own; its URL."""
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        # a short poll: shutdown() waits for the next one (0.5 s by default)
        thread = threading.Thread(target=server.serve_forever,
                                  kwargs={"poll_interval": 0.002}, daemon=True)
        thread.start()
        self.addCleanup(thread.join)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        return f"http://127.0.0.1:{server.server_address[1]}"

    def test_a_file_server_is_no_model_server(self):
        # python3 -m http.server (red-team case c11-01): 404 to the model list, 501 to chats
        folder = self.path("www")
        os.makedirs(folder)
        handler = functools.partial(QuietFiles, directory=folder)
        status, checks = self.doctor(base_url=self.web_server(handler) + "/v1")
        self.assertEqual(status, EXIT_SETUP)
        server = checks["server"]
        self.assertFalse(server["ok"])
        self.assertIn("but not as a model server", server["said"])
        self.assertIn("/v1/models) answered HTTP 404", server["said"])
        self.assertIn("--base-url", server["fix"])
        self.assertNotIn("OpenAI-compatible server", server["said"])

    def test_a_file_server_with_a_model_list_is_no_model_server_either(self):
        # the red-team's third base: a static file that looks like a model list, and 501
        # to every chat
        folder = self.path("www")
        os.makedirs(os.path.join(folder, "v1"))
        with open(os.path.join(folder, "v1", "models"), "w") as handle:
            json.dump({"data": [{"id": "A"}, {"id": "B"}]}, handle)
        handler = functools.partial(QuietFiles, directory=folder)
        status, checks = self.doctor(base_url=self.web_server(handler) + "/v1")
        self.assertEqual(status, EXIT_SETUP)
        self.assertFalse(checks["server"]["ok"])
        self.assertIn("it lists A, B, but no model answered a chat question",
                      checks["server"]["said"])

    def test_a_model_server_that_lists_other_models_is_one(self):
        # the models are at fault, not the server: the server line stays OK
        status, checks = self.doctor(base_url=self.web_server(ListsOther) + "/v1")
        self.assertEqual(status, EXIT_SETUP)
        self.assertTrue(checks["server"]["ok"], checks["server"])
        self.assertIn("not among the models the server lists (other)", checks["model A"]["said"])

    def test_a_web_page_for_every_request_is_no_model_server(self):
        for body in (b"<html><body>Welcome to nginx!</body></html>", b"{}",
                     b'{"choices": []}'):
            with self.subTest(body):
                status, checks = self.doctor(base_url=self.web_server(
                    functools.partial(Always, body)) + "/v1")
                self.assertEqual(status, EXIT_SETUP)
                self.assertFalse(checks["server"]["ok"])
                self.assertIn("not as a model server", checks["server"]["said"])

    def test_a_server_of_unknown_kind_with_an_openai_model_list_is_one(self):
        body = (b'{"object": "list", "data": [{"id": "A"}, {"id": "B"}], "choices": '
                b'[{"message": {"role": "assistant", "content": "OK"}}]}')
        status, checks = self.doctor(base_url=self.web_server(
            functools.partial(Always, body)) + "/v1")
        self.assertEqual(status, 0, checks)
        self.assertEqual(checks["server"]["said"].split(" answers")[0],
                         "an OpenAI-compatible server of unknown kind")

    def test_a_server_that_serves_one_model_of_the_two(self):
        with FakeServer("openai") as fake:
            fake.script("B", Reply(404, {"error": {"message": "model 'B' not found"}}))
            status, checks = self.doctor(base_url=fake.base_url)
        self.assertEqual(status, EXIT_SETUP)
        self.assertTrue(checks["model A"]["ok"])
        self.assertFalse(checks["model B"]["ok"])
        self.assertIn("model 'B' not found", checks["model B"]["said"])
        self.assertIn("--model-b", checks["model B"]["fix"])

    def test_a_model_that_does_not_answer_in_time(self):
        with mock.patch.object(doctor_server, "PING_SECONDS", 0.3), \
                FakeServer("openai") as fake:
            fake.script("A", Reply(200, {"choices": []}, delay=1.5))
            status, checks = self.doctor(base_url=fake.base_url)
        self.assertEqual(status, EXIT_SETUP)
        self.assertIn("did not answer", checks["model A"]["said"])
        self.assertTrue(checks["model B"]["ok"])

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
            self.assertEqual(fake.chats(), [])  # a model that does not load is not asked
        self.assertEqual(status, EXIT_SETUP)
        self.assertIn("does not load", checks["model A"]["said"])

    def test_all_well_is_status_0_and_text_is_one_line_a_check(self):
        with FakeServer("llama-router") as fake:
            fake.loaded.extend(["A", "B"])
            self.settings_file("~/.claude/settings.json", self.snippet(
                "claude-code", "--base-url", fake.base_url, "--model-a", "A", "--model-b", "B"))
            status, checks = self.doctor(base_url=fake.base_url)
            self.assertEqual(status, 0, checks)
            # the hook's server and models are the doctor's own: each model asked once
            self.assertEqual([body["model"] for body in fake.chats()], ["A", "B"])
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
    def setUp(self):
        super().setUp()
        self.fake = FakeServer("llama-router")
        self.fake.loaded.extend(["A", "B"])
        self.fake.__enter__()
        self.addCleanup(self.fake.__exit__, None, None, None)
        self.server = ("--base-url", self.fake.base_url, "--model-a", "A", "--model-b", "B")

    def agents(self, *options):
        """(status, {agent: its check}) of doctor asking the fake server."""
        status, checks = self.doctor(*options, base_url=self.fake.base_url)
        return status, {name[len("agent "):]: check for name, check in checks.items()
                        if name.startswith("agent ")}

    def test_no_hook_anywhere_is_no_problem(self):
        status, checks = self.agents()
        self.assertEqual(status, 0)
        for agent, check in checks.items():
            self.assertTrue(check["ok"], check)
            self.assertIn(f"receipt-pair install {agent}", check["said"])

    def test_the_documented_files_and_the_command_each_holds(self):
        self.settings_file("~/.claude/settings.json", self.snippet("claude-code", *self.server))
        self.settings_file(".gemini/settings.json", self.snippet("gemini-cli", *self.server))
        status, checks = self.agents()
        self.assertEqual(status, 0, checks)
        said = checks["claude-code"]["said"]
        self.assertIn("~/.claude/settings.json runs `", said)
        self.assertIn("hook claude-code", said)
        self.assertIn("at Stop and SubagentStop", said)
        self.assertIn(os.path.join(self.project, ".gemini", "settings.json"),
                      checks["gemini-cli"]["said"])
        self.assertIn("at AfterAgent", checks["gemini-cli"]["said"])
        for agent in ("claude-code", "gemini-cli"):
            self.assertEqual(checks[agent]["mark"], "OK")
        self.assertEqual(len(self.fake.chats()), 2)  # each model asked once in all

    def test_an_agent_whose_session_cannot_be_read_is_not_checked(self):
        self.settings_file(".cursor/hooks.json", self.snippet("cursor", *self.server))
        status, checks = self.agents()
        self.assertEqual(status, EXIT_SETUP)
        self.assertEqual((checks["cursor"]["ok"], checks["cursor"]["mark"]),
                         (False, "NOT CHECKED"))
        self.assertIn("transcripts hold the commands the agent asked for but none of their "
                      "output", checks["cursor"]["said"])
        status, out, _ = run_cli("doctor", "--project", self.project, *self.server)
        self.assertEqual(status, EXIT_SETUP)
        self.assertRegex(out, r"(?m)^NOT CHECKED +agent cursor ")

    def test_what_would_stop_a_hook_from_working(self):
        codex = self.snippet("codex", *self.server)
        self.settings_file("~/.claude/settings.json", codex)  # the other agent's hook
        self.settings_file("~/.codex/hooks.json", {"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "/nowhere/receipt-pair hook codex"}]}]}})
        self.settings_file(".codex/hooks.json", {"hooks": {"PreToolUse": codex["hooks"]["Stop"]}})
        self.settings_file("~/.gemini/settings.json", "{not json")
        self.settings_file(".gemini/settings.json", {"hooksConfig": {"enabled": False}})
        command = self.snippet("cursor", *self.server)["hooks"]["stop"][0]["command"]
        self.settings_file("~/.cursor/hooks.json", {"version": 1, "hooks": {"stop": [
            {"command": command + " --reader v1"}]}})
        status, checks = self.agents()
        self.assertEqual(status, EXIT_SETUP)
        for agent, words in (("claude-code", "runs the hook of codex, not of claude-code"),
                             ("codex", "its program /nowhere/receipt-pair is not there"),
                             ("codex", "at PreToolUse, where Codex does not stop"),
                             ("gemini-cli", "~/.gemini/settings.json is not JSON"),
                             ("gemini-cli", "sets hooksConfig.enabled: false, so Gemini CLI "
                                            "runs no hook"),
                             ("cursor", "its options are refused: reader v1 is retired")):
            with self.subTest(agent=agent, words=words):
                check = checks[agent]
                self.assertFalse(check["ok"])
                self.assertIn(words, check["said"])
                self.assertIn(f"receipt-pair install {agent}", check["fix"])

    def test_hook_options_the_command_line_refuses_or_a_server_off_the_machine_or_dead(self):
        command = self.snippet("claude-code", *self.server)["hooks"]["Stop"][0]["hooks"][0]
        for extra, words in (("--max-blocks 0", "argument --max-blocks: must be at least 1"),
                             ("--no-such-option", "unrecognized arguments: --no-such-option"),
                             ("--base-url http://192.0.2.7/v1",
                              "its server is refused: the model server's host '192.0.2.7' is "
                              "not this machine"),
                             (f"--base-url http://127.0.0.1:{closed_port()}/v1",
                              "its server does not answer: cannot reach the model server"),
                             ("--model-b C", "its model B does not answer")):
            with self.subTest(extra):
                if extra == "--model-b C":
                    self.fake.script("C", Reply(404, {"error": {"message": "no model C"}}))
                handler = dict(command, command=f"{command['command']} {extra}")
                self.settings_file("~/.claude/settings.json",
                                   {"hooks": {"Stop": [{"hooks": [handler]}]}})
                status, checks = self.agents()
                self.assertEqual(status, EXIT_SETUP)
                self.assertFalse(checks["claude-code"]["ok"])
                self.assertIn(words, checks["claude-code"]["said"])

    def test_claude_code_with_every_hook_switched_off(self):
        self.settings_file("~/.claude/settings.json", {"disableAllHooks": True, **self.snippet(
            "claude-code", *self.server)})
        status, checks = self.agents()
        self.assertEqual(status, EXIT_SETUP)
        self.assertIn("~/.claude/settings.json sets disableAllHooks: true, so Claude Code runs "
                      "no hook at all", checks["claude-code"]["said"])
        # a project's own false takes precedence over the user's true
        self.settings_file(".claude/settings.json", {"disableAllHooks": False})
        status, checks = self.agents()
        self.assertEqual(status, 0, checks["claude-code"])

    def test_gemini_cli_switch_timeout_and_shapes(self):
        snippet = self.snippet("gemini-cli", *self.server)
        self.settings_file("~/.gemini/settings.json", {"tools": {"enableHooks": True},
                                                       **snippet})
        status, checks = self.agents()
        self.assertEqual(status, 0, checks["gemini-cli"])  # the removed key alone: a warning
        self.assertIn("warning: ~/.gemini/settings.json sets tools.enableHooks, which Gemini "
                      "CLI no longer reads", checks["gemini-cli"]["said"])
        handler = snippet["hooks"]["AfterAgent"][0]["hooks"][0]
        self.settings_file("~/.gemini/settings.json", {"hooks": {"AfterAgent": [{"hooks": [
            dict(handler, timeout=600)]}]}})
        status, checks = self.agents()
        self.assertEqual(status, EXIT_SETUP)
        self.assertIn("its timeout 600 is 0.6 s (Gemini CLI counts it in milliseconds)",
                      checks["gemini-cli"]["said"])
        self.assertIn("write 600000 (milliseconds)", checks["gemini-cli"]["said"])
        for shape, words in (({"hooks": ["AfterAgent"]}, "'hooks' is a list, not an object"),
                             ({"hooks": {"AfterAgent": {"hooks": []}}},
                              "'hooks.AfterAgent' is an object, not a list"),
                             ({"hooks": {"AfterAgent": ["receipt-pair"]}},
                              "'hooks.AfterAgent' holds a string"),
                             ({"hooksConfig": "on"}, "'hooksConfig' must be an object"),
                             ({"tools": ["enableHooks"]}, "'tools' must be an object"),
                             ([snippet], "is not a JSON object (it holds a list)"),
                             ("null", "is not a JSON object (it holds null)")):
            with self.subTest(shape):
                self.settings_file("~/.gemini/settings.json", shape)
                status, checks = self.agents()
                self.assertEqual(status, EXIT_SETUP)
                self.assertIn(words, checks["gemini-cli"]["said"])

    def test_codex_config_toml_is_read_for_its_switch_and_its_hooks(self):
        self.settings_file("~/.codex/hooks.json", self.snippet("codex", *self.server))
        self.settings_file("~/.codex/config.toml", '[features]\nhooks = false  # off\n')
        status, checks = self.agents()
        self.assertEqual(status, EXIT_SETUP)
        self.assertIn("sets [features] hooks = false, so Codex runs no hook",
                      checks["codex"]["said"])
        self.settings_file("~/.codex/config.toml", 'model = "gpt-5"\n[features]\n'
                           'codex_hooks = true\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\n'
                           'type = "command"\ncommand = "notify-send done"\n'
                           '[hooks.state."abc"]\ntrusted_hash = "sha256:00"\n')
        status, checks = self.agents()
        self.assertEqual(status, 0, checks["codex"])
        said = checks["codex"]["said"]
        self.assertIn("uses [features] codex_hooks, the old name of [features] hooks", said)
        self.assertIn("keeps hooks in [hooks.Stop] too", said)
        self.assertNotIn("hooks.state", said)


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


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Always(http.server.BaseHTTPRequestHandler):
    """Answers every request 200 with one body, whatever it asks."""

    def __init__(self, body, *args, **kwargs):
        self.body = body
        super().__init__(*args, **kwargs)

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    do_GET = do_POST = answer

    def log_message(self, *args):
        pass


class ListsOther(http.server.BaseHTTPRequestHandler):
    """A model server that serves another model: its list names it, a chat for any other is
    refused as OpenAI's API refuses it."""

    def reply(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.reply(200, {"object": "list", "data": [{"id": "other", "object": "model"}]})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.reply(404, {"error": {"message": "model not found", "type": "not_found"}})

    def log_message(self, *args):
        pass

