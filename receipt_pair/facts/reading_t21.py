"""Table t21's reading of a log: t15's, with the scope of a run of a known test runner read
from every word of its command, each one known.

t20 read a run as whole once it had taken out the words it knew to choose no tests (a
runner's subcommand, the values of options that only say how a run goes), and an attack
pass on it (tests/data/facts/attack-t20.json) found what that missed: any option it did not
know was left out of the part too, so `npx vitest run --project=unit`, `npx jest
--onlyFailures`, `go test -skip=TestSlow ./...` or `cargo test -- --ignored` became whole
runs (t15 never read an option joined to its value, or one without a value, as a part: some
of those holes are older than t20); a word was taken out wherever it stood, so `pytest
--cov=auth -k auth` lost its part; and options were compared without case (mocha's `-S` is
not `-s`).

t21 reads a run of pytest, vitest, jest, Playwright, mocha, go test, cargo test, dotnet test
or rspec by its runner's grammar below, word by word, case and all:
- a word that chooses tests (a path, a name, `-k`, `--project`, `--shard`, `-skip`,
  `--onlyFailures`, `--features`, anything after `--`) makes the run a part (where t15 read
  it whole, its part is that word);
- a run whose every word is the runner's subcommand (`vitest run`, `playwright test`), a
  word naming the whole suite (`./...`) or an option known to choose no tests (with its
  value: `-n 4`, `--reporter=dot`, `--verbosity normal`) is the whole suite, if no `cd`
  before it in the command moved it into a package;
- a run with any other word is read as t15 read it (vitest's `run` a part again, as t19 read
  it).
Runs of other runners and of a project's scripts are read as t15 reads them. A Playwright
run read as passed whose summary says tests were interrupted or did not run ended unknown,
as does a vitest run whose summary says a file did not pass or errors were caught (t20).
"""

import re
from dataclasses import dataclass, replace

from . import reading_t15, reading_t20, shell
from .events import PASSED, TESTS, UNKNOWN
from ..patterns import lazy


@dataclass(frozen=True)
class Grammar:
    """What a test runner's command line may hold: its subcommand, words naming its whole
    suite, options that choose no tests (flags, and options with a value), and options that
    choose tests (with a value or not)."""

    subcommand: str = ""
    whole: frozenset = frozenset()
    flags: frozenset = frozenset()
    values: frozenset = frozenset()
    choosing: frozenset = frozenset()
    short_flags: str = ""  # letters that may be joined in one word: pytest's `-xvs`


def _words(text):
    return frozenset(text.split())


