"""Claims from what the agent said: the spans of its final message that claim finished work.

    from receipt_pair.claims import split_claims
    for claim in split_claims("Pushed fix/parser; the suite is green. Want me to tag it?"):
        claim.start, claim.end, claim.text   # 0, 17, "Pushed fix/parser" ...

Plain code, no model, one pass over the message's lines. Each line is a row of some kind
(a sentence, a list item, a ticked line, a "label: value" line, a table row; code fences,
quotes and headings are not read), and rows are read in two ways:

- by their words: cut into sentences and clauses, each piece sorted by the words it uses.
  A claim says an operation was done ("I pushed", "Deployed to staging", "the fix was
  merged") or a check came out well ("the tests pass", "42 passed", "`./run.sh` exits 0",
  "lint: clean"). Questions, plans ("next I will"), hedges ("should work"), admissions
  ("the build still fails") and instructions to the reader are not claims; anything else
  (a description of code, "`parse()` now returns None") is neither, and is kept with the
  piece beside it rather than checked on its own.
- by where they stand: a row under a heading or a lead line that reports done work
  ("## Changes made", "Here's what I did:", "**Files created**: 3"), a row with a tick
  ("✅ Footer simplified") and a row of a before/after table is a claim as a whole, even
  when its words alone ("`api.py` (40 lines)") would not say so; under a heading of next
  steps or instructions no item is a claim, and under a lead that says what something
  contains ("The guide includes:") only the words count.

Every claim is a span of the message: `message[claim.start:claim.end] == claim.text`.
Nothing here prints, and nothing is guessed from outside the message. The time taken grows
with the message's length, never faster.
"""

import re
import unicodedata
from dataclasses import dataclass
from typing import Optional

CLAIM, NEGATIVE, NEUTRAL = "claim", "negative", "neutral"

# -- words ---------------------------------------------------------------------------------

# Operations an agent reports as done, in the past form it reports them in, for a report
# that starts with its verb ("Computed the mean ..."). A closed list, because a past form
# at the start of a phrase is as often an adjective ("Detailed report", "Completed todos
# are shown"). After a subject or an auxiliary ("I translated", "was memoized") any past
# form counts (_PAST). A "re" before any of them counts too ("recalculated").
_DONE = (
    "added addressed adjusted analysed analyzed answered appended applied archived assigned "
    "attached audited automated benchmarked examined inspected investigated profiled "
    "reviewed scanned "
    "backed bisected bootstrapped branched built bumped bundled calculated changed checked "
    "cherry-picked cleaned cleared cloned closed committed compiled completed computed "
    "configured confirmed connected consolidated containerized converted copied created "
    "debugged decoupled defined deleted deployed deprecated disabled documented downgraded "
    "downloaded drafted dropped edited emailed enabled enhanced ensured exported executed "
    "expanded exposed extended extracted fetched filed filled finished fixed flushed forked "
    "formatted generated granted hardened hooked identified implemented imported improved "
    "included increased initialized inserted installed integrated introduced invoked kicked "
    "labeled labelled landed launched linted localized logged made memoized merged migrated "
    "mitigated modernized modified modularized moved normalized notified opened optimized "
    "organized packaged patched performed pinned populated ported posted preserved "
    "provisioned pruned published pulled purged pushed ran raised re-ran rebased redeployed "
    "redesigned reduced refactored refreshed registered released reloaded removed renamed "
    "reorganized replaced replied reran reset resolved restarted restored restructured "
    "reverted revoked rewired rewrote rolled rotated sanitized saved scaffolded scheduled "
    "secured seeded sent set shipped signed simplified solved spun squashed standardized "
    "started stopped streamlined submitted summarized swapped synced tagged terminated "
    "tested tidied translated trained triggered trimmed tuned uninstalled unpinned updated "
    "upgraded uploaded used utilized validated vendored verified wired wrapped wrote"
).split()
# Past forms that only look or try: they report a step taken, not finished work or a
# result. "I reproduced the bug" says nothing was changed or came out well.
_LOOKED = ("reproduced read looked noticed explored searched browsed studied observed "
           "viewed").split()
# Past forms of trying, meaning and explaining: "I tried to deploy", "was caused by".
_TRIED = ("tried attempted wanted needed intended planned decided hoped wondered assumed "
          "believed expected supposed seemed appeared failed caused").split()
