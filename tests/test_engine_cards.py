"""Each (mis)fortune card of each variant's deck, run in a game state (docs/rules/targui.md section 6)."""

from __future__ import annotations

import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset, finish_round, put, settled_state


def scene(ruleset):
    """Four settled players and a board with something for every card to hit.

    Seat 0 (Kel Ahaggar) has lost its settlement to seat 1; seat 0 owns an
    erg and a mountain; seat 1 a full guelta; seat 2 the salt mine and a small
    guelta; seat 3 a reg. An unowned guelta and erg hold nothing.
    """
    state = settled_state(ruleset, players=4)
    pos = state.game.position_of_cell
    put(state, pos[state.settlement(0)], owner=1, camels=7)
    put(state, pos[state.settlement(1)], camels=9)
    for position, kind, owner, camels in ((45, "erg", 0, 5), (44, "mountain", 0, 2), (46, "guelta", 1, 20),
                                           (28, "guelta", 2, 3), (29, "reg", 3, 7), (1, "salt_mine", 2, 6),
                                           (34, "reg", 3, 2)):
        put(state, position, kind=kind, owner=owner, camels=camels)
    put(state, 33, kind="guelta", unowned=True, camels=0)
    put(state, 35, kind="erg", unowned=True, camels=0)
    for seat in range(4):
        state.edit().set_cash(seat, 10 + seat)
        state.edit().set_treasury(seat, 100)
    state.apply_action("die 1")
    return state


def camels(state):
    pos = state.game.position_of_cell
    return {pos[c]: n for c, n in enumerate(state.camels(c) for c in range(state.game.cells)) if n}


def expected_after(number, state, before_camels, before_cash):
    """What docs/rules/targui.md section 6 says each card does, computed independently of the effect code."""
    game = state.game
    kind = {game.position_of_cell[c]: game.kind_ids[state.kind(c)] for c in range(state.game.cells)}
    owner = {game.position_of_cell[c]: o for c, o in enumerate(state.owner(c) for c in range(state.game.cells))}
    cam = dict(before_camels)
    cash = list(before_cash)
    holds = [state.holds_own_settlement(s) for s in range(4)]
    home = [game.position_of_cell[c] for c in [state.settlement(s) for s in range(state.game.players)]]

    def each(kind_id, change):
        for p in list(cam):
            if kind[p] == kind_id:
                cam[p] = max(0, change(cam[p]))

    gifts = {2: "kel_ress", 3: "kel_ilbakan", 4: "kel_ahaggar", 5: "kel_ajjer"}
    if number == 1:
        each("salt_mine", lambda n: 0)
    elif number in gifts:
        seat = game.seat_of_tribe_id.get(gifts[number])
        if seat is not None and holds[seat]:
            cam[home[seat]] = cam.get(home[seat], 0) + 10
    elif number == 6:
        each("erg", lambda n: n - 3)
    elif number == 7:
        each("guelta", lambda n: min(n, 15))
    elif number == 8:
        cash = [c + 10 if holds[s] else c for s, c in enumerate(cash)]
    elif number == 9:
        each("settlement", lambda n: n - n // 2)
    elif number == 10:
        cam = {p: n - 1 for p, n in cam.items()}
    elif number == 11:
        each("reg", lambda n: n - 5)
    elif number == 12:
        for p in kind:
            if kind[p] == "guelta" and owner[p] >= 0:
                cam[p] = cam.get(p, 0) + 5
    elif number == 14:
        each("guelta", lambda n: n - 10)
    elif number == 15:
        cash = [0 if any(kind[p] == "settlement" and owner[p] == s for p in kind) else c for s, c in enumerate(cash)]
    return {p: n for p, n in cam.items() if n}, cash


CASES = [(name, card_id) for name in REAL_VARIANTS for card_id in any_ruleset(name).deck]


@pytest.mark.parametrize("variant,card_id", CASES)
def test_card_effect(variant, card_id):
    ruleset = any_ruleset(variant)
    state = scene(ruleset)
    number = ruleset.cards[card_id].number
    before_camels, box = camels(state), state.camels_in_box
    before_cash = [state.cash(s) for s in range(state.game.players)]
    state.force_chance(f"card {card_id}")
    want_camels, want_cash = expected_after(number, state, before_camels, before_cash)
    assert camels(state) == want_camels
    assert [state.cash(s) for s in range(4)] == want_cash
    assert [state.treasury(s) for s in range(4)] == [100] * 4  # nothing touches the treasury (card 15 spares it)
    assert state.camels_in_box + sum(state.camels(c) for c in range(state.game.cells)) == ruleset.camel_box
    assert state.camels_in_box - box == sum(before_camels.values()) - sum(want_camels.values())


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_card_13_ergs_fight_with_strategic_value_3_this_round(variant):
    ruleset = any_ruleset(variant)
    if "climate_change" not in ruleset.deck:
        pytest.skip("not in this deck")
    state = scene(ruleset)
    erg = state.game.cell_of_position[45]
    assert state.strategic(erg) == 0
    state.force_chance("card climate_change")
    assert state.strategic(erg) == 3
    # in a fight from the erg: (die + 3) // 2
    assert state.game.defender_loses(state, 3, erg, state.game.cell_of_position[46]) == 3
    finish_round(state)
    assert state.strategic(erg) == 0


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_card_16_mountains_worth_3_at_this_levy(variant):
    ruleset = any_ruleset(variant)
    state = scene(ruleset)
    state.edit().set_cash(3, 0)
    put(state, 44, owner=3)  # seat 3 now owns a mountain, holds its settlement
    levy_before = state.game.levy(state.runtime, 3)
    state.force_chance("card silver_in_mountains")
    assert state.game.levy(state.runtime, 3) == levy_before + 3
    finish_round(state)
    if state.is_terminal():
        return
    assert state.cash(3) == levy_before + 3
    assert state.economic(state.game.cell_of_position[44]) == 0


def test_gift_for_a_tribe_not_playing_does_nothing():
    ruleset = any_ruleset("original-dutch")
    state = settled_state(ruleset, players=2)  # Kel Ahaggar and Kel Ajjer
    state.apply_action("die 1")
    before = [state.camels(c) for c in range(state.game.cells)]
    state.force_chance("card gift_kel_ress")
    assert [state.camels(c) for c in range(state.game.cells)] == before
    finish_round(state)
    state.apply_action("die 1")
    home = state.settlement(1)
    state.force_chance("card gift_kel_ajjer")
    assert state.camels(home) == before[home] + 10
