"""A seat's observation tensor in a NumPy array, kept by its game when the game can
(``AdapterHooks.tensor``: only what changed is written), else filled afresh."""

from __future__ import annotations

from typing import Any

import numpy as np

from targui_dsl.games import game_of


class _Afresh:
    """The whole tensor written at each update: for a game that keeps none itself (with
    ``listed``, the array is its scratch, read into the list)."""

    __slots__ = ("seat", "out", "listed", "kept")

    def __init__(self, game: Any, seat: int, out: np.ndarray, listed: bool = False) -> None:
        self.seat, self.out = seat, out
        self.listed: list[float] | None = [0.0] * len(out) if listed else None
        self.kept: Any = out if self.listed is None else self.listed

    def update(self, state: Any) -> Any:
        fill = getattr(state, "observation_into", None)  # a game's faster verb, when it has one
        if fill is not None:
            fill(self.seat, self.out)
        else:
            self.out[:] = state.observation_tensor(self.seat)
        if self.listed is not None:
            self.listed[:] = self.out.tolist()
        return self.kept


def seat_tensor(game: Any, seat: int, width: int, listed: bool = False) -> Any:
    """A keeper of ``seat``'s tensor in ``game`` (an engine game) over its own float32 array of
    ``width``: ``keeper.update(state)`` returns the array holding that seat's tensor (with
    ``listed``, the list ``keeper.listed`` instead, the array not kept)."""
    hooks = game_of(game.ruleset).adapter
    make = hooks.tensor if hooks is not None and hooks.tensor is not None else _Afresh
    return make(game, seat, np.zeros(width, np.float32), listed)


def seat_tensors(game: Any, width: int) -> list[Any]:
    """:func:`seat_tensor` for every seat, in seat order."""
    return [seat_tensor(game, seat, width) for seat in range(game.players)]
