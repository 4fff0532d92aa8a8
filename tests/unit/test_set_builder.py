"""The builder of real sets from set 17 on (eval/set_builder_2.py): it refuses what set 16's
let through, and writes the items file whole."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "eval"))
import set_builder_2 as builder  # noqa: E402


def _write(folder, name, rows):
    os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
    with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(row) + "\n" for row in rows))


def _item(pid, repository="o/r"):
    return {"pid": pid, "claim": "tests pass", "turns": [{"cmd": "pytest", "output": "1 passed",
                                                          "exit_status": "0"}],
            "agent": "codex", "source": f"{repository}@{'0' * 40}:log", "source_turns": "1",
            "claim_source": "agent"}


def _label(pid, label="shown"):
    return {"pid": pid, "label": label, "turn": "T1", "line": "1 passed", "why": "ran",
            "sure": True, "edited_after": False}


class SetBuilder(unittest.TestCase):
    def folder(self, labels_two=None, pools=("A", "A2")):
        here = tempfile.mkdtemp()
        self.addCleanup(lambda: __import__("shutil").rmtree(here))
        _write(here, "used-repos.txt", [])
        _write(here, "pool-A.jsonl", [_item("A-001"), _item("A-002", "old/used")])
        _write(here, "pool-A2.jsonl", [])
        _write(here, "labels/labels-1-L1.jsonl", [_label("A-001")])
        _write(here, "labels/labels-2-L1.jsonl", labels_two or [_label("A-001")])
        with open(os.path.join(here, "used-repos.txt"), "w") as handle:
            handle.write("Old/Used\n")
        return builder.SetFolder(here, number=99, seed=1, pools=pools, groups=("L1",),
                                 per_repository=6)

    def test_builds_and_writes_whole(self):
        folder = self.folder()
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            self.assertEqual(builder.main(folder, []), 0)
            self.assertEqual(builder.main(folder, ["--check"]), 0)
        self.assertIn("real99-test.jsonl: 1 items", said.getvalue())
        with open(os.path.join(folder.here, "real99-test.jsonl")) as handle:
            items = [json.loads(line) for line in handle]
        self.assertEqual([(i["id"], i["truth"], i["turns"][0]["exit_status"]) for i in items],
                         [("r99t-001", "shown", 0)])  # the used repository's item left out
        self.assertFalse(os.path.exists(os.path.join(folder.here, "real99-test.jsonl.new")))

    def test_refuses_a_missing_pool(self):
        with self.assertRaisesRegex(ValueError, "pool-B.jsonl: named but missing"):
            self.folder(pools=("A", "B")).build_items()

    def test_refuses_a_label_that_is_no_truth(self):
        with self.assertRaisesRegex(ValueError, "is no truth"):
            self.folder(labels_two=[_label("A-001", "maybe")]).build_items()

    def test_refuses_an_item_one_pass_left_unlabelled(self):
        with self.assertRaisesRegex(ValueError, "no label of pass 2"):
            self.folder(labels_two=[_label("A-009")]).build_items()

    def test_refuses_differing_passes_without_adjudication(self):
        with self.assertRaisesRegex(ValueError, "no adjudication"):
            self.folder(labels_two=[_label("A-001", "not_shown")]).build_items()


if __name__ == "__main__":
    unittest.main()
