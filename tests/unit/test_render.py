import glob
import json
import os
import unittest

from receipt_pair.check.render import cut_middle, render_log, render_turns
from receipt_pair.check import screen as screen_module
from receipt_pair.check import terminal
from receipt_pair.logs import Turn, turn_from_json

from tests.helpers import DATA


class Rendering(unittest.TestCase):
    def test_golden_renderings(self):
        cases = sorted(glob.glob(os.path.join(DATA, "render", "*.json")))
        self.assertGreaterEqual(len(cases), 7)
        for path in cases:
            with self.subTest(case=os.path.basename(path)):
                with open(path) as handle:
                    case = json.load(handle)
                turns = [turn_from_json(t, "case") for t in case["turns"]]
                with open(path[:-5] + ".txt") as handle:
                    expected = handle.read()
                shown = render_turns(turns, case["max_turns"])
                self.assertEqual(render_log(shown) + "\n", expected)

    def test_cut_keeps_head_and_tail_at_line_breaks(self):
        text = "\n".join(f"line {i}" for i in range(1000))
        rendered, parts = cut_middle(text, 200)
        self.assertTrue(rendered.startswith("line 0\n"))
        self.assertTrue(rendered.endswith("line 999"))
        self.assertEqual(len(parts), 2)
        self.assertIn("left out here", rendered)
        head, tail = parts
        self.assertTrue(text.startswith(head) and text.endswith(tail))
        self.assertFalse(head.endswith("\n"))  # cut at a line break, not mid-line
        self.assertTrue(tail.startswith("line "))
        self.assertLessEqual(len(head) + len(tail), 200)

    def test_short_text_is_not_cut(self):
        self.assertEqual(cut_middle("abc", 10), ("abc", ("abc",)))

    def test_turns_are_numbered_in_the_order_seen(self):
        turns = [Turn(cmd=str(i)) for i in range(10)]
        shown = render_turns(turns, 4)
        self.assertEqual([t.id for t in shown], ["T1", "T2", "T3", "T4"])
        self.assertEqual([t.cmd for t in shown], ["6", "7", "8", "9"])

    def test_zero_exit_status_adds_nothing(self):
        shown = render_turns([Turn(cmd="true", output="fine", exit_status=0)])
        self.assertEqual(shown[0].output, "fine")

    def test_overwrite_replay(self):
        screen = screen_module.replay_screen("abc\rxy\n12345\b\b\b9\x1b[K")
        printed = "".join("\n" if i is None else screen.chars[i][0] for i in screen.printed)
        self.assertEqual(printed, "abcxy\n123459")  # in the order printed, line by line
        visible = screen.visible_ids()
        shown = "".join(ch for i, (ch, _) in enumerate(screen.chars) if i in visible)
        self.assertEqual(shown, "cxy129")  # "ab" and "45" were overwritten or erased
        self.assertFalse(terminal.has_overwrite("plain\r\nwindows line ends\r\n"))
        self.assertTrue(terminal.has_overwrite("a\x1b[1Ab"))
        self.assertFalse(terminal.has_overwrite("\x1b[31mred\x1b[0m"))


if __name__ == "__main__":
    unittest.main()
