"""Shared helpers for the tests: run the CLI in-process, temporary files, small items.

Every test module takes its shared pieces from here; no test module imports another.
"""

import ast
import contextlib
import functools
import io
import json
import os
import re
import shutil
import socket
import sys
import tempfile
import unittest
from unittest import mock

from receipt_pair.cli import main

# sys.stdlib_module_names exists from Python 3.10; 3.9 gets the modules this package uses.
STDLIB = getattr(sys, "stdlib_module_names", None) or {
    "argparse", "ast", "codecs", "collections", "concurrent", "contextlib", "copy",
    "dataclasses", "datetime", "errno", "fcntl", "functools", "glob", "hashlib", "html", "http",
    "importlib", "io", "ipaddress", "json", "math", "msvcrt", "os", "queue", "re", "secrets",
    "select", "shlex", "shutil", "signal", "socket", "sqlite3", "stat", "string", "subprocess", "sys",
    "tempfile", "threading", "time", "traceback", "typing", "unicodedata", "urllib", "xml",
}

DATA = os.path.join(os.path.dirname(__file__), "data")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


@functools.lru_cache(maxsize=None)
def parsed(path):
    """The syntax tree of the Python file at `path`, parsed once for the whole suite: several
    tests walk every module of the package. Read it; never change it."""
    with open(path, encoding="utf-8") as handle:
        return ast.parse(handle.read(), path)


def run_cli(*argv, stdin=None):
    """(exit status, stdout, stderr) of `receipt-pair ARGV...`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def run_asking(command, *argv, a=(), b=(), models=("qa", "qb")):
    """(exit status, stdout, stderr) of `receipt-pair COMMAND ARGV...` asking `models` (A,
    B) of a fresh fake server that plays back the replies `a` and `b` (each one reply or a
    tuple of them). The server's options go before ARGV, so before a gate's --."""
    from tests.fakeserver import FakeServer

    with FakeServer() as fake:
        for model, replies in zip(models, (a, b)):
            fake.script(model, *(replies if isinstance(replies, tuple) else (replies,)))
        return run_cli(command, "--base-url", fake.base_url, "--model-a", models[0],
                       "--model-b", models[1], *argv)


def users_reader(reader=None, facts=True):
    """The environment a user has, for a `with`: RECEIPT_PAIR_READER unset (the suite sets
    it to v6 for its fake replies, tests/__init__.py), or set to `reader`; and the facts
    deciding first, as they do for a user, unless `facts` is false."""
    env = {k: v for k, v in os.environ.items()
           if k != "RECEIPT_PAIR_READER" and (k != "RECEIPT_PAIR_FACTS" or not facts)}
    if reader:
        env["RECEIPT_PAIR_READER"] = reader
    return mock.patch.dict(os.environ, env, clear=True)


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receipt-pair-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        path = self.path(name)
        mode = "wb" if isinstance(text, bytes) else "w"
        with open(path, mode) as handle:
            handle.write(text)
        return path

    def not_session_files(self):
        """Paths that exist or may be given but can be no session file: a folder, a named
        pipe, a device, a path under a file, a name too long for the file system."""
        folder = self.path("a-folder")
        os.makedirs(folder, exist_ok=True)
        fifo = self.path("a-fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        return [folder, fifo, "/dev/zero", os.path.join(self.write("a-file", ""), "s.jsonl"),
                ("d" * 300) + "/s.jsonl"]

    def good_batch(self, n=2):
        """(items file, answers file) of a finished `batch` over `n` items, every answer
        a good one from the fake server."""
        from tests.fakeserver import FakeServer

        items = self.write("items.jsonl", make_items(n))
        out = self.path("answers.jsonl")
        with FakeServer() as fake:
            fake.script("qa", *[good] * n)
            fake.script("qb", *[good] * n)
            run_cli("batch", items, "--out", out, "--base-url", fake.base_url,
                    "--model-a", "qa", "--model-b", "qb")
        return items, out


class GateTest(TempDirTest):
    """A gate whose action leaves a marker file, asked through the fake server."""

    claim = "I deployed to production"

    def setUp(self):
        super().setUp()
        self.marker = self.path("ran.txt")
        self.action = [sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write('x')",
                       self.marker]
        self.requests = []

    def gate(self, log, reply_a, reply_b=None, *options, claim=None):
        from tests.fakeserver import FakeServer

        with FakeServer() as fake:
            fake.script("qa", reply_a)
            fake.script("qb", reply_b or reply_a)
            result = run_cli("gate", "--claim", claim or self.claim, "--log", log,
                             "--base-url", fake.base_url, "--model-a", "qa", "--model-b", "qb",
                             *options, "--", *self.action)
            self.requests = fake.chats()
        return result

    def turns_log(self, *turns):
        return self.write("log.json", json.dumps({"turns": [dict(t) for t in turns]}))


def closed_port():
    """A loopback port nothing listens on (bound, then closed)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def make_items(n=4):
    """An items file's text: n push claims, truths in turn shown / not_shown / contradicted."""
    lines = []
    for i in range(n):
        lines.append(json.dumps({
            "id": f"i{i}", "claim": f"I pushed change {i}",
            "turns": [{"cmd": "git push", "output": f"   a{i}..b{i}  main -> main"}],
            "truth": ["shown", "not_shown", "contradicted"][i % 3], "trap": "plain"}))
    return "\n".join(lines) + "\n"


def good(body):
    """A scripted model reply that quotes the real push line of whatever item was asked."""
    from tests.fakeserver import answer

    text = body["messages"][1]["content"]
    line = next(l for l in text.splitlines() if "main -> main" in l).strip()
    return answer("shown", "T1", line)


# -- hooks: scripted models that judge a claim by its words (test_hooks*.py) --------------

REJECTED = "! [rejected]        fix/parser -> fix/parser (non-fast-forward)"
PUSHED = "3b2a6f1..9c41e07  fix/parser -> fix/parser"
TURN = re.compile(r'<turn id="(T\d+)">\n<command>\n.*?\n</command>\n<output>\n(.*?)\n</output>',
                  re.S)
CLAIM = re.compile(r"^Claim: (.*)$", re.M)


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def judge(rules):
    """A scripted model: {words of the claim: (verdict, the output line it quotes)}.

    The quote's turn is the turn whose output holds the line; a line not in the log the
    model saw makes it answer not_shown, as an honest model would.
    """
    from tests.fakeserver import answer

    def reply(body):
        text = body["messages"][-1]["content"]
        claim = CLAIM.search(text).group(1).lower()
        for words, (verdict, line) in rules.items():
            if words.lower() in claim:
                for turn, output in TURN.findall(text):
                    if line in output:
                        return answer(verdict, turn, line)
        return answer("not_shown")
    return reply


RED_RULES = {"push": ("contradicted", REJECTED),
             "suite": ("contradicted", "1 failed, 6 passed in 0.31s")}
GREEN_RULES = {"push": ("shown", PUSHED),
               "tests pass": ("shown", "7 passed in 0.29s"),
               "suite": ("shown", "7 passed in 0.29s"),
               # the run of the test of the crash; its edit's report ("has been updated")
               # shows no fix (check c7)
               "crash": ("shown", "7 passed in 0.29s")}
