"""The layout shows the architecture: leaf modules stay leaves, no import cycles, no module
too long to read, and sealed evidence still runs against the package as it is now."""

import ast
import os
import subprocess
import sys
import unittest

from tests.helpers import ROOT

PACKAGE = os.path.join(ROOT, "receipt_pair")
MAX_LINES = 420  # "about 400": a module longer than this holds more than one thing


def package_modules():
    """(dotted name, path) of every module of the package, subpackages included."""
    for folder, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                yield dotted.replace(".__init__", ""), path


def top_level_imports(dotted, path):
    """The package modules `dotted` imports when it is loaded (not inside functions)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    package = dotted if path.endswith("__init__.py") else dotted.rsplit(".", 1)[0]
    found = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            if node.module:
                found.add(f"{base}.{node.module}")
            else:
                found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("receipt_pair"))
    return found


# The layers, bottom up: what each subpackage may import (besides the modules at the top,
# errors, turn and answers, which every layer may use). A newcomer finds where a change
# goes from the folder names; this table keeps the floors from drifting.
TOP = {"receipt_pair.__version__", "receipt_pair.errors", "receipt_pair.turn",
       "receipt_pair.answers"}
_FACTS = {"facts"}
LAYERS = {
    "facts": set(),
    "check": _FACTS,
    "legacy": {"check"} | _FACTS,
    "store": set(),
    "server": set(),
    "logs": {"store"},
    "readers": {"check", "legacy", "server"} | _FACTS,
    "pair": {"check", "legacy", "store", "server", "logs", "readers"} | _FACTS,
    "audit": {"check", "legacy", "store", "server", "logs", "readers", "pair"} | _FACTS,
    "hooks": {"check", "legacy", "store", "server", "logs", "readers", "pair", "audit"} | _FACTS,
    "cli": {"check", "legacy", "store", "server", "logs", "readers", "pair", "audit",
            "hooks"} | _FACTS,
}


def layer_of(dotted):
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


class Layout(unittest.TestCase):
    def test_each_layer_imports_only_the_layers_below_it(self):
        for name, path in package_modules():
            layer = layer_of(name)
            below = set() if layer is None else LAYERS[layer] | {layer}
            packages = {f"receipt_pair.{other}" for other in below}
            for dep in top_level_imports(name, path):
                if name in ("receipt_pair", "receipt_pair.__main__"):
                    continue  # the package's front door and entry point
                with self.subTest(module=name, imports=dep):
                    self.assertTrue(dep in TOP or any(dep == p or dep.startswith(p + ".")
                                                      for p in packages),
                                    f"{name} imports {dep}")

    def test_every_subpackage_says_what_it_is_and_may_import(self):
        for layer in LAYERS:
            path = os.path.join(PACKAGE, layer, "__init__.py")
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read())
            first = (ast.get_docstring(tree) or "").split("\n")[0]
            with self.subTest(layer=layer):
                self.assertIn("Import", first)


    def test_no_import_cycle(self):
        graph = {name: top_level_imports(name, path) for name, path in package_modules()}
        graph = {name: {d for d in deps if d in graph and d != name}
                 for name, deps in graph.items()}

        def visit(name, stack):
            for dep in graph[name]:
                self.assertNotIn(dep, stack, f"import cycle: {' -> '.join(stack + [dep])}")
                visit(dep, stack + [dep])

        for name in graph:
            visit(name, [name])

    def test_no_module_too_long(self):
        for name, path in package_modules():
            with open(path, encoding="utf-8") as handle:
                lines = len(handle.read().splitlines())
            with self.subTest(module=name):
                self.assertLessEqual(lines, MAX_LINES)

    def test_pair_rules_load_no_reader_or_terminal_code(self):
        code = ("import sys, receipt_pair.check.rules; "
                "print(' '.join(sorted(m for m in sys.modules if m.startswith('receipt_pair'))))")
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
        self.assertEqual(out, ["receipt_pair", "receipt_pair.answers", "receipt_pair.check",
                               "receipt_pair.check.rules", "receipt_pair.legacy",
                               "receipt_pair.legacy.aliases"])


if __name__ == "__main__":
    unittest.main()
