"""Table t15's reading of a log: t14's, with gh's columns taken off where the whole log is a
CI job's log, not where one turn looks like a CI step's.

t14 took the columns `gh run view --log` puts before each line (`job<TAB>step<TAB>` then the
runner's timestamp) off any turn whose command ran no program it knew to print logs
(`gh`, `cat`, `tail`, ...): a review found programs it did not know (`unzip -p`, `nl`,
`zcat`, a script of the project's) printing another run's log in an agent's session, which
t14 then read as that turn's own tests or push. t15 takes them off only where every turn of
the log that printed anything printed lines behind gh's columns (and, as in t14, not in a
turn that runs a program printing logs): the log is a
CI job's, cut into its steps, as a collector or a bot hands it over (receipt-pair's own
reader of a job log takes the columns off as it reads). In an agent's session, where edits,
reads and git print their own lines, a CI log printed in one turn keeps its columns and is
that turn's output, as t13 read it. A few lines outside the columns in a turn (at most three, and fewer than half:
a note that lines were trimmed, a wrapped line) leave it a CI step's.
"""

from dataclasses import dataclass

from . import reading_t14


@dataclass
class LogT15(reading_t14.LogT14):
    """A Log read by table t15."""


LOG = LogT15  # the class of the logs this module reads (table.py)
# How many lines of a CI step's turn may stand outside gh's columns.
_OTHER_LINES = 3


def read_events(turns, log_class=LogT15):
    """The LogT15 (or `log_class`, a later table's) of `turns` (Turns, oldest first)."""
    return reading_t14.read_events(turns, log_class, _columns_off)


def _columns_off(turns):
    """The turns with gh's columns taken off as t14 takes them off (not in a turn that
    runs a program printing logs), where every turn that printed anything printed lines
    behind them; else the turns as they are."""
    printed = [turn for turn in turns if (turn.output or "").strip()]
    if not printed or not all(_all_behind_columns(turn.output) for turn in printed):
        return list(turns)
    return [reading_t14.without_gh_columns(turn) for turn in turns]


def _all_behind_columns(output):
    """True if the output's lines are behind gh's columns, but for a few (at most
    `_OTHER_LINES`, and fewer than half): a note that lines were trimmed, a line a tool
    wrapped."""
    lines = [line for line in output.split("\n") if line.strip()]
    other = sum(not reading_t14.behind_columns(line) for line in lines)
    return other <= _OTHER_LINES and 2 * other < len(lines)
