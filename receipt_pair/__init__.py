"""receipt-pair: does the agent's own log show that it is done?

Two small local models each quote the output line that decides; plain code checks every
quote character for character; a fixed rule combines the two checked answers into
`shown`, `contradicted` or `not shown`.

    from receipt_pair import check_claim, read_log
    turns, _ = read_log("session.jsonl")
    result = check_claim("the tests pass", turns)
"""

__version__ = "0.2.0"

__all__ = ["__version__", "check_claim", "read_log", "Turn", "ReceiptPairError"]

# Where each public name lives; imported on first use so `import receipt_pair` stays cheap.
_PUBLIC = {
    "check_claim": "pair",
    "read_log": "logs",
    "Turn": "logs",
    "ReceiptPairError": "errors",
}


def __getattr__(name):
    if name in _PUBLIC:
        from importlib import import_module

        return getattr(import_module(f".{_PUBLIC[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
