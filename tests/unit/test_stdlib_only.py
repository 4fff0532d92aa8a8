"""The package imports nothing outside the standard library, and declares no dependencies."""

import ast
import os
import unittest

from tests.helpers import ROOT, STDLIB, parsed

PACKAGE = os.path.join(ROOT, "receipt_pair")


class StandardLibraryOnly(unittest.TestCase):
    def test_imports(self):
        found = set()
        paths = [os.path.join(folder, name) for folder, _, names in os.walk(PACKAGE)
                 for name in names if name.endswith(".py")]
        self.assertGreater(len(paths), 20)
        for path in sorted(paths):
            for node in ast.walk(parsed(path)):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    found.add(node.module.split(".")[0])
        outside = sorted(m for m in found if m not in STDLIB)
        self.assertEqual(outside, [], "imports outside the standard library")

    def test_pyproject_declares_no_dependencies(self):
        with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as handle:
            lines = [line.strip() for line in handle]
        self.assertFalse([line for line in lines if line.startswith("dependencies")])


if __name__ == "__main__":
    unittest.main()
