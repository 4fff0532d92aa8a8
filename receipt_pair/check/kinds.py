"""What a claim is about and what a turn did, read in plain code, so that a line can back
only the claims it can show.

- A claim that something runs, passes, builds, is pushed, deployed, installed, migrated or
  sent needs a line printed by running it: an edit's report (a diff of the agent's own
  change, "File created successfully"), a file shown with `cat` or `grep`, an `echo` of
  the agent's own words, a help text or a job-control line (`[1] 32`) shows none of that.
- "The tests pass" needs a run of tests (a test runner, or a command that reports test
  counts); "I pushed" needs a `git push` and, from it, a line that reports a ref update
  (`3b2a6f1..9c41e07  fix/parser -> fix/parser`), not the `To origin` line git prints
  before a rejected push too.
- A run of nothing (only skipped tests), a dry run, or a push or deploy to another branch
  or place than the claim names shows nothing of the claim.
- A failure backs `contradicted` only when it is about the claim: a test claim by a run of
  tests, a push claim by a push, and a claim that names things (a path, a branch, a
  command) by a turn that names one of them. `rg: command not found` says nothing of
  whether the tests pass.
"""

import re

from . import commands
from .testcounts import count_tests
from ..turn import EDIT, VIEW
from ..patterns import lazy

TESTS, BUILD, PUSH, DEPLOY, INSTALL, MIGRATE, SEND, RUN = (
    "tests", "build", "push", "deploy", "install", "migrate", "send", "run")
# The kinds of claim that something ran (as opposed to a claim about what a file holds).
RUN_KINDS = {TESTS, BUILD, PUSH, DEPLOY, INSTALL, MIGRATE, SEND, RUN}

_CLAIM_KINDS = (
    # A test word with a word of running or passing: "updated the tests" claims an edit.
    (TESTS, r"\b(?:tests?|specs?|test\s+suite|unit\s+tests?|e2e|testcases?|pytest|jest|vitest|"
            r"mocha|rspec|unittest|go\s+test|cargo\s+test|npm\s+test|make\s+test|test_\w+|"
            r"\w+_tests?|Test[A-Z]\w*)\b(?=.*\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|"
            r"ran|run|runs|ok|clean|fail(?:s|ed|ing)?|broken|red)\b)"
            r"|\b(?:pass(?:es|ed|ing)?|ran|run|running)\b(?=.*\b(?:tests?|specs?|test\s+suite|"
            r"pytest|jest|vitest|unittest)\b)"),
    (BUILD, r"\b(?:builds?|built|compiles?|compiled|compilation|lint(?:s|ed|ing)?|clippy|"
            r"type[- ]?checks?|typecheck(?:s|ed)?|tsc|mypy|eslint|ruff|flake8|warnings?)\b"),
    (PUSH, r"\b(?:push(?:ed|es)?|pushing)\b"),
    (DEPLOY, r"\b(?:deploy(?:s|ed|ment)?|releas(?:e|ed|es)|publish(?:ed|es)?|roll(?:ed)?\s*out|"
             r"rollout|shipped|is\s+live|went\s+live)\b"),
    (INSTALL, r"\b(?:install(?:s|ed|ation)?)\b"),
    (MIGRATE, r"\b(?:migrat(?:e|ed|es|ion|ions))\b"),
    (SEND, r"\b(?:sent|send(?:s)?|e-?mail(?:ed)?|notif(?:y|ied|ication)|invoic(?:e|ed)|"
           r"posted)\b"),
    (RUN, r"\b(?:runs?|ran|works|worked|executes?|executed|succeeds?|succeeded|exits?|"
          r"exited|starts?|started|passes|passed|passing|green|prints|printed)\b"),
)
_CLAIM_PATTERNS = [(kind, lazy(pattern, re.I)) for kind, pattern in _CLAIM_KINDS]


_PATH = lazy(r"\S*(?:/|\.[A-Za-z0-9]{1,5}\b)\S*")


def claim_kinds(claim):
    """The kinds of operation a claim says ran, e.g. {"tests", "run"}. Paths and file names
    are not read for it: "I created tests/test_edge.py" claims a file, not a test run."""
    words = _PATH.sub(" ", claim or "")
    return {kind for kind, pattern in _CLAIM_PATTERNS if pattern.search(words)}


