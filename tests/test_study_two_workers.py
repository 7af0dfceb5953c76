"""A study of 100 games on two local workers hands games to both (no time is measured: the
first two chunks each wait until the other has been taken, which only two workers can do)."""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import Executor, Future
from typing import Any, Callable

import pytest

from targui_dsl.study import RulesetSource, Study, compile_source, local_pool, run_study
from targui_dsl.study.chunks import Chunk, ChunkResult, run_chunk
from targui_dsl.study.executors import start_method

# inherited by the forked workers (a barrier cannot be sent to them): set before the pool starts
MEETING: Any = None
FIRST = 2  # chunks that wait for each other


def _meet_then_play(chunk: Chunk) -> tuple[int, ChunkResult]:
    """In a worker: the study's first chunks wait until each has been taken (a deadlock guard of a
    minute fails the study if one worker took them all, or if they were never in flight together)."""
    if chunk.index < FIRST:
        MEETING.wait(timeout=60)
    return os.getpid(), run_chunk(chunk)


class Meeting(Executor):
    """Runs each chunk through :func:`_meet_then_play` on ``inner``, noting the worker that played it."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.games_by_worker: dict[int, int] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        assert fn is run_chunk
        outer: Future = Future()

        def done(inner: Future) -> None:
            if inner.exception() is not None:
                outer.set_exception(inner.exception())
                return
            pid, result = inner.result()
            self.games_by_worker[pid] = self.games_by_worker.get(pid, 0) + result.summary.games
            outer.set_result(result)

        self.inner.submit(_meet_then_play, *args).add_done_callback(done)
        return outer


@pytest.mark.skipif(not sys.platform.startswith("linux") or start_method() != "fork",
                    reason="the workers inherit the barrier when forked")
def test_a_study_of_100_games_hands_games_to_both_of_two_workers():
    global MEETING
    source = RulesetSource.from_reference("original-dutch")
    study = Study(source, 100, 4, ("random",) * 4, seed=3)
    assert study.chunk_count >= 2 * FIRST  # enough chunks to share
    MEETING = multiprocessing.get_context("fork").Barrier(FIRST)
    try:
        with local_pool(2, source, compile_source(source)) as pool:
            meeting = Meeting(pool)
            result = run_study(study, meeting, window=8)
    finally:
        MEETING = None
    assert result.summary.games == 100
    assert len(meeting.games_by_worker) == 2 and sum(meeting.games_by_worker.values()) == 100
    assert min(meeting.games_by_worker.values()) >= 10  # at least a chunk each
    alone = run_study(study)  # the same figures as one process
    assert alone.summary == result.summary
