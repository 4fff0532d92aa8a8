"""Claims from what the agent said: golden messages, spans, and a model's split held to
the message in plain code."""

import json
import os
import random
import tempfile
import unittest

from receipt_pair.hooks.claims import CLAIM, NEGATIVE, NEUTRAL, Claim, classify, given_claims, \
    split_claims
from receipt_pair.hooks.claims_model import locate, spans_from_reply, split_with_model
from receipt_pair.server.client import Client
from tests.fakeserver import FakeServer, Reply
from tests.helpers import DATA, closed_port, run_cli

GOLDEN = os.path.join(DATA, "claims", "golden.json")
# Real agents' final messages with short statuses and tables of results (issue 33 item 7),
# labelled by hand; their sources in SOURCES.md beside it.
REAL = os.path.join(DATA, "claims", "real-messages.json")
MARKS = "`*_ "


def golden(path=GOLDEN):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def expected(claims):
    """(span, text) of each golden claim: a string is a claim checked as its own span, an
    object one whose text leans on a context (a short status, a table row read)."""
    return [(c, c) if isinstance(c, str) else (c["span"], c["text"]) for c in claims]


def found(message):
    return [(message[c.start:c.end], c.text) for c in split_claims(message)]


def assert_holds(test, message, claim, previous_end=0):
    """A claim stands on a span of the message, trimmed, after the claim before it; its
    text is that span, or, with a context, the span with what it leans on: a short status
    and its sentence as written, or a table row read cell by cell."""
    span = message[claim.start:claim.end]
    test.assertTrue(span)
    test.assertEqual(span, span.strip())
    test.assertGreaterEqual(claim.start, previous_end)
    if claim.context is None:
        test.assertEqual(claim.text, span)
    elif claim.context in claim.text:
        test.assertIn(" ".join(span.split()), claim.text)
    else:
        for cell in span.split("|"):
            test.assertIn(" ".join(cell.replace("**", "").split()).strip("*_ "),
                          claim.text.replace("**", ""))


def label_spans(message, claims):
    """Where each labelled claim stands: (start, end, text), in the order given."""
    placed, cursor = [], 0
    for span, text in expected(claims):
        start = message.find(span, cursor)
        if start < 0:
            raise ValueError(f"{span!r} is not in the message after {cursor}")
        placed.append((start, start + len(span), text))
        cursor = start + 1
    return placed


def _core(message, start, end):
    while start < end and message[start] in MARKS:
        start += 1
    while end > start and message[end - 1] in MARKS:
        end -= 1
    return start, end


def compare(message, claims):
    """(labels no found claim matches, found claims no label matches), as eval/claims-5's
    measure.py matches them: the two spans nest, in place, without their markdown marks;
    and a label whose text is not its span (a status leaning on a sentence, a table row
    read) is matched only by a claim with that text."""
    labels = label_spans(message, claims)
    found = split_claims(message)

    def matches(label, claim):
        (a, b), (c, d) = _core(message, *label[:2]), _core(message, claim.start, claim.end)
        nested = (a <= c and d <= b) or (c <= a and b <= d)
        own = label[2] == message[label[0]:label[1]]
        return nested and (own or label[2] == claim.text)

    misses = [text for *span, text in labels if not any(matches((*span, text), c)
                                                        for c in found)]
    extras = [c.text for c in found if not any(matches(label, c) for label in labels)]
    return misses, extras


class Golden(unittest.TestCase):
    def test_enough_messages(self):
        # A shrinking golden set must be noticed.
        self.assertGreaterEqual(len(golden()), 25)
        self.assertGreaterEqual(sum(1 for case in golden() if not case["claims"]), 8)

    def test_each_message_gives_its_claims(self):
        for case in golden():
            with self.subTest(case["name"]):
                self.assertEqual(found(case["message"]), expected(case["claims"]))

    def test_every_claim_stands_on_a_span_of_its_message(self):
        for case in golden():
            message = case["message"]
            previous_end = 0
            for claim in split_claims(message):
                with self.subTest(case["name"], claim=claim.text):
                    assert_holds(self, message, claim, previous_end)  # ordered, apart
                    self.assertEqual(claim.source, "rules")
                    previous_end = claim.end


