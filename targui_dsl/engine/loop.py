"""The one game loop: seats choose from what they observe until the game ends.

A bot, a search bot and a person at the terminal are all a :class:`Player`:
``choose(observation, legal_actions)`` returns an action id from the list,
or a readable action text (``move 25 24 5``) that stands for several steps.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence


class Player(Protocol):
    def choose(self, observation: Any, legal_actions: list[int]) -> int | str:
        """One decision of the seat the observation belongs to (the observation is the game's
        own view of one seat, :class:`targui_dsl.engine.protocol.SeatObservation`)."""


def play(state: Any, players: Sequence[Player]) -> Any:
    """Play ``state`` to its end (chance from the game's seeded generator); the seat to
    move decides from its own observation only. Returns the same, finished state.

    A game's state may offer ``play_out(choosers, views)``: the same loop over its own
    record, with fewer calls (Targui's); any other game is played through the OpenSpiel verbs."""
    if state.game.explicit_chance:
        raise ValueError("play() draws chance from the game's seed: use a game without explicit_chance")
    views = [state.observation(seat) for seat in range(state.game.players)]  # live views
    choosers = [player.choose for player in players]
    play_out = getattr(state, "play_out", None)
    if play_out is not None:
        play_out(choosers, views)
        return state
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(choosers[seat](views[seat], state.legal_actions()))
    return state