GRAMMARS = {
    "pytest": Grammar(
        flags=_words("-q -v -vv -vvv -x -s -l --exitfirst --quiet --verbose --showlocals "
                     "--no-header --no-summary --disable-warnings --strict-markers "
                     "--strict-config --ff --failed-first --nf --new-first --cov-append "
                     "--no-cov --forked"),
        values=_words("-n --numprocesses --dist --maxfail --tb --junitxml --junit-xml "
                      "--cov-report --cov-config --cov-fail-under --durations "
                      "--durations-min --timeout --basetemp --color --log-level "
                      "--log-cli-level --capture --reruns --reruns-delay --import-mode --html "
                      "-W --ds --dc"),
        choosing=_words("-k -m --lf --last-failed --sw --stepwise --deselect --ignore "
                        "--ignore-glob -c --config-file --rootdir -o --override-ini --pyargs "
                        "--confcutdir"),
        short_flags="qvxsl"),
    "vitest": Grammar(
        subcommand="run",
        flags=_words("--run --coverage --silent --passWithNoTests --no-file-parallelism "
                     "--globals --no-color"),
        values=_words("--reporter --pool --maxWorkers --minWorkers --environment "
                      "--outputFile --testTimeout"),
        choosing=_words("--project --config -c --shard --dir --root -r -t --testNamePattern "
                        "--changed --related --exclude -u --update")),
    "jest": Grammar(
        flags=_words("--ci --coverage --runInBand -i --silent --verbose --colors --no-cache "
                     "--detectOpenHandles --forceExit --passWithNoTests --json "
                     "--noStackTrace --logHeapUsage"),
        values=_words("-w --maxWorkers --reporters --coverageReporters --testTimeout "
                      "--outputFile --coverageDirectory"),
        choosing=_words("--onlyFailures -f --selectProjects --shard -t --testNamePattern "
                        "--testPathPattern --testPathIgnorePatterns --config -c --changedSince "
                        "-o --onlyChanged --findRelatedTests --lastCommit --projects --roots "
                        "--testMatch --testRegex -u --updateSnapshot")),
    "playwright": Grammar(
        subcommand="test",
        flags=_words("--headed --quiet --fully-parallel --forbid-only --pass-with-no-tests"),
        values=_words("--reporter --workers -j --retries --trace --timeout --max-failures "
                      "--output"),
        choosing=_words("--project --grep -g --grep-invert --shard --only-changed "
                        "--last-failed -c --config -u --update-snapshots")),
    "mocha": Grammar(
        flags=_words("--exit --recursive --colors --bail -b --full-trace --inline-diffs "
                     "--check-leaks --parallel -S --sort"),
        values=_words("--reporter -R --timeout -t --require -r --ui -u --slow -s --jobs -j "
                      "--extension"),
        choosing=_words("--grep -g --fgrep -f --invert -i --spec --file --ignore --exclude "
                        "--config")),
    "go test": Grammar(
        whole=_words("./... ..."),
        flags=_words("-v -race -cover -json -failfast -x -trimpath"),
        values=_words("-count -timeout -p -parallel -coverprofile -covermode -coverpkg -cpu "
                      "-shuffle -o"),
        choosing=_words("-run -skip -tags -short -bench -list")),
    "cargo test": Grammar(
        whole=_words("--workspace --all"),
        flags=_words("--release --all-features --no-fail-fast -q --quiet -v --verbose "
                     "--locked --frozen --offline --all-targets"),
        values=_words("-j --jobs --color --message-format --target --profile --target-dir"),
        choosing=_words("-p --package --lib --bin --bins --test --tests --doc --example "
                        "--examples --benches --features -F --no-default-features --exclude "
                        "--manifest-path")),
    "dotnet test": Grammar(
        flags=_words("--no-build --no-restore --nologo --blame --blame-crash --blame-hang"),
        values=_words("-v --verbosity -c --configuration -f --framework -l --logger "
                      "--results-directory --collect --blame-hang-timeout -a --arch --os "
                      "--runtime"),
        choosing=_words("--filter -s --settings")),
    "rspec": Grammar(
        flags=_words("--color --no-color --profile -p --fail-fast -b --backtrace "
                     "--force-color"),
        values=_words("--format -f --require -r --order --seed --out -o"),
        choosing=_words("--tag -t --only-failures --next-failure -e --example --pattern -P "
                        "--exclude-pattern --default-path")),
}
# The runners whose subcommand is a word of their own: `go test`, `cargo test`.
TWO_WORDS = {"go test": "go", "cargo test": "cargo", "dotnet test": "dotnet"}
_WHOLE, _PART, _UNKNOWN = "whole", "part", "unknown"
_CD = frozenset(("cd", "pushd", "set-location", "sl"))
# Playwright's summary lines of tests that did not end: interrupted, never run.
_NOT_RUN = lazy(r"^\s*\d+ (?:interrupted|did not run)\b")
_COLOURS = lazy(r"\x1b?\[[0-9;]*m")


@dataclass
class LogT21(reading_t15.LogT15):
    """A Log read by table t21."""


LOG = LogT21  # the class of the logs this module reads (table.py)


