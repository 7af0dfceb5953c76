"""The adapters' observation arrays, filled by NumPy, hold the engine's observation tensor:
compared number for number with the list the engine builds, on many states of every variant,
for every seat, before the deal, during setup, mid-game and at the end."""

from __future__ import annotations

import random

import numpy as np
import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset

from targui_dsl.games.targui.game import Game


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_the_filled_array_is_the_tensor_on_many_states(variant):
    ruleset = any_ruleset(variant)
    compared = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game = Game(ruleset, players=players, seed=seed)
        width = game.observation_tensor_shape()[0]
        rng = random.Random(seed)
        state = game.new_initial_state()
        reused = np.full(width, 7.0)  # an array filled before (OpenSpiel's observer reuses one)
        step = 0
        while True:
            if step % 3 == 0 or state.is_terminal():
                for seat in range(players):
                    expected = state.observation_tensor(seat)
                    exact = np.empty(width)
                    state.observation_into(seat, exact)
                    assert exact.tolist() == expected
                    state.observation_into(seat, reused)
                    assert reused.tolist() == expected
                    narrow = np.empty(width, np.float32)
                    state.observation_into(seat, narrow)
                    assert np.array_equal(narrow, np.asarray(expected, np.float32))
                    compared += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    assert compared > 300
