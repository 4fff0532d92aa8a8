"""receipt-pair: does the agent's own log show that it is done?

Two small local models each quote the output line that decides; plain code checks every
quote character for character; a fixed rule combines the two checked answers into
`shown`, `contradicted` or `not shown`.
"""

__version__ = "0.1.0"

__all__ = ["__version__", "check_claim"]


def __getattr__(name):
    # check_claim is imported lazily so `import receipt_pair` stays cheap.
    if name == "check_claim":
        from .pair import check_claim

        return check_claim
    raise AttributeError(name)