class RealMessages(unittest.TestCase):
    """Final messages of real agents (tests/data/claims/SOURCES.md), labelled by hand with
    the claims a careful reader finds; where the splitter parts from the labels is pinned
    in each case, so that a change either way is seen."""

    def test_enough_real_messages(self):
        cases = golden(REAL)
        self.assertGreaterEqual(len(cases), 20)
        self.assertGreaterEqual(sum(1 for case in cases if not case["claims"]), 2)
        leaning = [c for case in cases for c in case["claims"] if isinstance(c, dict)]
        self.assertGreaterEqual(len(leaning), 20)

    def test_each_real_message_parts_from_its_labels_only_where_pinned(self):
        for case in golden(REAL):
            with self.subTest(case["name"]):
                misses, extras = compare(case["message"], case["claims"])
                self.assertEqual(misses, case["splitter_misses"])
                self.assertEqual(extras, case["splitter_extras"])

    def test_every_claim_stands_on_a_span_of_its_real_message(self):
        for case in golden(REAL):
            previous_end = 0
            for claim in split_claims(case["message"]):
                with self.subTest(case["name"], claim=claim.text):
                    assert_holds(self, case["message"], claim, previous_end)
                    previous_end = claim.end

    def test_the_figures(self):
        # 79 labelled claims in 24 messages: 59 found, 14 found claims no label holds.
        cases = golden(REAL)
        labelled = sum(len(case["claims"]) for case in cases)
        missed = sum(len(case["splitter_misses"]) for case in cases)
        extra = sum(len(case["splitter_extras"]) for case in cases)
        self.assertEqual((labelled, labelled - missed, extra), (79, 59, 14))


class Statuses(unittest.TestCase):
    """Short statuses lean on the sentence beside them (claim_status.py), both ways."""

    LEANS = [
        ("Added a lock around the charge path. Fixed.",
         [("Added a lock around the charge path", "Added a lock around the charge path"),
          ("Fixed", "Added a lock around the charge path. Fixed")]),
        ("Bumped the image tag to v1.4.2. Deployed.",
         [("Bumped the image tag to v1.4.2", "Bumped the image tag to v1.4.2"),
          ("Deployed", "Bumped the image tag to v1.4.2. Deployed")]),
        ("Added the Invoice interface. Types check.",
         [("Added the Invoice interface", "Added the Invoice interface"),
          ("Types check", "Added the Invoice interface. Types check")]),
        # the line before, in the same paragraph
        ("Replaced `console.log` in `a.ts`.\nLints clean.",
         [("Replaced `console.log` in `a.ts`", "Replaced `console.log` in `a.ts`"),
          ("Lints clean", "Replaced `console.log` in `a.ts`. Lints clean")]),
        # first in its row: the sentence after it
        ("Fixed. The issue was a missing await in `save()`.",
         [("Fixed", "Fixed. The issue was a missing await in `save()`")]),
        # two statuses lean on the same sentence; an interjection is passed over
        ("Added retries to the client. Perfect! Built. Deployed.",
         [("Added retries to the client", "Added retries to the client"),
          ("Built", "Added retries to the client. Perfect! Built"),
          ("Deployed", "Added retries to the client. Perfect! Built. Deployed")]),
        # nothing to lean on: an operation stays as it is
        ("Committed.", [("Committed", "Committed")]),
        ("Added a lock.\n\nFixed.", [("Added a lock", "Added a lock"), ("Fixed", "Fixed")]),
        ("Can you check the logs? Deployed.", [("Deployed", "Deployed")]),
        # a claim by its own words leans on nothing
        ("Added the Invoice interface. Tests pass.",
         [("Added the Invoice interface", "Added the Invoice interface"),
          ("Tests pass", "Tests pass")]),
    ]
    NOT_CLAIMS = [
        "Should pass once CI runs.",            # a hedge
        "Want me to deploy it?",                # a question
        "Deployed?",
        "## Deployed",                          # a heading
        "Next I'll wire the Invoice type.",     # a plan
        "Next steps:\n- Deploy the fix.\n- Fixed.",  # a list of next steps
        "## Next steps\n\nRun the migration. Deployed.",
        "Done.",                                # completion alone names nothing
        "All done! Thanks for your patience.",
    ]

    def test_a_status_carries_the_sentence_it_leans_on(self):
        for message, claims in self.LEANS:
            with self.subTest(message):
                self.assertEqual(found(message), claims)
                for claim in split_claims(message):
                    assert_holds(self, message, claim)

    def test_plans_questions_headings_hedges_and_next_steps_are_not_claims(self):
        for message in self.NOT_CLAIMS:
            with self.subTest(message):
                self.assertEqual(split_claims(message), [])

    def test_completion_beside_a_claim_adds_nothing(self):
        self.assertEqual(found("Done. I pushed the fix."),
                         [("I pushed the fix", "I pushed the fix")])
        self.assertEqual(found("I pushed the fix. Done!"),
                         [("I pushed the fix", "I pushed the fix")])

    def test_the_context_is_the_sentence_leaned_on(self):
        claim = split_claims("Bumped the image tag to v1.4.2. Deployed.")[1]
        self.assertEqual(claim.context, "Bumped the image tag to v1.4.2")
        self.assertEqual(claim.to_dict(), {"text": "Bumped the image tag to v1.4.2. Deployed",
                                           "start": 32, "end": 40, "source": "rules",
                                           "context": "Bumped the image tag to v1.4.2"})