# Keeping something as it was is no work done on it: "I kept the old API", "J'ai
# conservé la section".
_KEPT = "kept left conservé gardé laissé mantenido dejado".split()
# Past forms that are adjectives wherever they stand ("is based on", "Estimated time").
_ADJECTIVES = ("based related required limited nested embedded dedicated detailed "
               "advanced estimated interested supported unsupported concerned involved "
               "distributed sophisticated complicated").split()
_IRREGULAR = ("made built written wrote ran run set put sent done did taken took kept got "
              "gotten given gave brought found held led lit met paid shown split spun "
              "stood struck undone won rebuilt rewritten reran rerun begun began chosen "
              "drawn thrown upheld withdrawn frozen hidden sold told shut cut spent "
              "agreed freed guaranteed").split()


def _words(words):
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


_VERB = r"(?:re-?)?(?:%s)" % _words(_DONE)
_NOT_PAST = r"(?:%s)\b" % _words(_LOOKED + _TRIED + _KEPT + _ADJECTIVES)
# Any past form: an irregular one, or a word in "-ed" (not "-eed": need, exceed, speed).
_PAST = r"(?!%s)(?:%s|[a-z][a-z-]*[a-df-z]ed)\b" % (_NOT_PAST, _words(_IRREGULAR))
_ADVERB = r"(?:\w+ly|also|just|now|already|then|finally|again|all|and|first|since)"

