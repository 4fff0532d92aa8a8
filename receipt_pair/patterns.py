"""Regular expressions compiled the first time they are used.

A module that holds many large expressions pays for compiling every one of them whenever it
is imported, though a run uses few: the hook an agent runs at each stop, on a short
session, compiled 381 of the package's expressions and used 131. `lazy(pattern, flags)`
is the compiled expression in all but its start: every method and attribute of it is there,
and the first use compiles it (once; two threads that race compile the same thing twice).
"""

import re


class LazyPattern:
    """A re.Pattern compiled on first use; `pattern` is its text from the start. What is
    asked of it (a method, `groups`) is kept on it once asked, so a later use costs what a
    use of the compiled expression costs."""

    def __init__(self, pattern, flags=0):
        self.pattern, self._flags, self._compiled = pattern, flags, None

    def compiled(self):
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    def __getattr__(self, name):  # only for what is not kept on it yet
        value = getattr(self.compiled(), name)
        setattr(self, name, value)
        return value

    def __repr__(self):
        return f"lazy({self.pattern!r}, {self._flags!r})"


def lazy(pattern, flags=0):
    return LazyPattern(pattern, flags)
