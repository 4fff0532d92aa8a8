"""Re-deriving offline: replay, expiry, score, selftest. Imports everything below hooks."""