# Lines that back no claim at all: a job-control line, a help text, and what an agent's
# harness writes around a command's output (Gemini CLI's "Command:", "Directory:",
# "Signal:"; Cline's and IBM Bob's "Command executed in terminal ... Exit code: 0"; a bare
# zero exit status), which says that something ran, never that it did what was claimed.
_NO_CLAIM = lazy(
    r"""
    ^\s*\[\d+\]\s+\d+\s*$  # a job-control line: [1] 32
  | ^\s*\[\d+\][+-]?\s+(?:Running|Done|Stopped|Exit\ \d+)\b
  | ^\s*[Uu]sage:\s
  | \(default:\ [^)]*\)\s*$  # a help text's option
  | ^\s*(?:Command|Directory|Signal|Background\ PIDs|Process\ Group\ PGID|Stdout|Stderr)
      :\s
  | ^\s*Exit\ [Cc]ode:?\s*0\.?\s*$
  | ^\s*Command\ (?:executed|is\ still\ running)\ in\ terminal\b
    """,
    re.X)
# The agent's own bookkeeping tools: what they return is the agent's list, not a result.
_BOOKKEEPING = {"todowrite", "todoread", "update_todo_list", "write_todos", "save_memory",
                "exitplanmode", "exit_plan_mode", "attempt_completion", "think", "plan",
                "new_task", "ask_followup_question", "askuserquestion"}
# Context a harness appends to a tool's result: not the tool's output.
CONTEXT_BLOCK = lazy(r"<(environment_details|system-reminder|env_context|reminder)>"
                           r".*?(?:</\1>|\Z)", re.S)


def bookkeeping(turn):
    """True if the turn is a call of the agent's own bookkeeping tool (a todo list, a plan,
    a memory note, its final message): its output is the agent's words."""
    first = (turn.cmd or "").strip().split(None, 1)
    return bool(first) and first[0].lower().rstrip(":") in _BOOKKEEPING
# Lines that report an edit, not an operation's result: a diff, "File created successfully".
_EDIT_REPORT = lazy(
    r"""
    ^\s*(?:diff\ --git\ |index\ [0-9a-f]{6,}\.\.|@@\ -\d|\+\+\+\ |---\ (?:a/|/dev/null))
  | ^\s*(?:File\ created\ successfully|Successfully\ (?:created|wrote|modified|edited)\b|
         The\ file\ \S.*\ has\ been\ (?:updated|edited|created|modified)|
         (?:Created|Modified|Edited|Wrote|Updated)\ file\b|Applied\ edit\ to\b|
         New\ file\ created\b|File\ written\b|Wrote\ to\ )
    """,
    re.X)
_DIFF_BODY = lazy(r"^[+-](?![+-]{2})")
_HELP = lazy(r"(?:^|\s)(?:--help|-h)(?:\s|$)")
_ECHO = {"echo", "printf", "cat", "tee"}
_DRY = lazy(r"(?:^|\s)(?:--dry-run|--dryrun|--dry_run|--check|--what-if|--plan-only|"
                  r"--noop|--simulate)(?:[=\s]|$)|\bterraform\s+plan\b|\bhelm\s+template\b")
_DRY_LINE = lazy(r"\b(?:dry[- ]run|would\s+(?:push|deploy|delete|create|update|send))\b",
                       re.I)


def turn_is_edit(turn, lines):
    """True if the turn's output is the report of an edit (an edit tool, or a tool that is
    not a command and whose output opens with a diff or "File created successfully")."""
    if turn.kind == EDIT:
        return True
    return turn.kind is None and not commands.operations(turn.cmd) and any(
        _EDIT_REPORT.search(line) for line in lines[:3])


_RUN_RECORD = lazy(r"\S+\.(?:log|out|err)\b")


def shows_nothing_ran(turn):
    """True if a turn's output is a file, a listing, an edit's report or the agent's own
    words (echo), not what an operation printed when it ran. A log a run wrote (`cat
    fuzz.log`, `tail -n 50 build.out`) is what that run printed."""
    if turn.kind == EDIT:
        return True
    if turn.kind == VIEW or commands.is_viewer(turn.cmd, fold_case=True):
        return not _RUN_RECORD.search(turn.cmd or "")
    ops = commands.operations(turn.cmd)
    names = {op.name[0] for op in ops}
    return bool(names) and names <= _ECHO


