"""Wrappers and prefixes a step's program is looked through: `sudo`, `timeout 60`, `env`,
`uv run`, `poetry run`, `bundle exec`, `npx`, `python -m`, `docker compose run web`,
`kubectl exec pod --`, `ssh host '...'` and `sh -c '...'` (whose script is read as a
command line of its own), so one program has one name whatever runs it.
"""

import re
from ..patterns import lazy


def positional(args):
    """The arguments that are not options (nor redirections)."""
    return [a for a in args if not a.startswith("-") and not _is_redirect(a)]


def _is_redirect(word):
    return bool(re.match(r"^(?:\d?>>?|\d?<|&>|>&|\d>&\d|<<<?)", word))


# Words in front of a program that do not change what it does; the value after each
# option of the left set is skipped too.
_PREFIX = {"sudo", "doas", "time", "nohup", "exec", "command", "builtin", "nice", "ionice",
           "stdbuf", "unbuffer", "chronic", "caffeinate", "xvfb-run", "env", "noglob"}
_PREFIX_VALUE_OPTIONS = {"-u", "-g", "-n", "-c", "-p", "-s", "-C", "-o", "-e", "-i"}
# Wrappers that run the program named after their own options.
_RUNNERS = {
    ("uv", "run"), ("uv", "tool", "run"), ("poetry", "run"), ("pipenv", "run"),
    ("pdm", "run"), ("rye", "run"), ("pixi", "run"), ("conda", "run"), ("mamba", "run"),
    ("micromamba", "run"), ("bundle", "exec"), ("pnpm", "exec"), ("pnpm", "dlx"),
    ("yarn", "dlx"), ("yarn", "exec"), ("npm", "exec"), ("hatch", "run"),
    ("dotenv",), ("doppler", "run"), ("op", "run"), ("uvx",), ("npx",), ("pnpx",),
    ("bunx",), ("pipx", "run"), ("devbox", "run"), ("nix", "develop", "-c"),
    ("direnv", "exec"), ("firejail",), ("watchexec",),
}
# Options of the wrappers above that take a value (the value is not the program).
_RUNNER_VALUE_OPTIONS = {"-n", "--name", "-p", "--package", "--python", "--with", "-e",
                         "--env", "--env-file", "--directory", "--project", "-C", "--cwd",
                         "--from", "--group", "--extra", "--prefix", "--dir", "--manifest-path"}
# Containers: the program follows the container's or service's name.
_CONTAINER_OPTIONS_WITH_VALUE = {"-e", "--env", "-w", "--workdir", "-u", "--user", "-v",
                                 "--volume", "--name", "-p", "--publish", "--entrypoint",
                                 "--network", "--env-file", "-f", "--file", "--platform",
                                 "--mount", "-l", "--label"}
_SHELLS = lazy(r"^(?:ba|z|da|k|fi)?sh$")
_PYTHON = lazy(r"^(?:python[\d.]*|py|pypy[\d.]*)$")
_NODE = lazy(r"^(?:node|nodejs)$")
def strip_prefixes(words):
    """`words` without the assignments and prefixes in front of the program."""
    words = list(words)
    while words:
        first = words[0]
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", first):
            words.pop(0)
        elif first in _PREFIX:
            words.pop(0)
            while words and (words[0].startswith("-") or
                             re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0])):
                option = words.pop(0)
                if option in _PREFIX_VALUE_OPTIONS and words:
                    words.pop(0)
        elif first == "timeout":
            words.pop(0)
            while words and words[0].startswith("-"):
                option = words.pop(0)
                if option in ("-s", "--signal", "-k", "--kill-after") and words:
                    words.pop(0)
            if words and re.match(r"^\d", words[0]):
                words.pop(0)
        else:
            break
    return words


def basename(word):
    return word.replace("\\", "/").rsplit("/", 1)[-1].lower()