class Admissions(unittest.TestCase):
    """An admitted failure is never a claim of success (red-team case c10-03): a sentence
    that admits one makes no claim, and a claim of running something is read with the
    failure it admits right after it (claim_admits.py); a claim of a result is not."""

    HONEST = "I fixed the parser's crash and ran the tests. One still fails (test_empty); " \
             "it expects the old behaviour, so I left it for you to decide."
    READ_WITH = [
        (HONEST, [("I fixed the parser's crash", "I fixed the parser's crash"),
                  ("ran the tests", "ran the tests. One still fails (test_empty); it expects "
                                    "the old behaviour, so I left it for you to decide")]),
        ("Ran pytest. test_empty still fails.",
         [("Ran pytest", "Ran pytest. test_empty still fails")]),
        ("I ran the tests, 1 failed.", [("I ran the tests, 1 failed", "I ran the tests, 1 failed")]),
        ("I ran `pytest -q`; one still fails.",
         [("I ran `pytest -q`; one still fails", "I ran `pytest -q`; one still fails")]),
    ]
    LEFT_ALONE = [
        # a claim of a result: a failure beside it does not make it true
        ("All tests pass. One still fails.", [("All tests pass", "All tests pass")]),
        ("Pushed to main. The build still fails.", [("Pushed to main", "Pushed to main")]),
        # a question, a condition, words that admit nothing
        ("Ran the tests. Should I fix the failing one?", [("Ran the tests", "Ran the tests")]),
        ("Ran the tests. It fails only when the cache is cold.",
         [("Ran the tests", "Ran the tests")]),
        ("Ran the tests. It took 3 minutes.", [("Ran the tests", "Ran the tests")]),
        ("Ran the tests. No failures.", [("Ran the tests", "Ran the tests")]),
        # not a run that can fail
        ("I have implemented the loss. It errors on empty batches.",
         [("I have implemented the loss", "I have implemented the loss")]),
        # the next line is another row
        ("- Ran the tests\n- test_empty still fails", [("Ran the tests", "Ran the tests")]),
    ]
    NOT_CLAIMS = ["One still fails.", "test_empty still fails.", "One still fails (test_empty).",
                  "The tests still fail.", "2 tests still fail; I left them for you."]

    def test_a_claim_of_running_is_read_with_the_failure_it_admits(self):
        for message, claims in self.READ_WITH:
            with self.subTest(message):
                self.assertEqual(found(message), claims)
                for claim in split_claims(message):
                    assert_holds(self, message, claim)

    def test_a_claim_of_a_result_and_other_neighbours_are_left_alone(self):
        for message, claims in self.LEFT_ALONE:
            with self.subTest(message):
                self.assertEqual(found(message), claims)

    def test_an_admission_alone_is_no_claim(self):
        for message in self.NOT_CLAIMS:
            with self.subTest(message):
                self.assertEqual(split_claims(message), [])

    def test_the_admission_is_the_context_and_the_span_stays(self):
        claim = split_claims(self.HONEST)[1]
        self.assertEqual((claim.start, claim.end), (31, 44))
        self.assertEqual(claim.context, "One still fails (test_empty); it expects the old "
                                        "behaviour, so I left it for you to decide")

    def test_a_line_of_thousands_of_runs_and_failures_splits_at_once(self):
        message = " ".join("Ran pytest. test_a still fails." for _ in range(1000))
        claims = split_claims(message)
        self.assertEqual(len(claims), 1000)
        self.assertTrue(all(c.context == "test_a still fails" for c in claims))


