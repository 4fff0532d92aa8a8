"""Many claims: all of model A's questions, then model B's, each answer kept as it arrives.

A second run over the same answers file asks only what has no usable answer yet. A server
that goes away stops the run (nothing is recorded for a question that was never asked);
an error the server answers for one question is recorded, and that question is asked
again by the next run.
"""

import concurrent.futures
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..store import jsonl, records
from ..server.client import ServerUnreachable
from ..errors import MismatchError, ServerError
from ..answers import CHECKED_KEYS, CheckedAnswer
from ..facts import table as facts_table
from ..facts.frame import read_frame
from ..readers.menu_words import label_of_reply
from .ask import ask
from .claim import facts_record

if TYPE_CHECKING:  # names for annotations alone: nothing more is loaded
    from ..logs.items import Item
    from ..server.client import Client
    from .settings import Settings

# Consecutive failed calls after which the server is taken to be failing, not the item.
MAX_FAILURES_IN_A_ROW = 3
_CONFIG_KEYS = ("reader", "reader_fingerprint", "check", "menu", "max_turns", "models", "extra",
                "facts_table")


@dataclass
class Progress:
    """One event for the progress callback."""

    arm: str
    done: int  # questions finished in this run, both arms
    total: int  # questions this run has to ask, both arms
    item_id: str
    answer: str
    code: str
    wall_s: float
    eta_s: float  # estimated seconds left
    error: Optional[str] = None
    note: Optional[str] = None  # a message that is not about one question (unload, resume)


def prepare_answers_file(path, fd, header, note):
    """Start the answers file with `header` (its items record: the items and the run's
    configuration), or check it fits these questions; return the usable rows by (id, arm).

    Called with the file open and locked. Refuses a file made for other items or by another
    configuration: its answers would not be answers to these questions.
    """
    mended = jsonl.mend_last_line(path)
    if mended:
        note(f"{path}: " + ("ended a complete last record that had no line break"
                            if mended == "ended" else
                            "cut an unfinished last line left by an interrupted run"))
    if os.path.getsize(path) == 0:
        jsonl.append_record(fd, header, path)
        return {}, set()
    facts = {}
    found, rows, _ = records.read_answers(path, facts=facts)
    if found is None:
        raise MismatchError(f"{path}: has no items record; it was not written by batch")
    items_sha256 = header["items_sha256"]
    if found.get("items_sha256") != items_sha256:
        raise MismatchError(
            f"{path} holds answers for another items file (sha256 "
            f"{str(found.get('items_sha256'))[:12]}..., not {items_sha256[:12]}...); "
            "use another answers file", cli_hint="give a new --out")
    for key in _CONFIG_KEYS:
        if found.get(key) != header[key]:
            raise MismatchError(
                f"{path} was made with {key} {found.get(key)!r}, not {header[key]!r}; "
                "use another answers file, or the same settings to resume",
                cli_hint="give a new --out, or the same options")
    done = {(row["id"], row["arm"]): row for row in rows if not row.get("error")}
    if done:
        note(f"{path}: resuming; {len(done)} answers already there are not asked again")
    return done, set(facts)


def run_batch(items: Sequence["Item"], items_sha256: str, out_path: str, settings: "Settings",
              *, client: Optional["Client"] = None, items_name: str = "",
              progress: Optional[Callable[["Progress"], None]] = None,
              parallel: int = 1) -> int:
    """Ask every question that has no usable answer in `out_path`; return the count asked.

    `settings`: a Settings (the reader may be a retired one only with allow_retired).
    `parallel`: how many questions to keep in flight at once (for servers with parallel
    slots). The answers are the same whatever it is; each is appended whole as it arrives.
    The answers file is locked for the whole run, so a second run on it stops at once. A
    write the system refuses (a full disk) stops the run with an InputError; every answer
    already written is kept, and a second run resumes after it.
    """
    settings = settings.checked()
    client = client or settings.client()
    header = records.header_record(items_sha256, len(items), items_name,
                                   {**records.run_config(settings),
                                    "facts_table": facts_table.VERSION})
    fd = jsonl.open_append(out_path)
    try:
        with jsonl.locked(fd, out_path):
            run = _Run(out_path, fd, client, settings, progress or (lambda event: None))
            done, with_facts = prepare_answers_file(out_path, fd, header, run.note)
            asked = run.ask_all(items, done, parallel)
            run.record_facts(items, with_facts)
            return asked
    except OSError as exc:  # only the answers file's writes raise it here
        raise jsonl.cannot_write(out_path, exc, "an answer", kept="the answers already "
                                   "written are kept: run the same command again to "
                                   "resume") from None
    finally:
        os.close(fd)


