"""The facts layer: command lines read as a shell reads them, each turn's events, the claim's
frame, and the decision table, each rule probed both ways (tests/data/facts/decisions.json:
a case where it must decide, and near cases where it must not)."""

import unittest

from receipt_pair.facts import events as ev
from receipt_pair.facts import reading, shell
from receipt_pair.facts.frame import FAILURE, HEDGED, MIXED, SUCCESS, read_frame
from receipt_pair.facts.probes import TABLE_PROBES
from receipt_pair.facts.table import RULES, decide, fingerprint
from receipt_pair.facts.text import command_text
from receipt_pair.turn import Turn


class Decisions(unittest.TestCase):
    def test_every_probe(self):
        for probe in TABLE_PROBES:
            with self.subTest(probe.name):
                decision = decide(probe.claim, list(probe.turns))
                got = (decision.answer, decision.rule) if decision else (None, None)
                self.assertEqual(got, (probe.answer, probe.rule))

    def test_every_rule_fires_in_some_probe(self):
        fired = {probe.rule for probe in TABLE_PROBES}
        self.assertEqual(sorted(set(RULES) - fired), [])

    def test_every_kind_has_probes_where_nothing_is_decided(self):
        undecided = [probe for probe in TABLE_PROBES if probe.rule is None]
        self.assertGreaterEqual(len(undecided), 10)

    def test_a_decision_names_its_line_or_its_event(self):
        turns = [Turn("npx eslint .", "", 0)]
        decision = decide("lint is clean", turns)
        self.assertEqual(decision.line, "")
        self.assertEqual(decision.quote, "[npx eslint .: exit status 0]")

    def test_the_fingerprint_pins_the_rules(self):
        self.assertEqual(len(fingerprint()), 64)
        self.assertEqual(fingerprint(), fingerprint())


class CommandLines(unittest.TestCase):
    def status(self, cmd, program):
        line = shell.parse(cmd)
        step = next(s for s in line.runs if s.program == program)
        return line.status_of(step)

    def test_whose_status(self):
        for cmd, program, share in (
                ("pytest", "pytest", "own"),
                ("cd app && pytest -q", "pytest", "own"),
                ("pytest | tail -5", "pytest", "masked"),
                ("pytest 2>&1 | tee out.log", "pytest", "masked"),
                ("set -o pipefail; pytest | tee out.log", "pytest", "own"),
                ("pytest || true", "pytest", "masked"),
                ("pytest; echo done", "pytest", "masked"),
                ("set -e; pytest; echo done", "pytest", "own"),
                ("pytest && echo ok", "pytest", "own"),
                ("pip install -e . && pytest", "pytest", "shared"),
                ("pytest &", "pytest", "background")):
            with self.subTest(cmd):
                self.assertEqual(self.status(cmd, program), share)

    def test_wrappers_are_looked_through(self):
        for cmd in ("pytest", "py.test", "python -m pytest", "python3 -m pytest -q",
                    "uv run pytest", "poetry run pytest", "uv run python -m pytest",
                    "docker compose run --rm web pytest", "bash -lc 'cd x && pytest'",
                    "timeout 600 pytest", "FOO=1 sudo -E env X=2 pytest"):
            with self.subTest(cmd):
                self.assertEqual([s.program for s in shell.parse(cmd).runs], ["pytest"])

    def test_text_echoed_through_an_interpreter(self):
        for cmd in ("echo '12 passed'", "printf 'ok\\n'", "python3 -c \"print('12 passed')\"",
                    "node -e \"console.log('ok')\"", "sh -c 'echo 12 passed'",
                    "cat <<EOF\n12 passed\nEOF", "python3 - <<EOF\nprint('ok')\nEOF"):
            with self.subTest(cmd):
                self.assertTrue(shell.parse(cmd).echoes_only)
        for cmd in ("python3 -c \"import json; print(json.load(open('x'))['a'])\"",
                    "python3 run.py", "cat results.txt"):
            with self.subTest(cmd):
                self.assertFalse(shell.parse(cmd).echoes_only)

    def test_a_here_document_is_input_not_commands(self):
        line = shell.parse("cat > f.py <<EOF\ngit push origin main\nEOF\npython f.py")
        self.assertEqual([s.program for s in line.runs], ["cat", "python f.py"])
        self.assertEqual(line.runs[0].writes, ("f.py",))

    def test_a_ci_step_is_read_as_its_script(self):
        cmd = ("2025-01-01T00:00:00.1Z ##[group]Run npm test\n"
               "2025-01-01T00:00:00.2Z npm test\n"
               "2025-01-01T00:00:00.3Z shell: /usr/bin/bash -e {0}\n"
               "2025-01-01T00:00:00.4Z env:\n"
               "2025-01-01T00:00:00.5Z   NODE_ENV: test\n"
               "2025-01-01T00:00:00.6Z ##[endgroup]")
        self.assertEqual(command_text(cmd), "set -e\nnpm test")
        action = ("2025-01-01T00:00:00.1Z ##[group]Run actions-rs/cargo@v1\n"
                  "2025-01-01T00:00:00.2Z with:\n"
                  "2025-01-01T00:00:00.3Z   command: test\n"
                  "2025-01-01T00:00:00.4Z ##[endgroup]")
        self.assertEqual(command_text(action), "cargo test")