_CLAIM_PATTERNS = [
    # "I pushed ...", "we've deployed ...", "I have also translated ..."
    re.compile(r"\b(?:i|we)(?:'ve|'d| have| had)?(?:\s+%s)*\s+%s" % (_ADVERB, _PAST)),
    # A report that starts with the verb, maybe after a label: "Pushed fix/parser",
    # "Also ran the linter", "`api.py` - extracted the check". Not a verb alone
    # ("Optimized"), which names no work done on anything, nor "Completed todos are shown
    # ...", where the past form is an adjective of the subject.
    re.compile(r"^(?:[^:]{1,60}(?::|\s[-—–→])\s+)?(?:%s,?\s+)*%s\b(?=\s+\S)"
               r"(?!\s+\S+\s+(?:are|is|was|were)\b)" % (_ADVERB, _VERB)),
    # Passive or state: "the fix was merged", "has been successfully converted", "it is now
    # live", "the file is recreated and ready".
    re.compile(r"\b(?:was|were|(?:has|have|had|'s|'ve) been|got)(?:\s+%s)*\s+(?:re-?)?%s"
               % (_ADVERB, _PAST)),
    re.compile(r"\b(?:is|are|'s|'re)(?:\s+(?:all|also|fully|properly|correctly))*"
               r"\s+(?:now|already)(?:\s+%s)*\s+(?:re-?)?%s" % (_ADVERB, _PAST)),
    re.compile(r"\b(?:is|are|was|were|'s|'re)(?:\s+(?:now|all|also|fully|already|"
               r"successfully|(?:re-?)?%s\s+and))*\s+(?:live|green|in place|up to date|"
               r"complete|completed|done|passing|available|running|deployed|working|clean|"
               r"fixed|resolved|merged|functional|operational|online|"
               r"ready(?!\s+(?:to\s+(?!be\b)|for\b)))\b" % _PAST),
    # Where the work left a file: "the parameters are saved in `glm3.nml`".
    re.compile(r"\b(?:is|are)\s+(?:now\s+)?(?:saved|written|stored|exported|available)\s+"
               r"(?:to|in|at|as|under)\s+(?:code\b|[/~])"),
    # A check that came out well: "the tests pass", "lint is clean", "CI is green".
    re.compile(r"\b(?:tests?|suites?|specs?|build|builds|ci|checks?|lint|linter|linting|"
               r"type ?checks?|typecheck|mypy|pyright|ruff|flake8|eslint|tsc|clippy|"
               r"pipeline|workflow|everything|compil\w*|migrations?|deployments?|e2e)\b"
               r"[^.;]{0,60}?\b(?:pass|passes|passed|passing|green|succeeded|succeeds|"
               r"clean|ok|(?:reports?|found|finds|shows?|with) (?:no|0|zero) (?:errors|"
               r"issues|problems|failures|warnings))\b"),
    # Checks whatever their name: "`cargo build --release` now succeeds", "`./run.sh`
    # exits 0", "Deployment completed successfully", "The migration ran without errors",
    # "the endpoint returns 200", "PDF uploads now work again"; and what the work left:
    # "the table now has the column" (not what code does: "`parse()` now returns None").
    re.compile(r"\bsucceed(?:s|ed)\b|\bexit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?0\b"
               r"|\bexit (?:code|status)(?: of| was| is|:|=)? ?0\b"
               r"|\breturn(?:s|ed) (?:an? )?(?:http )?200\b"),
    re.compile(r"\b%s(?:\s+\w+)?\s+successfully\b|\bsuccessfully\s+(?:re-?)?%s"
               % (_PAST, _PAST)),
    re.compile(r"\b(?:ran|run|completed|finished|built|compiled|executed|passed|exited|"
               r"installed|migrated|applied|deployed)\s+(?:without (?:any )?(?:errors?|"
               r"failures?|warnings?|issues?)|with no (?:errors?|failures?|warnings?)|"
               r"cleanly)\b"),
    re.compile(r"\bnow (?:\w+ly )?(?:succeeds|builds|compiles|works|work|passes|pass|runs|"
               r"starts|loads|renders|looks|has|have|contains|contain|includes|include|lists|"
               r"shows)\b|\bworks? (?:correctly|properly|as expected|"
               r"now|again)\b|\bmatch(?:es|ed)? (?:the |all )?expected\b|\bsuccessfully \w+s\b"),
    # Work reported finished by its name, and results reached: "Task completed", "the
    # model achieves 93% accuracy".
    re.compile(r"^(?:the )?(?:task|tasks|work|job|jobs|migration|deployment|setup|"
               r"installation|implementation|refactor(?:ing)?|upgrade|analysis|run)"
               r"(?: \w+)? (?:is |are |was |has been )?(?:now )?(?:completed|complete|done|"
               r"finished)\b"),
    re.compile(r"\b(?:achieves|achieved|reaches|reached|scores|scored|attains|attained) "
               r"(?:an? |the )?(?:\S+ ){0,3}?\d"),
    # A failure gone: "the script no longer raises an error".
    re.compile(r"\bno longer (?:raises|fails|crashes|errors|throws|hangs|breaks|times out|"
               r"leaks|occurs|happens|reproduces|appears)\b"),
    re.compile(r"\bremain(?:s|ed)? (?:\w+ly |still |all )?(?:intact|functional|green|passing|"
               r"working|compatible|unchanged)\b"),
    re.compile(r"\b(?:zero|0|no) (?:\w+ ){0,2}(?:errors?|failures?|warnings?) "
               r"(?:detected|found|reported)\b|\b(?:no|nothing) (?:\w+ )?broken\b"),
    # Counts: "42 passed", "12/12 tests pass", "128 tests ran", "7/7 complete".
    re.compile(r"\b\d+ (?:tests? )?passed\b|\b\d+/\d+ (?:\w+ )?(?:pass|passed|passing|"
               r"complete|completed|green)\b|\b\d+ (?:\w+ )?tests? (?:ran|run|executed)\b|"
               r"\b100% complete\b"),
    # "name: result" rows: "tests: 12 passed", "lint: OK", "build: ✅".
    re.compile(r"^[^:]{1,50}:\s*(?:✅|pass|passed|passing|ok|okay|clean|green|success|"
               r"successful|succeeded|done|fixed|(?:no|0|zero) (?:errors|issues|warnings|"
               r"failures|problems))(?:\W|$)"),
    # Rows whose label reports the work: "**Files created**: 19 files", "Commit: 9ec17ff",
    # "Report path: `./report.md`".
    re.compile(r"^(?:[\w`'./-]+ ){0,4}%s:\s*\S" % _VERB),
    re.compile(r"^(?:git )?commit(?:ted)?(?: hash| id| sha| as)?:?\s+(?:code|[0-9a-f]{7,40}\b)"),
    re.compile(r"^(?:report|output|results?|answers?|log)s?(?: file)?(?: path| location)?:"
               r"\s*(?:code\b|[./~])"),
    # French and Spanish passives, which agents write in the same reports: "ont été
    # supprimées", "ha sido actualizado".
    re.compile(r"\b(?:a|ont) été (?:\w+ )?\w+(?:é|ée|és|ées)\b"),
    re.compile(r"\b(?:ha|han) sido \w+(?:ado|ada|ados|adas|ido|ida|idos|idas)\b"),
    re.compile(r"\b(?:j'ai|nous avons|on a)(?: \w+ment| aussi| également| bien)* (?!%s)"
               r"\w+(?:é|ée|és|ées)\b" % _words(_KEPT)),
    re.compile(r"\b(?:he|hemos|se ha|se han)(?: \w+mente| también)* (?!%s)"
               r"\w+(?:ado|ada|ados|adas|ido|ida|idos|idas)\b" % _words(_KEPT)),
    re.compile(r"\b(?:les tests|tous les tests|las pruebas|todas las pruebas|los tests)"
               r"(?: \w+)? (?:passent|pasan)\b"),
]
# A later piece of the same sentence that starts with a past form carries on the report
# before it: "Updated `jjwt` to 0.12.3, and modularized its dependencies".
_CARRIED = re.compile(r"^(?:%s,?\s+)*(?:re-?)?%s(?!\s+\S+\s+(?:are|is|was|were)\b)"
                      % (_ADVERB, _PAST))

