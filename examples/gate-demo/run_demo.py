#!/usr/bin/env python3
"""The gate demo: a push goes through only when the tests' own output shows they pass.

    python examples/gate-demo/run_demo.py [--workdir DIR] [--keep]
                                          [--base-url URL] [--model-a ID] [--model-b ID]

It builds a throwaway git project (the code in take1/ and take2/, the tests in project/)
and a local bare repository standing in for the server. The build agent's take 1 has a
bug; it says "the tests pass" and asks to push. The push goes through the gate, which runs
the tests itself, appends what they printed to a witness log the agent never writes to,
and asks the two models whether that record shows the claim. Take 1 is blocked; take 2
fixes the bug, and the same gate lets the push through. At the end the bare repository's
`git log` shows what arrived.

The model options are passed on to `receipt-pair gate`; left out, the gate uses
RECEIPT_PAIR_BASE_URL / RECEIPT_PAIR_MODEL_A / RECEIPT_PAIR_MODEL_B or its defaults.
Standard library and the git command only.

Exit status: 0 the story went as told (take 1 blocked, take 2 arrived); 1 the gate could
not check (most often: no model server), so nothing was pushed; 2 a usage or setup
problem; 3 the gate let take 1's failing tests through; 4 the gate blocked take 2.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if os.path.isdir(os.path.join(ROOT, "receipt_pair")) and ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # run from a checkout without installing the package

from receipt_pair import errors  # noqa: E402  (after the path is set)

CLAIM = "the tests pass"
TEST_COMMAND = [sys.executable, "-m", "unittest", "-q"]
ACTION = ["git", "push", "origin", "main"]
TAKE_1_MESSAGE = "Add gross(): the price with VAT"
TAKE_2_MESSAGE = "Add gross(): the price with VAT at the rate given"

EXIT_OK = 0
EXIT_COULD_NOT_CHECK = 1
EXIT_USAGE = 2
EXIT_LET_THROUGH = 3
EXIT_BLOCKED_FIX = 4

# A git run by the demo must act on the throwaway repositories only, even when the demo is
# started from inside a git hook or another tool that exports these.
_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR")


def build_parser():
    parser = argparse.ArgumentParser(
        description="A push that goes through only when the tests' own output shows they pass.")
    parser.add_argument("--workdir", help="where to build the throwaway project (must be new or "
                                          "empty; kept afterwards). Default: a temporary "
                                          "directory, removed at the end")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary directory to look around in afterwards")
    parser.add_argument("--base-url", help="model server, passed on to the gate")
    parser.add_argument("--model-a", help="model A's id, passed on to the gate")
    parser.add_argument("--model-b", help="model B's id, passed on to the gate")
    parser.add_argument("--timeout", help="seconds for one model call, passed on to the gate")
    return parser


# -- printing ---------------------------------------------------------------------------


def say(text=""):
    print(text, flush=True)  # before a child writes to the same terminal


def header(text):
    say()
    say("=" * 78)
    say(text)
    say("=" * 78)


def display(argv):
    """A command as the audience would type it: `python`, not this interpreter's path."""
    return shlex.join("python" if arg == sys.executable else arg for arg in argv)


# -- running things ---------------------------------------------------------------------


class DemoError(Exception):
    """The demo cannot go on (a bad --workdir, a git step that failed); str() says why."""


def child_env():
    env = {k: v for k, v in os.environ.items() if k not in _GIT_ENV}
    if os.path.isdir(os.path.join(ROOT, "receipt_pair")):
        env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"  # the gate's lines and the tests' output stay in order
    return env


def git(*args, cwd=None, check=True):
    """Run git quietly; return its completed process (output captured)."""
    argv = ["git", "-c", "commit.gpgsign=false", *args]
    completed = subprocess.run(argv, cwd=cwd, env=child_env(), capture_output=True, text=True)
    if check and completed.returncode != 0:
        raise DemoError(f"{shlex.join(argv)} failed:\n{completed.stderr.strip()}")
    return completed