def backs_no_claim(line):
    """True if `line` backs no claim at all: a job-control line, a help text's line."""
    return bool(_NO_CLAIM.search(line))


def edit_report(line, in_diff=False):
    """True if `line` reports an edit, not a result: a diff's line, "File created ..."."""
    return bool(_EDIT_REPORT.search(line)) or (in_diff and bool(_DIFF_BODY.match(line)))


def asks_for_help(cmd):
    return bool(_HELP.search(cmd or ""))


def runs_tests(turn, text):
    """True if the turn ran tests: a test runner, a command named for tests, or output that
    reports test counts."""
    for op in commands.operations(turn.cmd):
        # A runner, or a program named for tests (./run_tests.sh, python test_fix.py); a
        # commit message that says "tests" runs none.
        if op.runs_tests or any(re.search(r"test|spec", part, re.I) for part in op.name):
            return True
    return count_tests(text) is not None


def pushes(turn):
    return any(op.name[:2] == ("git", "push") for op in commands.operations(turn.cmd))


def dry_run(turn, line):
    """True if the turn, or the quoted line, is a dry run."""
    if _DRY.search(turn.cmd or ""):
        return True
    for op in commands.operations(turn.cmd):
        if op.name[:2] == ("git", "push") and re.search(r"(?:^|\s)-n(?:\s|$)", turn.cmd):
            return True
    return bool(_DRY_LINE.search(line))


# A ref update as `git push` reports it: "   3b2a6f1..9c41e07  fix/parser -> fix/parser",
# " * [new branch]      fix -> fix", " + 1a2b...3c4d main -> main (forced update)".
_REF_UPDATE = lazy(r"^\s*(?:[+*=]?\s*)?(?:[0-9a-f]+\.{2,3}[0-9a-f]+|\[new (?:branch|tag|"
                         r"reference)\]|\[up to date\])\s+(?P<src>\S+)\s+->\s+(?P<dst>\S+)")
_UP_TO_DATE = lazy(r"^\s*Everything up-to-date\s*$")


def ref_update(line):
    """(source, destination) of a ref line `git push` printed, or None."""
    found = _REF_UPDATE.match(line)
    return (found.group("src"), found.group("dst")) if found else None


def pushed_line(line):
    return ref_update(line) is not None or bool(_UP_TO_DATE.match(line))


_BRANCH_WORDS = lazy(
    r"(?:\b(?:to|into|onto|on)\s+(?:the\s+)?(?:remote\s+)?(?:branch\s+)?"
    r"[`'\"]?(?:origin/)?(?P<to>[A-Za-z0-9][\w./-]*)[`'\"]?(?:\s+branch)?)"
    r"|\borigin/(?P<origin>[\w./-]+)"
    r"|\b(?P<named>[\w./-]+)\s+branch\b"
    r"|\bbranch\s+[`'\"]?(?P<after>[\w./-]+)")
_NOT_BRANCHES = {"the", "a", "an", "remote", "origin", "github", "gitlab", "it", "repo",
                 "repository", "server", "upstream", "production", "staging", "prod", "dev",
                 "my", "our", "its", "this", "that", "new", "feature", "same", "local"}


def claim_branches(claim):
    """The branch names a push claim names ("to main", "fix/parser branch", "origin/dev")."""
    found = set()
    for match in _BRANCH_WORDS.finditer(claim or ""):
        name = next(g for g in match.groups() if g)
        name = name.strip(".,;:`'\"").lower()
        if name and name not in _NOT_BRANCHES and not name.isdigit():
            found.add(name.split("origin/", 1)[-1])
    return found


_ENVS = {"production": "production", "prod": "production", "prd": "production",
         "staging": "staging", "stage": "staging", "stg": "staging",
         "development": "development", "dev": "development", "qa": "qa",
         "preview": "preview", "canary": "canary", "sandbox": "sandbox", "uat": "uat",
         "test": "test", "testing": "test"}
_ENV_WORD = lazy(r"[A-Za-z]+")


def envs_named(text, claim_side=False):
    """The environments a text names (production, staging, ...). In a claim, "test" is a
    test's word, not a place."""
    found = set()
    for word in _ENV_WORD.findall(text or ""):
        env = _ENVS.get(word.lower())
        if env and not (claim_side and env == "test"):
            found.add(env)
    return found


