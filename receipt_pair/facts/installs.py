"""Installs, migrations, deploys and HTTP requests: what each step installed (and which
packages failed), whether a migration ran, where a deploy went (the environment its
command names, a dry run in any spelling), and the status an HTTP request got.

A request's status is a fact only where the command printed it (`curl -i`, `-w
"%{http_code}"`, wget's "awaiting response... 200 OK") or failed by it (`curl -f` exits 22
on a 4xx or 5xx): a plain `curl` exits 0 on a 404, so its zero status says nothing of the
reply.
"""

import re

from . import shell
from .events import (DEPLOY, FAILED, HTTP, INSTALL, MIGRATE, NOTHING, PASSED, UNKNOWN, Event,
                     step_outcome)
from ..patterns import lazy

_INSTALLERS = {("pip", "install"), ("uv", "pip"), ("uv", "add"), ("uv", "sync"),
               ("poetry", "install"), ("poetry", "add"), ("pipenv", "install"),
               ("conda", "install"), ("mamba", "install"), ("npm", "install"), ("npm", "i"),
               ("npm", "ci"), ("npm", "add"), ("yarn", "add"), ("yarn", "install"),
               ("pnpm", "add"), ("pnpm", "install"), ("pnpm", "i"), ("bun", "add"),
               ("bun", "install"), ("bun", "i"), ("apt-get", "install"), ("apt", "install"),
               ("brew", "install"), ("cargo", "add"), ("cargo", "install"), ("go", "get"),
               ("gem", "install"), ("bundle", "install"), ("bundle", "add"),
               ("composer", "install"), ("composer", "require"), ("dotnet", "add"),
               ("apk", "add"), ("dnf", "install"), ("yum", "install"), ("pipx", "install"),
               ("uv", "tool"), ("rustup", "component"), ("npx", "install")}
_MIGRATIONS = {("alembic", "upgrade"), ("python manage.py", "migrate"), ("rails", "db:migrate"),
               ("rake", "db:migrate"), ("prisma", "migrate"), ("prisma", "db"),
               ("knex", "migrate:latest"), ("sequelize", "db:migrate"), ("artisan", "migrate"),
               ("php", "artisan"), ("flyway", "migrate"), ("diesel", "migration"),
               ("goose", "up"), ("supabase", "db"), ("drizzle-kit", "migrate"),
               ("drizzle-kit", "push"), ("typeorm", "migration:run"), ("migrate", "up"),
               ("django-admin", "migrate"), ("flask", "db")}
_DEPLOYERS = {("vercel", ""), ("netlify", "deploy"), ("fly", "deploy"), ("kubectl", "apply"),
              ("kubectl", "rollout"), ("kubectl", "set"), ("kubectl", "create"),
              ("helm", "upgrade"), ("helm", "install"), ("terraform", "apply"),
              ("pulumi", "up"), ("firebase", "deploy"), ("gcloud", ""), ("sam", "deploy"),
              ("cdk", "deploy"), ("serverless", "deploy"), ("sls", "deploy"),
              ("wrangler", "deploy"), ("wrangler", "publish"), ("wrangler", "pages"),
              ("docker", "push"), ("podman", "push"), ("npm", "publish"), ("yarn", "publish"),
              ("pnpm", "publish"), ("twine", "upload"), ("poetry", "publish"),
              ("cargo", "publish"), ("gh", "release"), ("ansible-playbook", ""),
              ("eb", "deploy"), ("railway", "up"), ("heroku", ""), ("az", ""),
              ("aws", ""), ("uv", "publish"), ("flutter", "pub"), ("skaffold", "run"),
              ("terraform", "plan"), ("helm", "template"), ("cdk", "diff")}
_DEPLOY_SCRIPT = lazy(r"(?:^|[:_./-])(?:deploy|release|publish|ship|rollout)(?:$|[:_./-])",
                            re.I)
_DRY = lazy(r"^(?:--dry-run(?:=\S+)?|--dryrun|--plan-only|--noop|--check|--simulate|"
                  r"--what-if|--no-execute-changeset)$")
_ENV_WORDS = {"production": "production", "prod": "production", "prd": "production",
              "live": "production", "staging": "staging", "stage": "staging",
              "stg": "staging", "development": "development", "dev": "development",
              "qa": "qa", "preview": "preview", "canary": "canary", "sandbox": "sandbox",
              "uat": "uat", "test": "test", "testing": "test"}


def envs_in(words):
    """The environments a command's words name: production, staging, ..."""
    found = []
    for word in words:
        low = word.lower()
        if low in ("--prod", "--production", "-p"):
            found.append("production")
            continue
        for part in re.split(r"[^a-z]+", low):
            env = _ENV_WORDS.get(part)
            if env and env not in found:
                found.append(env)
    return found


def _package(word):
    """A package named on an install's command line, without its version."""
    word = word.strip()
    if word.startswith("@"):
        name = "@" + re.split(r"@|==|>=|<=|~=|!=|>|<|\[", word[1:], 1)[0]
    else:
        name = re.split(r"@|==|>=|<=|~=|!=|>|<|\[|=", word, 1)[0]
    return name.lower()