class Events(unittest.TestCase):
    def events(self, *turns):
        return reading.read_events(list(turns)).events

    def test_a_silent_success_is_a_fact(self):
        (event,) = self.events(Turn("go vet ./...", "", 0))
        self.assertEqual((event.family, event.outcome, event.line), (ev.LINT, ev.PASSED, ""))

    def test_a_dry_push_in_any_spelling(self):
        for cmd in ("git push -n origin main", "git push --dry-run", "git push -nu origin x"):
            with self.subTest(cmd):
                (event,) = self.events(Turn(cmd, "", 0))
                self.assertEqual(event.get("dry_run"), "yes")

    def test_a_refused_edit_is_no_edit(self):
        (event,) = self.events(Turn('Edit {"file_path": "a.py"}',
                                    "<tool_use_error>String to replace not found</tool_use_error>",
                                    1, kind="edit"))
        self.assertEqual((event.family, event.outcome), (ev.EDIT, ev.FAILED))

    def test_a_missing_program(self):
        (event,) = self.events(Turn("rg TODO", "bash: rg: command not found", 127))
        self.assertEqual((event.outcome, event.line), (ev.FAILED, "bash: rg: command not found"))


class Frames(unittest.TestCase):
    def test_what_a_claim_says(self):
        for claim, says in (("the tests pass", SUCCESS), ("3 tests still fail", FAILURE),
                            ("8 tests pass now, fixing the rest", MIXED),
                            ("the tests should pass now", HEDGED), ("Ready to push", HEDGED),
                            ("the build succeeds with no errors", SUCCESS),
                            ("lint passes with zero warnings", SUCCESS)):
            with self.subTest(claim):
                self.assertEqual(read_frame(claim).says, says)

    def test_objects(self):
        frame = read_frame("I pushed the parser fix to fix/parser")
        self.assertEqual((frame.kinds, frame.branches, frame.content),
                         (("push",), ("fix/parser",), False))
        frame = read_frame("Fixed the null check in parse(); all 12 tests pass.")
        self.assertEqual((frame.kinds, frame.count, frame.content), (("tests",), 12, True))
        frame = read_frame("I pushed the fix to acme/app's main branch.")
        self.assertEqual(frame.branches, ("main",))
        self.assertEqual(read_frame("the security tests pass").groups, ("security",))
        self.assertEqual(read_frame("Deployed to production").envs, ("production",))


if __name__ == "__main__":
    unittest.main()
