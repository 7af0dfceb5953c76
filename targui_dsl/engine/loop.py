"""The one game loop: seats choose from what they observe until the game ends.

A bot, a search bot and a person at the terminal are all a :class:`Player`:
``choose(observation, legal_actions)`` returns an action id from the list,
or a readable action text (``move 25 24 5``) that stands for several steps.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

from targui_dsl.games.targui.flow import TURN_DECIDES
from targui_dsl.games.targui.observation import Observation
from targui_dsl.games.targui.phases import OVER
from targui_dsl.games.targui.state import GameState


class Player(Protocol):
    def choose(self, observation: Observation | Any, legal_actions: list[int]) -> int | str:
        """One decision of the seat the observation belongs to."""


def play(state: Any, players: Sequence[Player]) -> Any:
    """Play ``state`` to its end (chance from the game's seeded generator); the seat to
    move decides from its own observation only. Returns the same, finished state."""
    if state.game.explicit_chance:
        raise ValueError("play() draws chance from the game's seed: use a game without explicit_chance")
    views = [state.observation(seat) for seat in range(state.game.players)]  # live views
    if not isinstance(state, GameState):  # any other game: OpenSpiel's verbs alone
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(players[seat].choose(views[seat], state.legal_actions()))
        return state
    # bound once: the loop body runs at every decision of the game
    choosers = [player.choose for player in players]
    current_player, legal_actions, apply_action = state.current_player, state.legal_actions, state.apply_action
    # the loop reads a few of the record's public fields itself: the phase (over? the turn's
    # player to decide?), that player, and the legal list when the node keeps one (a copy of
    # it is what legal_actions() returns); a count's range is listed by legal_actions(), and
    # any other node's seat asked from current_player()
    record = state.record
    while True:
        phase = record.phase
        if phase == OVER:
            break
        seat = record.player if TURN_DECIDES[phase] else current_player()
        legal = record.legal
        apply_action(choosers[seat](views[seat], legal[:] if legal is not None else legal_actions()))
    return state