# Not finished work: the word says so wherever it stands in the piece (before a "which",
# "who" or "where", whose clause qualifies a thing rather than the claim).
_NEGATIVE_PATTERNS = [
    # questions are told apart by their "?" (see classify); these are the rest
    re.compile(r"n't\b|\b(?:not|never|cannot|unable|no longer|pending|not yet|"
               r"in progress)\b"),
    # hedges and obligations: a claim the agent itself does not stand behind
    re.compile(r"\b(?:should|might|may|must|probably|likely|possibly|perhaps|hopefully|"
               r"presumably|supposedly|seems?|appears?|i think|i believe|i assume|"
               r"i expect|not sure|in theory|expected to|needs? to|has to|have to)\b"),
    # plans, offers and abilities
    re.compile(r"\b(?:i|we)(?:'ll| will| am going to|'m going to| are going to| plan to|"
               r" intend to| need to| still need to| would| want to| can| could)\b"
               r"|\b(?:can|could|will|would) be\b"),
    # ready to do something means it is still to do
    re.compile(r"\bready to (?:commit|push|merge|deploy|submit|ship|release|publish|"
               r"review)\b"),
    # a failure reported, which is an admission, not a claim of finished work
    re.compile(r"\b(?:tests?|suites?|build|push|deploy(?:ment)?|ci|checks?|lint|pipeline|"
               r"command|it|they|migration|job)\s+(?:still\s+)?(?:fail|fails|failed|"
               r"is failing|are failing|was rejected|were rejected|errored|timed out|broke)\b"),
    re.compile(r"^(?:failed|tried|attempted)\b"),
    # a lead into a list, whose items carry the claims: "I've made the following changes:"
    re.compile(r"\b(?:the following(?: \w+){0,2}|as follows)\W*$"),
    # what was going on before (a diagnosis), not what was done: "extraction was failing",
    # "only skills were being extracted"
    re.compile(r"(?<!which )(?<!that )(?<!who )\b(?:was|were)(?: all| still| being| only)*"
               r" (?!\w*thing\b|passing\b|working\b|succeeding\b)\w+ing\b"),
]
_RELATIVE = re.compile(r"\b(?:which|who|whose|where)\b")
# What starts a plan, an offer, an instruction to the reader or a lead into a list.
_NEGATIVE_START = re.compile(
    r"^(?:will|going to|next|then i'll|todo|to do|still|let me|let's|you|feel free|please|"
    r"consider|remember|don't|make sure|ensure|try|run|check|verify|add|update|push|deploy|"
    r"if|unless|once you|when you|before you|after you|would you|should i|shall i|want me|"
    r"do you|can you|could you|here's|here is|here are)\b")
# Counts of nothing going wrong, which the failure patterns must not read as failure.
_BENIGN = re.compile(r"\b(?:0|zero|no|without(?: any)?) (?:failures?|failed|errors?|"
                     r"failing tests?)\b|\bno longer (?:raises|fails|crashes|errors|throws|"
                     r"hangs|breaks|times out|leaks|occurs|happens|reproduces|appears)\b")

# -- rows that stand as a whole ------------------------------------------------------------

# What a heading or a lead line says of the rows under it. HOWTO (steps for the reader)
# wins over DONE (work reported), which wins over CONTENT (what something holds).
DONE, REMOVED, CONTENT, HOWTO, DETAIL = "done", "removed", "content", "howto", "detail"
_HOWTO_WORDS = re.compile(
    r"^usage\b|\b(?:next steps?|how to|to use|quick ?start|getting started|instructions?|"
    r"steps to|recommend\w*|todo|to-do|remaining|pending|what's next|follow[- ]?ups?|"
    r"need to|needs to|still need|to complete|where to|should|could|would|will|try|"
    r"suggest\w*|please|options?|troubleshoot\w*|if you|you can|you should|fallback|"
    r"for future|future|later|ideas?|possible|potential|planned|plans?|roadmap|proposed|"
    r"after setting up|prochaines? étapes|pour voir|para ver)\b")
