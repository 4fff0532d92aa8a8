"""Evidence first: plain code picks the output lines that may decide a claim, from the whole
log, and the models choose among them by number.

Real logs are long (thousands of characters over many turns, most of them file reads), and
the deciding line is often far from the end or in the middle of a long output, where
cutting the last turns in the middle loses it. So every output line of every turn is
scored, with no model:
- lines naming the claim's object or operation (its words, paths and identifiers),
- lines with a failure marker (evidence.py), a success marker, or a test summary,
- the last lines of each output (where tools print how they ended), and a recorded exit
  status,
- more weight for commands that do something than for commands that only show a file
  (cat, head, grep, ls...), and for the latest attempt of each command.
The best lines within a budget are shown, each with a label L1..Ln, in their turns (every
recent command is listed, so the models see what ran and in what order); the rest is left
out with a marker saying how much. The turns are ShownTurns like any reader's: the quote
check judges a chosen line exactly as it judges a quoted one, against the whole output.
"""

import dataclasses
import re

from ..check import attempts, commands, evidence, kinds
from . import facts
from ..check.commands import is_viewer, program_of as _program
from ..check.render import ShownTurn, cut_middle, readable, status_lines
from .vocabulary import vocabulary
from ..patterns import lazy

# What the menu may hold: lines in all, lines per turn, characters in all.
MAX_LINES = 30
MAX_LINES_PER_TURN = 8
MAX_CHARS = 3000
# Commands shown without chosen lines, for the order of events: the most recent ones.
CONTEXT_TURNS = 10
COMMAND_CAP = 160
LINE_PREVIEW = 300  # a chosen line longer than this is shown with its middle cut
# Lines of one output scored: its head and its tail (a runaway output stays cheap).
SCAN_LINES = 5000
# A line is offered only if it scores at least this: a file's last lines are not evidence.
MIN_SCORE = 1.0

_SUCCESS = lazy(
    r"\b(?:passed|passing|succeeded|success(?:ful(?:ly)?)?|ok|done|complete(?:d)?|"
    r"finished|created|deployed|pushed|merged|published|uploaded|sent|delivered|applied|"
    r"installed|built|released|rolled\s+out|healthy|ready|running|live|saved|wrote|"
    r"updated|configured|migrated|restored|verified)\b|->|\u2713|\u2714|100%", re.I)
_SUMMARY = lazy(
    r"\b(?:\d+\s+(?:passed|failed|errors?|skipped|tests?|examples?|specs?)|test result|"
    r"Tests?(?:\s+run)?:|Ran\s+\d+\s+tests?|OK\b|FAILED\b|BUILD\s+\w+|"
    r"exit(?:ed)?\s+(?:code|status)|HTTP/\d(?:\.\d)?\s+\d{3}|status(?:\s+code)?\s*[:=]|"
    r"digest:\s*sha256|STATUS:|revision\b)",
    re.I)
_WORD = lazy(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]*")
_STOP = {"the", "and", "for", "with", "from", "into", "that", "this", "all", "now", "has",
         "have", "had", "was", "were", "are", "its", "it's", "our", "your", "after", "before",
         "them", "then", "than", "new", "one", "out", "via", "also", "just", "again", "both",
         "i've", "we've", "i'm", "did", "does", "done", "there", "here", "every", "each",
         "some", "any", "not", "but", "which", "when", "what", "who", "why", "how"}


def _stem(word):
    word = word.lower().strip(".-/")
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def claim_words(claim):
    """The claim's words that can name an object or an operation, stemmed, with the parts
    of paths and identifiers ("fix/parser" gives fix/parser, fix and parser)."""
    words = set()
    for token in _WORD.findall(claim):
        for part in [token] + re.split(r"[/_.\-]", token):
            stem = _stem(part)
            if len(stem) >= 3 and stem not in _STOP:
                words.add(stem)
    return words


def _line_words(line):
    words = set()
    for token in _WORD.findall(line):
        words.add(_stem(token))
        words.update(_stem(p) for p in re.split(r"[/_.\-]", token) if p)
    return words


def _signature(cmd):
    program, rest = _program(cmd)
    return (program, tuple(rest))


class _Lines:
    """What the menu reads of each distinct line, read once per pick: a real log repeats
    lines by the thousand ("ok", a progress bar), and each costs a dozen patterns."""

    def __init__(self, words, patterns):
        self.words, self.patterns = words, patterns
        self._base, self._failing = {}, {}

    def failing(self, line):
        if line not in self._failing:
            self._failing[line] = bool(line.strip()) and bool(self.patterns.failure_spans(line))
        return self._failing[line]

    def score(self, line, is_tail):
        if not line.strip():
            return 0.0
        if line not in self._base:
            score = 2.5 * len(self.words & _line_words(line))
            if self.failing(line):
                score += 4
            if _SUCCESS.search(line):
                score += 2
            if _SUMMARY.search(line):
                score += 2
            self._base[line] = score
        return self._base[line] + 1.5 if is_tail else self._base[line]


