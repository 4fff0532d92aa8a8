"""Asking the two models: a claim, a batch, the gate. Imports check to server, never above."""