_DONE_WORDS = re.compile(
    r"\b(?:changes|changelog|changements?|improvements?|optimi[sz]ations?|fixes|"
    r"modifications?|enhancements?|what i did|what changed|what's new|deliverables|"
    r"verification|test results|testing results|commit history|complete|completed|"
    r"implementation|solution)\b"
    r"|(?<!executive )\bsummary\b|^(?:\d+\.\s*)?new\b")
_CONTENT_VERBS = re.compile(
    r"\b(?:includes?|contains?|covers?|offers?|provides?|supports?|requires?|consists? of|"
    r"comprises?|what's included|because|car|parce que|porque)\b")
_TROUBLE = re.compile(r"\b(?:issues|problems|errors|bugs|warnings|concerns|findings|"
                      r"limitations|caveats|risks)\b")
# A heading of what was found ("Found code") lists findings, not work done.
_FINDING = re.compile(r"\b(?:found|identified|detected|located|discovered|determined)\b")
_PAST_WORD = re.compile(r"\b" + _PAST)
_REMOVAL = re.compile(r"\b(?:remov|delet|drop|supprim|elimin)\w*")

# Rows that the place they stand in cannot make claims of.
_EXPLANATION = re.compile(r"^(?:problem|issue|cause|root cause|impact|why|reason|before|"
                          r"avant|symptom|note|risk|message|trade-?off|caveat|"
                          r"limitation)s?\s*[:—–-]|^(?:the )?(?:root )?cause\b")
_LOOKING = re.compile(r"^(?:[^:]{1,60}(?::|\s[-—–])\s+)?(?:%s)\b" % _words(_LOOKED))
# Praise of the result is not a result: "✅ **Professional** - industry-standard format".
_EVALUATIVE = re.compile(
    r"^(?:professional|comprehensive|well-\w+|accessible|consistent|coh[ée]rent|"
    r"maintainable|readable|robust|scalable|elegant|intuitive|user-friendly|"
    r"production-ready|bug-free|clearer|plus clair)\b(?:\s*$|\s*[-—–:]|\s+(?:and|et|with|"
    r"avec|for|pour)\b)")
# What is absent is a result only when it is a failure: "No functionality broken", not
# "Pas de confusion avec dual-wavelength".
_ABSENCE = re.compile(r"^(?:no|pas de|aucune?|none|nothing|sans|zero|0)\b")
_FAILURE_WORD = re.compile(r"\b(?:errors?|fail\w*|broken|warnings?|issues?|regressions?|"
                           r"problems?|conflicts?)\b")
# A row that only gives what a change is for: "Ensures file is always present".
_RATIONALE = re.compile(r"^(?:ensures?|prevents?|avoids?|allows?|enables?|helps?|keeps?|"
                        r"lets?|so that|in order to)\b")
# A before/after table: each row is a change made.
_CHANGE_TABLE = re.compile(r"\b(?:before|after|avant|après|old|new|from|to|was|now|antes|"
                           r"después)\b")

# -- the shape of lines ---------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(?:```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+")
_RULE_LINE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_QUOTE = re.compile(r"^\s*>")
_TABLE = re.compile(r"^\s*\|")
_TABLE_RULE = re.compile(r"^\s*\|?[\s:|-]*-{2,}[\s:|-]*$")
_ITEM = re.compile(r"([ \t]*)(?:[-*+•]|\d{1,3}[.)])[ \t]+")
_BOX = re.compile(r"\[([ xX])\][ \t]+")
_TICKS = "✅✔☑✓"
_CROSSES = "❌✗✘🚫⛔⏳⌛⚠"
_LABEL = re.compile(r"[*_]*(?:done|status|summary|result|results|update|completed|finished|"
                    r"changes|thought)[*_]*\s*[:—–-]\s*[*_]*\s*", re.I)
