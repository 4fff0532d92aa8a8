"""Builds, lint and type checks: which steps run them (a tool, or a project's script named
for it: `npm run build`, `make lint`, `yarn typecheck`), and how they ended (their own exit
status, or the tool's own summary: "Found 3 errors", "✖ 2 problems (2 errors, 0 warnings)",
"Success: no issues found", "BUILD SUCCESS"). A tool that ends well prints nothing at all
(`tsc`, `go build`, `eslint`): its own zero exit status is the fact, and a receipt names
the command and its status.
"""

import re

from . import shell
from .events import BUILD, FAILED, LINT, NOTHING, PASSED, TYPECHECK, UNKNOWN, Event, step_outcome
from ..patterns import lazy

_TYPECHECKERS = {"mypy", "pyright", "basedpyright", "pytype", "pyre", "vue-tsc", "svelte-check",
                 "flow", "tsc", "dmypy", "ty"}
_LINTERS = {"eslint", "ruff", "flake8", "pylint", "pycodestyle", "pydocstyle", "black", "isort",
            "prettier", "biome", "golangci-lint", "staticcheck", "shellcheck", "rubocop",
            "stylelint", "markdownlint", "markdownlint-cli2", "hadolint", "ktlint", "swiftlint",
            "pre-commit", "lint-staged", "standard", "xo", "oxlint", "tflint", "yamllint",
            "actionlint", "bandit", "djlint", "sqlfluff", "htmlhint", "phpcs", "phpstan",
            "psalm", "credo", "clang-tidy", "cpplint", "revive", "autopep8", "yapf", "gofmt",
            "rustfmt", "clang-format", "dprint", "lint"}
_BUILDERS = {"webpack", "rollup", "esbuild", "parcel", "vite", "next", "nuxt", "astro",
             "gatsby", "ng", "hugo", "mkdocs", "sphinx-build", "cmake", "ninja", "meson",
             "javac", "gcc", "g++", "clang", "clang++", "rustc", "tsup", "swc", "babel",
             "bazel", "buck", "scons", "msbuild", "xcodebuild", "electron-builder", "turbo"}
_BUILD_SUBS = {("cargo", "build"), ("cargo", "check"), ("go", "build"), ("go", "install"),
               ("mvn", "package"), ("mvn", "compile"), ("mvn", "install"), ("gradle", "build"),
               ("gradle", "assemble"), ("gradle", "compilejava"), ("dotnet", "build"),
               ("dotnet", "publish"), ("docker", "build"), ("docker compose", "build"),
               ("swift", "build"), ("zig", "build"), ("python setup.py", "build"),
               ("python setup.py", "bdist_wheel"), ("python setup.py", "sdist"), ("pip", "wheel"),
               ("stack", "build"), ("cabal", "build"), ("mix", "compile"), ("sbt", "compile"),
               ("lein", "compile"), ("flutter", "build"), ("bun", "build"), ("deno", "compile"),
               ("podman", "build"), ("buildah", "bud"), ("nx", "build"), ("turbo", "build")}
_LINT_SUBS = {("go", "vet"), ("cargo", "clippy"), ("cargo", "fmt"), ("deno", "lint"),
              ("deno", "fmt"), ("dotnet", "format"), ("mix", "format"), ("mix", "credo"),
              ("nx", "lint"), ("turbo", "lint")}
_SCRIPT_RUNNERS = {"npm", "yarn", "pnpm", "bun", "deno", "make", "just", "task", "composer",
                   "poe", "hatch", "pixi", "invoke", "nox", "tox"}
_BUILD_SCRIPT = lazy(r"(?:^|[:_-])(?:build|compile|bundle|dist|package)(?:$|[:_-])", re.I)
_LINT_SCRIPT = lazy(r"(?:^|[:_-])(?:lint|eslint|stylelint|prettier|format|fmt|style|"
                          r"ruff|flake8)(?:$|[:_-])", re.I)
_TYPE_SCRIPT = lazy(r"(?:^|[:_-])(?:typecheck|type-check|types|tsc|check-types|"
                          r"typescript|mypy|pyright|typings)(?:$|[:_-])", re.I)
_CHECKING = {"--check", "--check-only", "-c", "--diff", "--list-different", "-l", "check", "ci"}


def tool_of(step):
    """(family, tool key) of a step that builds, lints or checks types, or None."""
    program, sub = step.program, shell.subcommand(step).lower()
    args = [a.lower() for a in step.args]
    if program in _TYPECHECKERS:
        if program == "tsc" and "--noemit" not in args and "--build" not in args and \
                "-b" not in args:
            return BUILD, "tsc"
        return TYPECHECK, program
    if program in _LINTERS:
        if program in ("black", "isort", "prettier", "rustfmt", "gofmt", "clang-format",
                       "autopep8", "yapf", "dprint") and not (set(args) & _CHECKING):
            return None  # a formatter that rewrites files is an edit, not a check
        if program == "ruff" and sub == "format" and "--check" not in args:
            return None
        return LINT, program
    if (program, sub) in _LINT_SUBS:
        if sub in ("fmt", "format") and not (set(args) & _CHECKING):
            return None
        return LINT, f"{program} {sub}"
    if program in _BUILDERS:
        if program in ("vite", "next", "nuxt", "astro", "gatsby", "ng", "mkdocs") and sub not in \
                ("build", "generate"):
            return None
        if program == "cmake" and "--build" not in args:
            return None
        if program == "turbo" and sub not in ("build", "run"):
            return None
        return BUILD, program
    if (program, sub) in _BUILD_SUBS:
        return BUILD, f"{program} {sub}"
    if program in ("build", "py_compile", "compileall"):
        return BUILD, f"python -m {program}"
    if program in ("node", "bash", "sh", "php", "ruby") and any(a in ("--check", "-n", "-l", "-c")
                                                             for a in step.args[:1]):
        return BUILD, f"{program} syntax check"
    if program in _SCRIPT_RUNNERS:
        script = _script(program, step.args)
        if not script:
            return (BUILD, "make") if program == "make" else None
        if _TYPE_SCRIPT.search(script):
            return TYPECHECK, f"script:{script}"
        if _LINT_SCRIPT.search(script):
            return LINT, f"script:{script}"
        if _BUILD_SCRIPT.search(script) or (program == "make" and script in ("all", "release")):
            return BUILD, f"script:{script}"
    return None