def resolve(words):
    """(program, its arguments, wrappers looked through, a shell script to read instead or
    None) for a step's words, prefixes already removed."""
    via = []
    words = list(words)
    for _ in range(6):  # wrappers inside wrappers, bounded
        if not words:
            return "", [], via, None
        program = basename(words[0])
        rest = words[1:]
        if program.endswith(".exe"):
            program = program[:-4]
        runner = _runner(program, rest)
        if runner is not None:
            name, rest = runner
            via.append(name)
            words = strip_prefixes(rest)
            continue
        if program in ("docker", "podman", "docker-compose", "kubectl", "ssh"):
            inner = _container_command(program, rest)
            if inner is not None:
                name, rest = inner
                via.append(name)
                if name == "ssh" and len(rest) == 1:
                    return "", [], via, rest[0]
                words = strip_prefixes(rest)
                continue
        if _SHELLS.match(program):
            script = _shell_script(rest)
            if script is not None:
                via.append(f"{program} -c")
                return "", [], via, script
            files = positional(rest)
            if files:  # bash run_tests.sh
                return basename(files[0]), rest[rest.index(files[0]) + 1:], via + [program], None
            return program, rest, via, None
        if _PYTHON.match(program):
            return _python(rest, via)
        if _NODE.match(program):
            return _node(rest, via)
        return _normalise(program), rest, via, None
    return _normalise(basename(words[0])), words[1:], via, None


def _runner(program, rest):
    """(the wrapper's name, the words after its own options) when `program rest` is a
    wrapper that runs another program; None otherwise."""
    for size in (3, 2, 1):
        name = (program,) + tuple(rest[:size - 1])
        if name in _RUNNERS:
            after = list(rest[size - 1:])
            while after and after[0].startswith("-") and after[0] != "--":
                option = after.pop(0)
                if option in _RUNNER_VALUE_OPTIONS and "=" not in option and after:
                    after.pop(0)
            if after and after[0] == "--":
                after.pop(0)
            if not after:
                return None
            if name == ("hatch", "run") and ":" in after[0]:
                after[0] = after[0].split(":", 1)[1]  # hatch run test:unit
            return " ".join(name), after
    return None


def _container_command(program, rest):
    """(wrapper name, the command run in a container or on a host) or None."""
    rest = list(rest)
    if program in ("docker", "podman") and rest[:1] == ["compose"]:
        program, rest = "docker-compose", rest[1:]
    if program == "kubectl":
        if rest[:1] == ["exec"] and "--" in rest:
            return "kubectl exec", rest[rest.index("--") + 1:]
        return None
    if program == "ssh":
        words = [w for w in rest if not w.startswith("-")]
        if len(words) >= 2:
            return "ssh", [" ".join(words[1:])]
        return None
    if not rest or rest[0] not in ("run", "exec"):
        return None
    sub, after = rest[0], rest[1:]
    while after and after[0].startswith("-"):
        option = after.pop(0)
        if option in _CONTAINER_OPTIONS_WITH_VALUE and "=" not in option and after:
            after.pop(0)
    if len(after) < 2:
        return None
    return f"{program} {sub}", after[1:]  # after the image, container or service


def _shell_script(rest):
    """The script of `sh -c SCRIPT` (options such as -e, -l, -x before -c allowed)."""
    for index, word in enumerate(rest):
        if not word.startswith("-"):
            return None
        if "c" in word[1:] and not word.startswith("--"):
            return rest[index + 1] if index + 1 < len(rest) else None
    return None


def _python(rest, via):
    rest = list(rest)
    while rest and rest[0].startswith("-") and rest[0] not in ("-m", "-c", "-"):
        option = rest.pop(0)
        if option in ("-W", "-X") and rest:
            rest.pop(0)
    if not rest:
        return "python", [], via, None
    if rest[0] == "-m" and len(rest) > 1:
        return _normalise(rest[1].lower()), rest[2:], via + ["python -m"], None
    if rest[0] == "-c":
        return "python -c", rest[1:2], via, None
    if rest[0] == "-":
        return "python -", [], via, None
    script = basename(rest[0])
    return ("python " + script) if script else "python", rest[1:], via, None


def _node(rest, via):
    rest = list(rest)
    if rest[:1] in (["-e"], ["--eval"], ["-p"], ["--print"]):
        return "node -e", rest[1:2], via, None
    if "--test" in rest:
        return "node --test", [w for w in rest if w != "--test"], via, None
    files = positional(rest)
    if files:
        return "node " + basename(files[0]), rest[rest.index(files[0]) + 1:], via, None
    return "node", rest, via, None


# Spellings of one program.
_SAME = {"py.test": "pytest", "python3": "python", "gradlew": "gradle", "gradlew.bat":
         "gradle", "mvnw": "mvn", "mvnw.cmd": "mvn", "nodejs": "node", "pip3": "pip",
         "docker-compose": "docker compose", "flyctl": "fly", "yarnpkg": "yarn",
         "nosetests": "nose", "golangci-lint": "golangci-lint", "tofu": "terraform"}


def _normalise(program):
    program = program.lower()
    if program.startswith("pip") and re.match(r"^pip[\d.]*$", program):
        return "pip"
    return _SAME.get(program, program)


