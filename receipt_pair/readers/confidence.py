"""How sure a model was of its verdict, from the token probabilities a server returns.

llama-server returns, for each generated token, the top alternatives with their log
probabilities from before sampling, even under a JSON grammar. At the verdict's first token
the alternatives that begin "shown", "contradicted" and "not_shown" are summed and
renormalised over the three: the verdict's probability. Plain arithmetic over what the
server sent; kept in the answer so the decision it feeds replays offline.
"""

import math

from ..answers import VERDICTS

_KEY = '"verdict"'


def verdict_probabilities(reply, logprobs):
    """{verdict: probability} at the verdict's first token, or None when it cannot be read.

    `logprobs` is the server's `choices[0].logprobs` ({"content": [{"token", "logprob",
    "top_logprobs": [...]}, ...]}). The verdict is found in the text the tokens spell (a
    server may strip a code fence from the reply's content that the tokens still hold);
    `reply` must hold a verdict.
    """
    if not isinstance(logprobs, dict) or not isinstance(logprobs.get("content"), list):
        return None
    if not isinstance(reply, str) or _KEY not in reply:
        return None
    entries = logprobs["content"]
    if not all(isinstance(e, dict) and isinstance(e.get("token"), str) for e in entries):
        return None
    spelled = "".join(e["token"] for e in entries)
    if _KEY not in spelled:
        return None
    after = spelled.index(_KEY) + len(_KEY)
    colon = spelled.find(":", after)
    value = spelled.find('"', colon) + 1 if colon != -1 else 0
    if value <= 0:
        return None
    position = 0
    for entry in entries:
        token = entry["token"]
        if position + len(token) > value:
            return _renormalise(entry.get("top_logprobs"), value - position)
        position += len(token)
    return None


def _renormalise(alternatives, offset):
    if not isinstance(alternatives, list):
        return None
    mass = dict.fromkeys(VERDICTS, 0.0)
    for alternative in alternatives:
        if not isinstance(alternative, dict):
            continue
        token, logprob = alternative.get("token"), alternative.get("logprob")
        if not isinstance(token, str) or not isinstance(logprob, (int, float)):
            continue
        rest = token[offset:]
        if not rest:
            continue
        for verdict in VERDICTS:
            if verdict.startswith(rest) or rest.startswith(verdict):
                mass[verdict] += math.exp(max(logprob, -1e4))
    total = sum(mass.values())
    if total <= 0:
        return None
    return {verdict: round(p / total, 6) for verdict, p in mass.items()}