def other_target(claim, turn, line):
    """True if the turn pushed or deployed to another branch or place than the claim names."""
    kinds = claim_kinds(claim)
    if PUSH in kinds and pushes(turn):
        branches = claim_branches(claim)
        pushed = {d.lower().split("/")[-1] if d.lower().startswith("refs/") else d.lower()
                  for _, d in filter(None, [ref_update(line)])}
        if branches and pushed and not (pushed & branches):
            return True
    wanted = envs_named(claim, claim_side=True)
    if wanted and (DEPLOY in kinds or RUN in kinds):
        named = envs_named(" ".join(t for op in commands.operations(turn.cmd)
                                    for t in op.targets + op.name[1:]))
        named |= envs_named(line) - {"test"}
        if named and not (named & wanted):
            return True
    return False


def names_of(text):
    """The specific names in a text, lower case: paths, identifiers and branch-like words
    (fix/parser, test_login, api.py), anything in backquotes, and commit-like ids (7fcef37)."""
    names = {word.lower().strip("./:`'\"") for word in
             re.findall(r"[A-Za-z0-9_][\w./:-]*[_./:-][\w./:-]*[A-Za-z0-9_]", text or "")
             if sum(ch.isalnum() for ch in word) >= 3}
    names |= {word.lower().strip() for word in re.findall(r"`([^`\n]{3,80})`", text or "")}
    names |= {word.lower() for word in re.findall(r"\b(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b",
                                                 text or "")}
    return {name for name in names if name}


# What a build is run with: a build claim is not contradicted by a run of tests.
_BUILDS = lazy(r"build|compil|tsc|make|cargo|gradle|mvn|webpack|vite|rollup|esbuild|lint|"
                     r"clippy|ruff|mypy|flake8|pyright|typecheck|type-check|sbt|bazel|cmake|"
                     r"ninja|dotnet|javac|gcc|g\+\+|clang", re.I)
# "bash: rg: command not found" is about rg, whatever the claim.
_MISSING_PROGRAM = lazy(r"(?:^|[\s:])(?P<program>[\w.+-]+): (?:command )?not found\b")


def about_claim(claim, turn, lines, quoted=()):
    """True if a failure in `turn` (whose quoted lines are `quoted`) can be about the claim:
    a test claim needs a run of tests, a push claim a push, a build, install, migration or
    deploy claim an operation of that kind or a turn that names what the claim names; a
    claim that names things needs a turn that names one of them; any other claim takes any
    turn. A missing program's line is about that program only."""
    kinds = claim_kinds(claim)
    text = "\n".join(lines)
    named = names_of(claim)
    seen = (turn.cmd or "").lower() + "\n" + text.lower()
    names_seen = any(name in seen or name.rsplit("/", 1)[-1] in seen for name in named)
    # A warning string in a file shown with `cat` is the file's text, not a failure of the
    # claimed run (a failed read itself has its exit status).
    if kinds & RUN_KINDS and shows_nothing_ran(turn) and not turn.exit_status:
        return False
    for line in quoted:
        missing = _MISSING_PROGRAM.search(line)
        program = missing and missing.group("program").lower().lstrip("_").rsplit("/", 1)[-1]
        if program and program not in (claim or "").lower():
            return False
    if TESTS in kinds:
        # Any run that speaks of tests: a CI step, a runner, a test file's failure line.
        return runs_tests(turn, text) or bool(re.search(r"test|spec", (turn.cmd or "") + text,
                                                       re.I))
    if PUSH in kinds and not (kinds & {DEPLOY, BUILD}):
        return pushes(turn)
    if BUILD in kinds and runs_tests(turn, text) and not names_seen:
        ran = " ".join(" ".join(op.name) for op in commands.operations(turn.cmd))
        if not _BUILDS.search(ran):
            return False  # "the build succeeded" against a test run's failure
    if named:
        return names_seen
    return True


def can_be_about(claim, turn, lines):
    """True if the turn can show the claim either way: for a claim that something ran, a
    turn that ran something (a run of tests for a test claim, a push for a push claim);
    else any turn that names what the claim names, or any turn when it names nothing."""
    kinds = claim_kinds(claim)
    if kinds & RUN_KINDS and shows_nothing_ran(turn):
        return False
    return about_claim(claim, turn, lines)
