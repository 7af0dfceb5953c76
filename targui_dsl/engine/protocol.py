"""What a game package gives the shared toolkit, and the state verbs every game speaks.

The engine, the agents, the study runner, the log, the adapters and the
command line know no game: they reach a game through the :class:`GamePackage`
its package defines (``targui_dsl/games/<name>/package.py``, ``PACKAGE``) and
through the OpenSpiel verbs of :class:`State`. :func:`targui_dsl.games.game_package`
finds a package by the name a ruleset gives (``game:``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from targui_dsl.engine.drawing import Drawing


class State(Protocol):
    """A game state in OpenSpiel's dialect: integer actions, chance nodes, returns."""

    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int | str) -> None: ...
    def returns(self) -> list[float]: ...
    def clone(self) -> "State": ...
    def to_json(self) -> dict[str, Any]: ...


class EventSink(Protocol):
    """Where a game state sends what happens. The engine imports nothing of the log file:
    a log (:class:`targui_dsl.gamelog.events.EventLog`) is one sink, a study's counter another."""

    def begin(self, game: Any) -> None:
        """The game starts being told to this sink (a log writes its header from ``game``)."""

    def emit(self, event: dict[str, Any]) -> None:
        """One event, a plain JSON-ready dict (its ``type`` first)."""


@dataclass(frozen=True)
class GamePackage:
    """One game, as the toolkit sees it. Each field is a hook the game fills in."""

    name: str  # what a ruleset's `game:` says
    title: str  # for people: "Targui (Jumbo, 1988)"
    new_game: Callable[..., Any]  # (ruleset, players=, seed=, ...) -> a game with new_initial_state()
    drawing: Drawing  # how people see it: the terminal, the picture, the words of help and study tables
