"""The claim's frame, read in plain code: what it says happened (its kinds of operation),
to what (branches, paths, packages, environments, a part of the tests, programs, commits),
and with what result (success, an admitted failure, a count).

A frame is read only where the words settle it. A claim that hedges ("should pass", "ready
to push", "you can now deploy") claims no result; one that admits a failure ("3 tests still
fail", "the build failed: a type error") can be shown by that failure but never
contradicted by it; one that says more than its operations ("fixed the parser and the
tests pass") can be contradicted or left unshown by its operations, but its operations
alone cannot show all of it.
"""

import re
from dataclasses import dataclass
from typing import Optional, Tuple

from . import events as ev
from .installs import envs_in
from ..patterns import lazy

SUCCESS, FAILURE, MIXED, HEDGED = "success", "failure", "mixed", "hedged"
FILE, CLEAN, BRANCH, HEAD, CWD, RUN = "file", "clean", "branch", "head", "cwd", "run"


@dataclass(frozen=True)
class Frame:
    """What a claim says: its kinds, their objects, and the result it claims."""

    claim: str
    kinds: Tuple[str, ...] = ()  # families of events (events.py) or FILE, CLEAN, ... RUN
    says: str = SUCCESS
    branches: Tuple[str, ...] = ()
    paths: Tuple[str, ...] = ()
    packages: Tuple[str, ...] = ()
    envs: Tuple[str, ...] = ()
    tools: Tuple[str, ...] = ()  # test runners, linters, programs the claim names
    parts: Tuple[str, ...] = ()  # the part of the tests it is about (ids, files)
    groups: Tuple[str, ...] = ()  # words naming a group of tests ("the security tests")
    qualifiers: Tuple[str, ...] = ()  # "unit", "integration", "frontend": which suite
    shas: Tuple[str, ...] = ()
    programs: Tuple[str, ...] = ()  # programs it says were run ("with rg", "ran build.sh")
    count: Optional[int] = None  # tests the claim says passed ("all 92 tests pass")
    failed_count: Optional[int] = None  # tests it says fail ("3 tests still fail")
    content: bool = False  # it says more than its operations can show
    source: str = "code"  # "code", or "model" when model A filled it

    @property
    def whole(self):
        return not self.parts and not self.groups

    def to_dict(self):
        value = {"kinds": list(self.kinds), "says": self.says, "source": self.source,
                 "content": self.content}
        for name in ("branches", "paths", "packages", "envs", "tools", "parts", "qualifiers",
                     "shas"):
            if getattr(self, name):
                value[name] = list(getattr(self, name))
        if self.count is not None:
            value["count"] = self.count
        if self.failed_count is not None:
            value["failed_count"] = self.failed_count
        return value


_TEST_WORD = r"(?:tests?|specs?|test\s+suite|suite|testcases?|test\s+cases?|pytest|jest|vitest|" \
             r"mocha|rspec|unittest|go\s+test|cargo\s+test|npm\s+test|make\s+test|test_\w+|" \
             r"\w+_tests?|Test[A-Z]\w*)"
_PASS_WORD = r"(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|ok|clean|fail(?:s|ed|ing|ures?)?|" \
             r"broken|red|error(?:s|ed)?)"
