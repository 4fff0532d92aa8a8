"""receipt-pair: does the agent's own log show that it is done?

Two small local models each quote the output line that decides; plain code checks every
quote character for character; a fixed rule combines the two checked answers into
`shown`, `contradicted` or `not shown`.

    from receipt_pair import check_claim, read_log
    turns, _ = read_log("session.jsonl")
    result = check_claim("the tests pass", turns)
"""

__version__ = "0.2.0"

# Where each public name lives; imported on first use so `import receipt_pair` stays cheap.
_PUBLIC = {
    # one claim, one log
    "check_claim": "pair.claim", "ClaimResult": "pair.claim", "Settings": "pair.settings",
    "read_log": "logs", "Turn": "turn", "Keeper": "pair.receipts",
    # a claim in front of an action
    "gate": "pair.gate", "GateOptions": "pair.gate",
    # many claims: items, answers, scores
    "read_items": "logs.items", "run_batch": "pair.batch", "read_answers": "store.records",
    "score": "audit.score", "ARMS": "audit.score", "MEASURES": "audit.score",
    # offline: replay, receipts, the ledger, expiry
    "replay_answers": "audit.replay", "replay_receipt": "audit.replay",
    "append_receipt": "store.ledger", "read_ledger": "store.ledger",
    "verify_ledger": "audit.ledger", "check_ledger": "audit.ledger",
    "judge_receipt": "audit.expiry", "verify_reply": "audit.verify",
    # readers, claims, the self-test
    "get_reader": "readers", "READERS": "readers", "unpack_replies": "readers",
    "split_claims": "hooks.claims",
    # a model server, and the sha256 that pins what a model was asked
    "Client": "server.client", "request_digest": "server.request",
    "run_probes": "audit.selftest",
    # the errors, each a ReceiptPairError whose message is the line a user reads
    "ReceiptPairError": "errors", "UsageError": "errors", "InputError": "errors",
    "ServerError": "errors", "ModelCallFailed": "errors", "main": "cli",
}
__all__ = ["__version__", *_PUBLIC]


def __getattr__(name):
    if name in _PUBLIC:
        from importlib import import_module

        return getattr(import_module(f".{_PUBLIC[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
