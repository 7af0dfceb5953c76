"""Studies: many bot games of one ruleset, run in chunks on any executor, summed up exactly.

    from targui_dsl.study import RulesetSource, Study, run_study, local_pool
    source = RulesetSource.from_reference("swedish-12")
    study = Study(source, games=20_000, players=4, bots=("random",) * 4, seed=1)
    with local_pool(2, source) as pool:
        result = run_study(study, pool, out="study.jsonl", window=8)
    result.summary.wins_by_seat

- :mod:`.games`: one game, through the engine's public API (the only
  module that touches the engine);
- :mod:`.summary`: typed, mergeable partial summaries;
- :mod:`.chunks`: a study, its chunks, what a worker runs;
- :mod:`.source`: a ruleset as a value a remote worker can compile;
- :mod:`.executors`: in-process, local process pool, Dask;
- :mod:`.runner`: submitting chunks and merging what comes back, for a
  :class:`Study` or any other :class:`GamePlan` (a tournament,
  :mod:`targui_dsl.study.tournament`);
- :mod:`.resume` (--out) and :mod:`.records` (--records): the files;
- :mod:`.signals`: SIGINT, SIGTERM and SIGHUP alike;
- :mod:`.figures`: a summary's figures with intervals, and two compared.
"""

from targui_dsl.study.chunks import (
    Chunk,
    ChunkResult,
    GamePlan,
    Study,
    chunk_size_for,
    run_chunk,
    seat_bots,
    seated_bots,
)
from targui_dsl.study.executors import ExecutorUnavailable, InlineExecutor, dask_executor, local_pool
from targui_dsl.study.games import GameRecord, check_seating, game_of, game_seed, play_game, record_game
from targui_dsl.study.records import RecordWriter, record_row
from targui_dsl.study.resume import StudyFile, StudyMismatch
from targui_dsl.study.runner import StudyResult, run_study
from targui_dsl.study.signals import StopOnSignals, StudyInterrupted
from targui_dsl.study.source import RulesetSource, SourceMismatch, compile_source
from targui_dsl.study.summary import GENERAL_METRICS, Moments, StudySummary

__all__ = [
    "Chunk", "ChunkResult", "ExecutorUnavailable", "GENERAL_METRICS", "GamePlan", "GameRecord", "InlineExecutor",
    "Moments", "RecordWriter", "RulesetSource", "SourceMismatch", "StopOnSignals", "Study",
    "StudyFile", "StudyInterrupted", "StudyMismatch", "StudyResult", "StudySummary", "check_seating",
    "chunk_size_for", "compile_source", "dask_executor", "game_of", "game_seed", "local_pool", "play_game",
    "record_game", "record_row",
    "run_chunk", "run_study", "seat_bots", "seated_bots",
]
