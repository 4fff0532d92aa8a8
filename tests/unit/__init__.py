"""The package's unit tests: fast, no network, no model (the fake server plays replies)."""
