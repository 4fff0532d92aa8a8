"""`ci` (issue 33 item 5): the receipts and ledgers a pull request carries re-derived
offline, GitHub annotations, the Markdown step summary and the step's outputs; claims
checked when a claims file is named. Receipts are made by `check --save` with the facts
deciding (no server); the step summary and outputs go to temporary files named by the
environment, as a runner names them."""

import json
import os
import re
import shutil
from unittest import mock

from receipt_pair.audit.ci import CiOptions, run_ci
from receipt_pair.cli.github import (command, escape_data, escape_property, markdown_cell,
                                     step_summary, where)

from tests.fakeserver import FakeServer, answer
from tests.helpers import EXAMPLES, TempDirTest, closed_port, run_cli

PUSHED = "I pushed the parser fix to fix/parser"
TESTS = "the tests pass"
RETRY = "I pushed the payment retry to main"
HOSTILE = "I pushed | <script>alert(1)</script> [x](http://evil.example)\n::error::forged"
# an unescaped "|": a cell border
BORDER = re.compile(r"(?<!\\)\|")


class CiTest(TempDirTest):
    def setUp(self):
        super().setUp()
        env = {k: v for k, v in os.environ.items() if k != "RECEIPT_PAIR_FACTS"}
        env.update(GITHUB_STEP_SUMMARY=self.path("summary.md"),
                   GITHUB_OUTPUT=self.path("output.txt"), GITHUB_WORKSPACE=self.dir)
        patcher = mock.patch.dict(os.environ, env, clear=True)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.down = f"http://127.0.0.1:{closed_port()}/v1"  # no server: the facts decide
        os.makedirs(self.path("receipts"))
        for name in ("push-ok.json", "push-rejected.json"):
            shutil.copy(os.path.join(EXAMPLES, name), self.path(name))
        self.ledger = self.path("receipts.jsonl")
        for number, (claim, log) in enumerate(((PUSHED, "push-ok.json"),
                                               (TESTS, "push-ok.json")), 1):
            self.save(claim, log, f"receipts/r{number}.json", "--ledger", self.ledger)

    def save(self, claim, log, name, *options):
        status, _, err = run_cli("check", "--claim", claim, "--log", self.path(log),
                                 "--base-url", self.down, "--save", self.path(name), *options)
        self.assertEqual(status, 0, err)
        return self.path(name)

    def ci(self, *argv):
        status, out, err = run_cli("ci", *argv)
        return status, out, err, self.read("summary.md"), self.read("output.txt")

    def read(self, name):
        if not os.path.exists(self.path(name)):
            return ""
        with open(self.path(name), encoding="utf-8") as handle:
            return handle.read()

    def annotations(self, out):
        return [line for line in out.splitlines() if line.startswith("::")]

    def edit(self, path, **changes):
        with open(path, encoding="utf-8") as handle:
            receipt = json.load(handle)
        receipt.update(changes)
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(receipt, handle)

    def assert_table_whole(self, summary):
        lines = [line for line in summary.splitlines() if line.startswith("|")]
        self.assertGreater(len(lines), 2)
        for line in lines:
            self.assertEqual(len(BORDER.findall(line)), 8, line)