# A mark right after a row's label: "**Status:** ✅ Pushed", "Deploy: ❌ timed out".
_LABEL_TICK = re.compile(r"[^:\n]{0,40}:[\s*_]*[✅✔☑✓]")
_LABEL_CROSS = re.compile(r"[^:\n]{0,40}:[\s*_]*[❌✗✘🚫⛔⏳⌛⚠]")
_WHOLE_BOLD = re.compile(r"\*\*([^*]+)\*\*[\s:]*$")
_BOLD_START = re.compile(r"\*\*[^*]+\*\*")
# Where a sentence ends: after . ! or ? and a space, unless the dot ends an abbreviation.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.")
# Where a clause may end: a semicolon, a dash between spaces, and ", and"/" but"/" then".
_CLAUSE_END = re.compile(r"\s*;\s*|\s+[—–-]\s+|,?\s+(?:and|but|then|so)\s+(?:then\s+)?"
                         r"|,\s+(?=\S)", re.I)
# Pieces are joined into one claim up to this length; past it they stay apart, so that a
# sentence of thousands of clauses is still split in time that grows with its length.
_MAX_JOIN = 2000
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LEADING_MARKS = re.compile(r"^[^\w`'\"(*\[$~/.]+")
_KEEP_LEAD = "`'\"([$~/."
_TRIM_END = " \t\r\n.,;:!*_"


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
    return [Claim(message[start:end], start, end) for start, end in _rows(message, masked)]


def classify(text):
    """CLAIM, NEGATIVE or NEUTRAL for one piece of a message (see the module's docstring)."""
    if text.rstrip().rstrip("*_ ").endswith("?"):
        return NEGATIVE
    plain = _plain(text)
    if not plain:
        return NEUTRAL
    if _NEGATIVE_START.match(plain):
        return NEGATIVE
    unharmed = _BENIGN.sub(" ", _RELATIVE.split(plain, 1)[0])
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


# -- rows and where they stand --------------------------------------------------------------

def _rows(message, masked):
    """The claim spans of the message's rows, line by line, in order."""
    headings = []  # (level, what the heading says of the rows under it)
    lead = None    # the same, said by the last lead line under the current heading
    items = []     # (indent, what the item says of its sub-items) of the open list items
    table = None   # (header says before/after, context) of the table being read
    in_fence, first = False, True
    position = 0
    for line in message.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        end = start + len(line.rstrip("\r"))
        text = masked[start:end]
        if _FENCE.match(text):
            in_fence = not in_fence
            continue
        if in_fence:
            # A ticked line in a fence is a report boxed for show ("✅ Pushed to GitHub").
            body = _after_marks(masked, start + len(text) - len(text.lstrip()), end)
            if _tick_before(masked, start, body):
                yield from _read_row(message, masked, body, end, True)
            continue
        if not text.strip() or _RULE_LINE.match(text):
            if not text.strip():
                table = None
            continue
        is_title, first = first, False
        section = headings[-1][1] if headings else None
        here = lead if lead is not None else section

        heading = _HEADING.match(text)
        if heading:
            level = len(heading.group(1))
            while headings and headings[-1][0] >= level:
                headings.pop()
            own = _context_of(text[heading.end():], markdown=True)
            items, table = [], None
            if is_title:
                # The message's title ("# Phase 1 Complete!") speaks for the rows right
                # under it, not for the sections that follow, which name their own.
                headings.append((level, None))
                lead = own
                continue
            headings.append((level, _under(own, headings[-1][1] if headings else None)))
            lead = None
            continue
        if _QUOTE.match(text):
            continue
        if _TABLE.match(text):
            if table is None:  # the header row
                table = (len(_CHANGE_TABLE.findall(text.lower())) >= 2, here)
            elif not _TABLE_RULE.match(text):
                yield from _table_row(message, masked, start, end, table)
            continue
        table = None

        item = _ITEM.match(masked, start, end)
        indent = len(item.group(1)) if item else len(text) - len(text.lstrip())
        body = item.end() if item else start + indent
        box = _BOX.match(masked, body, end)
        if box:
            if box.group(1) == " ":  # an open box is work not done
                continue
            body = box.end()
        marked = _after_marks(masked, body, end)
        tick = _tick_before(masked, body, marked) or _LABEL_TICK.match(masked, marked, end) \
            or _ends_with(masked, marked, end, _TICKS)
        cross = any(ch in _CROSSES for ch in masked[body:marked]) \
            or _LABEL_CROSS.match(masked, marked, end) or _ends_with(masked, marked, end, _CROSSES)
        label = _LABEL.match(masked, marked, end)
        body = label.end() if label else marked

        if item:
            while items and items[-1][0] >= indent:
                items.pop()
            place = items[-1][1] if items else here
            if cross and place != REMOVED:
                # a cross marks a failure, except under a heading of removals
                items.append((indent, DETAIL))
                continue
            # An item that ends with ":" leads its sub-items; only its words can claim.
            ends_lead = masked[start:end].rstrip(" *_\t").endswith(":")
            whole = _whole_by_place(place, tick)
            found = _read_row(message, masked, body, end, whole and not ends_lead)
            yield from found
            if ends_lead:
                own = _context_of(masked[marked:end]) or (DONE if found else None)
            else:
                own = DETAIL
            items.append((indent, _under(own, place)))
            continue

        # A line that is not an item: a sentence, a bold line, a "label: value" line.
        items = [] if indent == 0 else items
        if cross:
            continue
        bold = _WHOLE_BOLD.match(masked[marked:end].rstrip(_MARK_CHARS + " "))
        if bold and _is_bold_heading(bold.group(1), is_title):
            # A bold line that is not a sentence is a heading of the rows under it; a tick
            # on it claims that one thing, and the rows under it are its details.
            own = _context_of(bold.group(1))
            if own is None and tick:
                own = DETAIL
            lead = _under(own, here)
            continue
        whole = bool(tick) and here not in (CONTENT, HOWTO)
        yield from _read_row(message, masked, body, end, whole)
        if masked[start:end].rstrip(" *_\t").endswith(":") \
                or _BOLD_START.match(masked, marked, end):
            # The sentence that leads in speaks for the list ("... Here's what the app
            # includes:"); when it says nothing, the line's other sentences do ("I've
            # implemented the feature. Here's a breakdown:").
            own = _context_of(_last_sentence(masked, marked, end))
            if own is None:
                own = _context_of(masked[marked:end])
            lead = _under(own, here)
        else:
            lead = None


