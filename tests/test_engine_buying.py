"""Whether the adding phase offers camels to buy: exactly when buy_limit() allows one (a camel
in the box, and cash for it at the ruleset's price, a price of 0 needing no cash)."""

from __future__ import annotations

import pytest
from engine_fixtures import settled_state, start_turn

from targui_dsl import load_ruleset
from targui_dsl.games.targui import flow
from targui_dsl.games.targui.actions import PASS


@pytest.mark.parametrize("price", [0, 1, 2, 5])
def test_camels_are_offered_exactly_when_one_can_be_bought(price):
    state = start_turn(settled_state(load_ruleset("original-dutch")), 0)
    state.game.camel_price = price  # this game's own price (its tables are shared by name)
    state.apply_action(PASS)  # no move: the adding phase
    assert state.phase_name == "buy_cell"
    r = state.record
    offered = set()
    for cash in (0, 1, price - 1, price, price + 1, 3 * price):
        for box in (0, 1, 40):
            if cash < 0:
                continue
            r.cash[0], r.box, r.legal = cash, box, None
            legal = state.legal_actions()
            buys = legal != [PASS]
            assert buys == (flow.buy_limit(r) > 0), (price, cash, box)
            offered.add(buys)
    assert offered == {True, False}