class Holds(CiTest):
    def test_receipts_and_a_ledger_that_hold_pass_with_a_summary(self):
        status, out, err, summary, outputs = self.ci(
            "--receipts", self.path("receipts/*.json"), "--ledgers", self.ledger)
        self.assertEqual(status, 0, out + err)
        self.assertEqual(self.annotations(out), [])
        self.assertIn("ci: 4 checked, 0 do not hold", out)
        self.assertEqual(outputs, "result=pass\nchecked=4\nfailed=0\n")
        self.assertIn("## receipt-pair ci: all 4 hold", summary)
        # what each claim, answer, who decided and the quoted line were
        self.assertIn("| ✅ | receipt | receipts\\/r1\\.json | I pushed the parser fix to "
                      "fix\\/parser | shown | facts \\(push\\.updated\\) | T3\\: 3b2a6f1\\.\\."
                      "9c41e07 fix\\/parser \\-&gt; fix\\/parser |", summary)
        self.assertIn("| ✅ | ledger entry 2 | receipts\\.jsonl | the tests pass | shown | "
                      "facts \\(tests\\.passed\\) | T1\\: 10 passed in 0\\.84s |", summary)
        self.assert_table_whole(summary)

    def test_one_value_may_hold_several_paths_one_per_line(self):
        status, out, _, _, _ = self.ci("--receipts", self.path("receipts/r1.json") + "\n\n"
                                       + self.path("receipts/r2.json") + "\n")
        self.assertEqual(status, 0)
        self.assertIn("ci: 2 checked", out)

    def test_from_python_too(self):
        report = run_ci(CiOptions(receipts=[self.path("receipts/*.json")],
                                  ledgers=[self.ledger]))
        self.assertTrue(report.ok)
        self.assertEqual([(r.kind, r.line, r.answer, r.decided_by, r.rule) for r in report.rows],
                         [("receipt", None, "shown", "facts", "push.updated"),
                          ("receipt", None, "shown", "facts", "tests.passed"),
                          ("ledger entry", 1, "shown", "facts", "push.updated"),
                          ("ledger entry", 2, "shown", "facts", "tests.passed")])

    def test_json_is_the_report_with_no_annotations(self):
        self.edit(self.path("receipts/r1.json"), claim="edited")
        status, out, _, summary, _ = self.ci("--receipts", self.path("receipts/*.json"),
                                             "--json")
        self.assertEqual(status, 1)
        report = json.loads(out)
        self.assertEqual((report["ok"], report["checked"], report["failed"]), (False, 2, 1))
        self.assertEqual(sorted(report["rows"][0]), sorted(
            ["kind", "file", "line", "claim", "answer", "decided_by", "rule", "turn",
             "quote", "problems", "warnings", "holds"]))
        self.assertIn("do not hold", summary)

    def test_nothing_to_check_is_a_usage_error(self):
        status, _, err, _, _ = self.ci("--receipts", "", "--ledgers", "\n")
        self.assertEqual(status, 2)
        self.assertIn("nothing to check", err)


