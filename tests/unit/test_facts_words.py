"""facts/words.split_words gives exactly shlex.split's words (POSIX, no comments), the
facts' readings replay by them, and its errors are shlex's."""

import random
import shlex
import unittest

from receipt_pair.facts.words import split_words


def _shlex(text):
    try:
        return shlex.split(text, comments=False, posix=True)
    except ValueError as error:
        return ("error", str(error))


def _ours(text):
    try:
        return split_words(text)
    except ValueError as error:
        return ("error", str(error))


class SplitWords(unittest.TestCase):
    def test_random_text_splits_as_shlex_splits_it(self):
        rng = random.Random(31)
        alphabet = "ab '\"\\\t\n#$;|&="
        for _ in range(4000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
            self.assertEqual(_ours(text), _shlex(text), repr(text))

    def test_the_shapes_a_shell_line_holds(self):
        for text in ("git commit -m 'fix: a \"quoted\" word'", 'echo "a \\"b\\" \\$c \\d"',
                     "a '' b \"\"", "x\\ y", "cat <<'EOF'", "a\\", "'open", '"open\\"',
                     "", "   ", "pytest -k 'a or b' tests/"):
            with self.subTest(text):
                self.assertEqual(_ours(text), _shlex(text))

    def test_a_long_word_is_one_word(self):
        word = '{"a":' * 20_000 + "1" + "}" * 20_000
        self.assertEqual(split_words("edit " + word), ["edit", word.replace('"', "")])


if __name__ == "__main__":
    unittest.main()
