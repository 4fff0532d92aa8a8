"""Asking the two models: one claim, a batch, the gate and its witness. Imports check, store, logs, readers and server."""
