"""A study, its chunks, and the function a worker runs on one chunk.

A :class:`Study` says which games to play; it is cut into chunks of
consecutive games whose size depends on the number of games only (never on
the workers), so a study stopped on one machine can be continued on a
cluster and still merges into the same summary. Game ``i`` is played with
seed ``derive_seed(seed, i)`` and, with ``rotate``, the bots shifted ``i``
seats: a game's result depends on its index only.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Sequence

from targui_dsl.study.games import GameRecorder, game_seed
from targui_dsl.study.records import record_row
from targui_dsl.study.source import RulesetSource, compile_source
from targui_dsl.study.summary import StudySummary

__all__ = ["Chunk", "ChunkResult", "GamePlan", "Study", "chunk_size_for", "run_chunk", "seat_bots", "seated_bots"]

STUDY_FORMAT = "targui-study/1"

# About 200 chunks of at most 500 games: from a few thousand games on, a chunk
# of random games takes a tenth of a second or more, so the cost of sending
# it and merging its summary (about a millisecond) stays small, and 200 chunks
# keep every worker busy to the end. Smaller studies get chunks of at least
# MIN_CHUNK games (a random game takes 2 ms: a chunk of one game cost as much
# to send and merge as to play) unless that leaves fewer than MIN_CHUNKS chunks:
# 100 games are 10 chunks, enough for two workers (or eight) to share.
# The size depends on the games only, never on the workers.
MAX_CHUNK, TARGET_CHUNKS, MIN_CHUNK, MIN_CHUNKS = 500, 200, 10, 8


def chunk_size_for(games: int) -> int:
    least = min(MIN_CHUNK, math.ceil(games / MIN_CHUNKS))
    return max(1, least, min(MAX_CHUNK, math.ceil(games / TARGET_CHUNKS)))


def seat_bots(bots: Sequence[str] | str, players: int) -> list[str]:
    """One bot kind per seat: a shorter list is padded with its last kind."""
    kinds = [bots] if isinstance(bots, str) else list(bots)
    if not kinds:
        raise ValueError("name at least one bot")
    if len(kinds) > players:
        raise ValueError(f"{len(kinds)} bots for {players} players")
    return kinds + [kinds[-1]] * (players - len(kinds))


def seated_bots(kinds: Sequence[str], index: int, rotate: bool) -> list[str]:
    """The bot per seat in game ``index``: with ``rotate`` the list shifts one seat per game."""
    kinds = list(kinds)
    shift = index % len(kinds) if rotate else 0
    return kinds[-shift:] + kinds[:-shift] if shift else kinds


class GamePlan(Protocol):
    """What the runner (and the --out file) needs of a plan of games: a :class:`Study`, or a
    tournament (:mod:`targui_dsl.study.tournament`), which seats other bots in each game."""

    file_format: ClassVar[str]  # the first line of its --out file says it

    @property
    def games(self) -> int: ...

    @property
    def chunk_size(self) -> int: ...

    @property
    def chunk_count(self) -> int: ...

    @property
    def fingerprint(self) -> str: ...

    def chunk(self, index: int, records: bool = False) -> Chunk: ...

    def describe(self) -> dict[str, Any]: ...

    def new_summary(self) -> Any: ...

    def summary_from_json(self, data: dict[str, Any]) -> Any: ...

    def play_chunk(self, chunk: Chunk) -> ChunkResult: ...


@dataclass(frozen=True)
class Study:
    """Which games to play: ``games`` games of ``source`` with ``players`` players and a bot per seat."""

    file_format: ClassVar[str] = STUDY_FORMAT

    source: RulesetSource
    games: int
    players: int
    bots: tuple[str, ...]  # one per seat
    seed: int = 0
    rotate: bool = False
    chunk_size: int = 0  # 0: chunk_size_for(games)

    def __post_init__(self) -> None:
        if len(self.bots) != self.players:
            raise ValueError(f"{len(self.bots)} bots for {self.players} seats")
        if self.games < 1:
            raise ValueError("a study plays at least one game")
        if self.chunk_size <= 0:
            object.__setattr__(self, "chunk_size", chunk_size_for(self.games))

    @property
    def chunk_count(self) -> int:
        return math.ceil(self.games / self.chunk_size)

    def chunk(self, index: int, records: bool = False) -> Chunk:
        start = index * self.chunk_size
        return Chunk(self, index, start, min(self.games, start + self.chunk_size), records)

    def describe(self) -> dict[str, Any]:
        """What the study is, as plain values (kept in the --out file, compared when resuming)."""
        return {"ruleset": self.source.reference, "rules": self.source.digest, "games": self.games,
                "players": self.players, "bots": list(self.bots), "seed": self.seed, "rotate": self.rotate,
                "chunk_size": self.chunk_size}

    @property
    def fingerprint(self) -> str:
        """Equal for studies that play the same games (whatever the executor, workers or file locations)."""
        return plan_fingerprint(self.file_format, self.describe())

    def new_summary(self) -> StudySummary:
        return StudySummary()

    def summary_from_json(self, data: dict[str, Any]) -> StudySummary:
        return StudySummary.from_json(data)

    def play_chunk(self, chunk: Chunk) -> ChunkResult:
        """Play one chunk of this study and sum it up."""
        started = time.thread_time()
        ruleset = compile_source(self.source)
        summary = StudySummary()
        rows: list[dict[str, Any]] | None = [] if chunk.records else None
        deck = tuple(dict.fromkeys(ruleset.deck))
        recorder = GameRecorder(ruleset, self.players)
        records = [recorder.record(game_seed(self.seed, index), seated_bots(self.bots, index, self.rotate), index)
                   for index in range(chunk.start, chunk.stop)]
        summary.add_all(records)  # the chunk's games at once (a chunk holds at most MAX_CHUNK)
        if rows is not None:
            rows.extend(record_row(record, deck) for record in records)
        return ChunkResult(chunk.index, summary, rows, time.thread_time() - started)


def plan_fingerprint(file_format: str, described: dict[str, Any]) -> str:
    """A digest of what a plan plays, leaving out where its ruleset was read from: the same
    rules reached by another path are the same games."""
    described = dict(described)
    del described["ruleset"]
    text = json.dumps([file_format, described], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` to ``stop - 1`` of a study (with their rows for --records if ``records``)."""

    study: GamePlan
    index: int
    start: int
    stop: int
    records: bool = False


@dataclass
class ChunkResult:
    index: int
    summary: Any  # a StudySummary, or the plan's own (GamePlan.new_summary)
    rows: list[dict[str, Any]] | None
    cpu_seconds: float


def run_chunk(chunk: Chunk) -> ChunkResult:
    """Play one chunk (in whatever process or thread runs it) and sum it up."""
    return chunk.study.play_chunk(chunk)