_KIND_PATTERNS = (
    (ev.TESTS, lazy(rf"\b{_TEST_WORD}\b.*\b{_PASS_WORD}\b|\b(?:pass(?:es|ed|ing)?|"
                          rf"fail(?:s|ed|ing)?|ran|run)\b.*\b{_TEST_WORD}\b|\b\d+\s*/\s*\d+\s+"
                          rf"(?:tests?|specs?)\b|\ball\s+(?:\d+\s+)?(?:tests?|specs?)\b|"
                          rf"\b\d+\s+(?:\w+\s+)?(?:tests?|specs?)\s+(?:passed|passing|failed|"
                          rf"failing)\b", re.I)),
    (ev.PUSH, lazy(r"\bpush(?:ed|es)?\b", re.I)),
    (ev.COMMIT, lazy(r"\bcommitted\b|\b(?:created|made) (?:a |the |\w+ )?commit\b|"
                           r"\bcommit:?\s+`?[0-9a-f]{7,40}\b", re.I)),
    (ev.MERGE, lazy(r"\b(?:merged?|rebased?|fast-forward(?:ed)?)\b", re.I)),
    (ev.TAG, lazy(r"\btagged\b|\bcreated (?:the |a )?tag\b", re.I)),
    (ev.TYPECHECK, lazy(r"\btype[- ]?check(?:s|ed|ing)?\b|\btypes? (?:check|are clean|"
                              r"pass)|\b(?:mypy|pyright|tsc)\b|\btype errors?\b", re.I)),
    (ev.LINT, lazy(r"\blint(?:s|ed|ing|er)?\b|\b(?:eslint|ruff|flake8|pylint|clippy|"
                         r"golangci-lint|rubocop|shellcheck)\b", re.I)),
    (ev.BUILD, lazy(r"\b(?:builds?|build\s+(?:step|job))\s+(?:\w+\s+){0,2}?(?:succeed\w*|"
                          r"pass\w*|fail\w*|works?|worked|is\s+green|is\s+clean|completed?|"
                          r"ok|broke\w*|errors?|without|with\s+no|cleanly|fine)\b|"
                          r"\b(?:built|compiles?|compiled|compilation)\b|\b(?:it|project|app|code|"
                          r"everything|package|crate|module|library|binary|image)\s+builds\b|"
                          r"\b(?:the|a)\s+(?:\w+\s+)?build\s*(?:is|was)\b", re.I)),
    (ev.INSTALL, lazy(r"\binstall(?:s|ed|ation)?\b", re.I)),
    (ev.MIGRATE, lazy(r"\bmigrations?\b.*\b(?:ran|run|applied|succeed\w*|pass\w*|fail\w*)"
                            r"|\b(?:migrated|applied)\b.*\b(?:migrations?|database|db|schema)\b",
                            re.I)),
    (ev.DEPLOY, lazy(r"\b(?:deploy(?:s|ed|ment)?|releas(?:ed|es)|publish(?:ed|es)?|"
                           r"roll(?:ed)?\s*out|rollout|shipped|is\s+live|went\s+live)\b", re.I)),
    (CLEAN, lazy(r"\bworking (?:tree|directory) (?:is )?clean\b|\bnothing to commit\b|"
                       r"\ball changes (?:are |have been )?committed\b", re.I)),
    (CWD, lazy(r"\b(?:working|current)\s+(?:directory|folder|dir)\b|\bpwd\b|\bcwd\b",
                     re.I)),
    (HEAD, lazy(r"\b(?:HEAD|latest commit|last commit|head commit|tip)\b.{0,40}?\b"
                      r"(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b", re.I)),
    (FILE, lazy(r"\b(?:created|saved|wrote|written|generated|exported|exists?|"
                      r"added|produced|output(?:ted)?|contains?|holds?|includes?|lists?|"
                      r"listed|present)\b", re.I)),
)
# Words of a claim that hedge its operation: it claims no result yet ("should pass",
# "ready to push", "you can now deploy", "once CI passes").
_OPERATION_VERB = r"(?:pass\w*|push\w*|deploy\w*|build\w*|built|run|ran|commit\w*|merg\w*|" \
                  r"install\w*|work\w*|succeed\w*|releas\w*|publish\w*|compil\w*|migrat\w*|" \
                  r"be\s+(?:pushed|deployed|merged|released|committed|green|clean|fixed))"
_HEDGE = lazy(
    r"\b(?:should|would|will|shall|may|might|could|can|ready\s+to|ready\s+for|need(?:s|ed)?\s+to|"
    r"have\s+to|has\s+to|going\s+to|plan(?:s|ned)?\s+to|try(?:ing)?\s+to|expect(?:ed)?\s+to|"
    r"remember\s+to|make\s+sure\s+(?:to\s+)?|let\s+me|i'?ll)\s+(?:now\s+|still\s+|also\s+|then\s+|"
    r"all\s+)?" + _OPERATION_VERB + r"|\b(?:once|after|when|if|unless|before)\s+(?:the\s+|you\s+|"
    r"ci\s+|it\s+|we\s+)?\w*\s*" + _OPERATION_VERB + r"|^\s*(?:please|next(?: step)?s?:?|todo:?|"
    r"to\s+do:?)\b|\b(?:please|you\s+can|you\s+may|you'?ll\s+need)\b", re.I)