_PIP_DONE = lazy(r"^Successfully installed (.+)$")
_ALREADY = lazy(r"^(?:Requirement already satisfied: (\S+)|(\S+) is already the newest "
                      r"version|Package '?(\S+?)'? is already installed)")
_INSTALL_FAILED = lazy(
    r"^(?:ERROR: (?:Could not|No matching|Failed|Cannot|Exception)|error: subprocess-exited|"
    r"npm ERR! |npm error (?:code|ERESOLVE|\d{3}|404)|E: (?:Unable to locate|Package .* has no)|"
    r"error: failed to |Could not resolve dependency|ERR_PNPM_|error An unexpected error|"
    r"Error: No such keg|error: could not find|Because .* version solving failed|"
    r"×|error: Failed to)")
_INSTALL_DONE = lazy(r"^(?:added \d+ packages?|up to date|Installed \d+ packages? in|"
                           r"Resolved \d+ packages? in|Done in [\d.]+s|Setting up \S+|"
                           r"Installing collected packages|Successfully installed|Audited \d+)")


def _install(read, step, sub):
    args = list(step.args)
    after = args[args.index(next(a for a in args if a.lower() == sub)) + 1:] if sub else args
    if step.program == "uv" and sub in ("pip", "tool"):
        after = after[1:]
    words, skip = [], False
    for word in after:
        if skip:
            skip = False
            continue
        if word in ("-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t",
                    "--target", "--index-url", "-i", "--extra-index-url", "--prefix", "-f"):
            skip = word not in ("-e", "--editable")
            continue
        if word.startswith("-") or shell._is_redirect(word) or word in (".",):
            continue
        words.append(word)
    packages = [_package(w) for w in words if not w.startswith(("http", "git+", "/", "./"))]
    parts = []
    done = None
    for index, line in enumerate(read.lines):
        line = line.strip()
        match = _PIP_DONE.match(line)
        if match:
            done = (line, index)
            for item in match.group(1).split():
                name = item.rsplit("-", 1)[0].lower()
                parts.append((name, "installed", line))
        already = _ALREADY.match(line)
        if already:
            name = next(g for g in already.groups() if g)
            parts.append((_package(name), "present", line))
        if done is None and _INSTALL_DONE.match(line):
            done = (line, index)
    failed = next(((l.strip(), i) for i, l in enumerate(read.lines)
                   if _INSTALL_FAILED.match(l.strip())), None)
    outcome, line, index = step_outcome(read, step, passed_line=done, failed_line=failed)
    if any(_DRY.match(a) for a in after) or "--dry-run" in args:
        outcome, line, index = NOTHING, "", -1
    return Event(read.index, INSTALL, f"{step.program} {sub}".strip(), "install", outcome,
                 read.turn.exit_status, read.status_of(step), line, index, tuple(packages),
                 command=" ".join(step.words)[:300], parts=tuple(parts))


_DEPLOY_DONE = lazy(
    r"^(?:(?:[\u2705\u2714\u2713]\s*)?Production: https?://|Deploy is live|(?:\W\s*)?Deployed\b|.*successfully "
    r"rolled out|Apply complete! Resources:|STATUS: deployed|(?:\W\s*)?Deploy complete|"
    r"\+ \S+@\d|Published \S+|View at:|\S+: digest: sha256:[0-9a-f]+ size: \d+|"
    r"Successfully (?:deployed|published|uploaded)|Current Version:|(?:\W\s*)?Success! |"
    r"Released \S+|deployment \"\S+\" successfully rolled out|.* (?:configured|created)$)", re.I)
_DEPLOY_FAILED = lazy(
    r"^(?:Error: |ERROR: |Error! |error: |Deployment failed|Deploy failed|Release failed|"
    r"npm ERR! |npm error |denied: |unauthorized: |.*\bFAILED\b|Error from server)")


def _deploy(read, step, sub):
    args = [a for a in step.args]
    dry = any(_DRY.match(a) for a in args) or (step.program, sub) in (
        ("terraform", "plan"), ("helm", "template"), ("cdk", "diff"))
    done = next(((l.strip(), i) for i, l in reversed(list(enumerate(read.lines)))
                 if _DEPLOY_DONE.match(l.strip())), None)
    failed = next(((l.strip(), i) for i, l in enumerate(read.lines)
                   if _DEPLOY_FAILED.match(l.strip())), None)
    outcome, line, index = step_outcome(read, step, passed_line=done, failed_line=failed)
    if outcome == FAILED and failed is None and read.status_of(step) != "own":
        outcome = UNKNOWN
    if dry:
        outcome, line, index = NOTHING, "", -1
    envs = envs_in(args + [step.program])
    operation = f"{step.program} {sub}".strip()
    return Event(read.index, DEPLOY, operation, f"deploy:{operation}", outcome,
                 read.turn.exit_status, read.status_of(step), line, index, tuple(envs),
                 detail=(("dry_run", "yes"),) if dry else (),
                 command=" ".join(step.words)[:300])