def _under(own, place):
    """What a heading, lead or item standing in `place` says of the rows under it: its own
    word, except that the parts of a thing described, or of the steps ahead, stay so."""
    return place if own is None or place in (CONTENT, HOWTO) else own


def _whole_by_place(place, tick):
    """Whether an item is a claim as a whole where it stands (None: not even its words)."""
    if place == HOWTO:
        return None
    if place in (DONE, REMOVED):
        return True
    return bool(tick) and place != CONTENT


def _table_row(message, masked, start, end, table):
    """A table row is read only as a whole: a row of a before/after table, a ticked row or
    a row under a heading of done work (a table of results elsewhere is left unread)."""
    change, place = table
    text = masked[start:end]
    cells = text.strip()
    if any(ch in _CROSSES for ch in cells) or place == HOWTO:
        return
    if change or place in (DONE, REMOVED) or any(ch in _TICKS for ch in cells):
        first = start + text.index("|") + 1
        last = start + text.rstrip().rindex("|")
        if last > first:
            yield from _whole_row(message, first, last)


def _context_of(text, markdown=False):
    """What a heading or a lead line says of the rows under it, or None for nothing."""
    plain = _plain(_strip_marks(text))
    if _HOWTO_WORDS.search(plain):
        return HOWTO
    if _DONE_WORDS.search(plain):
        return REMOVED if _REMOVAL.search(plain) else DONE
    if _CONTENT_VERBS.search(plain):
        return CONTENT
    if _PAST_WORD.search(plain) and not _FINDING.search(plain):
        return REMOVED if _REMOVAL.search(plain) else DONE
    if _TROUBLE.search(plain):
        return CONTENT  # "there are a few issues:" lists what is wrong, not what was done
    if markdown and any(ch in _TICKS for ch in text):
        return DONE  # "## Security Assessment ✅": the section's work is done
    return None


def _is_bold_heading(text, is_title):
    """A bold line is a heading when it opens the message, ends with ":" or is written in
    Title Case ("**Project Structure**"); otherwise it is a sentence set in bold."""
    text = text.strip()
    if is_title or text.endswith(":"):
        return True
    words = [w for w in re.findall(r"[^\W\d_][\w'-]*", text) if len(w) > 3]
    return not any(w[0].islower() for w in words)


def _last_sentence(masked, start, end):
    cut = start
    for match in _SENTENCE_END.finditer(masked, start, end):
        cut = match.end()
    return masked[cut:end]


_MARK_CHARS = _TICKS + _CROSSES + "\ufe0f\u200d"


def _is_mark(ch):
    # Symbols outside ASCII (emoji, ticks, their joiners); "`" and "^" are words' marks here.
    return ch in _MARK_CHARS or (ch > "\x7f"
                                 and unicodedata.category(ch) in ("So", "Sk", "Cf", "Mn"))


