"""What the package is as it ships and as sealed evidence uses it: the wheel holds every
module and py.typed, and scripts sealed in receipts/ still run against the package as it
is now."""

import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

from tests.helpers import ROOT
from tests.unit.test_architecture import package_modules


class Shipped(unittest.TestCase):
    def test_the_wheel_holds_and_imports_every_module(self):
        with tempfile.TemporaryDirectory() as out:
            # pip builds in an isolated environment with the build backend pyproject.toml
            # names (setuptools, from PyPI), as a user's pip would.
            built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                                    "-w", out, ROOT], capture_output=True, text=True)
            if built.returncode != 0 and ("Could not find a version" in built.stderr
                                          or "Network" in built.stderr):
                self.skipTest(f"pip cannot fetch the build backend here: "
                              f"{built.stderr.strip()[-200:]}")
            self.assertEqual(built.returncode, 0, built.stderr[-2000:])
            wheel = next(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".whl"))
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(os.path.join(out, "site"))
                names = set(archive.namelist())
            for name, path in package_modules():
                rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
                with self.subTest(module=name):
                    self.assertIn(rel, names)
            # the marker that tells type checkers the package is typed (PEP 561)
            self.assertIn("receipt_pair/py.typed", names)
            # every module but __main__ (which runs the command line when imported), from
            # the unpacked wheel and not from this checkout
            modules = [name for name, _ in package_modules() if not name.endswith("__main__")]
            code = ("import importlib, os, sys\n"
                    "for m in sys.argv[1:]:\n"
                    "    f = importlib.import_module(m).__file__\n"
                    "    assert f.startswith(os.getcwd()), f")
            imported = subprocess.run([sys.executable, "-c", code, *modules],
                                      cwd=os.path.join(out, "site"), capture_output=True,
                                      text=True, env={**os.environ, "PYTHONPATH": ""})
            self.assertEqual(imported.returncode, 0, imported.stderr[-2000:])


# The module names receipts/dev-pair-choice/pairs.py imports, sealed before the package had
# subpackages, and the module each now is. The package installs no import hook for them:
# only the test that runs the sealed script gives these names, in that script's process.
OLD_NAMES = {"receipt_pair.records": "receipt_pair.store.records",
             "receipt_pair.score": "receipt_pair.audit.score"}


class SealedScripts(unittest.TestCase):
    def test_sealed_pair_choice_script_still_runs(self):
        # receipts/dev-pair-choice/pairs.py is sealed evidence: a rename that breaks the
        # names it imports must fail here, not be found by a reader later.
        script = os.path.join(ROOT, "receipts", "dev-pair-choice", "pairs.py")
        run = ("import importlib, runpy, sys\n"
               f"for old, new in {OLD_NAMES!r}.items():\n"
               "    sys.modules[old] = importlib.import_module(new)\n"
               f"runpy.run_path({script!r}, run_name='__main__')\n")
        done = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(ROOT, "receipts", "dev-pair-choice", "pairs.txt")) as handle:
            sealed = handle.read()
        for line in done.stdout.splitlines():
            self.assertIn(line.strip(), sealed)




if __name__ == "__main__":
    unittest.main()
