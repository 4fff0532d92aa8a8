"""`install` and `uninstall` on real-shaped settings files that already hold the user's own
hooks (tests/data/settings, SOURCES.md there): every other key and hook kept, receipt-pair's
entry alone changed, idempotent, a backup before any change, an atomic write, a file that
is not a JSON object refused and left as it was; and `doctor` finds what install wrote."""

import json
import os
import shutil
import stat
from unittest import mock

from receipt_pair.errors import EXIT_INPUT, EXIT_USAGE
from receipt_pair.hooks.agents import AGENTS
from receipt_pair.hooks.install import ours
from tests.fakeserver import FakeServer
from tests.helpers import DATA, TempDirTest, run_cli

SETTINGS = os.path.join(DATA, "settings")
# agent -> (its fixture, where install writes it under HOME)
FILES = {"claude-code": ("claude-code-settings.json", ".claude/settings.json"),
         "codex": ("codex-hooks.json", ".codex/hooks.json"),
         "gemini-cli": ("gemini-cli-settings.json", ".gemini/settings.json"),
         "cursor": ("cursor-hooks.json", ".cursor/hooks.json")}


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def strip_ours(value):
    """A settings object with every receipt-pair handler, and what held only it, taken
    out, for comparing with the file before install."""
    value = json.loads(json.dumps(value))
    for event, entries in list(value.get("hooks", {}).items()):
        kept = []
        for entry in entries:
            if isinstance(entry.get("hooks"), list):
                inner = [h for h in entry["hooks"] if not ours(h)]
                if inner:
                    kept.append({**entry, "hooks": inner})
            elif not ours(entry):
                kept.append(entry)
        if kept:
            value["hooks"][event] = kept
        else:
            del value["hooks"][event]
    return value


class InstallTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.home = self.path("home")
        os.makedirs(self.home)
        # the environment a user has: no reader or facts setting of the suite's own
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("RECEIPT_PAIR_READER", "RECEIPT_PAIR_FACTS")}
        patch = mock.patch.dict(os.environ, {**environment, "HOME": self.home}, clear=True)
        patch.start()
        self.addCleanup(patch.stop)

    def place(self, agent):
        """Copy the agent's fixture to where install finds it; return its path."""
        fixture, where = FILES[agent]
        path = os.path.join(self.home, where)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(os.path.join(SETTINGS, fixture), path)
        return path

    def backups(self, path):
        folder = os.path.dirname(path)
        return sorted(n for n in os.listdir(folder) if n.endswith(".bak"))

    def commands(self, value, agent):
        """{event: [receipt-pair commands]} at the agent's stop events."""
        found = {}
        for event in AGENTS[agent].events:
            for entry in value["hooks"].get(event, []):
                for handler in entry.get("hooks", [entry]):
                    if ours(handler):
                        found.setdefault(event, []).append(handler.get("command")
                                                           or handler.get("bash"))
        return found


