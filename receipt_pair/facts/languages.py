"""Claims of a push, a commit or a tag said in French, Spanish, Portuguese, German, Russian or
Chinese, read as the English words the frame knows (table t7).

Agents answer in their user's language: "Commit poussé", "Запушено на `main`", "推送成功".
The frame reads English words, so such a claim had no kind, and the facts never decided
it. Only the plain, positive forms are read: a claim that also holds a word of negation,
failure, doubt or intent in that language ("n'a pas été poussé", "не удалось", "未推送",
"prêt à pousser") is left exactly as it was, to the models, since a wrong reading there
would turn an admitted failure into a claim of success.
"""

import re

from ..patterns import lazy

# Words that say no, a failure, doubt or what is still to do.
_DOUBT = lazy(
    r"\b(?:pas|ne|n'|jamais|aucun\w*|échou\w*|erreur\w*|impossible|refus\w*|rejet\w*|"
    r"pourr\w*|devr\w*|prêts?|prête?s?|reste\w*|avant|après|si|quand|"
    r"no|nunca|ning\w*|fall\w*|error\w*|rechaz\w*|deber\w*|podr\w*|listo|lista|pendiente\w*|"
    r"cuando|antes|después|não|nao|falh\w*|erro|rejeit\w*|pronto|quando|"
    r"nicht|kein\w*|fehl\w*|abgelehnt|sollte\w*|könnte\w*|bereit|wenn|bevor|noch|"
    r"не|нет|ни|ошибк\w*|отклон\w*|нужно|надо|можно|готов\w*|если|когда|перед|после)\b|"
    r"[未没無无不失败錯错拒需可准待]", re.I)

# (pattern, the English words it stands for), applied in order.
_WORDS = tuple((lazy(pattern, re.I), english) for pattern, english in (
    # French
    (r"\ble\s+commit\s+a\s+été\s+créé\b", "created the commit"),
    (r"\bcommit\s+(?:a\s+été\s+)?créé\b", "created a commit"),
    (r"\btag\s+(?:a\s+été\s+)?créé\b", "created a tag"),
    (r"\b(?:a|ont)\s+été\s+(?=commit|pouss|push)", ""),
    (r"\bcommit(?:t)?é(?:e|s|es)?\b", "committed"),
    (r"\bpouss(?:é|ée|és|ées)\b|\bpush(?:é|ée|és|ées)\b", "pushed"),
    (r"(?<=pushed)\s+(?:sur|vers|dans)\b", " to"),
    # Spanish and Portuguese
    (r"\b(?:se\s+)?sub(?:ido|idos|ieron|ió|imos)\s+a\s+(?=GitHub|GitLab|origin|main\b|"
     r"master\b|la\s+rama|el\s+repositorio|remoto)", "pushed to "),
    (r"\b(?:hice|hicimos|fiz|fizemos)\s+(?:el\s+|o\s+)?push\b", "pushed"),
    (r"\b(?:hice|hicimos|fiz|fizemos)\s+(?:el\s+|o\s+)?commit\b", "committed"),
    (r"\bcommit\s+(?:realizado|creado|criado|feito)\b", "created a commit"),
    (r"\bempuj(?:ado|ados|aron|é)\b|\benviado\s+para\b", "pushed to"),
    # German
    (r"\bgepusht\b|\bgepushed\b", "pushed"),
    (r"\bcommittet\b|\beingecheckt\b", "committed"),
    # Russian
    (r"\bзапуш\w*\s+на\b|\bотправл\w*\s+на\b", "pushed to"),
    (r"\bзапуш\w*", "pushed"),
    (r"\bзакомм?ич\w*|\bзакоммит\w*", "committed"),
    (r"\bкоммит\s+создан\b", "created a commit"),
    # Chinese
    (r"(?:已)?推送(?:到|至)", "pushed to "),
    (r"已推送|推送成功|推送完成", "pushed"),
    (r"已提交|提交成功|提交完成", "committed"),
))


def in_english(claim):
    """`claim` with the words of a push, a commit or a tag said in another language as the
    English ones the frame reads; `claim` itself where it holds none, or holds a word of
    negation, failure, doubt or intent."""
    text = claim or ""
    if not any(pattern.search(text) for pattern, _ in _WORDS) or _DOUBT.search(text):
        return text
    for pattern, english in _WORDS:
        text = pattern.sub(english, text)
    return text
