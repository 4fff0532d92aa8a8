"""Records on disk: safe reading, JSON Lines, answers files, receipts, the ledger's format. Imports nothing above check."""