def _scan_indices(count):
    if count <= SCAN_LINES:
        return range(count)
    half = SCAN_LINES // 2
    return list(range(half)) + list(range(count - half, count))


# Versions of the menu. Every answer records the one it was asked with. m1 (runs 3 and 4)
# scored lines with check c2's words and could leave a failed turn's exit status out when
# its success-looking lines filled the turn's share; m2 (current) scores with the current
# words, reads the tool kinds a transcript records, and never shows a failed turn's lines
# without its failure (below).
MENUS = ("m1", "m2", "m3")
CURRENT_MENU = "m2"
# (lines, characters, lines per turn) each menu may hold. m3, the facts reader's, is
# smaller: plain code says more of each turn (facts.py), and weighs the turns that can be
# about the claim (a run of tests for a test claim, a push for a push claim) above others.
BUDGETS = {"m1": (MAX_LINES, MAX_CHARS, MAX_LINES_PER_TURN),
           "m2": (MAX_LINES, MAX_CHARS, MAX_LINES_PER_TURN), "m3": (20, 2200, 6)}
# The latest attempts whose failure every menu shows, however full: the most recent ones.
MAX_KEPT_FAILURES = 12


def pick_lines(claim, turns, version=CURRENT_MENU):
    """{turn index: sorted line indices} of the lines the menu shows, within its budget."""
    m1 = version == "m1"
    read = _Lines(claim_words(claim), vocabulary("c2") if m1 else evidence)
    latest = {}
    for index, turn in enumerate(turns):
        latest[_signature(turn.cmd)] = index
    scored, lines_of = [], []
    for index, turn in enumerate(turns):
        lines = _lines_of(turn)
        lines_of.append(lines)
        viewer = is_viewer(turn.cmd) if m1 else attempts.shows_file(turn)
        weight = (0.3 if viewer else 1.0) * (1.2 if latest.get(_signature(turn.cmd)) == index
                                             else 1.0)
        if version == "m3":
            weight *= 1.5 if kinds.can_be_about(claim, turn, lines) else 0.6
        recency = 0.5 * (index + 1) / len(turns)
        non_empty = [i for i, line in enumerate(lines) if line.strip()]
        tail = set(non_empty[-2:])
        for i in _scan_indices(len(lines)):
            score = read.score(lines[i], i in tail)
            if turn.exit_status and i == len(lines) - 1:
                score += 5  # the recorded exit status line
            if score * weight >= MIN_SCORE:
                scored.append((score * weight + recency, index, i))
    scored.sort(key=lambda item: (-item[0], -item[1], item[2]))
    budget = _Budget(lines_of, *BUDGETS[version])
    if not m1:
        ending = _Endings(turns, lines_of, read)
        for index in ending.latest_failures():
            budget.add(index, ending.lines(index), force=True)
    for _, index, i in scored:
        if budget.full():
            break
        if m1:
            budget.add(index, [i])
        else:  # a failed turn's line comes with its failure, or not at all
            budget.add(index, [i] + ending.lines(index))
    return {index: sorted(lines) for index, lines in budget.chosen.items()}


class _Budget:
    """The lines chosen so far, within a menu's lines, characters and lines per turn."""

    def __init__(self, lines_of, max_lines, max_chars, per_turn):
        self.lines_of = lines_of
        self.max_lines, self.max_chars, self.max_per_turn = max_lines, max_chars, per_turn
        self.chosen, self.per_turn, self.count, self.chars = {}, {}, 0, 0

    def full(self):
        return self.count >= self.max_lines

    def add(self, index, wanted, force=False):
        """Add the lines `wanted` of one turn together, if all fit (or `force`)."""
        new = [i for i in dict.fromkeys(wanted) if i not in self.chosen.get(index, ())]
        if not new:
            return
        size = sum(min(len(self.lines_of[index][i]), LINE_PREVIEW) + 6 for i in new)
        if not force and (self.count + len(new) > self.max_lines
                          or self.chars + size > self.max_chars
                          or self.per_turn.get(index, 0) + len(new) > self.max_per_turn):
            return
        self.chosen.setdefault(index, set()).update(new)
        self.per_turn[index] = self.per_turn.get(index, 0) + len(new)
        self.count += len(new)
        self.chars += size