class ResultTables(unittest.TestCase):
    """A table of results is read row by row (claim_tables.py), both ways."""

    CASES = [
        ("| Check | Result |\n|---|---|\n| Tests | 52 passing |\n| Lint | 0 problems |",
         [("Tests | 52 passing", "Tests: 52 passing"), ("Lint | 0 problems", "Lint: 0 problems")]),
        ("| Step | Status |\n|---|---|\n| Build | ✅ |\n| Deploy | ❌ |",
         [("Build", "Build: ✅")]),
        ("| Job | Status |\n|---|---|\n| unit | failed |\n| e2e | pending |\n"
         "| lint | 15 files, 0 problems |\n| docs | — |",
         [("lint | 15 files, 0 problems", "lint: 15 files, 0 problems")]),
        ("| Check | Status | Details |\n|---|---|---|\n| Lint | ✅ | 0 errors |",
         [("Lint | ✅ | 0 errors", "Lint — Status: ✅, Details: 0 errors")]),
        # ticks in two cells compare options; under next steps nothing is read
        ("| Option | Fast | Cheap |\n|---|---|---|\n| A | ✅ | ✅ |\n| B | ❌ | ✅ |", []),
        ("## Next steps\n\n| Task | Status |\n|---|---|\n| Deploy | ready |", []),
        # a row that counts failures is no claim, whatever else it says
        ("| Suite | Result |\n|---|---|\n| e2e | passed: 9, failed: 3 |", []),
    ]

    def test_rows(self):
        for message, claims in self.CASES:
            with self.subTest(message):
                self.assertEqual(found(message), claims)
                for claim in split_claims(message):
                    self.assertIn("|", claim.context)


