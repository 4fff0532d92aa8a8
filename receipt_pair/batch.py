"""Many claims: all of model A's questions, then model B's, each answer kept as it arrives.

A second run over the same answers file asks only what has no usable answer yet. A server
that goes away stops the run (nothing is recorded for a question that was never asked);
an error the server answers for one question is recorded, and that question is asked
again by the next run.
"""

import os
import time
from dataclasses import dataclass

from . import records
from .client import ServerUnreachable
from .errors import MismatchError, ServerError
from .ask import SchemaMemory, ask

# Consecutive failed calls after which the server is taken to be failing, not the item.
MAX_FAILURES_IN_A_ROW = 3
_CONFIG_KEYS = ("reader", "reader_fingerprint", "max_turns", "models", "extra")


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
    error: str = None
    note: str = None  # a message that is not about one question (unload, resume)


def prepare_answers_file(path, items_sha256, items_count, items_name, config, note):
    """Open (or start) the answers file; return the arms' done item ids.

    Refuses a file made for other items or by another configuration: its answers would
    not be answers to these questions.
    """
    if os.path.exists(path) and os.path.getsize(path) > 0:
        if records.cut_partial_line(path):
            note(f"{path}: cut an unfinished last line left by an interrupted run")
        header, rows, _ = records.read_answers(path)
        if header is None:
            raise MismatchError(f"{path}: has no items record; it was not written by batch")
        if header["items_sha256"] != items_sha256:
            raise MismatchError(
                f"{path} holds answers for another items file (sha256 "
                f"{header['items_sha256'][:12]}..., not {items_sha256[:12]}...); "
                "use another answers file", cli_hint="give a new --out")
        for key in _CONFIG_KEYS:
            if header.get(key) != config[key]:
                raise MismatchError(
                    f"{path} was made with {key} {header.get(key)!r}, not {config[key]!r}; "
                    "use another answers file, or the same settings to resume",
                    cli_hint="give a new --out, or the same options")
        done = {(row["id"], row["arm"]) for row in rows if not row.get("error")}
        if done:
            note(f"{path}: resuming; {len(done)} answers already there are not asked again")
        return done
    fd = records.open_append(path)
    try:
        records.append_record(fd, records.header_record(items_sha256, items_count,
                                                        items_name, config))
    finally:
        os.close(fd)
    return set()


def run_batch(items, items_sha256, out_path, client, reader, *, model_a, model_b,
              max_turns, extra_a=None, extra_b=None, items_name="", progress=None):
    """Ask every question that has no usable answer in `out_path`; return the count asked."""
    progress = progress or (lambda event: None)

    def note(message):
        progress(Progress("", 0, 0, "", "", "", 0.0, 0.0, note=message))

    config = records.run_config(reader, max_turns, model_a, model_b, extra_a, extra_b)
    done = prepare_answers_file(out_path, items_sha256, len(items), items_name, config, note)
    arms = (("A", model_a, extra_a), ("B", model_b, extra_b))
    todo = {arm: [it for it in items if (it.id, arm) not in done] for arm, _, _ in arms}
    total = sum(len(v) for v in todo.values())
    memory = SchemaMemory()
    asked = 0
    started = time.monotonic()
    fd = records.open_append(out_path)
    try:
        for index, (arm, model, extra) in enumerate(arms):
            failures = 0
            for item in todo[arm]:
                shown = reader.render(list(item.turns), max_turns)
                answer = ask(client, reader, item.claim, shown, arm, model, extra, memory)
                records.append_record(fd, records.answer_row(item.id, answer, reader,
                                                             max_turns))
                asked += 1
                elapsed = time.monotonic() - started
                progress(Progress(arm, asked, total, item.id, answer.checked.answer,
                                  answer.checked.code, answer.wall_s,
                                  elapsed / asked * (total - asked), error=answer.error))
                failures = failures + 1 if answer.error else 0
                if failures >= MAX_FAILURES_IN_A_ROW:
                    raise ServerError(
                        f"{failures} calls to model {model} failed in a row (last: "
                        f"{answer.error}); stopped. Answers so far are kept in {out_path}; "
                        "run the same command again to resume")
            if index == 0 and todo[arm]:
                _unload(client, model, note)
    except ServerUnreachable as exc:
        raise ServerUnreachable(f"{exc} Answers so far are kept in {out_path}; run the "
                                "same command again to resume.") from None
    finally:
        os.close(fd)
    return asked


def _unload(client, model, note):
    """Free model A before model B is asked, where the server lets a client do that."""
    try:
        if client.kind() in ("lemonade", "llama-router"):
            client.unload(model)
            note(f"unloaded {model}")
    except ServerUnreachable:
        raise
    except ServerError as exc:
        note(f"could not unload {model} ({exc}); the server will evict it if it must")
