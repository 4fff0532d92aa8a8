"""A log read once into its events: every turn's command line parsed as a shell would, its
output made screen lines, and each step given to the family that reads it (tests.py,
git.py, builds.py, installs.py, files.py, state.py); a step no family reads is any other
command, with its exit status, whether it finished, and whether it only echoed text.
"""

from . import builds, files, git, installs, shell, state, tests
from .events import (COMMAND, CUT, ECHO, Event, Log, Read, step_outcome)
from .endings import cut_line
from .text import command_text, screen_lines


def read_events(turns):
    """The Log of `turns` (Turns, oldest first)."""
    readers = (tests.read, git.read, builds.read, installs.read, files.read, state.read)
    log = Log(turns=len(turns))
    for index, turn in enumerate(turns):
        line = shell.parse(command_text(turn.cmd))
        read = Read(index, turn, line, tuple(screen_lines(turn.output)))
        log.lines.append(read.lines)
        log.texts.append((turn.cmd or "") + "\n" + (turn.output or ""))
        taken = set()
        found = []
        for family_read in readers:
            for step, event in family_read(read, taken):
                taken.add(id(step))
                found.append(event)
        for step in line.runs:
            if id(step) not in taken:
                found.append(command_event(read, step))
        if not line.runs and turn.kind == "edit":
            found.extend(files.tool_edit(read))
        log.events.extend(found)
    return log


def command_event(read, step):
    """The event of a step no family reads: any other command."""
    cut = cut_line(read.lines)
    if step.echoes:
        outcome, line, index = ECHO, "", -1
    elif cut is not None or (read.turn.exit_status in (124, 130, 137, 143) and
                             read.status_of(step) == "own"):
        outcome, (line, index) = CUT, cut or ("", -1)
    else:
        outcome, line, index = step_outcome(read, step, failed_line=_missing_program(read,
                                                                                   step))
    return Event(read.index, COMMAND, step.program, step.program, outcome,
                 read.turn.exit_status, read.status_of(step), line, index,
                 tuple(shell.positional(step.args))[:8], command=" ".join(step.words)[:300])


def _missing_program(read, step):
    """(the line saying the step's program was not found, its index), or None."""
    name = step.program.split(" ")[-1]
    for index, line in enumerate(read.lines):
        low = line.lower()
        if ("command not found" in low or "not recognized as" in low or
                "no such file or directory" in low and name in low) and name and \
                name.lower() in low:
            return line.strip(), index
    return None
