"""Where agents stop: claims, the hook's policy, its session and records. Imports audit and below."""
