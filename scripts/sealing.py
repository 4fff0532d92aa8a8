"""Seals: `sha256sum`-format lists that fix a run's files before the next step reads them.

Shared by scripts/sealed-run and scripts/choose-reader (and anything else that seals).
A seal file is never rewritten.
"""

import hashlib
import os

STEPS = ("1-design", "2-answers", "3-scores")


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def seal_path(run, step):
    return os.path.join(run, f"{step}-SHA256.txt")


def write_seal(run, step, names):
    """Write the seal of `step` over `names` (files in `run`); refuse to rewrite one."""
    path = seal_path(run, step)
    if os.path.exists(path):
        raise SystemExit(f"sealed-run: {path} exists; a sealed step is never rewritten")
    lines = [f"{sha256_file(os.path.join(run, name))}  {name}\n" for name in names]
    with open(path + ".tmp", "w") as handle:
        handle.writelines(lines)
    os.replace(path + ".tmp", path)
    print(f"sealed {path}: {len(names)} file(s)")


def verify_seal(run, step):
    """Check every line of a seal; return the list of problems (empty when it holds)."""
    path = seal_path(run, step)
    if not os.path.exists(path):
        return [f"{path}: missing"]
    problems = []
    with open(path) as handle:
        for line in handle:
            digest, name = line.rstrip("\n").split("  ", 1)
            target = os.path.join(run, name)
            if not os.path.exists(target):
                problems.append(f"{name}: missing")
            elif sha256_file(target) != digest:
                problems.append(f"{name}: FAILED (changed since it was sealed)")
    return problems


def require_seals(run, steps):
    for step in steps:
        problems = verify_seal(run, step)
        if problems:
            raise SystemExit(f"sealed-run: seal {step} does not hold: " + "; ".join(problems))
