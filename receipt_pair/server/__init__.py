"""Talking to the model server: HTTP, server kinds, request bodies. Imports only errors."""
