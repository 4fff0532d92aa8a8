"""No record of any agent's session gives a traceback (issue 32 item 4).

Every session reader of logs/transcripts/ is fuzzed from the real fixtures of
tests/data/transcripts/ (and their real/ folder): each field of each kind of record (one
field per place it holds in a record: `message.content.*.text` once, whatever the
record's number) is set to each JSON type it does not have (null, true/false, a number, a
string, a list, an object, and values nested deeper than the readers walk), one field at
a time. GitHub Actions logs, which are text, get a line replaced by each line the runner
writes, and odd ones. The only outcomes allowed are turns (a Session) or one InputError
that names the file; and the hook, run on such a session file, lets the agent stop (exit
0, never a traceback). Seeded and bounded, so it reads the same every run and quickly.
"""

import glob
import json
import os
import random
import re
import shutil
import unittest

from receipt_pair.errors import InputError
from receipt_pair.logs.transcripts import FORMATS, SESSION_FORMATS, read_session, read_transcript
from receipt_pair.turn import Turn
from tests.helpers import DATA, ROOT, TempDirTest, closed_port, run_cli

HERE = os.path.join(DATA, "transcripts")
PACKAGE = os.path.join(ROOT, "receipt_pair", "logs", "transcripts")
SEED = 20260432
NAME = "fuzzed"
OTHERS_PER_FORMAT = 8  # places the readers do not name, a seeded sample of each format's
LINES_PER_LOG = 8  # lines of a text log replaced, each by every odd line


