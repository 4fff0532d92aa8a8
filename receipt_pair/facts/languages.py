"""Claims of a push, a commit or a tag said in French, Spanish, Portuguese, German, Russian or
Chinese, read as the English words the frame knows (table t7).

Agents answer in their user's language: "Commit poussé", "Запушено на `main`", "推送成功".
The frame reads English words, so such a claim had no kind, and the facts never decided
it. A wrong reading here would turn an intent, a question or an admitted failure into a
claim of success, or lose the branch the claim names, so only a closed form is read: every
word of the claim must be one this module knows (a past form of push or commit, "created",
an auxiliary, an article, "the changes", "successfully", a remote's name, a preposition of
where to, a branch or tag word) or a name in the one place a name may stand (after "to" or
a branch or tag word, in backticks or shaped as a branch, or a commit's sha in backticks).
Any other word ("demain", "sera", "запушу", "之前", "README", "nach dem Review"), a question
mark, or a mark that takes the claim back (an unchecked box, a strike-through, a cross)
leaves the claim exactly as it was, to the models. Two attack passes found every one of
those read wrongly by earlier versions.
"""

import re

from ..patterns import lazy

_PUSHED = lazy(r"^(?:pouss|push)ée?s?$|^запушен[оаы]?$|^запушил[иа]?$|^gepush(?:t|ed)$|"
               r"^sub(?:ido|idos|ida|idas|ieron|ió)$|^empuj(?:ado|ados|é|aron)$|"
               r"^enviad[oa]s?$", re.I)
_COMMITTED = lazy(r"^commit(?:t)?ée?s?$|^закоммичен[оаы]?$|^закоммитил[иа]?$|^committet$|"
                  r"^eingecheckt$|^commit(?:e)?ad[oa]s?$", re.I)
_CREATED = lazy(r"^créée?s?$|^cread[oa]s?$|^criad[oa]s?$|^erstellt$|^создан[оаы]?$", re.I)
_COMMIT_WORD = {"commit", "commits", "коммит", "коммиты"}
_TAG_WORD = {"tag", "тег", "etiqueta"}
_BRANCH_WORD = {"branche", "rama", "ветку", "ветка", "branch", "ramo"}
_TO = {"sur", "vers", "dans", "a", "al", "en", "para", "auf", "nach", "на", "в"}
_REMOTE = {"github", "gitlab", "bitbucket", "origin", "dépôt", "distant", "repositorio",
           "remoto", "repositório", "remote", "удалённый", "удаленный", "репозиторий"}
_FILLER = {
    # auxiliaries and pronouns of a past form
    "a", "ont", "été", "est", "sont", "se", "ha", "han", "sido", "fue", "fueron", "foi",
    "foram", "wurde", "wurden", "ist", "sind", "hat", "habe", "haben", "было", "был", "была",
    "были", "j'ai", "j’ai", "ai", "avons", "nous", "he", "hemos", "ich", "wir",
    # articles and possessives
    "le", "la", "les", "l'", "l’", "un", "une", "du", "de", "des", "tes", "mes", "nos", "vos",
    "el", "los", "las", "lo", "o", "os", "as", "die", "der", "das", "den", "dem",
    # what was pushed, and how it went
    "changements", "modifications", "cambios", "mudanças", "alterações", "änderungen",
    "изменения", "código", "codigo", "code", "код", "tous", "toutes", "todos", "todas", "alle",
    "все", "et", "y", "e", "und", "и", "avec", "succès", "con", "éxito", "exito", "com",
    "sucesso", "erfolgreich", "успешно", "status", "statut", "bien", "correctement",
    "correctamente", "corretamente"}
_SHA = lazy(r"^[0-9a-f]{7,40}$")
_TOKEN = lazy(r"`[^`\n]+`|[\w'’./@-]+|\?|¿|\S", re.U)
_CHINESE = lazy(r"^[^\w?？]*(?:(?:代码|更改|修改|提交)?(已推送|推送成功|推送完成)|"
                r"(已提交|提交成功|提交完成))[^\w?？]*$")