# Words that admit a failure. "no errors", "0 failures", "without errors" admit none.
_FAILURE = lazy(
    r"\b(?:fail(?:s|ed|ing|ures?)?|broken|break(?:s|ing)?|errors?|erroring|errored|"
    r"rejected|not (?:pass\w*|work\w*|push\w*|built|build\w*|run|ran|deployed|committed)|"
    r"(?:didn'?t|did not|doesn'?t|does not|don'?t|do not|won'?t|wasn'?t|weren'?t|isn'?t|"
    r"aren'?t|couldn'?t|could not|can'?t|cannot|unable to|never|still)\b|crash(?:es|ed)?|"
    r"red\b|timed out|time[sd]? out|panic(?:s|ked)?)", re.I)
_NO_FAILURE = lazy(
    r"\b(?:no|zero|0|without(?: any)?|free of|none)\s+(?:\w+\s+){0,2}?(?:fail\w*|errors?|"
    r"issues?|problems?|warnings?|regressions?)\b|\bnone (?:fail\w*|broke\w*)\b|"
    r"\b0 (?:failed|failures?|errors?)\b|\bfailing tests? (?:are |were )?(?:now )?(?:fixed|"
    r"passing)\b|\bfix(?:ed|es)? (?:the |all |\d+ )?(?:fail\w*|errors?|broken)\b", re.I)
_SUCCESS_WORDS = lazy(r"\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|success(?:ful"
                            r"(?:ly)?)?|ok|clean|works?|worked|done|complete[sd]?)\b", re.I)
_COUNT = lazy(r"\b(?:all\s+)?(\d{1,6})\s*(?:/\s*(\d{1,6})\s*)?(?:(?:unit|integration|e2e|"
                    r"\w+)\s+)?(?:tests?|specs?|test cases?|checks?)?\s*(?:now\s+)?"
                    r"(?:are\s+|were\s+)?(pass(?:es|ed|ing)?|fail(?:s|ed|ing)?|green)\b", re.I)
_COUNT_BEFORE = lazy(r"\b(?:all\s+)?(\d{1,6})\s+(?:of\s+(?:the\s+)?\d+\s+)?(?:(?:unit|"
                           r"integration|e2e|\w+)\s+)?(?:tests?|specs?)\b", re.I)
_QUALIFIERS = ("integration", "e2e", "end-to-end", "frontend", "backend", "api",
               "smoke", "regression", "acceptance", "functional", "browser", "ui", "server",
               "client", "python", "javascript", "typescript", "rust", "go", "java")
_TEST_PART = lazy(r"(?:[\w./-]*/)?test_\w+(?:\.py)?(?:::\w+)*|\w+_test(?:\.go|\.py)?\b|"
                        r"[\w./-]+\.(?:test|spec)\.[jt]sx?\b|\bTest[A-Z]\w+|[\w./-]*tests?/[\w./-]+"
                        r"|[\w./-]+::\w+")
_PATH = lazy(r"(?<![\w@])(?:~?/|\./|\.\./)?(?:[\w.-]+/)*[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,6}"
                   r"\b(?!\()|(?<![\w@])(?:~?/|\./)(?:[\w.-]+/)+[\w.-]*")
