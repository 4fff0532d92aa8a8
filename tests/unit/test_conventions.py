"""What every command does the same way (issue 33 item 6): an answer said by the exit status
where asked (`check --exit-code`, as `gate` does), an error as a JSON object under `--json`,
a one-line description for every subcommand, and the same choices wherever an option
applies."""

import argparse
import json
import os
import unittest

from receipt_pair.check.rules import RULES
from receipt_pair.cli import build_parser
from receipt_pair.pair.gate import GATE_RULES
from receipt_pair.readers import READERS

from tests.fakeserver import FakeServer, Reply, answer
from tests.helpers import EXAMPLES, run_cli

PUSH_OK = os.path.join(EXAMPLES, "push-ok.json")
PUSH_REJECTED = os.path.join(EXAMPLES, "push-rejected.json")
PUSHED = "I pushed the parser fix to fix/parser"
SHOWN = answer("shown", "T3", "3b2a6f1..9c41e07  fix/parser -> fix/parser")
NOT = answer("not_shown")
REJECTED = answer("contradicted", "T2", "error: failed to push some refs to "
                                        "'github.com:acme/payments.git'")


def asking(a, b, *argv):
    with FakeServer() as fake:
        fake.script("qa", a)
        fake.script("qb", b)
        return run_cli(*argv, "--base-url", fake.base_url, "--model-a", "qa",
                       "--model-b", "qb")


class ExitCode(unittest.TestCase):
    def test_the_answer_is_the_exit_status_as_the_gate_says_it(self):
        cases = [(SHOWN, SHOWN, PUSH_OK, PUSHED, 0, "shown"),
                 (NOT, NOT, PUSH_OK, PUSHED, 3, "not shown"),
                 (REJECTED, REJECTED, PUSH_REJECTED, "I pushed the payment retry to main", 4,
                  "contradicted")]
        for a, b, log, claim, want, said in cases:
            for extra in ((), ("--json",)):
                with self.subTest(answer=said, extra=extra):
                    status, out, err = asking(a, b, "check", "--claim", claim, "--log", log,
                                              "--exit-code", *extra)
                    self.assertEqual(status, want, err)
                    self.assertIn(said, out)

    def test_without_the_flag_any_answer_exits_0(self):
        for a, b, log in ((NOT, NOT, PUSH_OK), (REJECTED, REJECTED, PUSH_REJECTED)):
            with self.subTest(log=log):
                status, _, err = asking(a, b, "check", "--claim", "I pushed", "--log", log)
                self.assertEqual(status, 0, err)

    def test_errors_keep_their_own_statuses(self):
        status, _, err = asking(SHOWN, Reply(500, {"error": "boom"}), "check", "--claim",
                                PUSHED, "--log", PUSH_OK, "--exit-code")
        self.assertEqual(status, 6)
        self.assertIn("boom", err)
        status, _, _ = run_cli("check", "--claim", PUSHED, "--log", "no-such-log.json",
                               "--exit-code")
        self.assertEqual(status, 5)


