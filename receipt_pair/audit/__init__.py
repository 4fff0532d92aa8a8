"""Re-deriving offline: replay, expiry, the ledger, score, selftest. Imports pair and below."""
