"""replay catches every way an answers file can be tampered with."""

import json

from tests.fakeserver import FakeServer
from tests.helpers import TempDirTest, good, make_items, run_cli


class Tampering(TempDirTest):
    made = None  # the answers file one real batch wrote for these items, made once

    def setUp(self):
        super().setUp()
        self.items = self.write("items.jsonl", make_items(3))
        self.out = self.path("answers.jsonl")
        if Tampering.made is None:
            with FakeServer() as fake:
                fake.script("qa", *[good] * 3)
                fake.script("qb", *[good] * 3)
                status, _, err = run_cli("batch", self.items, "--out", self.out, "--base-url",
                                         fake.base_url, "--model-a", "qa", "--model-b", "qb")
            self.assertEqual(status, 0, err)
            with open(self.out, "rb") as handle:
                Tampering.made = handle.read()
        self.write("answers.jsonl", Tampering.made)  # each test tampers with its own copy
        with open(self.out) as handle:
            self.records = [json.loads(line) for line in handle]

    def replay_with(self, records):
        path = self.write("tampered.jsonl", "".join(json.dumps(r) + "\n" for r in records))
        return run_cli("replay", path, self.items)

    def test_untouched_file_replays_clean(self):
        status, out, _ = run_cli("replay", self.out, self.items)
        self.assertEqual(status, 0, out)
        self.assertIn("6 record(s), no differences", out)

    def test_reply_edited(self):
        records = [dict(r) for r in self.records]
        records[2]["reply"] = records[2]["reply"].replace("main -> main", "main  -> main")
        status, out, _ = self.replay_with(records)
        self.assertEqual(status, 1)
        self.assertIn("reply sha256 differs", out)

    def test_reply_and_its_hash_edited_together(self):
        from receipt_pair.server.request import sha256_text

        records = [dict(r) for r in self.records]
        records[2]["reply"] = '{"verdict": "not_shown", "turn": null, "quote": "", "reason": ""}'
        records[2]["reply_sha256"] = sha256_text(records[2]["reply"])
        status, out, _ = self.replay_with(records)
        self.assertEqual(status, 1)
        self.assertIn("answer recorded 'shown', the check gives 'not shown'", out)

    def test_request_field_changed(self):
        for key, value in (("model", "qz"), ("extra", {"top_k": 5}), ("constrained", False)):
            with self.subTest(key=key):
                records = [dict(r) for r in self.records]
                records[1][key] = value
                status, out, _ = self.replay_with(records)
                self.assertEqual(status, 1)
                # The row no longer matches what the run pinned (or its own request).
                self.assertIn(key, out)

    def test_answer_flipped(self):
        records = [dict(r) for r in self.records]
        records[3]["answer"] = "not shown"
        records[3]["code"] = "quote_not_found"
        status, out, _ = self.replay_with(records)
        self.assertEqual(status, 1)
        self.assertIn("answer recorded 'not shown', the check gives 'shown'", out)
        self.assertIn("code recorded 'quote_not_found'", out)

    def test_row_removed(self):
        records = self.records[:4] + self.records[5:]
        status, out, _ = self.replay_with(records)
        self.assertEqual(status, 1)
        self.assertIn("no usable answer from model B", out)

    def test_items_changed(self):
        self.write("items.jsonl", make_items(3).replace("change 1", "change one"))
        status, out, _ = run_cli("replay", self.out, self.items)
        self.assertEqual(status, 1)
        self.assertIn("not the one the answers file pinned", out)
        self.assertIn("request sha256 differs", out)

    def test_edit_that_breaks_a_record_is_a_difference(self):
        with open(self.out) as handle:
            lines = handle.readlines()
        lines[2] = lines[2][:40] + "\\" + lines[2][41:]  # a backslash: the line is no longer JSON
        self.write("answers.jsonl", "".join(lines))
        status, out, _ = run_cli("replay", self.out, self.items)
        self.assertEqual(status, 1)
        self.assertIn("line 3: not a JSON record", out)
        self.assertIn("no usable answer", out)  # and the answer it held is missing

    def test_one_character_edit_of_the_file(self):
        with open(self.out) as handle:
            text = handle.read()
        index = text.index("main -> main")
        self.write("answers.jsonl", text[:index] + "M" + text[index + 1:])
        status, _, _ = run_cli("replay", self.out, self.items)
        self.assertEqual(status, 1)
