"""Claims from what the agent said: the spans of its final message that claim finished work.

    from receipt_pair.claims import split_claims
    for claim in split_claims("Pushed fix/parser; the suite is green. Want me to tag it?"):
        claim.start, claim.end, claim.text   # 0, 17, "Pushed fix/parser" ...

Plain code, no model: the message is cut into lines (code fences, quotes, tables and
headings left out), list markers and labels ("- ", "1. ", "✅ ", "Done:") taken off, lines
cut into sentences and sentences into clauses, and each piece sorted by the words it uses:

- a claim says an operation was done ("I pushed", "Deployed to staging", "the fix was
  merged") or a check came out well ("the tests pass", "42 passed", "lint is clean");
- questions, plans ("next I will", "let me"), hedges ("should work", "I think"),
  admissions ("I couldn't push", "the build still fails") and instructions to the reader
  are not claims;
- anything else (a description of code, "`parse()` now returns None") is neither, and is
  kept with the piece beside it rather than checked on its own.

Every claim is a span of the message: `message[claim.start:claim.end] == claim.text`.
Nothing here prints, and nothing is guessed from outside the message.
"""

import re
from dataclasses import dataclass
from typing import Optional

CLAIM, NEGATIVE, NEUTRAL = "claim", "negative", "neutral"

# Operations an agent reports as done, in the past form it reports them in. A verb that
# only observes ("noticed", "found", "looked") is left out: it claims no finished work.
_DONE = (
    "added applied backed bootstrapped built bumped changed checked cherry-picked cleaned "
    "cleared closed committed compiled completed configured confirmed created deleted "
    "deployed disabled documented downloaded edited emailed enabled executed exported "
    "extracted filed finished fixed flushed formatted generated implemented imported "
    "installed integrated invoked kicked landed linted merged migrated moved notified opened "
    "packaged patched posted provisioned published pushed ran re-ran rebased rebuilt "
    "refactored regenerated released reloaded removed renamed replaced replied reran reset "
    "resolved restarted restored reverted rewrote rolled scheduled seeded sent set shipped "
    "signed spun squashed started stopped submitted synced tagged tested tidied triggered "
    "updated upgraded uploaded validated vendored verified wired wrote"
).split()
_VERB = r"(?:%s)" % "|".join(re.escape(v) for v in sorted(_DONE, key=len, reverse=True))
_ADVERBS = r"(?:also|just|now|successfully|already|then|finally|again|manually|locally|all|and)"

_CLAIM_PATTERNS = [
    # "I pushed ...", "we've deployed ...", "I have also fixed ..."
    re.compile(r"\b(?:i|we)(?:'ve|'d| have| had)?(?:\s+%s)*\s+%s\b" % (_ADVERBS, _VERB)),
    # A report that starts with the verb, maybe after a label: "Pushed fix/parser",
    # "Also ran the linter", "`api.py` - extracted the check".
    re.compile(r"^(?:[^:]{1,60}(?::|\s[-—–])\s+)?(?:%s,?\s+)*%s\b" % (_ADVERBS, _VERB)),
    # Passive or state: "the fix was merged", "changes are pushed", "it is live".
    re.compile(r"\b(?:is|are|was|were|has been|have been|got)(?:\s+(?:now|all|successfully|"
               r"also|fully|already))*\s+(?:%s|live|green|in place|up to date|complete|"
               r"done|passing)\b" % _VERB),
    # A check that came out well: "the tests pass", "lint is clean", "CI is green".
    re.compile(r"\b(?:tests?|suites?|specs?|build|builds|ci|checks?|lint|linter|linting|"
               r"type ?checks?|typecheck|mypy|pyright|ruff|flake8|eslint|tsc|pipeline|"
               r"workflow|everything)\b[^.;]{0,60}?\b(?:pass|passes|passed|passing|"
               r"green|succeeded|succeeds|clean|ok|(?:reports?|found|finds|shows?|with) "
               r"(?:no|0|zero) (?:errors|issues|problems|failures|warnings))\b"),
    # Counts: "42 passed", "12/12 tests pass", "all 128 tests pass".
    re.compile(r"\b\d+ (?:tests? )?passed\b|\b\d+/\d+ (?:tests? )?(?:pass|passed|passing)\b"),
]