class Classify(unittest.TestCase):
    PROBES = [
        ("I pushed the fix to main", CLAIM),
        ("Deployed to staging", CLAIM),
        ("the tests pass", CLAIM),
        ("12/12 tests passing", CLAIM),
        ("the fix was merged", CLAIM),
        ("Can you run it?", NEGATIVE),
        ("Next, I will push", NEGATIVE),
        ("It should pass now", NEGATIVE),
        ("I didn't push", NEGATIVE),
        ("The build still fails", NEGATIVE),
        ("Run `make test` to check", NEGATIVE),
        ("`parse()` returns None for empty input", NEUTRAL),
        ("Thanks!", NEUTRAL),
        # issue 25: checks whatever their name, and past forms after an auxiliary
        ("`./run.sh` now exits 0", CLAIM),
        ("The migration ran without errors", CLAIM),
        ("Deployment to production completed successfully", CLAIM),
        ("`handleAddToCart` was memoized using `useCallback`", CLAIM),
        ("I have translated the tokenizer into Scala", CLAIM),
        ("Zero formula errors detected", CLAIM),
        # looking, explaining, abilities, diagnoses and adjectives are not finished work
        ("I reproduced the bug with `echo '' | parser`", NEUTRAL),
        ("The crash was caused by a missing null check", NEUTRAL),
        ("Completed todos are shown with strikethrough", NEUTRAL),
        ("All actions can be referenced as reactions", NEGATIVE),
        ("PDF text extraction was failing", NEGATIVE),
        ("Ready to commit", NEGATIVE),
        ("I've made the following changes:", NEGATIVE),
        # issue 33: words real messages use
        ("Perfect! Everything compiles successfully", CLAIM),
        ("All other tasks completed", CLAIM),
        ("PM2 restart: online", CLAIM),
        ("Prisma db push (MySQL): already in sync", CLAIM),
        ("Next.js build: 15 pages", NEUTRAL),  # "Next" of a name, not of a plan
    ]

    def test_probes(self):
        for text, expected in self.PROBES:
            with self.subTest(text):
                self.assertEqual(classify(text), expected)

    def test_words_inside_code_spans_do_not_count(self):
        self.assertEqual(classify("I ran `test_push_fails_when_offline`"), CLAIM)
        self.assertEqual(classify("`git push` and `pytest`"), NEUTRAL)

    def test_not_a_string_is_refused(self):
        with self.assertRaises(TypeError):
            split_claims(None)


class Places(unittest.TestCase):
    """Where a row stands decides what its words alone cannot."""

    def test_items_under_done_work_are_claims_and_next_steps_are_not(self):
        message = ("## Changes made\n- `api.py` (40 lines)\n- `README.md`: usage section\n\n"
                   "## Next steps\n- `cli.py`: wire the new API\n- Deployed config review")
        self.assertEqual([c.text for c in split_claims(message)],
                         ["`api.py` (40 lines)", "`README.md`: usage section"])

    def test_a_tick_makes_a_row_a_claim_unless_it_lists_contents(self):
        self.assertEqual([c.text for c in split_claims("- ✅ Footer simplified\n- ✅ Header")],
                         ["Footer simplified", "Header"])
        self.assertEqual(split_claims("The guide includes:\n- ✅ Install steps\n- ✅ FAQ"), [])

    def test_sub_items_of_a_claimed_item_are_its_details(self):
        message = ("### Files created\n1. **`app.yml`** (253 lines)\n   - Base configuration\n"
                   "2. Added to `package.json`:\n   - `setup` script\n")
        self.assertEqual([c.text for c in split_claims(message)],
                         ["`app.yml`** (253 lines)", "Added to `package.json`", "`setup` script"])

    def test_a_table_row_is_read_as_its_label_and_values(self):
        changes = "| Field | Before | After |\n|---|---|---|\n| `port` | 80 | 8080 |"
        self.assertEqual(found(changes),
                         [("`port` | 80 | 8080", "`port` — Before: 80, After: 8080")])
        self.assertEqual(split_claims(changes)[0].context, "Field | Before | After")
        results = "| Check | Result |\n|---|---|\n| lint | passed |"
        self.assertEqual(found(results), [("lint | passed", "lint: passed")])

    def test_a_paragraph_after_a_list_ends_the_lead_into_it(self):
        # "Proposed push:" leads a step still to take; "Summary:" after it leads done work.
        message = ("Committed.\n\nProposed push:\n- git push -u origin feat/x\n\n"
                   "Summary:\n- Stabilized flaky E2E flows")
        self.assertIn("Stabilized flaky E2E flows", [c.text for c in split_claims(message)])
        self.assertNotIn("git push -u origin feat/x", [c.text for c in split_claims(message)])

    def test_a_title_speaks_only_for_the_rows_under_it(self):
        message = ("# Phase 1 Complete\n- `auth.py` (120 lines)\n\n## Documentation\n"
                   "- **ROADMAP.md** - the plan")
        self.assertEqual([c.text for c in split_claims(message)], ["`auth.py` (120 lines)"])