_SHA = lazy(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
_BRANCH = lazy(
    r"(?:\b(?:to|into|onto|on|from)\s+(?:the\s+)?(?:remote\s+)?(?:branch\s+)?"
    r"[`'\"]?(?:origin/)?(?P<to>[A-Za-z0-9][\w./-]*)[`'\"]?(?:\s+branch)?)"
    r"|\borigin/(?P<origin>[\w./-]+)"
    r"|\b(?P<named>[\w./-]+)\s+branch\b"
    r"|\bbranch\s+[`'\"]?(?P<after>[\w./-]+)")
_NOT_BRANCHES = {"the", "a", "an", "remote", "origin", "github", "gitlab", "bitbucket", "it",
                 "repo", "repository", "server", "upstream", "production", "staging", "prod",
                 "dev", "my", "our", "its", "this", "that", "new", "feature", "same", "local",
                 "your", "their", "his", "her", "git", "remotes", "heroku", "all", "both",
                 "each", "every", "main's", "there", "here", "them", "him", "fix", "top",
                 "disk", "registry", "docker", "hub", "pypi", "npm", "cloud", "aws", "push",
                 "deploy", "merge", "commit", "run", "be", "go", "do", "make", "use", "fix",
                 "production.", "prod.", "staging.", "date", "latest", "head"}
_PACKAGE = lazy(r"\binstall(?:ed)?\s+(?:the\s+)?(?:`([^`]+)`|([a-z0-9@][\w.@/-]*"
                      r"(?:\s*(?:,|and)\s*[a-z0-9@][\w.@/-]*)*))", re.I)
_NOT_PACKAGES = {"the", "a", "all", "dependencies", "deps", "packages", "package", "requirements",
                 "it", "them", "everything", "successfully", "and", "locally", "globally",
                 "with", "via", "using", "from", "in", "to", "for", "on", "now", "required",
                 "missing", "needed", "necessary"}
_RUN_CLAIM = lazy(r"\b(?:ran|run|runs|executed|executes|invoked|used|using|with|via)\s+"
                        r"(?:the\s+)?`?(?P<program>[\w./-]+)`?", re.I)
_FILLER = set("""a an the and or but so then now also just all every each both this that these
those it its it's is are was were be been being has have had do does did done to of in on at
by for with from into onto as up out over via i i've we we've you your my our me us they them
their there here successfully correctly properly fully completely finally again still
already yet new latest locally remotely cleanly without any no not zero none some many
several changes change code work everything things thing project repo repository
now ✅ ✓ status result results output verified confirmed checked ran run running
""".split())
_OPERATION_WORDS = lazy(
    r"\b(?:tests?|specs?|suites?|test\s+cases?|pass(?:es|ed|ing)?|green|push(?:ed|es)?|"
    r"commit(?:ted|s)?|merge[ds]?|rebased?|tag(?:ged)?|build(?:s)?|built|compil\w*|lint\w*|"
    r"type[- ]?check\w*|types?|install\w*|deploy\w*|releas\w*|publish\w*|migrat\w*|"
    r"applied|succeed\w*|success\w*|ok|clean|fail\w*|errors?|warnings?|problems?|issues?|"
    r"branch(?:es)?|remote|origin|upstream|github|gitlab|main|master|production|staging|"
    r"prod|dev|environment|packages?|dependencies|deps|unit|integration|e2e|end-to-end|"
    r"locally|created|saved|wrote|written|generated|exists?|added|file|folder|directory|"
    r"works?|worked|complete[ds]?|done)\b", re.I)


def read_frame(claim):
    """The Frame of a claim, read in plain code."""
    text = _plain(claim)
    return frame_of(claim, text, [kind for kind, pattern in _KIND_PATTERNS
                                  if pattern.search(_without_paths(text))])


def frame_of(claim, text, kinds):
    """The Frame of `claim` (`text`: it on one line, without marks) whose words name
    `kinds`: the objects and result read for those kinds."""
    kinds = list(kinds)
    if ev.TESTS in kinds and ev.BUILD in kinds and not re.search(r"\bbuilds?\b|\bbuilt\b|"
                                                                 r"\bcompil", text, re.I):
        kinds.remove(ev.BUILD)
    if HEAD in kinds and ev.COMMIT in kinds:
        kinds.remove(ev.COMMIT)
    if CWD in kinds:
        kinds = [k for k in kinds if k in (CWD,)]
    if FILE in kinds and (set(kinds) - {FILE}):
        kinds.remove(FILE)  # "added tests that pass": the operation is the claim
    if FILE in kinds and not _PATH.search(text):
        kinds.remove(FILE)
    if ev.MERGE in kinds and ev.PUSH in kinds and re.search(r"\bmerge request\b|\bPR\b", text):
        kinds.remove(ev.MERGE)
    says = _says(text)
    paths = tuple(dict.fromkeys(p.strip(".,;:`'\")(") for p in _PATH.findall(text)
                                if not _SHA.fullmatch(p)))
    count, failed_count = _counts(text)
    frame = Frame(
        claim=claim, kinds=tuple(kinds), says=says,
        branches=tuple(sorted(claim_branches(text))) if (set(kinds) & {ev.PUSH, ev.MERGE,
                                                                         ev.COMMIT, BRANCH})
        else (),
        paths=paths,
        packages=tuple(_packages(text)) if ev.INSTALL in kinds else (),
        envs=tuple(e for e in envs_in(re.findall(r"[A-Za-z]+", text)) if e != "test"),
        tools=tuple(_tools(text)),
        parts=tuple(dict.fromkeys(m.strip(".,;:`'\"") for m in _TEST_PART.findall(text)))
        if ev.TESTS in kinds else (),
        qualifiers=tuple(q for q in _QUALIFIERS if re.search(rf"\b{re.escape(q)}\b", text, re.I))
        if ev.TESTS in kinds else (),
        groups=tuple(_groups(text)) if ev.TESTS in kinds else (),
        shas=tuple(_SHA.findall(text)),
        count=count, failed_count=failed_count, programs=tuple(ran_programs(text)),
        content=_has_content(text, kinds))
    return frame


_GENERIC = {"the", "all", "my", "our", "your", "its", "their", "new", "existing", "remaining",
            "relevant", "other", "every", "these", "those", "this", "that", "added", "updated",
            "affected", "related", "whole", "entire", "full", "test", "and", "both", "of",
            "previously", "now", "failing", "passing", "broken", "fixed", "written", "own",
            "original", "current", "same", "automated", "local", "unit", "integration", "e2e",
            "end-to-end", "regression", "smoke", "above", "following", "listed", "provided",
            "golden", "sample", "example", "basic", "simple", "key", "main", "core", "any",
            "more", "some", "many", "few", "most", "additional", "extra", "\u2705", "with",
            "run", "ran", "target", "targeted", "specific", "individual", "single", "quick",
            "package", "module", "project", "repo", "library", "app", "code", "its", "his"}


def _groups(text):
    """Words that name a group of tests rather than the suite ("the security tests", "the
    clothing selection tests"): a run's failure elsewhere says nothing of them."""
    found = []
    for match in re.finditer(r"((?:[A-Za-z][\w-]*\s+){1,2})(?:tests?|specs?|test\s+suite)\b",
                             re.sub(r"'s\b", "", text)):
        for word in match.group(1).split():
            low = word.lower()
            if low not in _GENERIC and not low.isdigit() and low not in _QUALIFIERS and \
                    len(low) > 2 and not re.match(r"^(?:pass|fail|run)", low):
                found.append(low)
    return found


def _plain(claim):
    """The claim without Markdown marks and emoji, on one line."""
    text = re.sub(r"[*_~]{2,}|^#+\s*|^\s*[-*+]\s+|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or
                  "", claim or "", flags=re.M)
    text = re.sub(r"[\u2600-\u27bf\U0001f300-\U0001faff\ufe0f]", " ", text)
    return " ".join(text.split())


def _without_paths(text):
    return _PATH.sub(" ", text)


def _says(text):
    """SUCCESS, FAILURE (it admits one), MIXED (both), or HEDGED (no result claimed)."""
    without = _NO_FAILURE.sub(" ", text)
    failure = bool(_FAILURE.search(without))
    success = bool(_SUCCESS_WORDS.search(without)) or bool(re.search(
        r"\b(?:pushed|committed|merged|deployed|built|installed|published|released|created|"
        r"saved|added|migrated|tagged)\b", without, re.I))
    if _HEDGE.search(text):
        return HEDGED
    if failure and success or _ONGOING.search(text) and success:
        return MIXED
    if failure:
        return FAILURE
    return SUCCESS


def _counts(text):
    count = failed = None
    for match in _COUNT.finditer(text):
        number = int(match.group(2) or match.group(1))
        if match.group(2) and int(match.group(1)) != int(match.group(2)):
            if match.group(3).lower().startswith("pass"):
                count = int(match.group(1))
                continue
        if match.group(3).lower().startswith(("pass", "green")):
            count = number
        else:
            failed = number
    if count is None and re.search(r"\ball\b", text, re.I):
        before = _COUNT_BEFORE.search(text)
        if before and re.search(r"\bpass", text, re.I):
            count = int(before.group(1))
    return count, failed


def claim_branches(text):
    """The branch (or tag) names a claim names ("to main", "fix/parser branch", "origin/dev",
    "the v2.2.0 tag")."""
    found = set()
    text = re.sub(r"[\w./-]+'s\b", " ", text or "")  # "tessellate/bramble's": an owner's
    for match in re.finditer(r"\b(?:the\s+)?[`'\"]?(v?\d+\.\d+[\w.-]*)[`'\"]?\s+tag\b|"
                             r"\btag\s+[`'\"]?(v?\d+\.\d+[\w.-]*)", text or "", re.I):
        found.add((match.group(1) or match.group(2)).lower())
    for match in _BRANCH.finditer(text or ""):
        name = next(g for g in match.groups() if g)
        if (text or "")[match.end():match.end() + 2] == "'s":
            continue  # "tollgate's origin", "tessellate/bramble's main": an owner's
        name = name.strip(".,;:`'\")(").lower()
        if name and name not in _NOT_BRANCHES and not name.isdigit() and not \
                _SHA.fullmatch(name) and len(name) < 100:
            found.add(name.split("origin/", 1)[-1])
    return found


_PACKAGE_BEFORE = lazy(r"(?:`([^`]+)`|\b([a-z0-9@][\w.@/-]*))(?:\s+(?:package|library|"
                             r"module|cli|tool))?\s+(?:was|is|were|are|has\s+been|have\s+been)\s+"
                             r"(?:now\s+|successfully\s+|already\s+)?installed\b", re.I)


def _packages(text):
    found = []
    for match in _PACKAGE_BEFORE.finditer(text):
        found.append((match.group(1) or match.group(2)).lower())
    for match in _PACKAGE.finditer(text):
        if match.group(1):
            found += [w.strip().lower() for w in re.split(r"[,\s]+", match.group(1)) if w.strip()]
        else:
            found += [w.lower() for w in re.split(r"\s*(?:,|\band\b)\s*", match.group(2))]
    return [p for p in dict.fromkeys(found) if p and p not in _NOT_PACKAGES]


_TOOLS = ("pytest", "jest", "vitest", "mocha", "rspec", "unittest", "go test", "cargo test",
          "eslint", "ruff", "flake8", "pylint", "mypy", "pyright", "tsc", "clippy", "prettier",
          "black", "golangci-lint", "rubocop", "shellcheck", "playwright", "cypress", "phpunit",
          "npm test", "make test", "tox", "nox")


def _tools(text):
    found = [t for t in _TOOLS if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text, re.I)]
    found += [m.group(1) for m in re.finditer(r"`([\w./-]+)`", text)]
    return list(dict.fromkeys(found))