def read_events(turns, log_class=LogT21):
    """The LogT21 (or `log_class`, a later table's) of `turns` (Turns, oldest first)."""
    log = reading_t15.read_events(turns, log_class)
    log.events = [_not_all_ran(_scoped(event, log), log) for event in log.events]
    return log


def _scoped(event, log):
    """A run of a runner with a grammar, its scope read from its command's every word."""
    grammar = GRAMMARS.get(event.key)
    if event.family != TESTS or grammar is None:
        return event
    step = _runner_step(event)
    if step is None:
        return event
    scope, chosen = scope_of(event.key, step.args)
    if scope == _PART:
        return event if event.objects else reading_t20.with_part(event, (chosen,))
    if scope == _WHOLE and not event.objects:
        return event
    if scope == _WHOLE and not _moved_before(log.commands[event.turn] or "", step):
        return reading_t20.with_part(event, ())
    return event


def _runner_step(event):
    """The step of the event's command that runs its runner, or None."""
    program = TWO_WORDS.get(event.key, event.key)
    steps = [s for s in shell.parse(event.command).runs if s.program == program]
    return steps[-1] if steps else None


def scope_of(suite, args):
    """(`whole`, `part` or `unknown`, the first word that chose tests) of a run of `suite`
    (a runner with a grammar) with the words `args` after its program."""
    grammar = GRAMMARS[suite]
    args = list(args)
    if suite in TWO_WORDS:
        args = args[args.index("test") + 1:] if "test" in args else []
    scope, index, positional = _WHOLE, 0, False
    while index < len(args):
        word = args[index]
        name, equals, _ = word.partition("=")
        if word == "--":
            return (_PART, word) if args[index + 1:] else (scope, "")
        if not word.startswith("-") or word == "-":
            if grammar.subcommand and not positional and word == grammar.subcommand:
                positional = True
            elif word not in grammar.whole:
                return _PART, word
            positional = True
        elif name in grammar.choosing or (suite == "dotnet test" and
                                          word.startswith("--filter:")):
            return _PART, word
        elif word in grammar.whole or (name in grammar.flags and not equals):
            pass
        elif name in grammar.values:
            if not equals and index + 1 >= len(args):
                scope = _UNKNOWN
            index += 0 if equals else 1
        elif suite == "pytest" and name == "-p":
            value = word.partition("=")[2] if equals else (
                args[index + 1] if index + 1 < len(args) else "")
            if not value.startswith("no:"):
                scope = _UNKNOWN  # a plugin loaded may choose tests; one turned off cannot
            index += 0 if equals else 1
        elif grammar.short_flags and re.fullmatch(rf"-[{grammar.short_flags}]+", word):
            pass
        elif suite == "pytest" and re.fullmatch(r"-r[a-zA-Z]+", word):
            pass  # which outcomes the summary lists
        elif suite == "pytest" and name == "--cov":
            if not equals and index + 1 < len(args) and not args[index + 1].startswith("-"):
                scope = _UNKNOWN  # `--cov` takes a value or none: the next word is unsure
        else:
            scope = _UNKNOWN
        index += 1
    return scope, ""


def _moved_before(command, step):
    """True if a step before the runner's in the command changes the folder it runs in."""
    for other in shell.parse(command).steps:
        if other.words == step.words:
            return False
        if (other.program or (other.words or ("",))[0]).lower() in _CD:
            return True
    return False


def _not_all_ran(event, log):
    """A Playwright run read as passed whose summary says tests were interrupted or did not
    run, or a vitest run whose summary says a file did not pass or errors were caught
    (reading_t20): its end is UNKNOWN."""
    if event.family != TESTS or event.outcome != PASSED:
        return event
    if event.key == "playwright" and any(_NOT_RUN.match(_COLOURS.sub("", line))
                                         for line in log.lines[event.turn]):
        return replace(event, outcome=UNKNOWN, line="", line_index=-1)
    return reading_t20.not_all_files_passed(event, log)
