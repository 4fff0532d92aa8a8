"""The package's unit tests: fast, no network, no model (the fake server plays replies)."""

import os


def load_tests(loader, standard_tests, pattern):
    """The package's modules, run on two processes (tests/parallel.py)."""
    from tests.parallel import load_package

    return load_package(loader, os.path.dirname(os.path.abspath(__file__)), pattern)
