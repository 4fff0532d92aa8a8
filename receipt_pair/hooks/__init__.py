"""Where agents stop: claims from a final message, the hook's policy, its session file and records. Imports pair and below."""
