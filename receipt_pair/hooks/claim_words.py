"""The words claims are told by: which pieces of an agent's message claim finished work
(`classify`), and what a heading or lead line says of the rows under it (`context_of`).

Plain data and pure functions over text; `claims.py` reads a message's rows with them.
"""

import re
import unicodedata
from ..patterns import lazy

CLAIM, NEGATIVE, NEUTRAL = "claim", "negative", "neutral"

# -- words ---------------------------------------------------------------------------------

# Operations an agent reports as done, in the past form it reports them in, for a report
# that starts with its verb ("Computed the mean ..."). A closed list, because a past form
# at the start of a phrase is as often an adjective ("Detailed report", "Completed todos
# are shown"). After a subject or an auxiliary ("I translated", "was memoized") any past
# form counts (_PAST). A "re" before any of them counts too ("recalculated").
_DONE = (
    "added addressed adjusted analysed analyzed answered appended applied archived assigned "
    "attached audited automated backed benchmarked bisected bootstrapped branched built "
    "bumped bundled calculated changed checked cherry-picked cleaned cleared cloned closed "
    "committed compiled completed computed configured confirmed connected consolidated "
    "containerized converted copied created debugged decoupled defined deleted deployed "
    "deprecated disabled documented downgraded downloaded drafted dropped edited emailed "
    "enabled enhanced ensured examined executed expanded exported exposed extended "
    "extracted fetched filed filled finished fixed flushed forked formatted generated "
    "granted hardened hooked identified implemented imported improved included increased "
    "initialized inserted inspected installed integrated introduced investigated invoked "
    "kicked labeled labelled landed launched linted localized logged made memoized merged "
    "migrated mitigated modernized modified modularized moved normalized notified opened "
    "optimized organized packaged patched performed pinned populated ported posted "
    "preserved profiled provisioned pruned published pulled purged pushed raised ran re-ran "
    "rebased redeployed redesigned reduced refactored refreshed registered released "
    "reloaded removed renamed reorganized replaced replied reran reset resolved restarted "
    "restored restructured reverted reviewed revoked rewired rewrote rolled rotated "
    "sanitized saved scaffolded scanned scheduled secured seeded sent set shipped signed "
    "simplified solved spun squashed standardized started stopped streamlined submitted "
    "summarized swapped synced tagged terminated tested tidied trained translated triggered "
    "trimmed tuned uninstalled unpinned updated upgraded uploaded used utilized validated "
    "vendored verified wired wrapped wrote"
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


# Past forms that report an operation as done, for a short status ("Fixed.", "Deployed.").
DONE_VERBS = frozenset(_DONE) | frozenset(("rebuilt", "rerun", "rewritten"))


def _words(words):
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


_VERB = r"(?:re-?)?(?:%s)" % _words(_DONE)
_NOT_PAST = r"(?:%s)\b" % _words(_LOOKED + _TRIED + _KEPT + _ADJECTIVES)
# Any past form: an irregular one, or a word in "-ed" (not "-eed": need, exceed, speed).
_PAST = r"(?!%s)(?:%s|[a-z][a-z-]*[a-df-z]ed)\b" % (_NOT_PAST, _words(_IRREGULAR))
_ADVERB = r"(?:\w+ly|also|just|now|already|then|finally|again|all|and|first|since)"

_CLAIM_PATTERNS = [
    # "I pushed ...", "we've deployed ...", "I have also translated ..."
    lazy(r"\b(?:i|we)(?:'ve|'d| have| had)?(?:\s+%s)*\s+%s" % (_ADVERB, _PAST)),
    # A report that starts with the verb, maybe after a label: "Pushed fix/parser",
    # "Also ran the linter", "`api.py` - extracted the check". Not a verb alone
    # ("Optimized"), which names no work done on anything, nor "Completed todos are shown
    # ...", where the past form is an adjective of the subject.
    lazy(r"^(?:[^:]{1,60}(?::|\s[-—–→])\s+)?(?:%s,?\s+)*%s\b(?=\s+\S)"
               r"(?!\s+\S+\s+(?:are|is|was|were)\b)" % (_ADVERB, _VERB)),
    # Passive or state: "the fix was merged", "has been successfully converted", "it is now
    # live", "the file is recreated and ready".
    lazy(r"\b(?:was|were|(?:has|have|had|'s|'ve) been|got)(?:\s+%s)*\s+(?:re-?)?%s"
               % (_ADVERB, _PAST)),
    lazy(r"\b(?:is|are|'s|'re)(?:\s+(?:all|also|fully|properly|correctly))*"
               r"\s+(?:now|already)(?:\s+%s)*\s+(?:re-?)?%s" % (_ADVERB, _PAST)),
    lazy(r"\b(?:is|are|was|were|'s|'re)(?:\s+(?:now|all|also|fully|already|"
               r"successfully|(?:re-?)?%s\s+and))*\s+(?:live|green|in place|up to date|"
               r"complete|completed|done|passing|available|running|deployed|working|clean|"
               r"fixed|resolved|merged|functional|operational|online|"
               r"ready(?!\s+(?:to\s+(?!be\b)|for\b)))\b" % _PAST),
    # Where the work left a file: "the parameters are saved in `glm3.nml`".
    lazy(r"\b(?:is|are)\s+(?:now\s+)?(?:saved|written|stored|exported|available)\s+"
               r"(?:to|in|at|as|under)\s+(?:code\b|[/~])"),
    # A check that came out well: "the tests pass", "lint is clean", "CI is green".
    lazy(r"\b(?:tests?|suites?|specs?|build|builds|ci|checks?|lint|linter|linting|"
               r"type ?checks?|typecheck|mypy|pyright|ruff|flake8|eslint|tsc|clippy|"
               r"pipeline|workflow|everything|compil\w*|migrations?|deployments?|e2e)\b"
               r"[^.;]{0,60}?\b(?:pass|passes|passed|passing|green|succeeded|succeeds|"
               r"clean|ok|(?:reports?|found|finds|shows?|with) (?:no|0|zero) (?:errors|"
               r"issues|problems|failures|warnings))\b"),
    # Checks whatever their name: "`cargo build --release` now succeeds", "`./run.sh`
    # exits 0", "Deployment completed successfully", "The migration ran without errors",
    # "the endpoint returns 200", "PDF uploads now work again"; and what the work left:
    # "the table now has the column" (not what code does: "`parse()` now returns None").
    lazy(r"\bsucceed(?:s|ed)\b|\bexit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?0\b"
               r"|\bexit (?:code|status)(?: of| was| is|:|=)? ?0\b"
               r"|\breturn(?:s|ed) (?:an? )?(?:http )?200\b"),
    lazy(r"\b%s(?:\s+\w+)?\s+successfully\b|\bsuccessfully\s+(?:re-?)?%s"
               % (_PAST, _PAST)),
    lazy(r"\b(?:compiles|builds)\s+(?:successfully|cleanly|without (?:any )?(?:errors?|"
               r"warnings?))\b"),
    lazy(r"\b(?:ran|run|completed|finished|built|compiled|executed|passed|exited|"
               r"installed|migrated|applied|deployed)\s+(?:without (?:any )?(?:errors?|"
               r"failures?|warnings?|issues?)|with no (?:errors?|failures?|warnings?)|"
               r"cleanly)\b"),
    lazy(r"\bnow (?:\w+ly )?(?:succeeds|builds|compiles|works|work|passes|pass|runs|"
               r"starts|loads|renders|looks|has|have|contains|contain|includes|include|lists|"
               r"shows)\b|\bworks? (?:correctly|properly|as expected|"
               r"now|again)\b|\bmatch(?:es|ed)? (?:the |all )?expected\b|\bsuccessfully \w+s\b"),
    # Work reported finished by its name, and results reached: "Task completed", "the
    # model achieves 93% accuracy".
    lazy(r"^(?:the |all (?:the |other )?)?(?:task|tasks|work|job|jobs|migration|"
               r"deployment|setup|installation|implementation|refactor(?:ing)?|upgrade|"
               r"analysis|run)"
               r"(?: \w+)? (?:is |are |was |has been )?(?:now )?(?:completed|complete|done|"
               r"finished)\b"),
    lazy(r"\b(?:achieves|achieved|reaches|reached|scores|scored|attains|attained) "
               r"(?:an? |the )?(?:\S+ ){0,3}?\d"),
    # A failure gone: "the script no longer raises an error".
    lazy(r"\bno longer (?:raises|fails|crashes|errors|throws|hangs|breaks|times out|"
               r"leaks|occurs|happens|reproduces|appears)\b"),
    lazy(r"\bremain(?:s|ed)? (?:\w+ly |still |all )?(?:intact|functional|green|passing|"
               r"working|compatible|unchanged)\b"),
    lazy(r"\b(?:zero|0|no) (?:\w+ ){0,2}(?:errors?|failures?|warnings?) "
               r"(?:detected|found|reported)\b|\b(?:no|nothing) (?:\w+ )?broken\b"),
    # Counts: "42 passed", "12/12 tests pass", "128 tests ran", "7/7 complete".
    lazy(r"\b\d+ (?:tests? )?passed\b|\b\d+/\d+ (?:\w+ )?(?:pass|passed|passing|"
               r"complete|completed|green)\b|\b\d+ (?:\w+ )?tests? (?:ran|run|executed)\b|"
               r"\b100% complete\b"),
    # "name: result" rows: "tests: 12 passed", "lint: OK", "build: ✅", "PM2 restart: online".
    lazy(r"^[^:]{1,50}:\s*(?:✅|pass|passed|passing|ok|okay|clean|green|success|"
               r"successful|succeeded|done|fixed|online|healthy|(?:already )?in sync|"
               r"up to date|(?:no|0|zero) (?:errors|issues|warnings|failures|problems))(?:\W|$)"),
    # Rows whose label reports the work: "**Files created**: 19 files", "Commit: 9ec17ff",
    # "Report path: `./report.md`".
    lazy(r"^(?:[\w`'./-]+ ){0,4}%s:\s*\S" % _VERB),
    lazy(r"^(?:git )?commit(?:ted)?(?: hash| id| sha| as)?:?\s+(?:code|[0-9a-f]{7,40}\b)"),
    lazy(r"^(?:report|output|results?|answers?|log)s?(?: file)?(?: path| location)?:"
               r"\s*(?:code\b|[./~])"),
    # French and Spanish passives, which agents write in the same reports: "ont été
    # supprimées", "ha sido actualizado".
    lazy(r"\b(?:a|ont) été (?:\w+ )?\w+(?:é|ée|és|ées)\b"),
    lazy(r"\b(?:ha|han) sido \w+(?:ado|ada|ados|adas|ido|ida|idos|idas)\b"),
    lazy(r"\b(?:j'ai|nous avons|on a)(?: \w+ment| aussi| également| bien)* (?!%s)"
               r"\w+(?:é|ée|és|ées)\b" % _words(_KEPT)),
    lazy(r"\b(?:he|hemos|se ha|se han)(?: \w+mente| también)* (?!%s)"
               r"\w+(?:ado|ada|ados|adas|ido|ida|idos|idas)\b" % _words(_KEPT)),
    lazy(r"\b(?:les tests|tous les tests|las pruebas|todas las pruebas|los tests)"
               r"(?: \w+)? (?:passent|pasan)\b"),
]
# A later piece of the same sentence that starts with a past form carries on the report
# before it: "Updated `jjwt` to 0.12.3, and modularized its dependencies".
CARRIED = lazy(r"^(?:%s,?\s+)*(?:re-?)?%s(?!\s+\S+\s+(?:are|is|was|were)\b)"
                      % (_ADVERB, _PAST))

# Not finished work: the word says so wherever it stands in the piece (before a "which",
# "who" or "where", whose clause qualifies a thing rather than the claim).
_NEGATIVE_PATTERNS = [
    # questions are told apart by their "?" (see classify); these are the rest
    lazy(r"n't\b|\b(?:not|never|cannot|unable|no longer|pending|not yet|"
               r"in progress)\b"),
    # hedges and obligations: a claim the agent itself does not stand behind
    lazy(r"\b(?:should|might|may|must|probably|likely|possibly|perhaps|hopefully|"
               r"presumably|supposedly|seems?|appears?|i think|i believe|i assume|"
               r"i expect|not sure|in theory|expected to|needs? to|has to|have to)\b"),
    # plans, offers and abilities
    lazy(r"\b(?:i|we)(?:'ll| will| am going to|'m going to| are going to| plan to|"
               r" intend to| need to| still need to| would| want to| can| could)\b"
               r"|\b(?:can|could|will|would) be\b"),
    # ready to do something means it is still to do
    lazy(r"\bready to (?:commit|push|merge|deploy|submit|ship|release|publish|"
               r"review)\b"),
    # a failure reported, which is an admission, not a claim of finished work
    lazy(r"\b(?:tests?|suites?|build|push|deploy(?:ment)?|ci|checks?|lint|pipeline|"
               r"command|it|they|migration|job)\s+(?:still\s+)?(?:fail|fails|failed|"
               r"is failing|are failing|was rejected|were rejected|errored|timed out|broke)\b"),
    lazy(r"^(?:failed|tried|attempted)\b"),
    # a lead into a list, whose items carry the claims: "I've made the following changes:"
    lazy(r"\b(?:the following(?: \w+){0,2}|as follows)\W*$"),
    # what was going on before (a diagnosis), not what was done: "extraction was failing",
    # "only skills were being extracted"
    lazy(r"(?<!which )(?<!that )(?<!who )\b(?:was|were)(?: all| still| being| only)*"
               r" (?!\w*thing\b|passing\b|working\b|succeeding\b)\w+ing\b"),
]
_RELATIVE = lazy(r"\b(?:which|who|whose|where)\b")
# What starts a plan, an offer, an instruction to the reader or a lead into a list.
_NEGATIVE_START = lazy(
    r"^(?:will|going to|next(?!\.\w)|then i'll|todo|to do|still|let me|let's|you|feel free|please|"
    r"consider|remember|don't|make sure|ensure|try|run|check|verify|add|update|push|deploy|"
    r"if|unless|once you|when you|before you|after you|would you|should i|shall i|want me|"
    r"do you|can you|could you|here's|here is|here are)\b")
# Counts of nothing going wrong, which the failure patterns must not read as failure.
_BENIGN = lazy(r"\b(?:0|zero|no|without(?: any)?) (?:failures?|failed|errors?|"
                     r"failing tests?)\b|\bno longer (?:raises|fails|crashes|errors|throws|"
                     r"hangs|breaks|times out|leaks|occurs|happens|reproduces|appears)\b")

# -- rows that stand as a whole ------------------------------------------------------------

# What a heading or a lead line says of the rows under it. HOWTO (steps for the reader)
# wins over DONE (work reported), which wins over CONTENT (what something holds).
DONE, REMOVED, CONTENT, HOWTO, DETAIL = "done", "removed", "content", "howto", "detail"
_HOWTO_WORDS = lazy(
    r"^usage\b|\b(?:next steps?|how to|to use|quick ?start|getting started|instructions?|"
    r"steps to|recommend\w*|todo|to-do|remaining|pending|what's next|follow[- ]?ups?|"
    r"need to|needs to|still need|to complete|where to|should|could|would|will|try|"
    r"suggest\w*|please|options?|troubleshoot\w*|if you|you can|you should|fallback|"
    r"for future|future|later|ideas?|possible|potential|planned|plans?|roadmap|proposed|"
    r"after setting up|prochaines? étapes|pour voir|para ver)\b")
_DONE_WORDS = lazy(
    r"\b(?:changes|changelog|changements?|improvements?|optimi[sz]ations?|fixes|"
    r"modifications?|enhancements?|what i did|what changed|what's new|deliverables|"
    r"verification|test results|testing results|commit history|complete|completed|"
    r"implementation|solution)\b"
    r"|(?<!executive )\bsummary\b|^(?:\d+\.\s*)?new\b")
_CONTENT_VERBS = lazy(
    r"\b(?:includes?|contains?|covers?|offers?|provides?|supports?|requires?|consists? of|"
    r"comprises?|what's included|because|car|parce que|porque)\b")
_TROUBLE = lazy(r"\b(?:issues|problems|errors|bugs|warnings|concerns|findings|"
                      r"limitations|caveats|risks)\b")
# A heading of what was found ("Found code") lists findings, not work done.
_FINDING = lazy(r"\b(?:found|identified|detected|located|discovered|determined)\b")
_PAST_WORD = lazy(r"\b" + _PAST)
_REMOVAL = lazy(r"\b(?:remov|delet|drop|supprim|elimin)\w*")

# Rows that the place they stand in cannot make claims of.
_EXPLANATION = lazy(r"^(?:problem|issue|cause|root cause|impact|why|reason|before|"
                          r"avant|symptom|note|risk|message|trade-?off|caveat|"
                          r"limitation)s?\s*[:—–-]|^(?:the )?(?:root )?cause\b")
_LOOKING = lazy(r"^(?:[^:]{1,60}(?::|\s[-—–])\s+)?(?:%s)\b" % _words(_LOOKED))
# Praise of the result is not a result: "✅ **Professional** - industry-standard format".
_EVALUATIVE = lazy(
    r"^(?:professional|comprehensive|well-\w+|accessible|consistent|coh[ée]rent|"
    r"maintainable|readable|robust|scalable|elegant|intuitive|user-friendly|"
    r"production-ready|bug-free|clearer|plus clair)\b(?:\s*$|\s*[-—–:]|\s+(?:and|et|with|"
    r"avec|for|pour)\b)")
# What is absent is a result only when it is a failure: "No functionality broken", not
# "Pas de confusion avec dual-wavelength".
_ABSENCE = lazy(r"^(?:no|pas de|aucune?|none|nothing|sans|zero|0)\b")
_FAILURE_WORD = lazy(r"\b(?:errors?|fail\w*|broken|warnings?|issues?|regressions?|"
                           r"problems?|conflicts?)\b")
# A row that only gives what a change is for: "Ensures file is always present".
_RATIONALE = lazy(r"^(?:ensures?|prevents?|avoids?|allows?|enables?|helps?|keeps?|"
                        r"lets?|so that|in order to)\b")
# A before/after table: each row is a change made.
CHANGE_TABLE = lazy(r"\b(?:before|after|avant|après|old|new|from|to|was|now|antes|"
                           r"después)\b")

# -- marks -----------------------------------------------------------------------------------

TICKS = "✅✔☑✓"
CROSSES = "❌✗✘🚫⛔⏳⌛⚠"
MARK_CHARS = TICKS + CROSSES + "\ufe0f\u200d"
CODE_SPAN = lazy(r"`[^`\n]*`")
_LEADING_MARKS = lazy(r"^[^\w`'\"(*\[$~/.]+")


def classify(text):
    """CLAIM, NEGATIVE or NEUTRAL for one piece of a message (see `claims`)."""
    if text.rstrip().rstrip("*_ ").endswith("?"):
        return NEGATIVE
    said = plain(text)
    if not said:
        return NEUTRAL
    if _NEGATIVE_START.match(said):
        return NEGATIVE
    unharmed = _BENIGN.sub(" ", _RELATIVE.split(said, 1)[0])
    if any(p.search(unharmed) for p in _NEGATIVE_PATTERNS):
        return NEGATIVE
    if any(p.search(said) for p in _CLAIM_PATTERNS):
        return CLAIM
    return NEUTRAL


def plain(text):
    """The piece as the patterns read it: code spans as one word, emphasis marks gone,
    curly apostrophes straightened, lower case."""
    text = CODE_SPAN.sub(" code ", text)
    text = _LEADING_MARKS.sub("", text)
    text = text.replace("\u2019", "'").replace("*", "").replace("_", " ")
    return " ".join(text.lower().split())


def context_of(text, markdown=False):
    """What a heading or a lead line says of the rows under it, or None for nothing."""
    said = plain(strip_marks(text))
    if _HOWTO_WORDS.search(said):
        return HOWTO
    if _DONE_WORDS.search(said):
        return REMOVED if _REMOVAL.search(said) else DONE
    if _CONTENT_VERBS.search(said):
        return CONTENT
    if _PAST_WORD.search(said) and not _FINDING.search(said):
        return REMOVED if _REMOVAL.search(said) else DONE
    if _TROUBLE.search(said):
        return CONTENT  # "there are a few issues:" lists what is wrong, not what was done
    if markdown and any(ch in TICKS for ch in text):
        return DONE  # "## Security Assessment ✅": the section's work is done
    return None


def not_yet_done(text):
    """Whether a piece speaks of work still to do, or of nothing done: a question, a plan or
    an offer, a hedge, an instruction to the reader, or a lead into what follows ("Line 110
    now shows:"). A short status cannot lean on it (claim_status.py)."""
    if text.rstrip().rstrip("*_ ").endswith(("?", ":")):
        return True
    said = plain(text)
    return bool(_NEGATIVE_START.match(said)
                or any(p.search(said) for p in _NEGATIVE_PATTERNS[1:4]))


def not_a_result(text):
    """Whether a row says something that is no result wherever it stands: an admission or a
    plan, an explanation, a step of looking, praise, an absence that is no failure, or the
    reason for a change."""
    said = plain(text)
    return (not said or classify(text) == NEGATIVE or bool(
        _EXPLANATION.match(said) or _LOOKING.match(said) or _EVALUATIVE.match(said)
        or _RATIONALE.match(said) or (_ABSENCE.match(said) and not _FAILURE_WORD.search(said))))


def is_mark(ch):
    # Symbols outside ASCII (emoji, ticks, their joiners); "`" and "^" are words' marks here.
    return ch in MARK_CHARS or (ch > "\x7f"
                                 and unicodedata.category(ch) in ("So", "Sk", "Cf", "Mn"))


def strip_marks(text):
    return "".join(ch for ch in text if not is_mark(ch))
