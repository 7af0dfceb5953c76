"""The one game loop: seats choose from what they observe until the game ends.

A bot, a search bot and a person at the terminal are all a :class:`Player`:
``choose(observation, legal_actions)`` returns an action id from the list,
or a readable action text (``move 25 24 5``) that stands for several steps.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from .observation import Observation
from .state import GameState


class Player(Protocol):
    def choose(self, observation: Observation, legal_actions: list[int]) -> int | str:
        """One decision of the seat the observation belongs to."""


def play(state: GameState, players: Sequence[Player]) -> GameState:
    """Play ``state`` to its end (chance from the game's seeded generator); the seat to
    move decides from its own observation only. Returns the same, finished state."""
    if state.game.explicit_chance:
        raise ValueError("play() draws chance from the game's seed: use a game without explicit_chance")
    views = [state.observation(seat) for seat in range(state.game.players)]  # live views
    # bound once: the loop body runs at every decision of the game
    choosers = [player.choose for player in players]
    is_terminal, current_player = state.is_terminal, state.current_player
    legal_actions, apply_action = state.legal_actions, state.apply_action
    while not is_terminal():
        seat = current_player()
        apply_action(choosers[seat](views[seat], legal_actions()))
    return state