def ran_programs(claim):
    """Programs or scripts a claim says were run or used ("with `rg`", "ran tests.sh")."""
    found = []
    for match in _RUN_CLAIM.finditer(claim or ""):
        word = match.group("program").strip(".,;:`'\"").lower()
        if word and word not in _FILLER and len(word) > 1:
            found.append(word)
    found += [m.group(1).lower() for m in re.finditer(r"`([\w.-]+)`", claim or "")]
    return list(dict.fromkeys(found))


# Verbs of work other than the operations a frame reads: a claim that uses one says it did
# something its operations cannot show ("fixed the null check; the tests pass").
_WORK = lazy(
    r"\b(?:fixed|added|implemented|refactored|updated|removed|changed|wrote|written|"
    r"resolved|improved|replaced|renamed|converted|introduced|handled|ensured|made|"
    r"cleaned\s+up|modified|rewrote|rewritten|extracted|configured|set\s+up|enabled|"
    r"disabled|optimi[sz]ed|upgraded|bumped|deleted|documented|created|generated|saved|"
    r"supported|prevented|returned|printed|showed|shown|produced|restored|corrected|patched|"
    r"reduced|increased|moved|merged|wired|hooked\s+up|integrated|validated|adjusted|"
    r"addressed|applied|defined|declared|exported|imported|included|inserted|populated|"
    r"filled|built\s+(?:a|an|the)\b)\b", re.I)