def _script(program, args):
    names = [a for a in args if not a.startswith("-") and "=" not in a]
    if not names:
        return ""
    if names[0] in ("run", "run-script", "task") and program in ("npm", "yarn", "pnpm", "bun",
                                                                "deno", "composer"):
        return names[1] if len(names) > 1 else ""
    return names[0]


_FOUND_ERRORS = lazy(r"^(?:Found|found) (\d+) errors?\b")
_PROBLEMS = lazy(r"^\W*(\d+) problems? \((\d+) errors?, (\d+) warnings?\)")
_PYRIGHT = lazy(r"^(\d+) errors?, (\d+) warnings?, (\d+) (?:informations?|notes?)\b")
_ERROR_COUNT = lazy(r"^(?:error: )?(?:aborting due to|could not compile .* due to) "
                          r"(?:(\d+) previous errors?|previous error)")
_SUCCESS = lazy(
    r"^(?:Success: no issues found|All checks passed!|BUILD SUCCESS(?:FUL)?\b|Build succeeded\.?|"
    r"(?:\W\s*)?Compiled successfully|webpack \S+ compiled successfully|(?:\W\s*)?built in [\d.]+|"
    r"Finished `?\w+`? (?:profile|target)|Finished (?:dev|release|test) \[|Successfully built "
    r"[0-9a-f]{6,}|Successfully tagged|All done! |Your code has been rated at 10\.00/10|"
    r"0 errors?, 0 warnings?|Found 0 errors?|No issues found|Checked \d+ files? in|"
    r"(?:\W\s*)?No (?:lint )?(?:errors|problems|issues) found|Everything is formatted|"
    r"\d+ files? (?:would be )?left unchanged|\d+ files? already formatted)", re.I)
_FAILURE = lazy(
    r"^(?:BUILD FAILURE|BUILD FAILED|Build FAILED\.?|Failed to compile\.?|error\[E\d+\]|"
    r"error TS\d+:|.*\berror TS\d+:|error: could not compile|ERROR: failed to solve|"
    r"make(?:\[\d+\])?: \*\*\* .*Error \d+|npm ERR! |npm error |ELIFECYCLE|"
    r"Oh no! .* \u2764?|would reformat |\[warn\] Code style issues found|"
    r"ERROR: .* Imports are incorrectly sorted|\d+ files? would be reformatted|"
    r"Command failed with exit code|error: linking with|Error: Cannot find module|"
    r"FAILURE: Build failed with an exception)", re.I)


def summary_lines(lines):
    """(a line showing it passed, a line showing it failed, warnings counted) of a build,
    lint or type check's output, each (line, index) or None."""
    passed = failed = None
    warnings = 0
    for index, raw in enumerate(lines):
        line = raw.strip()
        for pattern, errors_group, warnings_group in ((_FOUND_ERRORS, 1, None),
                                                      (_PROBLEMS, 2, 3), (_PYRIGHT, 1, 2)):
            match = pattern.match(line)
            if match:
                errors = int(match.group(errors_group))
                if warnings_group:
                    warnings = int(match.group(warnings_group))
                if errors:
                    failed = (line, index)
                else:
                    passed = (line, index)
                break
        else:
            if _ERROR_COUNT.match(line) or _FAILURE.match(line):
                failed = failed or (line, index)
            elif _SUCCESS.match(line):
                passed = (line, index)
    return passed, failed, warnings


def read(read, taken):
    """(step, Event) of every build, lint or type check of one turn. Where one command line
    runs several (`npm run lint && npm run build`), their output cannot be told apart: a
    zero status says they all passed, and nothing else is read of them."""
    steps = [(step, tool_of(step)) for step in read.line.runs if id(step) not in taken]
    steps = [(step, tool) for step, tool in steps if tool is not None]
    passed, failed, warnings = summary_lines(read.lines)
    for step, (family, key) in steps:
        if len(steps) > 1:
            passed = failed = None
        outcome, line, index = step_outcome(read, step, passed_line=passed, failed_line=failed)
        if outcome == UNKNOWN and passed and not failed:
            outcome, line, index = PASSED, passed[0], passed[1]
        if len(steps) > 1 and outcome == FAILED:
            outcome = UNKNOWN  # which of them failed is not known
        if any(a in ("--dry-run", "--help", "--version", "-h") for a in step.args):
            outcome, line, index = NOTHING, "", -1
        detail = (("warnings", str(warnings)),) if warnings and len(steps) == 1 else ()
        yield step, Event(read.index, family, key, key, outcome, read.turn.exit_status,
                          read.status_of(step), line, index,
                          tuple(shell.positional(step.args))[:6], detail=detail,
                          command=" ".join(step.words)[:300])
