"""Whole-process timing for scripts/bench, with the standard library only.

A command is started RUNS times after one warm-up run that is not counted. Each run's wall
seconds come from a monotonic clock read just before the start and just after the child is
reaped; its user + system seconds and peak memory from the kernel's own accounting of the
finished child (`os.wait4`, as `/usr/bin/time -v` reads them). Peak memory is not given:
a child forked from this process starts at this process's size, which would hide the
command's own. With a baseline B, A and B run
in turn (A B A B ...) and the ratio A/B is taken pair by pair, so a machine whose speed drifts
during the call still gives a fair ratio. Every figure is min, median and max; the median is
the one quoted.

An outside whole-process timer may stand beside it: RECEIPT_PAIR_BENCH_TIMER names a
program that takes `-n RUNS [--vs 'B'] -- A ...` and prints rows `A wall s MIN MEDIAN MAX`
(and `A/B wall` with --vs). Its figure rows are kept as it printed them, under "outside
timer"; scripts/bench never needs it.
"""

import os
import re
import shlex
import statistics
import subprocess
import time


def _run_once(command, cwd, stdin_path):
    """(wall s, cpu s, exit status) of one run of `command`."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        started = time.monotonic()
        child = subprocess.Popen(command, cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    return wall, usage.ru_utime + usage.ru_stime, child.returncode


def _spread(values, digits=3):
    ordered = sorted(values)
    return {"min": round(ordered[0], digits), "median": round(statistics.median(ordered), digits),
            "max": round(ordered[-1], digits)}


def time_commands(command, baseline=None, runs=5, cwd=None, stdin_path=None):
    """The figures of `command` (and of `baseline`, run in turn with it, and their ratio)."""
    commands = [command] + ([baseline] if baseline else [])
    for each in commands:  # the warm-up: caches filled, nothing counted
        _run_once(each, cwd, stdin_path)
    seen = [[] for _ in commands]
    for _ in range(runs):
        for number, each in enumerate(commands):
            seen[number].append(_run_once(each, cwd, stdin_path))
    figures = {"runs": runs, "warmup": 1}
    for name, rows in zip("AB", seen):
        figures[name] = {"command": " ".join(shlex.quote(part) for part in commands["AB".index(name)]),
                         "wall_s": _spread([r[0] for r in rows]),
                         "cpu_s": _spread([r[1] for r in rows]),
                         "exits": sorted({r[2] for r in rows})}
    if baseline:
        figures["ratio_wall"] = _spread([a[0] / b[0] for a, b in zip(*seen)])
    return figures


def outside_timer(command, baseline=None, runs=5, timeout=900):
    """The outside timer's figure rows for `command` (and `baseline`), or None where
    RECEIPT_PAIR_BENCH_TIMER is not set. Neither command is given a shell."""
    timer = os.environ.get("RECEIPT_PAIR_BENCH_TIMER")
    if not timer:
        return None
    argv = shlex.split(timer) + ["-n", str(runs), "--timeout", str(timeout)]
    if baseline:
        argv += ["--vs", " ".join(shlex.quote(part) for part in baseline)]
    done = subprocess.run(argv + ["--", *command], capture_output=True, text=True)
    rows = [line.strip() for line in done.stdout.splitlines()
            if re.match(r"\s*(?:A|B|A/B)\s+\S+(?:\s+\S+)?\s+[\d.]+\s+[\d.]+\s+[\d.]+", line)]
    return {"rows": rows, "median_wall_s": _median_of(rows, "A wall"),
            "baseline_median_wall_s": _median_of(rows, "B wall"),
            "ratio_median": _median_of(rows, "A/B wall")}


def _median_of(rows, head):
    """The median of the row that starts with `head` (rows: label, MIN MEDIAN MAX)."""
    for row in rows:
        if row.startswith(head):
            numbers = re.findall(r"\d+(?:\.\d+)?", row[len(head):])
            if len(numbers) >= 3:
                return float(numbers[-2])
    return None


def render(name, figures, outside=None):
    """Lines that say one timing: each command's medians (min and max beside), the ratio."""
    lines = [f"{name} (whole process, {figures['runs']} runs after {figures['warmup']} "
             f"not counted; min / median / max):"]
    for label in ("A", "B"):
        row = figures.get(label)
        if row:
            wall, cpu = row["wall_s"], row["cpu_s"]
            lines.append(f"  {label} = {row['command']}")
            lines.append(f"    wall {wall['min']} / {wall['median']} / {wall['max']} s, cpu "
                         f"{cpu['median']} s, exit {row['exits']}")
    if figures.get("ratio_wall"):
        ratio = figures["ratio_wall"]
        lines.append(f"  A/B wall, pair by pair: {ratio['min']} / {ratio['median']} / "
                     f"{ratio['max']}")
    if outside and outside.get("rows"):
        lines.append("  outside timer, figure rows:")
        lines += [f"    {row}" for row in outside["rows"]]
    return lines
