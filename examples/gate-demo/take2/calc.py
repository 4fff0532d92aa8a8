"""Prices with VAT. Take 2: the fix."""

STANDARD_RATE = 0.2


def vat(net, rate=STANDARD_RATE):
    return round(net * rate, 2)


def gross(net, rate=STANDARD_RATE):
    return round(net + vat(net, rate), 2)
