"""The adding phase offers exactly the player's own cells of a buyable kind, plus pass.

The engine keeps each seat's buy-on ids as cells change hands instead of
scanning the board; these tests recompute the list from the public read API
(cells_of, kind) through whole random games, copies, saved states and
hand edits.
"""

from __future__ import annotations

import random

import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset, put, settled_state, start_turn

from targui_dsl.games.targui.actions import PASS
from targui_dsl.games.targui.state import GameState


def expected_buy_list(state: GameState) -> list[int]:
    game = state.game
    seat = state.current_player()
    if state.buy_limit() <= 0:
        return [PASS]
    buyable = [game.actions.cell(c) for c in state.cells_of(seat) if game.kind_buyable[state.kind(c)]]
    return [PASS] + sorted(buyable)


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_every_adding_phase_of_random_games_lists_the_own_buyable_cells(variant: str) -> None:
    ruleset = any_ruleset(variant)
    rng = random.Random(5)
    seen = 0
    for seed in range(12):
        state = GameState.from_json(ruleset, settled_state(ruleset, seed=seed, explicit_chance=False).to_json())
        while not state.is_terminal():
            if state.phase_name == "buy_cell":
                assert state.legal_actions() == expected_buy_list(state)
                assert state.clone().legal_actions() == expected_buy_list(state)
                assert GameState.from_json(ruleset, state.to_json()).legal_actions() == expected_buy_list(state)
                seen += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen > 100


def test_a_cell_edited_to_a_kind_without_buying_leaves_the_list() -> None:
    ruleset = any_ruleset("swedish-12")  # salt mines take no bought camels there
    state = settled_state(ruleset)
    start_turn(state, 0)
    state.apply_action("pass")  # to the adding phase
    assert state.phase_name == "buy_cell"
    cell = put(state, 11, kind="guelta", owner=0, camels=1)
    buy_on = state.game.actions.cell(cell)
    assert buy_on in state.legal_actions()
    put(state, 11, kind="salt_mine")
    assert buy_on not in state.legal_actions()
    assert state.legal_actions() == expected_buy_list(state)
    put(state, 11, unowned=True, camels=0)
    put(state, 11, kind="guelta")
    assert buy_on not in state.legal_actions()
