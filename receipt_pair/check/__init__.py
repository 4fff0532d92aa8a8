"""The quote check: plain code, no model, no I/O. Imports only errors, turn and answers."""