class _Endings:
    """How each turn ended, for menu m2 on: the lines that say how a failed or unfinished
    turn ended (its status lines and its last failure line), and which turns are the
    latest run of an operation that ended badly."""

    def __init__(self, turns, lines_of, read):
        self.turns, self.lines_of, self.read = turns, lines_of, read
        self._lines = {}

    def ended_badly(self, index):
        turn = self.turns[index]
        if turn.exit_status or not turn.finished:
            return True
        return not attempts.shows_file(turn) and any(self.read.failing(line)
                                                     for line in self.lines_of[index])

    def lines(self, index):
        """The turn's status lines and last failure line; none for a turn that ended well."""
        if index not in self._lines:
            self._lines[index] = self._ending(index) if self.ended_badly(index) else []
        return self._lines[index]

    def _ending(self, index):
        lines = self.lines_of[index]
        ending = status_lines(self.turns[index])
        count = len(ending.split("\n")) if ending else 0
        body = range(len(lines) - count - 1, -1, -1)
        last = next((i for i in body if self.read.failing(lines[i])), None)
        return ([] if last is None else [last]) + list(range(len(lines) - count, len(lines)))

    def latest_failures(self):
        """The turns that are the latest run of their operation and ended badly, newest
        first, at most MAX_KEPT_FAILURES."""
        seen, found = set(), []
        for index in range(len(self.turns) - 1, -1, -1):
            key = tuple(commands.operations(self.turns[index].cmd))
            if not key or key in seen:
                continue
            seen.add(key)
            if self.ended_badly(index):
                found.append(index)
            if len(found) >= MAX_KEPT_FAILURES:
                break
        return found


def _lines_of(turn):
    return _full_output(turn).split("\n")


def _full_output(turn):
    """The whole output made readable, with the exit status line a recorded failure adds."""
    text = readable(turn.output)
    ending = status_lines(turn)
    if ending:
        text = text.rstrip("\n") + ("\n" if text.strip() else "") + ending
    return text.rstrip("\n")


def _marker(count):
    return f"[... {count:,} line{'s' if count != 1 else ''} left out ...]"


def shown_turn(turn, number, keep, index=-1):
    """One turn as the menu shows it: its command, and only the kept lines of its output,
    in runs between markers; the parts know where they sit in the whole output."""
    full = _full_output(turn)
    lines = full.split("\n") if full else []
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    parts, part_starts, pieces, previous = [], [], [], -1
    for i in keep:
        if parts and i == previous + 1:
            parts[-1] += "\n" + lines[i]
        else:
            gap = i - previous - 1
            if gap:
                pieces.append(_marker(gap))
            parts.append(lines[i])
            part_starts.append(starts[i])
            pieces.append(None)  # the place of this part
        previous = i
    after = len(lines) - previous - 1 if lines else 0
    text, k = [], 0
    for piece in pieces:
        if piece is None:
            text.append(parts[k])
            k += 1
        else:
            text.append(piece)
    if after > 0:
        text.append(_marker(after))
    output = "\n".join(text) if text else ("" if not lines else _marker(len(lines)))
    cmd, _ = cut_middle(readable(turn.cmd), COMMAND_CAP)
    return ShownTurn(id=f"T{number}", cmd=cmd, output=output,
                     output_parts=tuple(parts) or ("",), raw_output=turn.output,
                     exit_status=turn.exit_status, readable=full,
                     part_starts=tuple(part_starts) or (0,), finished=turn.finished,
                     index=index)


def render_menu_turns(claim, turns, context_turns=CONTEXT_TURNS, version=CURRENT_MENU):
    """The turns the menu shows, numbered T1..Tn: every turn with a chosen line, from the
    whole log, and the last `context_turns` commands, so the order of events is clear."""
    turns = list(turns)
    keep = pick_lines(claim, turns, version)
    recent = set(range(max(0, len(turns) - context_turns), len(turns)))
    indices = sorted(set(keep) | recent)
    shown = [shown_turn(turns[i], number, keep.get(i, []), i)
             for number, i in enumerate(indices, 1)]
    if version == "m3":
        said = facts.number_turns(facts.turn_facts(turns, evidence),
                                  {i: f"T{n}" for n, i in enumerate(indices, 1)})
        shown = [dataclasses.replace(turn, facts=said.get(turn.index, "")) for turn in shown]
    return shown


def labelled_lines(shown):
    """[(label, turn id, line)] for every line the menu offers, in order: L1, L2, ..."""
    out = []
    for turn in shown:
        for part in turn.output_parts:
            for line in part.split("\n"):
                if line.strip():
                    out.append((f"L{len(out) + 1}", turn.id, line))
    return out
