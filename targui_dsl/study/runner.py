"""The study runner: chunks out to an executor, partial summaries back, merged as they come.

The parent keeps only the merged summary and a bounded window of chunks in
flight; rows for --records are written to the file as each chunk finishes
and forgotten. Memory therefore does not grow with the number of games.
"""

from __future__ import annotations

import os
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any, Callable

from targui_dsl.study.chunks import ChunkResult, GamePlan, run_chunk
from targui_dsl.study.executors import InlineExecutor
from targui_dsl.study.records import RecordWriter, keep_rows
from targui_dsl.study.resume import StudyFile, StudyMismatch
from targui_dsl.study.signals import StudyInterrupted, critical

__all__ = ["StudyResult", "run_study"]


@dataclass
class StudyResult:
    """A finished study: its summary, and what this run did (the timing depends on the machine)."""

    study: GamePlan
    summary: Any  # a StudySummary, or the plan's own (new_summary)
    games_played: int  # in this run (a resumed study played fewer)
    chunks_resumed: int  # taken from the --out file
    seconds: float  # wall time of this run
    cpu_seconds: float  # CPU time of the workers for the chunks of this run
    decisions_played: int  # decisions in the games of this run


class _GamesOf:
    """The game indices of some chunks, without listing them."""

    def __init__(self, chunks: set[int], size: int):
        self.chunks, self.size = chunks, size

    def __contains__(self, game: object) -> bool:
        return isinstance(game, int) and game // self.size in self.chunks


def run_study(study: GamePlan, executor: Executor | None = None, *, out: str | None = None,
              records: str | None = None, records_format: str | None = None, window: int = 8,
              progress: Callable[[int], None] | None = None,
              records_columns: dict[str, Any] | None = None) -> StudyResult:
    """Play ``study`` on ``executor`` (in this thread if None) and return its merged summary.

    ``out``: a --out file; chunks it holds are not played again, finished
    ones are appended (a file of another study raises StudyMismatch).
    ``records``: a file for one row per game (CSV, JSON lines or Parquet: ``records_format``,
    else by its extension; see :mod:`.records`).
    ``records_columns``: columns added at the end of every row (``compare`` names the ruleset).
    ``window``: chunks in flight at once (a few per worker).
    ``progress``: called with the number of games finished so far.
    A stop signal (see :mod:`.signals`) raises StudyInterrupted once the
    finished chunks are saved.
    """
    executor = executor if executor is not None else InlineExecutor()
    started = time.perf_counter()
    store = StudyFile(out, study) if out is not None else None
    done = set(store.done) if store else set()
    summary = store.summary if store else study.new_summary()
    resumed = len(done)
    writer = None
    if records is not None:
        if done:
            if not os.path.exists(records):
                raise StudyMismatch(f"{records} is missing: it should hold the games of the {resumed} chunks "
                                    f"already in {out}; use another --out file to start again")
            keep_rows(records, _GamesOf(done, study.chunk_size), records_format)
        writer = RecordWriter(records, append=bool(done), fmt=records_format)
    played = decisions = 0
    cpu = 0.0

    def commit(result: ChunkResult) -> None:
        nonlocal summary, played, decisions, cpu
        with critical():  # a stop signal now waits: rows and summary are saved together
            if writer is not None and result.rows is not None:
                rows = result.rows if not records_columns else [{**row, **records_columns} for row in result.rows]
                writer.write(rows)
            if store is not None:
                store.append(result.index, result.summary)
            summary = summary.merge(result.summary)
            done.add(result.index)
            played += result.summary.games
            decisions += result.summary.decisions.total
            cpu += result.cpu_seconds
        if progress is not None:
            progress(summary.games)

    todo = iter([i for i in range(study.chunk_count) if i not in done])
    in_flight: deque[tuple[int, Future]] = deque()
    try:
        if progress is not None and summary.games:
            progress(summary.games)
        for index in todo:
            in_flight.append((index, executor.submit(run_chunk, study.chunk(index, records is not None))))
            if len(in_flight) >= window:
                break
        while in_flight:
            # results are taken in chunk order, so --records rows come in game order
            _, future = in_flight[0]
            while not future.done():
                wait([future], timeout=0.5, return_when=FIRST_COMPLETED)
            in_flight.popleft()
            commit(future.result())
            for index in todo:
                in_flight.append((index, executor.submit(run_chunk, study.chunk(index, records is not None))))
                break
    except BaseException as err:
        # keep every chunk that finished; stopping the rest is the executor's owner's job
        # (local_pool and dask_executor do it), as it knows how to stop its workers
        for _, future in in_flight:
            if future.done() and not future.cancelled() and future.exception() is None:
                try:
                    commit(future.result())
                except BaseException:  # noqa: BLE001 - a second signal: what is saved is saved
                    break
        if isinstance(err, StudyInterrupted):
            err.chunks_kept, err.chunk_count = len(done), study.chunk_count
        raise
    finally:
        if writer is not None:
            writer.close()
        if store is not None:
            store.close()
    return StudyResult(study, summary, played, resumed, time.perf_counter() - started, cpu, decisions)