# Not finished work: the word says so wherever it stands in the piece.
_NEGATIVE_PATTERNS = [
    # questions are told apart by their "?" (see classify); these are the rest
    re.compile(r"n't\b|\b(?:not|never|cannot|unable|no longer)\b"),
    # hedges: a claim the agent itself does not stand behind
    re.compile(r"\b(?:should|might|may|probably|likely|possibly|perhaps|hopefully|"
               r"presumably|supposedly|seems?|appears?|i think|i believe|i assume|"
               r"i expect|not sure|in theory|expected to)\b"),
    # plans and offers
    re.compile(r"\b(?:i|we)(?:'ll| will| am going to|'m going to| are going to| plan to|"
               r" intend to| need to| still need to| would| want to| can| could)\b"),
    # a failure reported, which is an admission, not a claim of finished work
    re.compile(r"\b(?:tests?|suites?|build|push|deploy(?:ment)?|ci|checks?|lint|pipeline|"
               r"command|it|they|migration|job)\s+(?:still\s+)?(?:fail|fails|failed|"
               r"is failing|are failing|was rejected|were rejected|errored|timed out|broke)\b"),
    re.compile(r"^(?:failed|tried|attempted)\b"),
]
# What starts a plan, an offer or an instruction to the reader.
_NEGATIVE_START = re.compile(
    r"^(?:will|going to|next|then i'll|todo|to do|still|let me|let's|you|feel free|please|"
    r"consider|remember|don't|make sure|ensure|try|run|check|verify|add|update|push|deploy|"
    r"if|unless|once you|when you|before you|after you|would you|should i|shall i|want me|"
    r"do you|can you|could you)\b")
# Counts of nothing going wrong, which the failure patterns must not read as failure.
_BENIGN = re.compile(r"\b(?:0|zero|no|without(?: any)?) (?:failures?|failed|errors?|"
                     r"failing tests?)\b")

# Lines a person does not read as statements of the agent's work.
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_SKIP_LINE = re.compile(r"^\s*(?:#|>|\|)")
_BAD_MARK = re.compile(r"^\s*(?:❌|✗|✘|⚠️?|🚫|⛔|\[ \])")
# What leads a line without being part of the claim: list markers, ticked boxes, ticks,
# and labels such as "Done:" or "**Summary:**".
_LEAD = re.compile(
    r"^(?:\s*(?:[-*+•]|\d{1,3}[.)])\s+)?(?:\[[xX]\]\s+)?(?:(?:✅|✔️?|☑️?|✓|🎉|🚀)\s*)?"
    r"(?:[*_]*(?:done|status|summary|result|results|update|completed|finished|changes)"
    r"[*_]*\s*[:—–-]\s*[*_]*\s*)?", re.I | re.M)