_MIGRATE_DONE = lazy(r"^(?:Applying \S+\.\.\. OK|Running upgrade|No migrations to apply|"
                           r"All migrations have been successfully applied|Migrated: |"
                           r"Your database is now in sync|Batch \d+ run: \d+ migrations?|"
                           r"== \d+ \w+: migrated|Nothing to migrate)", re.I)


def _migrate(read, step, sub):
    done = next(((l.strip(), i) for i, l in reversed(list(enumerate(read.lines)))
                 if _MIGRATE_DONE.match(l.strip())), None)
    failed = next(((l.strip(), i) for i, l in enumerate(read.lines)
                   if re.match(r"^(?:Error|ERROR|error|Traceback|django\.db\.\w+Error|"
                               r"sqlalchemy\.exc\.)", l.strip())), None)
    outcome, line, index = step_outcome(read, step, passed_line=done, failed_line=failed)
    if any(_DRY.match(a) for a in step.args) or "--plan" in step.args or "--sql" in step.args:
        outcome, line, index = NOTHING, "", -1
    operation = f"{step.program} {sub}".strip()
    return Event(read.index, MIGRATE, operation, "migrate", outcome, read.turn.exit_status,
                 read.status_of(step), line, index, command=" ".join(step.words)[:300])


_HTTP_LINE = lazy(r"^(?:<\s*)?HTTP/[\d.]+\s+(\d{3})\b")
_WGET = lazy(r"HTTP request sent, awaiting response\.\.\. (\d{3})\b")
_WRITE_OUT = lazy(r"%\{(?:http_code|response_code)\}")
_CURL_ERROR = lazy(r"^curl: \((\d+)\) (.*)$")


def _http(read, step):
    args = list(step.args)
    url = next((a for a in args if re.match(r"^(?:https?://|localhost[:/]|127\.0\.0\.1[:/]|"
                                            r"\[::1\])", a)), "")
    code, line, index = None, "", -1
    prints_code = any(_WRITE_OUT.search(a) for a in args)
    for number, raw in enumerate(read.lines):
        text = raw.strip()
        found = _HTTP_LINE.match(text) or _WGET.search(text)
        if found:
            code, line, index = int(found.group(1)), text, number
        elif prints_code and re.fullmatch(r"(?:\D{0,20}[:= ])?([1-5]\d\d)", text):
            code, line, index = int(re.search(r"[1-5]\d\d", text).group(0)), text, number
    error = next(((l.strip(), i) for i, l in enumerate(read.lines) if _CURL_ERROR.match(l.strip())),
                 None)
    status = read.turn.exit_status
    share = read.status_of(step)
    if share == "background":
        outcome = UNKNOWN
    elif error is not None:
        outcome, line, index = FAILED, error[0], error[1]
    elif code is not None:
        outcome = PASSED if code < 400 else FAILED
    elif share == "own" and status == 22 and "-f" in "".join(a for a in args if a.startswith("-")):
        outcome = FAILED
    elif share == "own" and status and status > 0:
        outcome = FAILED
    else:
        outcome = UNKNOWN  # a plain curl exits 0 on a 404: its status says nothing
    return Event(read.index, HTTP, step.program, f"http:{url}", outcome, status, share, line,
                 index, (url,) if url else (),
                 detail=(("code", str(code)),) if code is not None else (),
                 command=" ".join(step.words)[:300])


def read(read, taken):
    """(step, Event) of every install, migration, deploy and HTTP request of one turn."""
    for step in read.line.runs:
        if id(step) in taken:
            continue
        sub = shell.subcommand(step).lower()
        program = step.program
        if program in ("curl", "wget", "http", "https", "xh", "httpie"):
            yield step, _http(read, step)
        elif (program, sub) in _INSTALLERS or (program == "yarn" and not sub):
            yield step, _install(read, step, sub)
        elif (program, sub) in _MIGRATIONS and not (program == "php" and "migrate" not in
                                                    [a.lower() for a in step.args]):
            yield step, _migrate(read, step, sub)
        elif (program, sub) in _DEPLOYERS or (program, "") in _DEPLOYERS and sub in (
                "deploy", "up", "publish", "release", "run", "") or (
                program in ("npm", "yarn", "pnpm", "bun", "make", "just", "task") and
                _DEPLOY_SCRIPT.search(_script(step))) or _DEPLOY_SCRIPT.search(program):
            if (program, "") in _DEPLOYERS and (program, sub) not in _DEPLOYERS and not \
                    _deploys(step):
                continue
            yield step, _deploy(read, step, sub)


def _script(step):
    names = [a for a in step.args if not a.startswith("-")]
    if names and names[0] in ("run", "run-script"):
        names = names[1:]
    return names[0] if names else ""


def _deploys(step):
    """True if a cloud tool's words deploy (`gcloud run deploy`, `aws s3 sync`, `vercel`)."""
    words = [a.lower() for a in step.args if not a.startswith("-")]
    if step.program == "vercel":
        return not words or words[0] in ("deploy", "--prod")
    if step.program == "ansible-playbook":
        return True
    return bool({"deploy", "publish", "release", "sync", "update-service", "up",
                 "container:release", "push"} & set(words))
