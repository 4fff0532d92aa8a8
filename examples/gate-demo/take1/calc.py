"""Prices with VAT. Take 1: the agent's first try."""

STANDARD_RATE = 0.2


def vat(net, rate=STANDARD_RATE):
    return round(net * rate, 2)


def gross(net, rate=STANDARD_RATE):
    return round(net + vat(net), 2)  # the bug: the rate given is never passed on