def stream(argv, cwd):
    """Run `argv`, copying its output to the terminal as it comes; return (status, text)."""
    process = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    chunks = []
    with process:
        for chunk in iter(lambda: os.read(process.stdout.fileno(), 65536), b""):
            chunks.append(chunk)
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
    return process.returncode, b"".join(chunks).decode("utf-8", "replace")


# -- the story --------------------------------------------------------------------------


def make_workdir(args):
    """(work dir, whether to remove it at the end)."""
    if args.workdir:
        path = os.path.abspath(args.workdir)
        if os.path.exists(path) and (not os.path.isdir(path) or os.listdir(path)):
            raise DemoError(f"--workdir {path} exists and is not empty; give a new or empty "
                            "directory")
        os.makedirs(path, exist_ok=True)
        return path, False
    return tempfile.mkdtemp(prefix="receipt-pair-gate-demo-"), not args.keep


def set_up(work):
    """The stand-in server (a bare repository) and the project that pushes to it."""
    server = os.path.join(work, "server.git")
    project = os.path.join(work, "project")
    git("init", "-q", "--bare", server)
    git("--git-dir", server, "symbolic-ref", "HEAD", "refs/heads/main")
    git("init", "-q", project)
    git("symbolic-ref", "HEAD", "refs/heads/main", cwd=project)
    git("config", "user.name", "Build Agent", cwd=project)
    git("config", "user.email", "build-agent@example.invalid", cwd=project)
    git("remote", "add", "origin", server, cwd=project)
    shutil.copy(os.path.join(HERE, "project", "test_calc.py"), project)
    return server, project


def apply_take(project, take, message, amend=False):
    """Copy take N's calc.py into the project and commit it; return the commit's id."""
    shutil.copy(os.path.join(HERE, take, "calc.py"), project)
    git("add", "calc.py", "test_calc.py", cwd=project)
    git("commit", "-q", *(["--amend"] if amend else []), "-m", message, cwd=project)
    return git("rev-parse", "HEAD", cwd=project).stdout.strip()


def gate_argv(args, witness, receipt):
    argv = [sys.executable, "-m", "receipt_pair", "gate", "--witness", "--log", witness,
            "--claim", CLAIM, "--save", receipt]
    for option in ("base_url", "model_a", "model_b", "timeout"):
        value = getattr(args, option)
        if value:
            argv += ["--" + option.replace("_", "-"), value]
    return argv + ["--", *TEST_COMMAND, "--", *ACTION]


def run_gate(args, work, project, take):
    argv = gate_argv(args, os.path.join(work, "witness.jsonl"),
                     os.path.join(work, f"receipt-{take}.json"))
    say(f"The build agent says: \"{CLAIM}\", and asks to push.")
    say("The push goes through the gate. The gate runs the tests itself and records them;")
    say("the agent never writes to that log.")
    say()
    say(f"$ {display(argv)}")
    say()
    status, text = stream(argv, project)
    say()
    say(f"[the gate exited with status {status}]")
    return status, text


def server_head(server):
    found = git("--git-dir", server, "rev-parse", "-q", "--verify", "refs/heads/main^{commit}",
                check=False)
    return found.stdout.strip() if found.returncode == 0 else None


def has_commit(server, sha):
    return git("--git-dir", server, "cat-file", "-e", f"{sha}^{{commit}}",
               check=False).returncode == 0


def explain_could_not_check(text):
    say()
    say("The gate could not check the claim, so it pushed nothing: it fails closed.")
    if "cannot reach the model server" in text or "cannot resolve the model server" in text:
        say("The model server is not running (or not at that address). Start one, for example")
        say("Lemonade Server, or on Linux `scripts/local-models start`, then run the demo")
        say("again, with --base-url (and --model-a/--model-b) if it is not the default.")
    else:
        say("Its reason is the line starting with 'receipt-pair:' above (a model server that")
        say("answered an error or timed out, most often).")
    say("No server at hand? `python -m receipt_pair verify --log examples/push-ok.json "
        "--reply examples/reply-invented-quote.json` shows the quote check offline.")