def _deep():
    value = "x"
    for depth in range(40):  # past the readers' MAX_DEPTH, lists and objects in turn
        value = [value] if depth % 2 else {("content", "text")[depth % 4 // 2]: value}
    return value


# One value of each JSON type, by the name of its type.
WRONG = {"null": None, "bool": True, "number": 7, "string": "x", "list": ["x"],
         "object": {"x": 1}, "nested": _deep()}
# Lines for a text log: each line the runner writes, and odd ones.
ODD_LINES = ("", "##[group]Run ./deploy web production", "##[endgroup]", "shell: /bin/sh",
             "env:", "##[error]Process completed with exit code 99999999999.",
             "##[error]Process completed with exit code -1.", "##[error]", "\x00\x1b[2J",
             "2024-05-01T10:00:00.0000000Z ##[group]Run x", "job\tstep\t", "x" * 5000)


def _type_of(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return {int: "number", float: "number", str: "string", list: "list",
            dict: "object"}[type(value)]


def _format_of(path):
    parts = os.path.relpath(path, HERE).split(os.sep)
    name = parts[1] if parts[0] == "real" else parts[0]
    return max((f for f in FORMATS if name.startswith(f)), key=len)


class Fixture:
    """A fixture's records as JSON values: `lines` (a JSON Lines file, the records at
    their line), or one document; `text()` writes it back with one record changed."""

    def __init__(self, path):
        self.path, self.fmt = path, _format_of(path)
        self.name = os.path.relpath(path, HERE)
        if os.path.isdir(path):  # an OpenHands events folder: its events as one list
            files = sorted(glob.glob(os.path.join(path, "events", "*.json")))
            self.lines, self.records = None, [[_load(f) for f in files]]
            self.size = len(json.dumps(self.records[0]))
            return
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        self.raw, self.size = text, len(text)
        try:
            self.lines, self.records = None, [json.loads(text)]
        except ValueError:
            self.lines = text.split("\n")
            self.records = [_maybe_json(line) for line in self.lines]

    def text(self, index, record):
        if self.lines is None:
            return json.dumps(record)
        lines = list(self.lines)
        lines[index] = json.dumps(record)
        return "\n".join(lines)


def _load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _maybe_json(line):
    try:
        return json.loads(line) if line.strip() else None
    except ValueError:
        return None


def _fields(value, path=()):
    """(path, value) of every field below `value`, the record itself first."""
    yield path, value
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from _fields(child, path + (key,))


def _place(record, path):
    """A field's place in its kind of record: its keys, list positions as '*', under the
    record's type (a Claude Code `assistant` record's text is not a `user` one's)."""
    kind = record.get("type") if isinstance(record, dict) else None
    kind = kind if isinstance(kind, str) else ""
    return (kind,) + tuple("*" if isinstance(key, int) else key for key in path)


def _set(value, path, new):
    """`value` with the field at `path` set to `new`: the containers on the way copied."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _set(value[path[0]], path[1:], new)
    return copy


def _fixtures():
    paths = [p for p in sorted(glob.glob(os.path.join(HERE, "*")) +
                               glob.glob(os.path.join(HERE, "real", "*", "*")))
             if not p.endswith((".md", ".expected.json")) and ".expected." not in p
             and not os.path.basename(p).startswith("hook-")
             and os.path.basename(p) not in ("bad", "bad.json", "real", "build")]
    return [Fixture(p) for p in paths]


def _read_keys():
    """The keys the readers name in their code: the fields they read."""
    keys = set()
    for path in glob.glob(os.path.join(PACKAGE, "*.py")):
        with open(path, encoding="utf-8") as handle:
            keys.update(re.findall(r'"([A-Za-z_$][\w$-]*)"', handle.read()))
    return keys


def _read_by_readers(place, keys):
    return all(key in keys for key in place[1:] if key != "*")


def mutations(rng):
    """(format, fixture name, what was changed, text): every place of every kind of record
    in the fixtures of each format that the readers read (its keys are in their code),
    and OTHERS_PER_FORMAT other places, each (one instance of it, picked by `rng`) set to
    every JSON type it does not have; and for text logs, lines replaced by odd ones."""
    places = {}  # (format, place) -> [(fixture, record index, path)]
    out = []
    for fixture in _fixtures():
        name = fixture.name
        if all(record is None for record in fixture.records):  # a text log
            lines = fixture.raw.split("\n")
            for index in rng.sample(range(len(lines)), min(LINES_PER_LOG, len(lines))):
                for line in ODD_LINES:
                    changed = lines[:index] + [line] + lines[index + 1:]
                    out.append((fixture.fmt, name, f"line {index + 1}: {line[:40]!r}",
                                "\n".join(changed)))
            continue
        for index, record in enumerate(fixture.records):
            if record is None:
                continue
            for path, _ in _fields(record):
                places.setdefault((fixture.fmt, _place(record, path)), []).append(
                    (fixture, index, path))
    keys = _read_keys()
    chosen = sorted((place for place in places if _read_by_readers(place[1], keys)),
                    key=repr)
    taken = set(chosen)
    others = sorted((place for place in places if place not in taken), key=repr)
    for fmt in FORMATS:
        mine = [place for place in others if place[0] == fmt]
        chosen += rng.sample(mine, min(OTHERS_PER_FORMAT, len(mine)))
    for place in chosen:
        fmt, instances = place[0], places[place]
        # From the smallest fixture that has the place: as many places, less to read.
        smallest = min(fixture.size for fixture, _, _ in instances)
        fixture, index, path = rng.choice([i for i in instances if i[0].size == smallest])
        record = fixture.records[index]
        now = _type_of(_value_at(record, path))
        for type_name, new in WRONG.items():
            if type_name != now:
                out.append((fmt, fixture.name,
                            f"record {index + 1} {'.'.join(map(str, path))} = {type_name}",
                            fixture.text(index, _set(record, path, new))))
    return out


def _value_at(record, path):
    for key in path:
        record = record[key]
    return record


class EveryReader(TempDirTest):
    @classmethod
    def setUpClass(cls):
        cls.cases = mutations(random.Random(SEED))

    def read(self, fmt, text):
        """What the readers make of `text`: None, or why it is not what they may give."""
        try:
            if fmt in SESSION_FORMATS:  # its read_transcript is this read's turns
                session = read_session(text, NAME, fmt)
                turns, final = session.turns, session.final_message
                if not (final is None or isinstance(final, str)):
                    return f"a final message that is not text: {final!r}"
            else:
                turns = read_transcript(text, NAME, fmt)
        except InputError as exc:
            if not str(exc).startswith(NAME) or "\n" in str(exc):
                return f"an InputError that does not name the file in one line: {exc}"
            return None
        except Exception as exc:  # noqa: BLE001 - any escape is the failure under test
            return f"{type(exc).__name__}: {exc}"
        if not all(isinstance(t, Turn) and isinstance(t.cmd, str) and isinstance(t.output, str)
                   for t in turns):
            return "a turn that is not made of text"
        return None

    def test_every_field_of_every_record_with_every_wrong_type(self):
        formats = {fmt for fmt, *_ in self.cases}
        self.assertEqual(formats, set(FORMATS), "a reader without a fixture to fuzz")
        self.assertGreater(len(self.cases), 2000, "the fuzz shrank")
        failures = []
        for fmt, name, changed, text in self.cases:
            problem = self.read(fmt, text)
            if problem:
                failures.append(f"{fmt} {name} {changed}: {problem}")
        self.assertEqual(failures[:10], [])

    def test_the_hook_lets_the_agent_stop_on_each_session_format(self):
        # A handful per format, seeded: those the reader refuses and those it reads.
        rng = random.Random(SEED)
        port = closed_port()
        for fmt in SESSION_FORMATS:
            cases = [case for case in self.cases if case[0] == fmt]
            for number, (_, name, changed, text) in enumerate(rng.sample(cases, 4)):
                with self.subTest(fmt=fmt, fixture=name, changed=changed):
                    session = self.write(f"{fmt}-{number}.jsonl", text)
                    hook_input = self.write(f"hook-{fmt}-{number}.json", json.dumps({
                        "session_id": "s", "transcript_path": session, "cwd": self.dir,
                        "hook_event_name": "AfterAgent" if fmt == "gemini-cli" else "Stop",
                        "stop_hook_active": False, "last_assistant_message": "I pushed it.",
                        "prompt_response": "I pushed it."}))
                    status, out, err = run_cli(
                        "hook", fmt, "--input", hook_input, "--wait", "0",
                        "--base-url", f"http://127.0.0.1:{port}/v1")
                    self.assertEqual(status, 0, err)
                    self.assertNotIn("Traceback", err)
                    if out.strip():
                        json.loads(out)
                    shutil.rmtree(os.path.join(self.dir, "receipt-pair"), True)


def _lines(*records):
    return "\n".join(json.dumps(record) for record in records) + "\n"


def claude(text="Pushed.", content="ok", tool_input=None, sidechain=False):
    return _lines(
        {"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash",
             "input": {"command": "git push"} if tool_input is None else tool_input}]}},
        {"type": "user", "isSidechain": sidechain, "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": content}]}},
        {"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [
            {"type": "text", "text": text}]}})


def codex(message="Pushed.", text="Pushed.", exit_code=0, arguments='{"command": ["git", "push"]}'):
    def line(payload, kind="response_item"):
        return {"timestamp": "2025-01-01T00:00:00Z", "type": kind, "payload": payload}
    return _lines(
        line({"type": "function_call", "name": "shell", "call_id": "c1",
              "arguments": arguments}),
        line({"type": "function_call_output", "call_id": "c1", "output": "ok"}),
        line({"type": "exec_command_end", "call_id": "c1", "exit_code": exit_code,
              "aggregated_output": "ok"}, "event_msg"),
        line({"type": "message", "role": "assistant",
              "content": [{"type": "output_text", "text": text}]}),
        line({"type": "agent_message", "message": message}, "event_msg"))


def gemini(content="Pushed.", status="success", args=None):
    return json.dumps({"sessionId": "s", "projectHash": "p", "messages": [
        {"id": "u1", "type": "user", "content": "push it"},
        {"id": "g1", "type": "gemini", "content": content, "toolCalls": [
            {"id": "c1", "name": "run_shell_command", "status": status,
             "args": {"command": "git push"} if args is None else args,
             "result": [{"functionResponse": {"id": "c1", "name": "run_shell_command",
                                              "response": {"output": "Output: ok\nExit Code: 0"}}}]}]}]})


def openhands(kind="TerminalObservation"):
    return _lines(
        {"kind": "ActionEvent", "source": "agent", "id": "a1", "tool_call_id": "c1",
         "tool_name": "terminal", "action": {"command": "git push"}},
        {"kind": "ObservationEvent", "source": "environment", "tool_call_id": "c1",
         "observation": {"kind": kind, "content": "ok", "exit_code": 0}})


def mini(actions=None):
    return json.dumps({"trajectory_format": "mini-swe-agent-1", "info": {}, "messages": [
        {"role": "assistant", "content": "```bash\ngit push\n```",
         "extra": {"actions": [{"command": "git push"}] if actions is None else actions}},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\nok\n</output>"}]})


class WrongTypes(unittest.TestCase):
    """Each wrong type the issue names, in a record of each agent: one InputError naming the
    record; the same record with the right type still reads (issue 32 item 4)."""

    CASES = (  # (format, honest text, {what: (broken text, where the error says)})
        ("claude-code", claude(), {
            "a message text that is a number": (claude(text=5), "line 3 content block 1"),
            "content that is a number": (claude(content=5), "line 2 content block 1"),
            "a tool input that is a list": (claude(tool_input=["git", "push"]),
                                            "line 1 content block 1"),
            "a flag that is a string": (claude(sidechain="no"), "line 2")}),
        ("codex", codex(), {
            "a message text that is a number": (codex(message=5), "line 5"),
            "a message part's text that is an object": (codex(text={"t": 1}),
                                                        "line 4 content part 1"),
            "a status that is an object": (codex(exit_code={"code": 0}), "line 3"),
            "arguments that are a list": (codex(arguments=["git", "push"]), "line 1")}),
        ("gemini-cli", gemini(), {
            "content that is a number": (gemini(content=5), "message 2"),
            "a status that is an object": (gemini(status={"s": 1}), "message 2 tool call 1"),
            "a tool input that is a list": (gemini(args=["git"]), "message 2 tool call 1")}),
        ("openhands", openhands(), {
            "a kind that is a list": (openhands(kind=["x"]), "line 2")}),
        ("mini-swe-agent", mini(), {
            "actions that are a string": (mini(actions="git push"), "message 1"),
            "an action that is a number": (mini(actions=[5]), "message 1 action 1")}),
    )

    def read(self, fmt, text):
        if fmt in SESSION_FORMATS:
            session = read_session(text, NAME, fmt)
            return session.turns, session.final_message
        return read_transcript(text, NAME, fmt), None

    def test_each_wrong_type_is_one_error_naming_its_record(self):
        for fmt, honest, broken in self.CASES:
            with self.subTest(fmt=fmt, case="honest"):
                turns, final = self.read(fmt, honest)
                self.assertEqual([t.cmd for t in turns], ["git push"])
                if fmt in SESSION_FORMATS:
                    self.assertEqual(final, "Pushed.")
            for what, (text, where) in broken.items():
                with self.subTest(fmt=fmt, case=what):
                    with self.assertRaises(InputError) as caught:
                        self.read(fmt, text)
                    self.assertTrue(str(caught.exception).startswith(f"{NAME} {where}:"),
                                    str(caught.exception))