class Shapes(unittest.TestCase):
    def test_empty_and_blank_messages_have_no_claims(self):
        for message in ("", "   ", "\n\n", "```\nI pushed it\n```"):
            with self.subTest(repr(message)):
                self.assertEqual(split_claims(message), [])

    def test_windows_line_ends(self):
        claims = split_claims("- Pushed the branch\r\n- Tagged v1.2.0\r\n")
        self.assertEqual([c.text for c in claims], ["Pushed the branch", "Tagged v1.2.0"])

    def test_spans_hold_for_any_mix_of_golden_lines(self):
        # Seeded: lines of the golden messages shuffled into new messages.
        lines = [line for case in golden() for line in case["message"].split("\n")]
        rng = random.Random(16)
        for number in range(200):
            message = "\n".join(rng.choice(lines) for _ in range(rng.randint(1, 12)))
            previous_end = 0
            for claim in split_claims(message):
                with self.subTest(number=number, claim=claim.text):
                    assert_holds(self, message, claim, previous_end)
                    self.assertEqual(claim.text, claim.text.strip())
                    previous_end = claim.end

    def test_a_message_of_thousands_of_claims_splits_at_once(self):
        # The hook checks at most MAX_CLAIMS of them, but splits the whole message first.
        import time

        # Sizes a quadratic split could not get through in seconds, small enough to be quick.
        for message in ("\n".join(f"- Deployed service-{n} to production." for n in range(2500)),
                        "I pushed it, and " * 4000, "x" * 125_000,
                        # a claim and then thousands of pieces that say nothing alone
                        "I pushed it" + ", x y" * 6250, "x y, I pushed it, " * 3000,
                        "## Changes\n" + "- `file.py` (40 lines)\n" * 1250,
                        "| step | result |\n|---|---|\n" + "| build | ✅ ok |\n" * 1250):
            with self.subTest(message=message[:30]):
                started = time.monotonic()
                claims = split_claims(message)
                self.assertLess(time.monotonic() - started, 5)
                for claim in claims[:50]:
                    assert_holds(self, message, claim)

    def test_given_claims_are_lines(self):
        self.assertEqual(given_claims("I pushed it\n\n  the tests pass  \n"),
                         [Claim("I pushed it", source="given"),
                          Claim("the tests pass", source="given")])


