"""What every command does the same way (issue 33 item 6): an answer said by the exit status
where asked (`check --exit-code`, as `gate` does), an error as a JSON object under `--json`,
a one-line description for every subcommand, and the same choices wherever an option
applies."""

import os
import unittest

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


if __name__ == "__main__":
    unittest.main()