class _Run:
    """One batch run: where answers go, whom to ask, with what (checked settings)."""

    def __init__(self, out_path, fd, client, settings, progress):
        self.out_path, self.fd, self.client = out_path, fd, client
        self.settings, self.reader, self.progress = settings, settings.reader, progress
        self.rendered = {}  # item id -> the turns as shown: each item is rendered once

    def note(self, message):
        self.progress(Progress("", 0, 0, "", "", "", 0.0, 0.0, note=message))

    def shown(self, item):
        if item.id not in self.rendered:
            self.rendered[item.id] = self.reader.render(list(item.turns),
                                                        self.settings.max_turns, item.claim)
        return self.rendered[item.id]

    def record_facts(self, items, with_facts):
        """A facts record for every item that has none: what the facts' table decides of
        it, beside the models' answers (which are asked all the same)."""
        for item in items:
            if item.id not in with_facts:
                decision = facts_table.decide(item.claim, list(item.turns))
                jsonl.append_record(self.fd, records.facts_row(
                    item.id, facts_record(decision), read_frame(item.claim).kinds),
                    self.out_path)

    def ask_all(self, items, done, parallel):
        reader, arms = self.reader, self.settings.models
        todo = {arm: [it for it in items if (it.id, arm) not in done] for arm, _, _ in arms}
        total = sum(len(v) for v in todo.values())
        asked = 0
        started = time.monotonic()
        # Roles: model B is asked about model A's checked answer to the same item.
        partners = {item_id: CheckedAnswer(*(row[k] for k in CHECKED_KEYS),
                                           line=label_of_reply(row.get("reply")))
                    for (item_id, arm), row in done.items() if arm == "A"}

        def question(item, arm):
            partner = partners.get(item.id) if arm == "B" and reader.partner else None
            return item, ask(self.client, self.settings, arm, item.claim, self.shown(item),
                             partner)

        try:
            for index, (arm, model, _) in enumerate(arms):
                failures = 0
                jobs = [(item, arm) for item in todo[arm]]
                for item, answer in _in_flight(question, jobs, parallel):
                    jsonl.append_record(self.fd, records.answer_row(
                        item.id, answer, reader, self.settings.max_turns), self.out_path)
                    if arm == "A" and not answer.error:
                        partners[item.id] = answer.checked
                    asked += 1
                    elapsed = time.monotonic() - started
                    self.progress(Progress(arm, asked, total, item.id, answer.checked.answer,
                                           answer.checked.code, answer.wall_s,
                                           elapsed / asked * (total - asked),
                                           error=answer.error))
                    failures = failures + 1 if answer.error else 0
                    if failures >= MAX_FAILURES_IN_A_ROW:
                        raise ServerError(
                            f"{failures} calls to model {model} failed in a row (last: "
                            f"{answer.error}); stopped. Answers so far are kept in "
                            f"{self.out_path}; run the same command again to resume")
                if index == 0 and todo[arm]:
                    _unload(self.client, model, self.note)
        except ServerUnreachable as exc:
            raise ServerUnreachable(f"{exc} Answers so far are kept in {self.out_path}; run "
                                    "the same command again to resume.", exc.cli_hint) from None
        return asked


def _in_flight(work, jobs, parallel):
    """Results of `work(*job)` for each job, keeping up to `parallel` running at once,
    yielded as they finish. An error in one is raised here (the rest are let finish)."""
    if parallel <= 1:
        for job in jobs:
            yield work(*job)
        return
    pending = list(jobs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        running = {pool.submit(work, *pending.pop(0)) for _ in range(min(parallel, len(pending)))}
        while running:
            finished, running = concurrent.futures.wait(
                running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                if pending:
                    running.add(pool.submit(work, *pending.pop(0)))
                yield future.result()


def _unload(client, model, note):
    """Free model A before model B is asked, where the server lets a client do that."""
    try:
        if client.server().manages_models:
            client.unload(model)
            note(f"unloaded {model}")
    except ServerUnreachable:
        raise
    except ServerError as exc:
        note(f"could not unload {model} ({exc}); the server will evict it if it must")
