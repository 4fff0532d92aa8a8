"""The command a project runs for its tests, build, lint or type check, read from its own
files (package.json's scripts, Makefile targets, pyproject.toml, go.mod, Cargo.toml), for a
hook that tells an agent what to run when it has not run it. Plain code, read-only, small
reads; anything it cannot read gives nothing."""

import json
import os
import re

_MAX_BYTES = 256 * 1024
# What each family runs in each kind of project, by the file that tells the kind.
_BY_FILE = (
    ("go.mod", {"tests": "go test ./...", "build": "go build ./...", "lint": "go vet ./...",
                "typecheck": "go vet ./..."}),
    ("Cargo.toml", {"tests": "cargo test", "build": "cargo build", "lint": "cargo clippy",
                    "typecheck": "cargo check"}),
    ("pyproject.toml", {"tests": "python -m pytest", "lint": "ruff check .",
                        "typecheck": "mypy ."}),
    ("setup.cfg", {"tests": "python -m pytest"}),
    ("pytest.ini", {"tests": "python -m pytest"}),
    ("tox.ini", {"tests": "tox"}),
)
_SCRIPTS = {"tests": ("test",), "build": ("build",), "lint": ("lint",),
            "typecheck": ("typecheck", "type-check", "types", "tsc")}


def _read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read(_MAX_BYTES).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def project_command(folder, family):
    """The command the project in `folder` runs for `family` ("tests", "build", "lint",
    "typecheck"), or None."""
    if not folder or not isinstance(folder, str) or not os.path.isdir(folder):
        return None
    package = _read(os.path.join(folder, "package.json"))
    if package:
        try:
            scripts = json.loads(package).get("scripts") or {}
        except (ValueError, AttributeError):
            scripts = {}
        if isinstance(scripts, dict):
            for name in _SCRIPTS.get(family, ()):
                if isinstance(scripts.get(name), str):
                    return "npm test" if name == "test" else f"npm run {name}"
    makefile = _read(os.path.join(folder, "Makefile"))
    if makefile:
        for name in _SCRIPTS.get(family, ()):
            if re.search(rf"^{re.escape(name)}\s*:", makefile, re.M):
                return f"make {name}"
    for name, commands in _BY_FILE:
        if os.path.isfile(os.path.join(folder, name)) and family in commands:
            return commands[family]
    return None