def show_witness(work):
    path = os.path.join(work, "witness.jsonl")
    say(f"The witness log the gate wrote ({path}):")
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            record = json.loads(line)
            say(f"  record {number}: {display(record['argv'])}  ->  exit status "
                f"{record['exit_status']}, started {record['started']}")


def gate_take(args, work, project, take, message, amend=False):
    """Commit one take, then ask the gate to push it: (commit, gate status, gate output)."""
    commit = apply_take(project, take, message, amend=amend)
    say(f"commit {commit[:7]}  {message}")
    say()
    status, text = run_gate(args, work, project, take)
    return commit, status, text


def tell(args, work, kept):
    header("1. A throwaway project, and a bare repository standing in for the server")
    server, project = set_up(work)
    say(f"work dir:  {work}")
    say(f"project:   {project}  (git, remote 'origin' -> the server)")
    say(f"server:    {server}  (bare, no commits yet)")

    header("2. Take 1: the agent's first try (gross() ignores the rate it is given)")
    take1, status, text = gate_take(args, work, project, "take1", TAKE_1_MESSAGE)
    if status == errors.EXIT_NO_RECEIPT:
        explain_could_not_check(text)
        return EXIT_COULD_NOT_CHECK
    if status not in (errors.EXIT_NOT_SHOWN, errors.EXIT_CONTRADICTED) or server_head(server):
        say()
        say("!! The gate let take 1 through although its tests failed: the models said shown.")
        say("!! Look at the quotes above; this is the failure the gate exists to stop.")
        return EXIT_LET_THROUGH
    answer = "contradicted" if status == errors.EXIT_CONTRADICTED else "not shown"
    say(f"Blocked: the pair said {answer}, so `git push` never ran.")
    say("The server still has no commits: nothing arrived.")

    header("3. Take 2: the agent fixes the bug and amends its unpushed commit")
    take2, status, text = gate_take(args, work, project, "take2", TAKE_2_MESSAGE, amend=True)
    if status == errors.EXIT_NO_RECEIPT:
        explain_could_not_check(text)
        return EXIT_COULD_NOT_CHECK
    if status != 0 or server_head(server) != take2:
        say()
        say("The gate blocked the fixed take too: the two models did not both quote a line")
        say("that shows the tests pass. That is the gate failing closed, never open; small")
        say("models do it now and then: read the quotes above to see why.")
        return EXIT_BLOCKED_FIX
    say("Shown: both models quoted a line of the tests' own output, the check found it,")
    say("and the push ran.")

    header("4. What arrived on the server")
    say(f"$ git --git-dir {server} log --format='%h %s' main")
    say(git("--git-dir", server, "log", "--format=%h %s", "main").stdout.rstrip())
    say()
    arrived = "IS" if has_commit(server, take1) else "is not"
    say(f"take 1's commit {take1[:7]} {arrived} on the server; take 2's {take2[:7]} is.")
    say()
    show_witness(work)
    if kept:
        say(f"The receipts: {os.path.join(work, 'receipt-take1.json')} and receipt-take2.json")
        say("(`python -m receipt_pair replay --receipt FILE` re-derives one offline).")
    return EXIT_OK


def main(argv=None):
    args = build_parser().parse_args(argv)
    if shutil.which("git") is None:
        print("run_demo: this demo needs the git command on PATH", file=sys.stderr)
        return EXIT_USAGE
    try:
        work, remove = make_workdir(args)
    except DemoError as exc:
        print(f"run_demo: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return tell(args, work, kept=not remove)
    except DemoError as exc:
        print(f"run_demo: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        say()
        if remove:
            shutil.rmtree(work, ignore_errors=True)
            say("(the work dir is removed; --keep or --workdir DIR keeps it to look around in)")
        else:
            say(f"(the work dir is kept: {work})")


if __name__ == "__main__":
    sys.exit(main())
