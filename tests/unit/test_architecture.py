"""The layout shows the architecture: leaf modules stay leaves, no import cycles, no module
too long to read, and sealed evidence still runs against the package as it is now."""

import ast
import os
import subprocess
import sys
import unittest

from tests.helpers import ROOT, parsed

PACKAGE = os.path.join(ROOT, "receipt_pair")
MAX_LINES = 420  # "about 400": a module longer than this holds more than one thing
MAX_OVER_SIX = 5  # functions of more than 6 parameters (none may have more than 8)
MAX_HANDLER_LINES = 30  # a command's _cmd_x: parse, call the library, print


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
    tree = parsed(path)
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
       "receipt_pair.answers", "receipt_pair.patterns"}
# legacy/ is imported by no layer: readers/ loads its frozen words by name, only to replay
# what a retired reader or a sealed check answered.
_FACTS = {"facts"}
LAYERS = {
    "facts": set(),
    "check": _FACTS,
    "legacy": {"check"} | _FACTS,
    "store": set(),
    "server": set(),
    "logs": {"store"},
    "readers": {"check", "server"} | _FACTS,
    "pair": {"check", "store", "server", "logs", "readers"} | _FACTS,
    "audit": {"check", "store", "server", "logs", "readers", "pair"} | _FACTS,
    "hooks": {"check", "store", "server", "logs", "readers", "pair", "audit"} | _FACTS,
    "mcp": {"check", "store", "server", "logs", "readers", "pair", "audit", "hooks"} | _FACTS,
    "cli": {"check", "store", "server", "logs", "readers", "pair", "audit", "hooks",
            "mcp"} | _FACTS,
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
            first = (ast.get_docstring(parsed(path)) or "").split("\n")[0]
            with self.subTest(layer=layer):
                self.assertIn("Import", first)


    def test_no_import_cycle(self):
        graph = {name: top_level_imports(name, path) for name, path in package_modules()}
        graph = {name: {d for d in deps if d in graph and d != name}
                 for name, deps in graph.items()}

        done = set()  # modules whose imports, all the way down, hold no cycle

        def visit(name, stack):
            # Depth first, each module followed once: a cycle is a module met again while
            # it is still on the stack of the path that led to it.
            for dep in graph[name]:
                self.assertNotIn(dep, stack, f"import cycle: {' -> '.join(stack + [dep])}")
                if dep not in done:
                    visit(dep, stack + [dep])
            done.add(name)

        for name in graph:
            if name not in done:
                visit(name, [name])

    def test_no_module_too_long(self):
        for name, path in package_modules():
            with open(path, encoding="utf-8") as handle:
                lines = len(handle.read().splitlines())
            with self.subTest(module=name):
                self.assertLessEqual(lines, MAX_LINES)

    def test_no_function_takes_too_many_parameters(self):
        # One settings object travels instead of ten keyword arguments: no function takes
        # more than 8 parameters (self and cls not counted), and only a few more than 6.
        counts = {}
        for name, path in package_modules():
            for node in ast.walk(parsed(path)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    args = node.args
                    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
                    names = names[1:] if names[:1] in (["self"], ["cls"]) else names
                    counts[f"{name}.{node.name}"] = (len(names) + bool(args.vararg)
                                                     + bool(args.kwarg))
        self.assertEqual({f: n for f, n in counts.items() if n > 8}, {})
        self.assertLessEqual(len([f for f, n in counts.items() if n > 6]), MAX_OVER_SIX,
                             sorted(f for f, n in counts.items() if n > 6))

    def test_command_handlers_only_parse_call_and_print(self):
        # What a command does is in the library, reachable from Python; its handler in
        # cli/ parses, calls and prints, in a few lines.
        for name, path in package_modules():
            if not name.startswith("receipt_pair.cli"):
                continue
            for node in ast.walk(parsed(path)):
                if isinstance(node, ast.FunctionDef) and node.name.startswith("_cmd_"):
                    with self.subTest(handler=f"{name}.{node.name}"):
                        self.assertLessEqual(node.end_lineno - node.lineno + 1,
                                             MAX_HANDLER_LINES)

    def test_pair_rules_load_no_reader_or_terminal_code(self):
        code = ("import sys, receipt_pair.check.rules; "
                "print(' '.join(sorted(m for m in sys.modules if m.startswith('receipt_pair'))))")
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
        self.assertEqual(out, ["receipt_pair", "receipt_pair.answers", "receipt_pair.check",
                               "receipt_pair.check.rules"])

    def test_the_live_readers_load_nothing_of_legacy(self):
        # legacy/ holds the frozen words of retired readers and sealed checks, loaded only
        # to replay them: asking with the default reader, or with v6, must not load it.
        code = """
import json, sys
import receipt_pair.pair.claim, receipt_pair.readers
from receipt_pair import check_claim
from tests.fakeserver import FakeServer, answer

LINE = "1a2b3c4..5d6e7f8  main -> main"
TURNS = [{"cmd": "git push origin main", "output": "To origin\\n   " + LINE}]

def reply(body):
    content = body["messages"][-1]["content"]
    if "<turn id=" in content:  # v6: the quote copied
        return answer("shown", "T1", LINE)
    label = next(line.split(":", 1)[0] for line in content.splitlines()
                 if line.startswith("L") and line.endswith(LINE))
    return json.dumps({"verdict": "shown", "line": label, "reason": "pushed"})

with FakeServer() as fake:
    fake.default = reply
    for reader in ("f2", "v6"):
        result = check_claim("I pushed main", TURNS, reader=reader, model_a="qa",
                             model_b="qb", base_url=fake.base_url)
        assert result.answer == "shown", (reader, result.to_dict())
print(" ".join(sorted(m for m in sys.modules if m.startswith("receipt_pair.legacy"))))
"""
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split(), [])


if __name__ == "__main__":
    unittest.main()
