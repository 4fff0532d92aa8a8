"""Table t11's reading of a log: t10's, with what set 12 (development data since run 12)
showed it read wrongly or not at all.

- A container image build that recorded no exit status (a CI job's log, one turn for the
  whole job) ends as BuildKit says in its own last steps: the image written or named
  (`#8 naming to docker.io/library/app:latest done`, `#8 writing image sha256:... done`)
  and that step's `#8 DONE`, with no step of the build in error (`#5 ERROR`, `ERROR: failed
  to solve`). t10 read such a build as ending unknown. Only where the turn runs one image
  build: two builds' steps in one output cannot be told apart.
- Text a CI step writes to its own report (`echo "## Published" >> $GITHUB_STEP_SUMMARY`,
  `$GITHUB_OUTPUT`) or to a device (`/dev/null`) edits no file a build or a test could use:
  t10 read the build before it as stale.
"""

from dataclasses import dataclass, replace

from . import reading_t10
from .events import BUILD, PASSED, UNKNOWN
from ..patterns import lazy

# BuildKit's own last steps of a build that ended well, and a step of it in error.
_IMAGE_DONE = lazy(r"^#(\d+) (?:naming to \S+|writing image sha256:[0-9a-f]+)(?: [\d.]+s)? done$")
_STEP_DONE = lazy(r"^#(\d+) DONE(?: [\d.]+s)?$")
_ERROR = lazy(r"^#\d+ (?:ERROR|CANCELED)\b|^ERROR\b|failed to solve|^error:|Error response from "
              r"daemon|^Error: ")
# What a command may write to that is no file of the project: a CI step's own report or
# outputs, a device.
_NO_FILE = lazy(r"^(?:\$\{?(?:GITHUB_STEP_SUMMARY|GITHUB_OUTPUT)\}?|/dev/(?:null|stdout|stderr|tty))$")
# The image builds BuildKit prints for.
_IMAGE_BUILDS = ("docker build", "docker buildx build", "docker compose build",
                 "podman build")
_BUILD_WORDS = lazy(r"\b(?:docker|podman)(?:\s+buildx)?(?:\s+compose)?\s+build\b")


@dataclass
class LogT11(reading_t10.LogT10):
    """A Log read by table t11."""

    @staticmethod
    def matters(path):
        """True if an edit of `path` can change what a run shows: t10's, but a CI system's
        own report of a step (`>> $GITHUB_STEP_SUMMARY`, `$GITHUB_OUTPUT`) and a device
        (`/dev/null`) are no file of the project's."""
        return reading_t10.LogT10.matters(path) and not _NO_FILE.match(path.strip().strip("'\""))


LOG = LogT11  # the class of the logs this module reads (table.py)


def read_events(turns):
    """The LogT11 of `turns` (Turns, oldest first)."""
    log = reading_t10.read_events(turns, LogT11)
    log.events = [_image_built(event, log) for event in log.events]
    return log


def _image_built(event, log):
    """An image build with no status of its own that t10 read as ending unknown, passed
    where BuildKit's own last steps say the image was written and none of its steps
    failed."""
    if event.family != BUILD or event.operation not in _IMAGE_BUILDS or \
            event.outcome != UNKNOWN or event.status is not None or event.status_is != "own":
        return event
    if len(_BUILD_WORDS.findall(log.commands[event.turn])) != 1:
        return event  # two builds in one turn: whose steps are whose is not sure
    lines = [line.strip() for line in log.lines[event.turn]]
    if any(_ERROR.search(line) for line in lines):
        return event
    named = [(index, found.group(1)) for index, found in
             ((i, _IMAGE_DONE.match(line)) for i, line in enumerate(lines)) if found]
    if not named:
        return event
    index, step = named[-1]
    if not any((_STEP_DONE.match(line) or [None, None])[1] == step for line in lines[index:]):
        return event
    return replace(event, outcome=PASSED, line=lines[index], line_index=index)