# Marks that take a claim back: an unchecked box, a strike-through, a cross.
_TAKEN_BACK = lazy(r"\[\s\]|~~|[\u274c\u2717\u2718\u26d4\U0001f6ab\u2716]")
# A name that can only be a branch: in backticks, with a slash, or a usual branch name.
_BRANCH_NAME = lazy(r"^[\w.-]+/[\w./-]+$|^(?:main|master|develop|development|dev|trunk|"
                    r"staging|production|prod|release|gh-pages)$", re.I)


def in_english(claim):
    """`claim` as English words the frame reads, where it is a closed form of a push, a
    commit or a tag in another language; else `claim` itself."""
    text = claim or ""
    if _TAKEN_BACK.search(text):
        return text
    chinese = _CHINESE.match(text)
    if chinese:
        return "pushed" if chinese.group(1) else "committed"
    said = _read(text)
    return said if said is not None else text


def _read(text):
    """The English words of a closed form, or None where a word is not one known here."""
    verbs, sha, target, named, after = [], "", "", "", ""
    for token in _tokens(text):
        low = token.lower().strip("`")
        if token in ("?", "¿"):
            return None
        quoted = token.startswith("`")
        if after in ("to", "branch", "tag") and (quoted or low not in _FILLER | _BRANCH_WORD and
                                                 not _known(low) and re.search(r"\w", token)):
            if (named if after == "tag" else target):
                return None  # two places or names: which one the facts must show is not sure
            if after == "tag":
                named = low
            elif quoted or _BRANCH_NAME.match(low):
                target = low
            else:
                return None  # "nach dem Review", "sur le serveur": a word, not a branch
            after = ""
            continue
        if quoted and not _SHA.match(low):
            return None  # a name in backticks where no name may stand
        if _PUSHED.match(low):
            verbs.append("pushed")
        elif _COMMITTED.match(low):
            verbs.append("committed")
        elif _CREATED.match(low):
            verbs.append("created")
        elif low in _TO:
            after = "to" if not after else after
        elif low in _BRANCH_WORD:
            after = "branch"
        elif low in _TAG_WORD:
            after, verbs = "tag", verbs + ["tag"]
        elif low in _REMOTE:
            if target not in ("", "the remote"):
                return None
            target, after = "the remote", ""
        elif quoted:
            sha = low
        elif low in _COMMIT_WORD:
            verbs.append("commit")
        elif low in _FILLER or not re.search(r"\w", token):
            continue
        else:
            return None
    return _english(verbs, sha, target, named)


def _known(low):
    return bool(_PUSHED.match(low) or _COMMITTED.match(low) or _CREATED.match(low) or
                low in _TO | _REMOTE | _COMMIT_WORD | _TAG_WORD)


def _tokens(text):
    """The claim's words, a word of two known words joined by a slash ("créé/poussé") as
    two, and a name in backticks or quotes as one."""
    for token in _TOKEN.findall(text):
        if not token.startswith("`") and len(token) > 1:
            token = token.rstrip(".,;:!")
        pieces = token.split("/")
        if len(pieces) > 1 and all(_known(p.lower()) for p in pieces):
            yield from pieces
        else:
            yield token


def _english(verbs, sha, target, tag):
    """English words for what was said: "created a commit and pushed to main"."""
    did = []
    if "created" in verbs and "tag" in verbs:
        did.append(f"created tag {tag}" if tag else "created a tag")
    elif "created" in verbs and "commit" in verbs:
        did.append("created a commit")
    elif "tag" in verbs and tag and "pushed" in verbs:
        did.append(f"pushed tag {tag}")
        verbs = [v for v in verbs if v != "pushed"]
    elif "tag" in verbs:
        return None  # a tag word with nothing done to a named tag
    if "created" in verbs and not did:
        return None  # created what: not a commit or a tag
    if "committed" in verbs:
        did.append("committed")
    if "pushed" in verbs:
        did.append("pushed" + (f" to {target}" if target else ""))
    elif target:
        return None  # a place with no push
    if not did:
        return None
    return (f"commit {sha}: " if sha else "") + " and ".join(did)
