"""Records on disk: safe reading, answers files, receipts, the ledger. Imports only the top."""