class Install(InstallTest):
    def test_every_other_key_and_hook_is_kept(self):
        for agent in FILES:
            with self.subTest(agent):
                path = self.place(agent)
                before = load(path)
                status, out, err = run_cli("install", agent, "--max-blocks", "2")
                self.assertEqual(status, 0, err)
                self.assertIn(f"installed receipt-pair's hook for {AGENTS[agent].label} in "
                              f"{path}", out)
                after = load(path)
                self.assertEqual(strip_ours(after), before)
                commands = self.commands(after, agent)
                self.assertEqual(sorted(commands), sorted(AGENTS[agent].events))
                for found in commands.values():
                    self.assertEqual(len(found), 1)
                    self.assertIn(f"hook {agent} --max-blocks 2", found[0])
                backup, = self.backups(path)
                with open(os.path.join(os.path.dirname(path), backup), "rb") as handle, \
                        open(os.path.join(SETTINGS, FILES[agent][0]), "rb") as original:
                    self.assertEqual(handle.read(), original.read())

    def test_a_second_install_changes_nothing_and_other_options_change_our_entry_only(self):
        path = self.place("claude-code")
        run_cli("install", "claude-code")
        with open(path, "rb") as handle:
            first = handle.read()
        status, out, _ = run_cli("install", "claude-code")
        self.assertEqual(status, 0)
        self.assertIn("as it would be written: nothing changed", out)
        with open(path, "rb") as handle:
            self.assertEqual(handle.read(), first)
        self.assertEqual(len(self.backups(path)), 1)  # no change, no backup
        run_cli("install", "claude-code", "--not-shown", "block-once", "--wait", "2")
        after, before = load(path), json.loads(first)
        self.assertEqual(strip_ours(after), strip_ours(before))
        stop = after["hooks"]["Stop"]
        self.assertEqual(len(stop), 2)  # the user's notification, then ours, in place
        self.assertEqual(stop[0], before["hooks"]["Stop"][0])
        self.assertIn("--not-shown block-once --wait 2.0", stop[1]["hooks"][0]["command"])

    def test_our_entry_stays_where_it_stood_and_duplicates_go(self):
        path = self.place("cursor")
        value = load(path)
        value["hooks"]["stop"] = [{"command": "receipt-pair hook cursor --max-blocks 9"},
                                  {"command": "./hooks/audit.sh"},
                                  {"command": "/old/receipt-pair hook cursor"}]
        with open(path, "w") as handle:
            json.dump(value, handle)
        run_cli("install", "cursor")
        stop = load(path)["hooks"]["stop"]
        self.assertEqual(len(stop), 2)
        self.assertTrue(ours(stop[0]))
        self.assertNotIn("--max-blocks 9", stop[0]["command"])
        self.assertEqual(stop[1], {"command": "./hooks/audit.sh"})

    # A user's own hooks that only name receipt-pair's among their arguments (red-team
    # case c10-10), and the shapes of receipt-pair's own entries (hooks.options.hook_command).
    LOOKALIKES = ['/home/me/bin/notify --title "receipt-pair hook claude-code"',
                  "echo receipt-pair hook claude-code is great",
                  "logger -t receipt-pair hook claude-code",
                  "bash -c 'receipt-pair hooks-report'", "receipt-pair-notify hook claude-code",
                  "python3 -m receipt_pair_tools hook claude-code",
                  # a command of the user's own around ours: install never writes one
                  "python -m receipt_pair hook claude-code && rm -rf ~/tmp",
                  "receipt-pair hook claude-code; notify-send done",
                  "receipt-pair hook claude-code | tee -a ~/hook.log"]
    OURS = ["receipt-pair hook claude-code", "/usr/local/bin/receipt-pair hook claude-code "
            "--max-blocks 2", "PYTHONPATH=/src/rp /usr/bin/python3 -m receipt_pair hook "
            "claude-code", "'/opt/my tools/receipt-pair' hook claude-code --wait 2.0",
            "python -m receipt_pair hook claude-code",
            "receipt-pair hook claude-code --extra-a '{\"a\": 1}' --ledger '/tmp/a;b'"]

    def settings_with(self, command):
        path = os.path.join(self.home, ".claude", "settings.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            json.dump({"hooks": {"Stop": [{"hooks": [{"type": "command",
                                                      "command": command}]}]}}, handle)
        return path

    def test_a_users_hook_that_only_names_ours_is_kept(self):
        for command in self.LOOKALIKES:
            with self.subTest(command):
                self.assertFalse(ours({"command": command}))
                path = self.settings_with(command)
                status, _, err = run_cli("install", "claude-code")
                self.assertEqual(status, 0, err)
                stop = load(path)["hooks"]["Stop"]
                self.assertEqual(stop[0]["hooks"], [{"type": "command", "command": command}])
                self.assertTrue(ours(stop[1]["hooks"][0]))
                path = self.settings_with(command)
                with open(path, "rb") as handle:
                    before = handle.read()
                status, out, _ = run_cli("uninstall", "claude-code")
                self.assertEqual(status, 0)
                self.assertIn("holds no hook of receipt-pair", out)
                with open(path, "rb") as handle:
                    self.assertEqual(handle.read(), before)

    def test_our_own_entries_in_every_shape_are_replaced_and_taken_out(self):
        for command in self.OURS:
            with self.subTest(command):
                self.assertTrue(ours({"command": command}))
                path = self.settings_with(command)
                run_cli("install", "claude-code")
                stop = load(path)["hooks"]["Stop"]
                self.assertEqual(len(stop), 1)
                self.assertNotEqual(stop[0]["hooks"][0]["command"], command)
                self.settings_with(command)
                status, out, _ = run_cli("uninstall", "claude-code")
                self.assertEqual(status, 0)
                self.assertIn("took receipt-pair's hook", out)
                self.assertEqual(load(path), {})

    def test_uninstall_gives_back_the_file_as_it_was(self):
        for agent in FILES:
            with self.subTest(agent):
                path = self.place(agent)
                before = load(path)
                run_cli("install", agent)
                status, out, _ = run_cli("uninstall", agent)
                self.assertEqual(status, 0)
                self.assertIn("took receipt-pair's hook", out)
                self.assertEqual(load(path), before)
                status, out, _ = run_cli("uninstall", agent)
                self.assertIn("holds no hook of receipt-pair", out)

    def test_copilot_gets_a_file_of_its_own_beside_the_users(self):
        folder = os.path.join(self.home, ".copilot", "hooks")
        os.makedirs(folder)
        shutil.copy(os.path.join(SETTINGS, "copilot-hooks.json"), folder)
        status, _, err = run_cli("install", "copilot")
        self.assertEqual(status, 0, err)
        own = os.path.join(folder, "receipt-pair.json")
        value = load(own)
        self.assertEqual(value["version"], 1)
        self.assertIn("hook copilot", value["hooks"]["agentStop"][0]["bash"])
        self.assertEqual(load(os.path.join(folder, "copilot-hooks.json")),
                         load(os.path.join(SETTINGS, "copilot-hooks.json")))
        status, out, _ = run_cli("uninstall", "copilot")
        self.assertIn(f"removed {own}", out)
        self.assertFalse(os.path.exists(own))  # a file of our own left with nothing

    def test_dry_run_writes_nothing(self):
        path = self.place("gemini-cli")
        with open(path, "rb") as handle:
            before = handle.read()
        status, out, _ = run_cli("install", "gemini-cli", "--dry-run")
        self.assertEqual(status, 0)
        self.assertIn(f"+++ {path} (after)", out)
        self.assertIn('"timeout": 600000', out)
        self.assertIn("dry run: nothing was written", out)
        with open(path, "rb") as handle:
            self.assertEqual(handle.read(), before)
        self.assertEqual(self.backups(path), [])

    def test_a_file_that_is_not_a_json_object_is_refused_and_left_alone(self):
        path = os.path.join(self.home, ".claude", "settings.json")
        os.makedirs(os.path.dirname(path))
        for text, words in (("[1, 2]\n", "is not a JSON object (it holds a list)"),
                            ('"hooks"\n', "is not a JSON object (it holds a string)"),
                            ('{"hooks": {},}\n', "is not JSON"),
                            ('{"hooks": []}\n', "its 'hooks' is not an object of events"),
                            ('{"hooks": {"Stop": {}}}\n', "its 'hooks.Stop' is not a list"),
                            # a malformed group inside the list (red-team case c10-11)
                            ('{"hooks": {"Stop": [{"hooks": "nope"}]}}\n',
                             "a group of its 'hooks.Stop' has a string for 'hooks', not a "
                             "list of handlers"),
                            ('{"hooks": {"Stop": [{"matcher": ""}]}}\n',
                             "has null for 'hooks'"),
                            ('{"hooks": {"Stop": ["x"]}}\n',
                             "its 'hooks.Stop' holds a string where an object belongs"),
                            ('{"hooks": {"Stop": [{"hooks": [1]}]}}\n',
                             "holds a handler that is not an object"),
                            (b"\xff\xfe{}", "UTF-8")):
            with self.subTest(text):
                with open(path, "wb") as handle:
                    handle.write(text if isinstance(text, bytes) else text.encode())
                for command in ("install", "uninstall"):
                    status, out, err = run_cli(command, "claude-code")
                    self.assertEqual(status, EXIT_INPUT, err)
                    self.assertIn(words, err)
                    self.assertNotIn("Traceback", err)
                    with open(path, "rb") as handle:
                        self.assertEqual(handle.read(), text if isinstance(text, bytes)
                                         else text.encode())
                self.assertEqual(self.backups(path), [])

    def test_a_new_file_in_the_agents_folder_but_never_a_folder_above_it(self):
        os.makedirs(os.path.join(self.home, ".claude"))
        status, _, err = run_cli("install", "claude-code")
        self.assertEqual(status, 0, err)
        path = os.path.join(self.home, ".claude", "settings.json")
        self.assertEqual(sorted(self.commands(load(path), "claude-code")),
                         ["Stop", "SubagentStop"])
        self.assertEqual(self.backups(path), [])  # there was nothing to back up
        status, _, err = run_cli("install", "copilot")  # no ~/.copilot at all
        self.assertEqual(status, EXIT_USAGE)
        self.assertIn(".copilot does not exist: is GitHub Copilot CLI installed?", err)
        self.assertFalse(os.path.exists(os.path.join(self.home, ".copilot")))
        other = self.path("elsewhere/deeper/settings.json")
        status, _, err = run_cli("install", "claude-code", "--settings", other)
        self.assertEqual(status, EXIT_USAGE)
        self.assertFalse(os.path.exists(self.path("elsewhere")))

    def test_a_linked_file_stays_linked_and_keeps_its_mode(self):
        real = self.path("dotfiles-settings.json")
        shutil.copy(os.path.join(SETTINGS, "claude-code-settings.json"), real)
        os.chmod(real, 0o640)
        os.makedirs(os.path.join(self.home, ".claude"))
        link = os.path.join(self.home, ".claude", "settings.json")
        os.symlink(real, link)
        status, _, err = run_cli("install", "claude-code")
        self.assertEqual(status, 0, err)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(stat.S_IMODE(os.stat(real).st_mode), 0o640)
        self.assertIn("Stop", self.commands(load(real), "claude-code"))

    def test_what_would_keep_the_hook_from_running_is_said(self):
        path = self.place("codex")
        with open(os.path.join(os.path.dirname(path), "config.toml"), "w") as handle:
            handle.write('model = "gpt-5"\n[features]\nhooks = false\n')
        _, _, err = run_cli("install", "codex")
        self.assertIn("trust it", err)
        self.assertIn("switches Codex's hooks off ([features] hooks = false)", err)
        with open(os.path.join(os.path.dirname(path), "config.toml")) as handle:
            self.assertIn("hooks = false", handle.read())  # read, never written
        self.place("cursor")
        _, _, err = run_cli("install", "cursor")
        self.assertIn("Cursor's transcripts hold the commands the agent asked for but none "
                      "of their output", err)

    def test_doctor_finds_what_install_wrote(self):
        project = self.path("project")
        os.makedirs(project)
        with FakeServer("llama-router") as fake:
            fake.loaded.extend(["A", "B"])
            server = ("--base-url", fake.base_url, "--model-a", "A", "--model-b", "B")
            for agent in ("claude-code", "gemini-cli"):
                self.place(agent)
                status, _, err = run_cli("install", agent, *server)
                self.assertEqual(status, 0, err)
            status, out, _ = run_cli("doctor", "--json", "--project", project, *server)
        checks = {c["check"]: c for c in json.loads(out)["checks"]}
        self.assertEqual(status, 0, checks)
        for agent, events in (("claude-code", "Stop and SubagentStop"),
                              ("gemini-cli", "AfterAgent")):
            said = checks[f"agent {agent}"]["said"]
            self.assertIn(f"hook {agent} --base-url {fake.base_url}", said)
            self.assertIn(f"at {events}", said)
