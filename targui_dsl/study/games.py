"""Playing one game for a study: the only module of the study package that talks to the engine.

Everything else in :mod:`targui_dsl.study` sees games only as
:class:`GameRecord` values, so an engine rewrite has to adapt
:func:`play_game`, :func:`record_game` (and :func:`check_seating`) and nothing
else. What a study counts besides wins, scores, rounds and decisions is the
game's to say (``GamePackage.metrics``): the study names no game's concepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from targui_dsl.agents import make_agent, seat_agents
from targui_dsl.engine.chance import derive_seed
from targui_dsl.engine.loop import play
from targui_dsl.engine.protocol import MetricCounter
from targui_dsl.games import game_of

__all__ = ["CountingSink", "GameRecord", "check_seating", "derive_seed", "game_of", "game_seed", "play_game",
           "record_game"]


@dataclass
class GameRecord:
    """One finished game, as a study counts it (seat lists are in seat order). ``metrics`` and
    ``totals``: the game's own figures (its ``StudyMetrics``); ``cards``: per card drawn, the
    times drawn and then one number per card field of the game."""

    index: int
    seed: int
    bots: tuple[str, ...]
    tribes: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int
    end_reason: str
    decisions: int
    metrics: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    cards: dict[str, list[int]] = field(default_factory=dict)
    seats: dict[str, list[int]] = field(default_factory=dict)  # the game's per-seat figures at the end


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a study with seed ``seed``."""
    return derive_seed(seed, index)


def play_game(game: Any, bots: Sequence[str], log: Any = None) -> Any:
    """Play one game (a game of a package, its seed ``game.seed``) to its end with one bot spelling
    per seat, each bot seeded from the game's seed and its seat; ``log``: an event sink. The final state."""
    return play(game.new_initial_state(log=log), seat_agents(game.seed, bots, game_of(game.ruleset).name))


class CountingSink:
    """The event sink of a study's game: each event goes straight to the game's counter. No log,
    no header (a log's header hashes the ruleset's files: once per game, a quarter of a study).
    It reads what the counter reads (``MetricCounter.wants``): the game builds no other event."""

    __slots__ = ("emit", "wants", "counter")

    def __init__(self, counter: MetricCounter) -> None:
        self.counter = counter
        # the counter's own method, one call per event (bound: faster to call than the counter)
        self.emit: Callable[[dict[str, Any]], None] = counter.__call__
        self.wants: frozenset[str] | None = getattr(counter, "wants", None)  # none said: every event

    def begin(self, game: Any) -> None:
        """Nothing to write before the first event; a counter that needs the game's ruleset (its
        ``begin``, optional) is given the game."""
        begin = getattr(self.counter, "begin", None)
        if begin is not None:
            begin(game)


def record_game(ruleset: Any, players: int, seed: int, bots: Sequence[str], index: int = 0) -> GameRecord:
    """Play one bot game of ``ruleset`` to its end with seed ``seed`` and count it for a study."""
    package = game_of(ruleset)
    game = package.new_game(ruleset, players=players, seed=seed)
    counter = package.metrics.counter() if package.metrics is not None else None
    # a game without metrics is played with no sink at all: the engine then builds no event
    state = play_game(game, bots, CountingSink(counter) if counter is not None else None)
    return GameRecord(
        index=index, seed=seed, bots=tuple(bots), tribes=tuple(game.tribe_ids), winners=tuple(state.winners()),
        scores=tuple(state.scores()), rounds=state.round, end_reason=state.end_reason, decisions=state.decisions,
        metrics=counter.per_game() if counter is not None else {},
        totals=counter.totals() if counter is not None else {},
        cards=counter.cards() if counter is not None else {},
        seats=seat_figures(package, state),
    )


def seat_figures(package: Any, state: Any) -> dict[str, list[int]]:
    """The game's per-seat figures of a finished game (its ``StudyMetrics.seat_values``)."""
    metrics = package.metrics
    if metrics is None or metrics.seat_values is None:
        return {}
    return {key: [int(v) for v in values] for key, values in metrics.seat_values(state).items()}


def check_seating(ruleset: Any, players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """The tribe per seat; raises ValueError for a player count the ruleset cannot seat or an unknown bot."""
    package = game_of(ruleset)
    for kind in set(bots):
        make_agent(kind, 0, package.name)
    return tuple(package.new_game(ruleset, players=players, seed=0).tribe_ids)
