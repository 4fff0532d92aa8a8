"""Old module names that sealed scripts import, and the module each now lives in.

`receipts/dev-pair-choice/pairs.py`, sealed before the package had subpackages, imports
`receipt_pair.records` and `receipt_pair.score`. A sealed file is never edited, so those
names go on working: importing one gives a thin module that hands every attribute over to
the module's new place. Nothing else should use them.
"""

import importlib
import importlib.abc
import importlib.util
import sys
import types

OLD_NAMES = {
    "receipt_pair.records": "receipt_pair.store.records",
    "receipt_pair.score": "receipt_pair.audit.score",
}


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in OLD_NAMES else None

    def create_module(self, spec):
        return types.ModuleType(spec.name, f"The old name of {OLD_NAMES[spec.name]}.")

    def exec_module(self, module):
        real = importlib.import_module(OLD_NAMES[module.__name__])
        module.__getattr__ = lambda name: getattr(real, name)


def install():
    """Let the old names be imported (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.append(_Finder())
