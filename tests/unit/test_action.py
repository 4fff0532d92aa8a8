"""action.yml, the GitHub Action at the repository's root (issue 33 item 5): the fields a
composite action needs, inputs that reach its script through the environment only, and a
script that passes `ci` only options it has. The package reads no YAML; these tests read it
with a small line check, and with PyYAML too where it is installed (a skip says so where it
is not). The example workflow of docs/action.md names only inputs the action has."""

import os
import re
import unittest

from receipt_pair.cli import build_parser
from receipt_pair.cli.github import step_outputs
from receipt_pair.audit.ci import CiReport

from tests.helpers import ROOT

try:
    import yaml
except ImportError:  # a test-only reader; the package never imports it
    yaml = None

ACTION = os.path.join(ROOT, "action.yml")
DOCS = os.path.join(ROOT, "docs", "action.md")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def ci_options():
    commands = next(a for a in build_parser()._actions if hasattr(a, "choices")
                    and isinstance(a.choices, dict) and "ci" in a.choices)
    return set(commands.choices["ci"]._option_string_actions)


def inputs_declared(text):
    """The input ids of action.yml, read line by line: the keys indented two spaces under
    the top-level `inputs:`."""
    block = re.search(r"^inputs:\n((?:[ #].*\n|\n)*)", text, re.M).group(1)
    return re.findall(r"^  ([a-z][a-z0-9-]*):\s*$", block, re.M)


class Lines(unittest.TestCase):
    """What needs no YAML reader."""

    def setUp(self):
        self.text = read(ACTION)

    def test_the_top_level_keys_of_a_composite_action(self):
        keys = re.findall(r"^([a-z]+):", self.text, re.M)
        for key in ("name", "description", "inputs", "outputs", "runs"):
            self.assertIn(key, keys)
        self.assertRegex(self.text, r"(?m)^runs:\n  using: composite\n  steps:\n")
        # every step that runs a script names its shell (GitHub requires it)
        self.assertEqual(len(re.findall(r"(?m)^      run: ", self.text)),
                         len(re.findall(r"(?m)^      shell: bash$", self.text)))
        self.assertNotIn("\t", self.text)

    def test_it_installs_the_package_from_its_own_checkout_and_runs_ci(self):
        self.assertRegex(self.text, r'-m pip install [^\n]*"\$GITHUB_ACTION_PATH"')
        self.assertIn('"$RP_PYTHON" -m receipt_pair "${args[@]}"', self.text)
        self.assertIn("args=(ci ", self.text)

    def test_every_input_used_is_declared(self):
        declared = set(inputs_declared(self.text))
        used = set(re.findall(r"\$\{\{ inputs\.([a-z0-9-]+) \}\}", self.text))
        self.assertEqual(used, declared)

    def test_the_script_passes_ci_only_options_it_has(self):
        script = self.text[self.text.index("args=(ci "):]
        passed = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", script))
        self.assertGreaterEqual(len(passed), 10)
        self.assertLessEqual(passed, ci_options())

    def test_the_outputs_are_what_ci_writes(self):
        written = {line.split("=")[0] for line in step_outputs(CiReport([])).splitlines()}
        named = set(re.findall(r"steps\.check\.outputs\.([a-z]+)", self.text))
        self.assertEqual(named, written)


@unittest.skipIf(yaml is None, "PyYAML is not installed: action.yml is read by lines only")
class Yaml(unittest.TestCase):
    def setUp(self):
        self.action = yaml.safe_load(read(ACTION))

    def test_the_fields_a_composite_action_needs(self):
        action = self.action
        self.assertIsInstance(action["name"], str)
        self.assertIsInstance(action["description"], str)
        self.assertEqual(action["runs"]["using"], "composite")
        self.assertEqual(sorted(action["inputs"]), sorted(inputs_declared(read(ACTION))))
        for name, spec in action["inputs"].items():
            with self.subTest(input=name):
                self.assertTrue(spec["description"])
                self.assertIsInstance(spec.get("default", ""), str)
                self.assertFalse(spec.get("required", False))
        for name, spec in action["outputs"].items():
            with self.subTest(output=name):
                self.assertTrue(spec["description"])
                self.assertRegex(spec["value"], r"^\$\{\{ steps\.check\.outputs\.\w+ \}\}$")
        for step in action["runs"]["steps"]:
            with self.subTest(step=step.get("name")):
                self.assertEqual(step["shell"], "bash")
                # inputs reach a script through env only: nothing is pasted into it
                self.assertNotIn("${{", step["run"])
                for variable in set(re.findall(r"\$(RP_[A-Z_]+)", step["run"])):
                    self.assertIn(variable, step.get("env", {}))

    def test_the_example_workflow_uses_the_action_as_it_is(self):
        block = re.search(r"```yaml\n(.*?)```", read(DOCS), re.S).group(1)
        workflow = yaml.safe_load(block)
        steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
        uses = [step for step in steps if "receipt-pair" in str(step.get("uses", ""))]
        self.assertTrue(uses)
        for step in uses:
            self.assertLessEqual(set(step.get("with", {})), set(self.action["inputs"]))
        self.assertIn("pull_request", workflow[True] if True in workflow else workflow["on"])


if __name__ == "__main__":
    unittest.main()