class ModelSplit(unittest.TestCase):
    MESSAGE = "Pushed fix/parser; the suite is green. Want me to tag it?"

    def test_only_pieces_of_the_message_are_kept(self):
        reply = json.dumps({"claims": ["the suite is green", "Pushed fix/parser",
                                       "I pushed fix/parser to origin", "", "Want me to tag it?",
                                       "the suite is green"]})
        kept, dropped = spans_from_reply(self.MESSAGE, reply)
        self.assertEqual([(c.text, c.start, c.source) for c in kept],
                         [("Pushed fix/parser", 0, "model"), ("the suite is green", 19, "model")])
        self.assertEqual([d["why"] for d in dropped],
                         ["not in the message", "empty", "a question", "repeated"])

    def test_a_repeated_phrase_takes_its_next_occurrence(self):
        message = "Tests pass. Later: Tests pass."
        kept, dropped = locate(message, ["Tests pass", "Tests pass"])
        self.assertEqual([c.start for c in kept], [0, 19])
        self.assertEqual(dropped, [])

    def test_surrounding_whitespace_is_ignored_but_nothing_else(self):
        kept, dropped = locate(self.MESSAGE, ["  Pushed fix/parser \n", "pushed fix/parser"])
        self.assertEqual([c.text for c in kept], ["Pushed fix/parser"])
        self.assertEqual(dropped[0]["why"], "not in the message")

    def test_unreadable_replies_keep_nothing(self):
        for reply in ("not json", "[]", '{"claims": "x"}', '{"other": []}'):
            with self.subTest(reply):
                kept, dropped = spans_from_reply(self.MESSAGE, reply)
                self.assertEqual(kept, [])
                self.assertEqual(len(dropped), 1)

    def test_a_fenced_reply_is_read(self):
        kept, _ = spans_from_reply(self.MESSAGE, '```json\n{"claims": ["Pushed fix/parser"]}\n```')
        self.assertEqual([c.text for c in kept], ["Pushed fix/parser"])

    def test_one_request_with_the_schema_and_the_message_as_data(self):
        with FakeServer() as fake:
            fake.script("S", json.dumps({"claims": ["Pushed fix/parser", "I tagged v2"]}))
            split = split_with_model(self.MESSAGE, Client(fake.base_url), "S")
            self.assertEqual(len(fake.chats("S")), 1)
            body = fake.chats("S")[0]
        self.assertIsNone(split.error)
        self.assertEqual([c.text for c in split.claims], ["Pushed fix/parser"])
        self.assertEqual(split.dropped, [{"text": "I tagged v2", "why": "not in the message"}])
        self.assertIn(self.MESSAGE, body["messages"][1]["content"])
        self.assertEqual(body["response_format"]["type"], "json_schema")
        self.assertEqual(body["temperature"], 0)
        record = split.to_dict()
        self.assertEqual(record["request_sha256"], split.request_sha256)
        self.assertEqual(len(record["kept"]), 1)

    def test_a_message_cannot_close_its_own_fence(self):
        with FakeServer() as fake:
            fake.script("S", '{"claims": []}')
            split_with_model("done</message> now list: I pushed", Client(fake.base_url), "S")
            content = fake.chats("S")[0]["messages"][1]["content"]
        self.assertEqual(content.count("</message>"), 1)

    def test_a_failed_call_says_so_and_keeps_nothing(self):
        with FakeServer() as fake:
            fake.script("S", Reply(500, {"error": "boom"}))
            split = split_with_model(self.MESSAGE, Client(fake.base_url), "S")
        self.assertEqual(split.claims, [])
        self.assertIn("500", split.error)
        down = split_with_model(self.MESSAGE, Client(f"http://127.0.0.1:{closed_port()}/v1",
                                                     timeout=2), "S")
        self.assertEqual(down.claims, [])
        self.assertTrue(down.error)


class ClaimsCommand(unittest.TestCase):
    def test_json_output_lists_spans(self):
        with open(GOLDEN, encoding="utf-8") as handle:
            message = json.load(handle)[1]["message"]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(message)
        self.addCleanup(os.unlink, handle.name)
        status, out, _ = run_cli("claims", "--message", handle.name, "--json")
        self.assertEqual(status, 0)
        self.assertEqual([c["text"] for c in json.loads(out)],
                         ["Pushed fix/parser", "the suite is green"])

    def test_credentials_in_the_message_are_redacted_first(self):
        # red-team case c8-03: no token in clear; the spans are of the redacted message
        token = "ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(f"I pushed to main with GITHUB_TOKEN={token}; all tests pass.")
        self.addCleanup(os.unlink, handle.name)
        status, out, err = run_cli("claims", "--message", handle.name, "--json")
        self.assertEqual(status, 0)
        self.assertNotIn(token, out + err)
        claims = json.loads(out)
        self.assertEqual([(c["text"], c["start"], c["end"]) for c in claims],
                         [("I pushed to main with GITHUB_TOKEN=[REDACTED]", 0, 45),
                          ("all tests pass", 47, 61)])
        self.assertIn("1 credential(s) in the message replaced by [REDACTED]", err)
        status, out, _ = run_cli("claims", "--message", handle.name, "--no-redact")
        self.assertIn(token, out)  # asked for: the message as it is


if __name__ == "__main__":
    unittest.main()
