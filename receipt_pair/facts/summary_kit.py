"""What a runner's summary is, and the shapes of reader every runner's is read by (a line
per match, counts one per line)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    """A runner's own count of a run, and the line it printed it on."""

    passed: int
    failed: int  # failures and errors
    skipped: int  # skipped, deselected, pending, todo: not run
    line: str
    index: int  # the line's place among the output's screen lines
    runner: str

    @property
    def ran(self):
        return self.passed + self.failed


def words(text, separator):
    numbers = {}
    for part in text.split(separator):
        count, _, word = part.strip().partition(" ")
        if not count.isdigit():
            return None
        numbers[word.strip()] = numbers.get(word.strip(), 0) + int(count)
    return numbers


def each(pattern, make):
    def read(lines):
        found = None
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if match:
                value = make(match, line, index)
                if value is not None:
                    found = value
        return found
    return read


def n(match, group):
    value = match.group(group)
    return int(value) if value else 0


def counted_lines(pattern, names, runner):
    """A runner that prints one count per line ("5 pass" / "0 fail", "# pass 5"): the last
    block of such lines, quoted by its failing line if it has one, else its passing one."""
    def read(lines):
        numbers, where = {}, {}
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if not match:
                continue
            word, count = names(match)
            numbers[word] = int(count)
            where[word] = index
        if "pass" not in numbers and "fail" not in numbers:
            return None
        key = "fail" if numbers.get("fail") else "pass"
        index = where.get(key, max(where.values()))
        return Summary(numbers.get("pass", 0), numbers.get("fail", 0),
                       sum(numbers.get(k, 0) for k in ("skip", "skipped", "todo", "cancelled")),
                       lines[index].strip(), index, runner)
    return read
