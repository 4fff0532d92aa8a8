"""Several claims of one stop asked the quick way (pair.claim.check_claims): one menu for all
of them, model A's questions then model B's, each request letting the server reuse what it
shares with the one before, within a deadline."""

import json
import time
import unittest

from receipt_pair import Settings
from receipt_pair.audit.replay import replay_receipt
from receipt_pair.logs import LogRead
from receipt_pair.pair.claim import check_claims
from receipt_pair.server.request import SETTINGS
from receipt_pair.store.records import build_receipt
from receipt_pair.turn import Turn

from tests.fakeserver import FakeServer

TURNS = [Turn("python -m pytest -q", "5 passed in 0.10s", 0),
         Turn("git push origin main", "To o\n   1a2b3c4..5d6e7f8  main -> main", 0)]
CLAIMS = ["the tests pass", "I pushed the fix to main"]


def by_label(text):
    def reply(body):
        content = body["messages"][1]["content"]
        label = next(line.split(":", 1)[0] for line in content.splitlines()
                     if line.startswith("L") and line.split(": ", 1)[-1].strip() == text)
        return json.dumps({"verdict": "shown", "line": label, "reason": "ok"})
    return reply


class QuickWay(unittest.TestCase):
    def settings(self, fake):
        return Settings(model_a="qa", model_b="qb", base_url=fake.base_url, reader="f2",
                        facts=False)

    def test_a_asks_every_claim_then_b_sharing_one_prompt_up_to_the_claim(self):
        with FakeServer() as fake:
            fake.script("qa", by_label("5 passed in 0.10s"),
                        by_label("1a2b3c4..5d6e7f8  main -> main"))
            fake.script("qb", by_label("5 passed in 0.10s"),
                        by_label("1a2b3c4..5d6e7f8  main -> main"))
            checked = check_claims(CLAIMS, TURNS, self.settings(fake))
            chats = fake.chats()
        self.assertEqual([c.result.answer for c in checked], ["shown", "shown"])
        self.assertEqual([body["model"] for body in chats], ["qa", "qa", "qb", "qb"])
        self.assertTrue(all(body["cache_prompt"] is True for body in chats))
        first, second = (body["messages"][1]["content"] for body in chats[:2])
        self.assertEqual(first[:first.rindex("Claim:")], second[:second.rindex("Claim:")])
        # each claim's receipt keeps the claims its menu was picked for, and re-derives
        receipt = build_receipt(checked[1].result, LogRead(TURNS, "0" * 64, name="log"),
                                dict(SETTINGS))
        self.assertEqual(receipt["menu_claims"], CLAIMS)
        self.assertEqual(replay_receipt(receipt), [])

    def test_the_same_requests_can_be_asked_cold(self):
        # a benchmark's cold run: one menu for both claims, as the hook asks, the cache off
        with FakeServer() as fake:
            for model in ("qa", "qb"):
                fake.script(model, by_label("5 passed in 0.10s"),
                            by_label("1a2b3c4..5d6e7f8  main -> main"))
            checked = check_claims(CLAIMS, TURNS, self.settings(fake), cache_prompt=False)
            chats = fake.chats()
        self.assertTrue(all(body["cache_prompt"] is False for body in chats))
        first, second = (body["messages"][1]["content"] for body in chats[:2])
        self.assertEqual(first[:first.rindex("Claim:")], second[:second.rindex("Claim:")])

    def test_a_claim_left_when_the_time_runs_out_says_so(self):
        with FakeServer() as fake:
            checked = check_claims(CLAIMS, TURNS, self.settings(fake),
                                   deadline=time.monotonic() - 1)
            self.assertEqual(fake.chats(), [])
        self.assertTrue(all("time for this stop ran out" in c.error for c in checked))