class DoesNotHold(CiTest):
    def test_a_tampered_receipt_fails_with_an_annotation_and_an_escaped_summary(self):
        self.edit(self.path("receipts/r1.json"), claim=HOSTILE)
        status, out, _, summary, outputs = self.ci("--receipts", self.path("receipts/*.json"))
        self.assertEqual(status, 1)
        self.assertEqual(outputs, "result=fail\nchecked=2\nfailed=1\n")
        [annotation] = self.annotations(out)
        self.assertTrue(annotation.startswith(
            "::error file=receipts/r1.json,title=receipt-pair%3A receipt does not hold::"),
            annotation)
        self.assertIn("it was edited after it was made", annotation)
        # the claim's line break cannot start a workflow command of its own
        self.assertEqual([line for line in out.splitlines() if "::error::forged" in line
                          and line.startswith("::error::")], [])
        self.assertIn("ci: 2 checked, 1 do not hold", out)
        self.assertIn("## receipt-pair ci: 1 of 2 do not hold", summary)
        self.assertNotIn("<script>", summary)
        self.assertNotIn("](http", summary)
        self.assertIn("&lt;script&gt;", summary)
        self.assert_table_whole(summary)

    def test_a_broken_ledger_names_the_entry_by_its_line(self):
        with open(self.ledger, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        entry = json.loads(lines[1])
        entry["receipt"]["answer"] = "contradicted"
        lines[1] = json.dumps(entry)
        with open(self.ledger, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        status, out, _, summary, _ = self.ci("--ledgers", self.ledger)
        self.assertEqual(status, 1)
        [annotation] = self.annotations(out)
        self.assertTrue(annotation.startswith(
            "::error file=receipts.jsonl,line=2,title=receipt-pair%3A ledger entry 2 does "
            "not hold::"), annotation)
        self.assertIn("| ❌ | ledger entry 2 |", summary)
        self.assertIn("| ✅ | ledger entry 1 |", summary)

    def test_a_ledger_with_an_entry_removed_from_the_middle_fails(self):
        self.save(RETRY, "push-rejected.json", "receipts/r3.json", "--ledger", self.ledger)
        with open(self.ledger, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        with open(self.ledger, "w", encoding="utf-8") as handle:
            handle.write("\n".join([lines[0], lines[2]]) + "\n")
        status, out, _, _, _ = self.ci("--ledgers", self.ledger)
        self.assertEqual(status, 1)
        self.assertTrue(any("line=2" in a for a in self.annotations(out)))

    def test_not_a_receipt_and_not_json_fail_each_on_its_own(self):
        self.write("receipts/notes.json", '{"hello": 1}')
        self.write("receipts/torn.json", '{"schema": ')
        status, out, _, _, _ = self.ci("--receipts", self.path("receipts/*.json"))
        self.assertEqual(status, 1)
        self.assertEqual(len(self.annotations(out)), 2)
        self.assertIn("not a receipt", out)
        self.assertIn("not valid JSON", out)

    def test_a_path_that_matches_nothing_fails_unless_allowed(self):
        status, out, _, _, _ = self.ci("--receipts", self.path("elsewhere/*.json"))
        self.assertEqual(status, 1)
        self.assertIn("a receipt the pull request should carry is missing", out)
        status, out, _, _, outputs = self.ci("--receipts", self.path("elsewhere/*.json"),
                                             "--allow-missing", "--ledgers", self.ledger)
        self.assertEqual(status, 0)
        self.assertTrue(self.annotations(out)[0].startswith("::warning "))

    def test_a_receipt_that_holds_and_does_not_show_warns_or_with_require_shown_fails(self):
        retry = self.save(RETRY, "push-rejected.json", "receipts/r3.json")
        status, out, _, summary, _ = self.ci("--receipts", retry)
        self.assertEqual(status, 0)
        [annotation] = self.annotations(out)
        self.assertTrue(annotation.startswith("::warning file=receipts/r3.json,"), annotation)
        self.assertIn("| ⚠️ | receipt | receipts\\/r3\\.json | I pushed the payment retry to "
                      "main | contradicted | facts \\(push\\.rejected\\) |", summary)
        status, out, _, _, _ = self.ci("--receipts", retry, "--require-shown")
        self.assertEqual(status, 1)
        self.assertTrue(self.annotations(out)[0].startswith("::error "))

    def test_expiry_judges_each_receipt_against_its_log_as_it_is_now(self):
        receipts = self.path("receipts/*.json")
        self.assertEqual(self.ci("--receipts", receipts, "--expiry")[0], 0)
        with open(self.path("push-ok.json"), "a", encoding="utf-8") as handle:
            handle.write("\n")
        status, out, _, _, _ = self.ci("--receipts", receipts, "--expiry")
        self.assertEqual(status, 1)
        self.assertIn("EXPIRED: the log changed since the receipt was made", out)
        self.assertEqual(self.ci("--receipts", receipts)[0], 0)  # it still re-derives

    def test_a_log_name_no_file_can_have_fails_that_receipt_not_the_run(self):
        with open(self.path("receipts/r1.json"), encoding="utf-8") as handle:
            log = json.load(handle)["log"]
        self.edit(self.path("receipts/r1.json"), log={**log, "file": "bad\x00name.json"})
        status, out, err, _, _ = self.ci("--receipts", self.path("receipts/*.json"),
                                         "--expiry", "--json")
        self.assertEqual(status, 1, err)
        report = json.loads(out)
        self.assertEqual((report["checked"], report["failed"]), (2, 1))
        self.assertIn("not a file's name", " ".join(report["rows"][0]["problems"]))
        self.assertEqual(report["rows"][1]["problems"], [])


class Claims(CiTest):
    def setUp(self):
        super().setUp()
        here = os.getcwd()
        os.chdir(self.dir)  # a claim's log is named from the folder ci runs in
        self.addCleanup(os.chdir, here)

    def claims(self, *lines):
        return self.write("claims.jsonl", "".join(json.dumps(line) + "\n" for line in lines))

    def test_claims_the_facts_settle_need_no_server(self):
        claims = self.claims({"claim": PUSHED, "log": "push-ok.json"},
                             {"claim": RETRY, "log": self.path("push-rejected.json")})
        status, out, _, summary, _ = self.ci("--claims", claims, "--base-url", self.down)
        self.assertEqual(status, 1)
        [annotation] = self.annotations(out)
        self.assertTrue(annotation.startswith("::error file=claims.jsonl,line=2,title="
                                              "receipt-pair%3A claim on line 2 does not hold"))
        self.assertIn("the answer is 'contradicted'", annotation)
        self.assertIn("| ✅ | claim on line 1 | claims\\.jsonl | I pushed the parser fix",
                      summary)

    def test_claims_the_facts_leave_go_to_the_model_server(self):
        claims = self.claims({"claim": "The parser handles empty input",
                              "log": self.path("push-ok.json")})
        status, out, _, _, _ = self.ci("--claims", claims, "--base-url", self.down)
        self.assertEqual(status, 1)
        self.assertIn("could not check it against", out)
        with FakeServer() as fake:
            quote = "3b2a6f1..9c41e07  fix/parser -> fix/parser"
            fake.script("qa", answer("shown", "T3", quote))
            fake.script("qb", answer("shown", "T3", quote))
            status, out, err, _, _ = self.ci("--claims", claims, "--base-url", fake.base_url,
                                             "--model-a", "qa", "--model-b", "qb",
                                             "--reader", "v6", "--models-only")
        self.assertEqual(status, 0, out + err)
        self.assertIn("shown, models (r3)", out)

    def test_a_log_outside_the_folder_is_never_read(self):
        os.symlink(os.path.join(EXAMPLES, "push-ok.json"), self.path("link.json"))
        outside = [os.path.join(EXAMPLES, "push-ok.json"), "../push-ok.json", "link.json",
                   "-"]
        claims = self.claims(*[{"claim": PUSHED, "log": log} for log in outside])
        status, out, _, summary, _ = self.ci("--claims", claims, "--base-url", self.down)
        self.assertEqual(status, 1)
        self.assertEqual(out.count("is not a file under the folder ci runs in"), 8)  # its line and its annotation, each
        self.assertNotIn("3b2a6f1", out + summary)

    def test_a_line_that_is_no_claim_fails_by_its_line(self):
        claims = self.write("claims.jsonl", '{"claim": "x"}\nnot json\n')
        status, out, _, _, _ = self.ci("--claims", claims, "--base-url", self.down)
        self.assertEqual(status, 1)
        self.assertEqual([a.split("::")[1] for a in self.annotations(out)],
                         ["error file=claims.jsonl,line=1,title=receipt-pair%3A claim on line 1 "
                          "does not hold",
                          "error file=claims.jsonl,line=2,title=receipt-pair%3A claim on line 2 "
                          "does not hold"])


class Formats(TempDirTest):
    def test_workflow_command_escapes(self):
        self.assertEqual(escape_data("100%\r\nnext"), "100%25%0D%0Anext")
        self.assertEqual(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A")
        self.assertEqual(command("error", "x\ny", file="a,b.json", line=3, title=None),
                         "::error file=a%2Cb.json,line=3::x%0Ay")
        self.assertEqual(command("notice", "plain"), "::notice::plain")

    def test_a_cell_renders_as_its_text_and_nothing_else(self):
        for text, want in (("a | b", "a \\| b"), ("<img src=x>", "&lt;img src\\=x&gt;"),
                           ("**bold** _it_ `code`", "\\*\\*bold\\*\\* \\_it\\_ \\`code\\`"),
                           ("[a](http://x)", "\\[a\\]\\(http\\:\\/\\/x\\)"),
                           ("line\nbreak\r\n", "line break"), ("&amp;", "&amp;amp\\;"),
                           ("\x1b[31mred", "&lt;ESC&gt;\\[31mred"), (None, "—"),
                           ("x" * 300, "x" * 197 + "\\.\\.\\.")):
            with self.subTest(text=text):
                self.assertEqual(markdown_cell(text), want)

    def test_files_are_named_from_the_workspace(self):
        self.assertEqual(where(os.path.join(self.dir, "r", "a.json"), self.dir), "r/a.json")
        self.assertEqual(where("/elsewhere/a.json", self.dir), "/elsewhere/a.json")
        self.assertEqual(where("r/a.json", None), "r/a.json")

    def test_a_summary_stays_under_githubs_limit(self):
        from receipt_pair.audit.ci import CiReport, Row
        rows = [Row("receipt", f"r{i}.json", claim="&" * 200, quote="<" * 200,
                    problems=["|" * 400]) for i in range(3000)]
        summary = step_summary(CiReport(rows))
        self.assertLess(len(summary.encode()), 1024 * 1024)
        self.assertIn("more left out here", summary)
