"""Shared pieces for the page tests: a receipt of a hostile log, a parsed page's elements, a
real headless Chromium (Debian's `chromium`, installed by scripts/install-chromium when
missing), and a PNG decoder, so a screenshot can be checked pixel by pixel with the
standard library."""

import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest
import zlib
from html.parser import HTMLParser

from tests.fakeserver import FakeServer, answer
from tests.helpers import ROOT, run_cli

HOSTILE_OUTPUT = ("<script>alert('log')</script>\n"
                  "</pre><h1>forged heading</h1><pre>\n"
                  "\"><img src=x onerror=alert(1)>\n"
                  "<a href=\"javascript:alert(2)\">click me</a>\n"
                  "Deployed release 42 to production")
HOSTILE_CMD = "deploy --notify 'javascript:alert(3)'"
HOSTILE_CLAIM = "I deployed <script>alert(4)</script> \"><img src=y onerror=alert(5)>"
IMG_QUOTE = "\"><img src=x onerror=alert(1)>"


def hostile_receipt(test):
    """A real receipt of a log full of markup, saved by `check` in `test`'s folder: model A
    quotes the <img> line (it passes the check), model B quotes the command (refused:
    quote_from_command)."""
    log = test.write("hostile.json", json.dumps([{"cmd": HOSTILE_CMD, "output": HOSTILE_OUTPUT}]))
    receipt = test.path("hostile-receipt.json")
    with FakeServer() as fake:
        fake.script("qa", answer("shown", "T1", IMG_QUOTE, "<b>it</b> deployed"))
        fake.script("qb", answer("shown", "T1", "javascript:alert(3)", "\"><script>x</script>"))
        status, _, err = run_cli("check", "--claim", HOSTILE_CLAIM, "--log", log, "--save",
                                 receipt, "--base-url", fake.base_url, "--model-a", "qa",
                                 "--model-b", "qb")
    test.assertEqual(status, 0, err)
    return receipt


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
# Every tag the page writer uses; anything else in a page came from the log.
PAGE_TAGS = {"html", "head", "meta", "title", "style", "body", "main", "section", "h1", "h2",
             "h3", "p", "span", "div", "table", "tbody", "tr", "th", "td", "pre", "mark", "code",
             "br", "ul", "li", "a"}
HEADLESS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", "--force-device-scale-factor=1"]


class Elements(HTMLParser):
    """Every element of a page: tag, attributes, the text inside it, its ancestors' tags."""

    def __init__(self, page):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements = [], []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": [],
                   "ancestors": [e["tag"] for e in self.stack],
                   "classes": (dict(attrs).get("class") or "").split()}
        self.elements.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index]["tag"] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        for element in self.stack:
            element["text"].append(data)

    def text(self, element):
        return "".join(element["text"])

    def find(self, tag, *classes, inside=None):
        return [e for e in self.elements if e["tag"] == tag
                and all(c in e["classes"] for c in classes)
                and (inside is None or inside in e["ancestors"])]


_FOUND = {}


def chromium():
    """The path of a Chromium to run headless; installs Debian's `chromium` when missing (as
    root, with apt-get); raises SkipTest saying why when there is none."""
    if "path" not in _FOUND:
        path = shutil.which("chromium") or shutil.which("chromium-browser")
        why = "RECEIPT_PAIR_INSTALL_BROWSER=0 says not to install it"
        if not path and os.environ.get("RECEIPT_PAIR_INSTALL_BROWSER", "1") != "0":
            why = ""
            script = os.path.join(ROOT, "scripts", "install-chromium")
            try:
                done = subprocess.run([script], capture_output=True, text=True, timeout=600)
                path = done.stdout.strip().splitlines()[-1] if done.returncode == 0 else None
                why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
            except (OSError, subprocess.SubprocessError, IndexError) as exc:
                why = str(exc)
        _FOUND["path"], _FOUND["why"] = path, why
    if not _FOUND["path"]:
        raise unittest.SkipTest("no chromium, and scripts/install-chromium could not install "
                                f"it ({_FOUND['why'] or 'no reason given'}): the browser tests "
                                "of the page are skipped")
    return _FOUND["path"]


def run_chromium(page_path, *options, timeout=120):
    """Run Chromium headless on a file with `options`; return its standard output (bytes)."""
    profile = tempfile.mkdtemp(prefix="receipt-pair-chromium-")
    try:
        done = subprocess.run([chromium(), *HEADLESS, f"--user-data-dir={profile}", *options,
                               "file://" + os.path.abspath(page_path)],
                              capture_output=True, timeout=timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if done.returncode != 0:
        raise AssertionError(f"chromium exited {done.returncode}: {done.stderr[-2000:]!r}")
    return done.stdout


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat = 8, []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    assert depth == 8 and interlace == 0 and color in (2, 6), (depth, color, interlace)
    size = 3 if color == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), width * size
    previous, rows, at = bytearray(stride), [], 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        if kind == 1:
            for i in range(size, stride):
                line[i] = (line[i] + line[i - size]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - size] if i >= size else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - size] if i >= size else 0
                b, c = previous[i], previous[i - size] if i >= size else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, size)])
        previous = line
    return width, height, rows
