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

__all__ = ["CountingSink", "GameRecord", "GameRecorder", "check_seating", "derive_seed", "game_of", "game_seed",
           "play_game", "record_game"]


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
    no header (a header is made and sealed per game: a cost a study asks nothing of).
    It reads what the counter reads (``MetricCounter.wants``): the game builds no other event."""

    __slots__ = ("emit", "wants", "counter")

    def __init__(self, counter: MetricCounter) -> None:
        self.counter = counter
        # the counter's own method, one call per event (bound: faster to call than the counter)
        self.emit: Callable[[dict[str, Any]], None] = counter.__call__
        self.wants: frozenset[str] | None = getattr(counter, "wants", None)  # none said: every event

    def begin(self, game: Any) -> None:
        """Nothing to write before the first event; a counter that needs the game's ruleset (its
        ``begin``, optional) is given the game, and may then read more kinds (read again here:
        a state reads what its sink wants once it has begun, docs/engine.md)."""
        begin = getattr(self.counter, "begin", None)
        if begin is not None:
            begin(game)
            self.wants = getattr(self.counter, "wants", None)


class GameRecorder:
    """Plays and counts games of one ruleset and player count for a study: what every game
    shares (the game's package, its figures, its bots' name space) is looked up once, not per game.

    The game's counter reads the events it asks for, then the finished state (its ``end``,
    optional): a counter whose ``end`` says the state could not tell has the same game (same
    seed, same bots) played again and told every event."""

    def __init__(self, ruleset: Any, players: int) -> None:
        self.ruleset, self.players = ruleset, players
        self.package = package = game_of(ruleset)
        self.game_name = package.name
        metrics = package.metrics
        self.counter: Callable[[], MetricCounter] | None = metrics.counter if metrics is not None else None
        self.seat_values = metrics.seat_values if metrics is not None else None

    def play(self, seed: int, bots: Sequence[str], log: Any = None) -> tuple[Any, Any]:
        """One game with seed ``seed`` played to its end (as :func:`play_game`): the game and its final state."""
        game = self.package.new_game(self.ruleset, players=self.players, seed=seed)
        return game, play(game.new_initial_state(log=log), seat_agents(seed, bots, self.game_name))

    def record(self, seed: int, bots: Sequence[str], index: int = 0) -> GameRecord:
        """Play one bot game with seed ``seed`` to its end and count it (see :func:`record_game`)."""
        make_counter = self.counter
        if make_counter is None:  # a game without metrics is played with no sink: the engine builds no event
            game, state = self.play(seed, bots)
            metrics: dict[str, int] = {}
            totals: dict[str, int] = {}
            cards: dict[str, list[int]] = {}
        else:
            counter = make_counter()
            game, state = self.play(seed, bots, CountingSink(counter))
            end = getattr(counter, "end", None)
            if end is not None and not end(state):
                counter = make_counter()
                counter.wants = None  # every event
                self.play(seed, bots, CountingSink(counter))
            metrics, totals, cards = counter.per_game(), counter.totals(), counter.cards()
        seat_values = self.seat_values
        return GameRecord(index, seed, tuple(bots), tuple(game.tribe_ids), tuple(state.winners()),
                          tuple(state.scores()), state.round, state.end_reason, state.decisions, metrics, totals,
                          cards, {key: [int(v) for v in values] for key, values in seat_values(state).items()}
                          if seat_values is not None else {})


def record_game(ruleset: Any, players: int, seed: int, bots: Sequence[str], index: int = 0) -> GameRecord:
    """Play one bot game of ``ruleset`` to its end with seed ``seed`` and count it for a study
    (a study's chunk plays all its games with one :class:`GameRecorder`)."""
    return GameRecorder(ruleset, players).record(seed, bots, index)


def check_seating(ruleset: Any, players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """The tribe per seat; raises ValueError for a player count the ruleset cannot seat or an unknown bot."""
    package = game_of(ruleset)
    for kind in set(bots):
        make_agent(kind, 0, package.name)
    return tuple(package.new_game(ruleset, players=players, seed=0).tribe_ids)