def subcommands(parser, path=()):
    """(the words that name it, its parser, the help its parent lists it with) of every
    subcommand, nested ones (`ledger verify`) included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield path + (name,), sub, helps.get(name)
                yield from subcommands(sub, path + (name,))


def with_json():
    return [path for path, sub, _ in subcommands(build_parser())
            if "--json" in sub._option_string_actions]


class JsonErrors(unittest.TestCase):
    def error_of(self, out):
        value = json.loads(out)
        self.assertEqual(list(value), ["error"])
        self.assertEqual(sorted(value["error"]), ["exit_status", "kind", "message"])
        return value["error"]

    def test_the_commands_with_json_are_the_ones_expected(self):
        # a new command with --json is covered by the tests below by walking the parser
        self.assertLessEqual({("check",), ("verify",), ("score",), ("ledger", "verify"),
                              ("ledger", "show"), ("claims",), ("doctor",), ("ci",)},
                             set(with_json()))

    def test_a_usage_error_argparse_raises_is_a_json_object_too(self):
        for path in with_json():
            with self.subTest(command=" ".join(path)):
                status, out, err = run_cli(*path, "--json", "--no-such-option")
                self.assertEqual(status, 2)
                error = self.error_of(out)
                self.assertEqual((error["kind"], error["exit_status"]), ("UsageError", 2))
                # the message is argparse's, and its line on stderr is as it was
                self.assertTrue(error["message"])
                self.assertIn(f"error: {error['message']}", err)

    def test_an_error_of_the_family_is_a_json_object_with_its_line_on_stderr(self):
        missing = "no-such-file.json"
        cases = {("check",): ("--claim", "x", "--log", missing),
                 ("verify",): ("--log", missing, "--reply", missing),
                 ("score",): (missing, missing),
                 ("ledger", "verify"): (missing,),
                 ("ledger", "show"): (missing,),
                 ("claims",): ("--message", missing)}
        for path, argv in cases.items():
            with self.subTest(command=" ".join(path)):
                status, out, err = run_cli(*path, *argv, "--json")
                self.assertEqual(status, 5, err)
                error = self.error_of(out)
                self.assertEqual((error["kind"], error["exit_status"]), ("InputError", 5))
                self.assertIn(missing, error["message"])
                self.assertEqual(err.strip(), f"receipt-pair: {error['message']}")
        status, out, _ = run_cli("check", "--claim", "x", "--log", PUSH_OK, "--json",
                                 "--reader", "v1")
        self.assertEqual((status, self.error_of(out)["kind"]), (2, "UsageError"))

    def test_without_json_or_on_a_command_without_it_nothing_reaches_stdout(self):
        for argv in (("check", "--claim", "x", "--log", "no-such-file.json"),
                     ("check", "--claim", "x"), ("replay", "--json"),
                     ("gate", "--json", "--claim", "x", "--log", PUSH_OK, "--", "true")):
            with self.subTest(argv=argv):
                status, out, err = run_cli(*argv)
                self.assertNotEqual(status, 0)
                self.assertEqual(out, "")
                self.assertTrue(err)


class Help(unittest.TestCase):
    def test_every_subcommand_has_a_one_line_description_in_its_help(self):
        found = list(subcommands(build_parser()))
        self.assertGreaterEqual(len(found), 17)
        for path, sub, listed in found:
            with self.subTest(command=" ".join(path)):
                self.assertTrue(listed and listed.strip(), "no line in its parent's list")
                self.assertNotIn("\n", listed)
                self.assertLessEqual(len(listed), 100)
                self.assertTrue(sub.description, "no description in its own --help")
                # what --help prints: the description, its first words at least
                self.assertIn(" ".join(sub.description.split()[:4]),
                              " ".join(sub.format_help().split()))


# The commands each option applies to; a command not listed lacks it for the reason below.
APPLIES = {
    "--reader": {"check", "gate", "hook", "batch", "verify", "doctor", "ci"},
    "--rule": {"check", "gate", "hook", "ci"},
    "--models-only": {"check", "gate", "hook", "batch", "ci"},
    "--no-redact": {"check", "gate", "hook", "verify", "ci"},
    "--format": {"check", "gate", "verify", "ci"},
}
WHY_NOT = {
    ("batch", "--rule"): "a batch asks each model apart; score applies every rule",
    ("batch", "--no-redact"): "an items file's turns are a data set, read as sealed runs "
                              "read them",
    ("batch", "--format"): "an item carries its turns",
    ("hook", "--format"): "the agent's row names its session file's format",
}
# Narrower on purpose: the gate fails closed, and R1 and R4 let one model's answer run it.
NARROWED = {("gate", "--rule"): tuple(GATE_RULES)}


class SameChoices(unittest.TestCase):
    def options(self):
        """{option: {command: its argparse action}} over every (sub)command."""
        found = {}
        for path, sub, _ in subcommands(build_parser()):
            for option in APPLIES:
                action = sub._option_string_actions.get(option)
                if action is not None:
                    found.setdefault(option, {})[" ".join(path)] = action
        return found

    def test_each_option_is_offered_wherever_it_applies(self):
        found = self.options()
        for option, commands in APPLIES.items():
            with self.subTest(option=option):
                self.assertLessEqual(commands, set(found[option]),
                                     f"{option} is missing where it applies")
                for command in set(found[option]) - commands:
                    self.assertNotIn((command, option), WHY_NOT)

    def test_an_option_has_the_same_choices_and_kind_everywhere(self):
        want = {"--reader": tuple(sorted(READERS)), "--rule": tuple(RULES)}
        for option, commands in self.options().items():
            kinds = {type(action).__name__ for action in commands.values()}
            with self.subTest(option=option):
                self.assertEqual(len(kinds), 1, kinds)
            for command, action in commands.items():
                with self.subTest(option=option, command=command):
                    expected = NARROWED.get((command, option), want.get(option))
                    if expected is not None:
                        self.assertEqual(tuple(action.choices), expected)
                    elif action.choices is not None:
                        self.assertEqual(list(action.choices),
                                         list(commands["check"].choices))

    def test_a_retired_reader_is_refused_with_the_reason_where_it_asks(self):
        for argv in (("check", "--claim", "x", "--log", PUSH_OK),
                     ("gate", "--claim", "x", "--log", PUSH_OK, "--", "true")):
            with self.subTest(command=argv[0]):
                status, out, err = run_cli(*argv[:5], "--reader", "v1", *argv[5:])
                self.assertEqual(status, 2)
                self.assertIn("reader v1 is retired", err)


if __name__ == "__main__":
    unittest.main()
