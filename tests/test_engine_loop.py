"""The one game loop: a state's own ``play_out`` plays the game the OpenSpiel verbs play."""

from __future__ import annotations

from typing import Any

import pytest
from engine_fixtures import any_ruleset

from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.games.targui.game import Game


class Verbs:
    """A Targui state seen through the OpenSpiel verbs alone (no ``play_out``): the loop's way for any game."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.game = state.game
        self.observation = state.observation
        self.is_terminal = state.is_terminal
        self.current_player = state.current_player
        self.legal_actions = state.legal_actions
        self.apply_action = state.apply_action


class Asked:
    """A bot that remembers every (seat, legal list) it was asked with."""

    def __init__(self, bot: Any, asked: list[tuple[int, list[int]]]) -> None:
        self.bot, self.asked = bot, asked

    def choose(self, observation: Any, legal_actions: list[int]) -> int | str:
        self.asked.append((observation.seat, list(legal_actions)))
        return self.bot.choose(observation, legal_actions)


@pytest.mark.parametrize("ruleset_id, players", [("original-dutch", 4), ("swedish-12", 2), ("updated-treasury", 3)])
def test_own_loop_plays_the_game_the_verbs_play(ruleset_id, players):
    ruleset = any_ruleset(ruleset_id)
    finals, asks = [], []
    for wrap in (lambda state: state, Verbs):
        game = Game(ruleset, players=players, seed=11)
        asked: list[tuple[int, list[int]]] = []
        bots = [Asked(bot, asked) for bot in seat_agents(11, ["greedy", "random"] * 2)[:players]]
        state = game.new_initial_state()
        wrapped = wrap(state)
        assert play(wrapped, bots) is wrapped  # the same state given, played to its end
        assert state.is_terminal()
        finals.append(state.to_json())
        asks.append(asked)
    assert asks[0] == asks[1] and len(asks[0]) > 20  # the same seats asked the same lists, in order
    assert finals[0] == finals[1]


def test_the_list_a_seat_is_given_is_its_own():
    """A bot may keep or change the list it is given: the game's kept list stays as it was."""

    class Spoiler:
        def choose(self, observation: Any, legal_actions: list[int]) -> int:
            choice = legal_actions[0]
            legal_actions.clear()
            return choice

    state = Game(any_ruleset("original-dutch"), players=2, seed=3).new_initial_state()
    play(state, [Spoiler(), Spoiler()])
    assert state.is_terminal()