def _after_marks(masked, start, end):
    """Where a line's words start after its ticks, emoji and spaces."""
    while start < end and (masked[start] in " \t" or _is_mark(masked[start])):
        start += 1
    return start


def _tick_before(masked, start, end):
    return any(ch in _TICKS for ch in masked[start:end])


def _ends_with(masked, start, end, marks):
    tail = masked[start:end].rstrip(" \t*_\ufe0f")
    return bool(tail) and tail[-1] in marks


def _strip_marks(text):
    return "".join(ch for ch in text if not _is_mark(ch))


# -- reading a row ----------------------------------------------------------------------------

def _read_row(message, masked, start, end, whole):
    """A row's claims: those its words make, or, where its place makes it a claim as a
    whole (`whole` True) and its words make none, the row itself. `whole` None: nothing."""
    if whole is None:
        return []
    spans = [span for s_start, s_end in _sentences(masked, start, end)
             for span in _clauses(message, masked, s_start, s_end)]
    return spans or (_whole_row(message, start, end) if whole else [])


def _whole_row(message, start, end):
    """The row as one claim, unless what it says is not a result wherever it stands."""
    start, end = _trim(message, start, end)
    text = message[start:end]
    plain = _plain(text)
    if not plain or classify(text) == NEGATIVE or _EXPLANATION.match(plain) \
            or _LOOKING.match(plain) or _EVALUATIVE.match(plain) or _RATIONALE.match(plain) \
            or (_ABSENCE.match(plain) and not _FAILURE_WORD.search(plain)):
        return []
    return [(start, end)]


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
    pieces, joints, cut = [], [], start
    for match in _CLAUSE_END.finditer(masked, start, end):
        pieces.append((cut, match.start()))
        joints.append(match.group().strip(" ,").lower())
        cut = match.end()
    pieces.append((cut, end))
    kinds = []
    for (a, b), joint in zip(pieces, [None] + joints):
        kind = classify(message[a:b])
        if kinds and joint in ("", "and") and _CARRIED.match(_plain(message[a:b])):
            # A verb without its own subject shares the one before it, and what was said
            # of it: "Updated `jjwt`, and modularized its dependencies" is a second report,
            # "can be referenced and attached as reactions" a second ability.
            if kinds[-1] == CLAIM and kind == NEUTRAL:
                kind = CLAIM
            elif kinds[-1] == NEGATIVE and kind == CLAIM:
                kind = NEGATIVE
        kinds.append(kind)
    # Each piece is read once, and a joined span again at most once (when a claim joins a
    # piece before it, or at the end), so the time grows with the sentence's length.
    kept = []
    current, here = None, None
    for piece, there in zip(pieces, kinds):
        if current is None:
            current, here = piece, there
            continue
        joined = (current[0], piece[1])
        if here != NEUTRAL and there != NEUTRAL or joined[1] - joined[0] > _MAX_JOIN:
            kept.append((current, here))
            current, here = piece, there
        elif here == CLAIM:  # what follows a claim and says nothing alone belongs to it
            current = joined
        elif there == CLAIM:
            # A claim keeps a piece before it only if together they still read as a claim,
            # or if it is a participle that carries on that piece as its subject ("The
            # resulting code, saved in `a.scala`").
            if classify(message[joined[0]:joined[1]]) == CLAIM \
                    or _CARRIED.match(_plain(message[piece[0]:piece[1]])):
                current, here = joined, CLAIM
            else:
                kept.append((current, here))
                current, here = piece, there
        else:  # pieces that say nothing alone belong together ("is recreated and ready")
            current, here = joined, NEGATIVE if NEGATIVE in (here, there) else NEUTRAL
    kept.append((current, here))
    for (c_start, c_end), kind in kept:
        if kind == NEUTRAL:
            kind = classify(message[c_start:c_end])
        if kind != CLAIM:
            continue
        c_start, c_end = _trim(message, c_start, c_end)
        if c_end > c_start:
            yield c_start, c_end


def _trim(message, start, end):
    # Leading ticks, emoji and emphasis ("✅ **Pushed") are marks, not words of the claim.
    while start < end and not (message[start].isalnum() or message[start] in _KEEP_LEAD):
        start += 1
    while end > start and (message[end - 1] in _TRIM_END or _is_mark(message[end - 1])):
        end -= 1
    return start, end
