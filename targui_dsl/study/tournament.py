"""Tournaments: every bot plays every seat equally often, and each is rated from the results.

    from targui_dsl.study import RulesetSource, run_study
    from targui_dsl.study.tournament import Tournament, tournament_figures
    source = RulesetSource.from_reference("original-dutch")
    plan = Tournament(source, games=96, players=4, bots=("random", "greedy", "random:x=1", ...), seed=1)
    result = run_study(plan)                       # the study runner: chunks, workers, Dask, --out
    tournament_figures(result.summary, plan, ruleset)

**The schedule.** With *k* bots and *n* seats (k >= n), a *round* is every
choice of *n* of the *k* bots (in the order the bots were named), each
played *n* times with its bots shifted one seat a game. In a round every
bot plays every seat equally often and meets every other bot equally
often. Successive rounds take the next of the (n-1)! cyclic orders of the
seated bots, so that after (n-1)! rounds each seating (each permutation of
each choice) has been played once: which bot sits just before which is
balanced too. Game ``g`` is played with the seed ``derive_seed(seed, g)``
(as in a study) and its seating depends on ``g`` only, so a tournament is
the same whatever runs it, and can be resumed.

**What is counted.** A game's winners (the engine's ``winners()``; several
in a draw) share first place; the other players are placed by their final
score. A summary keeps, per seating and placing, how many games ended that
way: integer counts that merge exactly, from which wins per bot and seat
(a draw's win split between its winners) and the ratings
(:mod:`targui_dsl.study.ratings`) follow.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.study.chunks import Chunk, ChunkResult, chunk_size_for, plan_fingerprint
from targui_dsl.study.games import GameRecord, GameRecorder, check_seating, game_seed
from targui_dsl.study.ratings import Outcome, expected_score, fit_ratings, pairwise_points
from targui_dsl.study.records import record_row
from targui_dsl.study.source import RulesetSource, compile_source
from targui_dsl.study.stats import wilson_interval
from targui_dsl.study.summary import Moments

__all__ = ["TOURNAMENT_FORMAT", "Tournament", "TournamentSummary", "placing", "round_size", "rounded_games",
           "seating", "tournament_figures"]

TOURNAMENT_FORMAT = "targui-tournament/1"


def round_size(bots: int, seats: int) -> int:
    """Games in a round: every choice of ``seats`` of the ``bots``, in each of its ``seats`` rotations."""
    return math.comb(bots, seats) * seats


def rounded_games(games: int, bots: int, seats: int) -> int:
    """``games`` rounded up to whole rounds, so that every bot plays every seat equally often."""
    size = round_size(bots, seats)
    return -(-games // size) * size


class _Schedule:
    """The seating of any game of a tournament of ``bots`` bots in ``seats`` seats (see the module)."""

    def __init__(self, bots: int, seats: int):
        if seats < 2:
            raise ValueError("a tournament needs at least two seats")
        if bots < seats:
            raise ValueError(f"{seats} seats need at least {seats} bots")
        self.seats = seats
        self.choices = list(itertools.combinations(range(bots), seats))
        # cyclic orders of n positions: the first stays, the others are permuted
        self.orders = [(0, *rest) for rest in itertools.permutations(range(1, seats))]
        self.round = len(self.choices) * seats

    def seating(self, game: int) -> tuple[int, ...]:
        round_index, within = divmod(game, self.round)
        choice, shift = divmod(within, self.seats)
        order = self.orders[round_index % len(self.orders)]
        arranged = [self.choices[choice][position] for position in order]
        # shifted `shift` seats, as `simulate --rotate` shifts its bots
        return tuple(arranged[(seat - shift) % self.seats] for seat in range(self.seats))


def seating(game: int, bots: int, seats: int) -> tuple[int, ...]:
    """The bot (an index into the tournament's bots) in each seat of game ``game``."""
    return _Schedule(bots, seats).seating(game)


def placing(record: GameRecord) -> tuple[int, ...]:
    """Each seat's place in a finished game: 0 for the winners (several in a draw), then the others by
    final score, equal scores sharing a place (1 + the number of non-winners who scored more)."""
    winners = set(record.winners)
    others = [record.scores[s] for s in range(len(record.scores)) if s not in winners]
    return tuple(0 if seat in winners else 1 + sum(1 for other in others if other > score)
                 for seat, score in enumerate(record.scores))


@dataclass
class TournamentSummary:
    """What some games of a tournament add up to: games per (seating, placing), exactly mergeable."""

    games: int = 0
    outcomes: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = field(default_factory=dict)
    rounds: Moments = field(default_factory=Moments)
    decisions: Moments = field(default_factory=Moments)

    def add(self, seated: tuple[int, ...], record: GameRecord) -> None:
        key = (seated, placing(record))
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        self.games += 1
        self.rounds.add(record.rounds)
        self.decisions.add(record.decisions)

    def merge(self, other: TournamentSummary) -> TournamentSummary:
        outcomes = dict(self.outcomes)
        for key, n in other.outcomes.items():
            outcomes[key] = outcomes.get(key, 0) + n
        return TournamentSummary(self.games + other.games, outcomes, self.rounds.merge(other.rounds),
                                 self.decisions.merge(other.decisions))

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games,
                "outcomes": [[list(seated), list(places), n] for (seated, places), n in sorted(self.outcomes.items())],
                "rounds": self.rounds.to_json(), "decisions": self.decisions.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentSummary:
        outcomes = {(tuple(int(b) for b in seated), tuple(int(p) for p in places)): int(n)
                    for seated, places, n in data["outcomes"]}
        if sum(outcomes.values()) != int(data["games"]):
            raise ValueError("the outcomes do not add up to the games")
        return cls(int(data["games"]), outcomes, Moments.from_json(data["rounds"]),
                   Moments.from_json(data["decisions"]))


@dataclass(frozen=True)
class Tournament:
    """``games`` games of ``source`` with ``players`` seats among ``bots`` (distinct canonical spellings),
    seated by the schedule of the module's docstring. A plan for :func:`targui_dsl.study.run_study`."""

    source: RulesetSource
    games: int
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    chunk_size: int = 0  # 0: chunk_size_for(games)

    file_format: ClassVar[str] = TOURNAMENT_FORMAT

    def __post_init__(self) -> None:
        if len(set(self.bots)) != len(self.bots):
            raise ValueError("a bot is named twice")
        if len(self.bots) < 2:
            raise ValueError("a tournament needs at least two bots")
        _Schedule(len(self.bots), self.players)  # raises ValueError for too few bots
        if self.games < 1:
            raise ValueError("a tournament plays at least one game")
        if self.chunk_size <= 0:
            object.__setattr__(self, "chunk_size", chunk_size_for(self.games))

    @property
    def round(self) -> int:
        return round_size(len(self.bots), self.players)

    def seating(self, game: int) -> tuple[int, ...]:
        return _Schedule(len(self.bots), self.players).seating(game)

    @property
    def chunk_count(self) -> int:
        return math.ceil(self.games / self.chunk_size)

    def chunk(self, index: int, records: bool = False) -> Chunk:
        start = index * self.chunk_size
        return Chunk(self, index, start, min(self.games, start + self.chunk_size), records)

    def describe(self) -> dict[str, Any]:
        return {"ruleset": self.source.reference, "rules": self.source.digest, "games": self.games,
                "players": self.players, "bots": list(self.bots), "seed": self.seed, "chunk_size": self.chunk_size}

    @property
    def fingerprint(self) -> str:
        return plan_fingerprint(self.file_format, self.describe())

    def new_summary(self) -> TournamentSummary:
        return TournamentSummary()

    def summary_from_json(self, data: dict[str, Any]) -> TournamentSummary:
        return TournamentSummary.from_json(data)

    def play_chunk(self, chunk: Chunk) -> ChunkResult:
        started = time.thread_time()
        ruleset = compile_source(self.source)
        schedule = _Schedule(len(self.bots), self.players)
        summary = TournamentSummary()
        rows: list[dict[str, Any]] | None = [] if chunk.records else None  # --records: a row per game
        deck = tuple(dict.fromkeys(ruleset.deck))
        recorder = GameRecorder(ruleset, self.players)
        for game in range(chunk.start, chunk.stop):
            seated = schedule.seating(game)
            record = recorder.record(game_seed(self.seed, game), [self.bots[b] for b in seated], game)
            summary.add(seated, record)
            if rows is not None:
                rows.append(record_row(record, deck))
        return ChunkResult(chunk.index, summary, rows, time.thread_time() - started)


def _share(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games) if games else (0.0, 1.0)
    return {"share": wins / games if games else 0.0, "ci": [low, high]}


def tournament_figures(summary: TournamentSummary, plan: Tournament, ruleset: CompiledRuleset,
                       resamples: int = 1000) -> dict[str, Any]:
    """The tournament's table as the JSON object `targui tournament --json` prints (docs/tournament.md)."""
    bots, players = list(plan.bots), plan.players
    games_by_seat = [[0] * players for _ in bots]
    wins_by_seat = [[0.0] * players for _ in bots]
    outcomes = []
    draws = 0
    for (seated, places), n in sorted(summary.outcomes.items()):
        outcomes.append(Outcome(seated, places, n))
        winners = places.count(0)
        draws += n if winners > 1 else 0
        for seat, (who, place) in enumerate(zip(seated, places, strict=False)):
            games_by_seat[who][seat] += n
            if place == 0:
                wins_by_seat[who][seat] += n / winners
    fit = fit_ratings(outcomes, len(bots), resamples=resamples, seed=plan.seed)
    points, meetings = pairwise_points(((o, o.count) for o in outcomes), len(bots))
    table = []
    for i, bot in enumerate(bots):
        played, wins = sum(games_by_seat[i]), sum(wins_by_seat[i])
        table.append({
            "bot": bot,
            "games": played,
            "wins": wins,
            **_share(wins, played),
            "rating": fit.ratings[i],
            "rating_ci": list(fit.intervals[i]),
            "seats": [{"seat": s + 1, "games": games_by_seat[i][s], "wins": wins_by_seat[i][s],
                       **_share(wins_by_seat[i][s], games_by_seat[i][s])} for s in range(players)],
        })
    order = sorted(range(len(bots)), key=lambda i: -fit.ratings[i])
    head_to_head = {
        bots[i]: {bots[j]: {"meetings": int(meetings[i][j]), "points": points[i][j],
                            "score": points[i][j] / meetings[i][j] if meetings[i][j] else None,
                            "expected": expected_score(fit.ratings[i], fit.ratings[j])}
                  for j in range(len(bots)) if j != i}
        for i in range(len(bots))
    }
    return {
        "ruleset": ruleset.id,
        "title": ruleset.title,
        "players": players,
        "games": summary.games,
        "seed": plan.seed,
        "bots": bots,
        "round": plan.round,
        "rounds_played": summary.games / plan.round,
        "tribes": list(check_seating(ruleset, players, bots[:players])),
        "parity": 1 / players,
        "draws": draws,
        "rating": {"scale": "elo", "model": "bradley-terry over pairwise placings", "mean": 1500,
                   "interval": "95%: the wider of a bootstrap over games (percentiles) and the model's (Wald)",
                   "resamples": fit.resamples},
        "table": [table[i] for i in order],
        "head_to_head": head_to_head,
        "game_rounds": {"mean": summary.rounds.mean, "sd": summary.rounds.sd,
                        "min": summary.rounds.min, "max": summary.rounds.max},
        "decisions": summary.decisions.total,
    }