_ONGOING = lazy(r"\b(?:fixing|working on|still (?:need|have|to)|remaining|the rest|"
                      r"left to|in progress|partially|partly|some of|most of|except|but)\b",
                      re.I)


_FILE_WORDS = lazy(r"\b(?:created|saved|wrote|written|generated|exported|exists?|added|"
                         r"produced|output(?:ted)?|contains?|holds?|includes?|lists?|listed|"
                         r"present|file|files|folder|directory|new|the|a|an|and|to|at|in|into|"
                         r"has|have|been|was|were|is|are|successfully|both|all|as|under|"
                         r"repo|repository|project|now|also|i|we|it|its)\b", re.I)


def _has_content(text, kinds):
    """True if the claim says it did something its operations cannot show."""
    if kinds == [FILE]:
        rest = _FILE_WORDS.sub(" ", re.sub(r"`[^`]*`", " ", _without_paths(text)))
        if re.search(r"[A-Za-z]{3,}|\d", rest):
            return True  # "saved to F, showing 80 pedestrians": what F holds is not a fact
    own = {ev.MERGE: "merg", FILE: "creat|generat|sav|wr|add|produc|export",
           ev.MIGRATE: "appl|migrat", ev.DEPLOY: "releas|publish", ev.INSTALL: "add"}
    for match in _WORK.finditer(_without_paths(text)):
        word = match.group(0).lower()
        if any(pattern and re.match(pattern, word) for kind, pattern in own.items()
               if kind in kinds):
            continue
        return True
    return False