# Where a sentence ends: after . ! or ? and a space, unless the dot ends an abbreviation.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.")
# Where a clause may end: a semicolon, a dash between spaces, and ", and"/" but"/" then".
_CLAUSE_END = re.compile(r"\s*;\s*|\s+[—–-]\s+|,?\s+(?:and|but|then|so)\s+(?:then\s+)?"
                         r"|,\s+(?=\S)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LEADING_MARKS = re.compile(r"^[^\w`'\"(*\[$~/.]+")
_TRIM_END = " \t\r\n.,;:"
_KEEP_LEAD = "`'\"(*_[$~/."


@dataclass(frozen=True)
class Claim:
    """One claim: its text and, when it came from a message, where it sits in it."""

    text: str
    start: Optional[int] = None
    end: Optional[int] = None
    source: str = "rules"  # "rules" (this module), "model" (claims_model) or "given"

    def to_dict(self):
        return {"text": self.text, "start": self.start, "end": self.end, "source": self.source}


def split_claims(message):
    """The claims of finished work in `message`, in order, each a span of it."""
    if not isinstance(message, str):
        raise TypeError("the message must be a string")
    masked = _mask_code(message)
    claims = []
    for start, end in _statement_lines(message, masked):
        for s_start, s_end in _sentences(masked, start, end):
            for c_start, c_end in _clauses(message, masked, s_start, s_end):
                claims.append(Claim(message[c_start:c_end], c_start, c_end))
    return claims


def classify(text):
    """CLAIM, NEGATIVE or NEUTRAL for one piece of a message (see the module's docstring)."""
    if text.rstrip().rstrip("*_ ").endswith("?"):
        return NEGATIVE
    plain = _plain(text)
    if not plain:
        return NEUTRAL
    if _NEGATIVE_START.match(plain):
        return NEGATIVE
    unharmed = _BENIGN.sub(" ", plain)
    if any(p.search(unharmed) for p in _NEGATIVE_PATTERNS):
        return NEGATIVE
    if any(p.search(plain) for p in _CLAIM_PATTERNS):
        return CLAIM
    return NEUTRAL


def is_claim(text):
    return classify(text) == CLAIM


def given_claims(text):
    """Claims given by hand: one per non-empty line of `text` (no span in any message)."""
    return [Claim(line.strip(), source="given") for line in text.splitlines() if line.strip()]


def _plain(text):
    """The piece as the patterns read it: code spans as one word, emphasis marks gone,
    curly apostrophes straightened, lower case."""
    text = _CODE_SPAN.sub(" code ", text)
    text = _LEADING_MARKS.sub("", text)
    text = text.replace("\u2019", "'").replace("*", "").replace("_", " ")
    return " ".join(text.lower().split())


def _mask_code(message):
    """The message with the inside of every `code span` blanked, so that a ';' or '. '
    inside a command never cuts a sentence (positions stay the same)."""
    return _CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", message)


def _statement_lines(message, masked):
    """(start, end) of each line's statement, after its marker and label, outside fences."""
    in_fence = False
    position = 0
    for line in message.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or _SKIP_LINE.match(line) or _BAD_MARK.match(line):
            continue
        lead = _LEAD.match(masked, start, end)
        start = lead.end() if lead else start
        if message[start:end].strip():
            yield start, end


def _sentences(masked, start, end):
    cut = start
    for match in _SENTENCE_END.finditer(masked, start, end):
        before = masked[cut:match.start()].rsplit(None, 1)
        if before and before[-1].lower() in _ABBREVIATIONS:
            continue
        yield cut, match.start()
        cut = match.end()
    yield cut, end


def _clauses(message, masked, start, end):
    """The claim spans of one sentence: cut between two pieces that each stand alone."""
    pieces, cut = [], start
    for match in _CLAUSE_END.finditer(masked, start, end):
        pieces.append((cut, match.start()))
        cut = match.end()
    pieces.append((cut, end))
    kept = []
    current = None
    for piece in pieces:
        if current is None:
            current = piece
            continue
        here, there = classify(message[current[0]:current[1]]), \
            classify(message[piece[0]:piece[1]])
        joined = (current[0], piece[1])
        if here != NEUTRAL and there != NEUTRAL:
            kept.append(current)
            current = piece
        elif CLAIM in (here, there) and classify(message[joined[0]:joined[1]]) != CLAIM:
            # Joined, the claim would no longer read as one: keep them apart.
            kept.append(current)
            current = piece
        else:  # a piece that says nothing alone belongs to the one beside it
            current = joined
    kept.append(current)
    for c_start, c_end in kept:
        c_start, c_end = _trim(message, c_start, c_end)
        if c_end > c_start and classify(message[c_start:c_end]) == CLAIM:
            yield c_start, c_end


def _trim(message, start, end):
    # Leading ticks and emoji ("✅ Pushed") are marks, not words of the claim.
    while start < end and not (message[start].isalnum() or message[start] in _KEEP_LEAD):
        start += 1
    while end > start and message[end - 1] in _TRIM_END:
        end -= 1
    return start, end
