"""docs/rules/targui.md sections 2-5 played through the engine: setup, rounds, turns, fights, levy, the end."""

from __future__ import annotations

import pytest
from engine_fixtures import (
    REAL_VARIANTS,
    any_ruleset,
    finish_round,
    pass_turn,
    put,
    settled_state,
    start_turn,
)

from targui_dsl.games.targui.actions import IllegalAction
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import CHANCE, TERMINAL


@pytest.fixture(params=REAL_VARIANTS)
def ruleset(request):
    return any_ruleset(request.param)


def dutch():
    return any_ruleset("original-dutch")


def treasury():
    return any_ruleset("updated-treasury")


def _loses_cash(ruleset):
    """updated-treasury's "all cash in hand is lost" is a before_levy hook of its ruleset."""
    return bool(ruleset.hooks["before_levy"])


def kind_at(state, position):
    return state.game.kind_ids[state.kind(state.game.cell_of_position[position])]


# --- setup -------------------------------------------------------------------------

def test_deal_places_salt_mine_in_centre_and_deals_everything_else(ruleset):
    state = Game(ruleset, players=4, seed=5, explicit_chance=True).new_initial_state()
    for sector in ("north_west", "north_east", "south_west"):
        state.apply_action(f"sector {sector}")
    # the fourth sector is the only one left: taken by itself
    assert state.sector(3) == state.game.sector_by_id["south_east"]
    assert state.current_player() == CHANCE and state.phase_name == "deal"
    assert kind_at(state, 1) == "salt_mine"
    while state.phase_name == "deal":
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[-1][0])
    dealt = [kind_at(state, p) for p in range(2, 50)]
    counts = {k.id: k.count for k in ruleset.kinds}
    assert "settlement" not in dealt and "salt_mine" not in dealt
    for kind in ("guelta", "reg", "erg", "fesh_fesh", "mountain", "chott"):
        assert dealt.count(kind) == counts[kind]


def test_settling_replaces_the_card_and_gives_start_camels_and_cash(ruleset):
    state = settled_state(ruleset, players=4)
    assert state.round == 1 and state.phase_name == "round_die"
    for seat in range(4):
        cell = state.settlement(seat)
        assert state.owner(cell) == seat
        assert state.game.kind_ids[state.kind(cell)] == "settlement"
        assert state.camels(cell) == ruleset.start_camels[seat]
        assert state.cash(seat) == ruleset.start_cash[seat]
        assert cell in state.game.sector_cells[state.sector(seat)]
    assert state.camels_in_box == ruleset.camel_box - sum(ruleset.start_camels[:4])
    # nothing but the settlements is owned at the start
    assert sum(1 for c in range(state.game.cells) if state.owner(c) >= 0) == 4


def test_three_players_settle_on_their_three_positions(ruleset):
    state = Game(ruleset, players=3, seed=2, explicit_chance=True).new_initial_state()
    assert state.phase_name == "deal"  # no sector choice for three players
    while state.phase_name == "deal":
        state.apply_action(state.chance_outcomes()[0][0])
    allowed = []
    for _seat in range(3):
        options = sorted(int(state.action_to_string(a).split()[1]) for a in state.legal_actions())
        allowed.append(options)
        state.apply_action(f"settle {options[-1]}")
    assert allowed == [[47, 48, 49], [31, 32, 33], [39, 40, 41]]
    with pytest.raises(IllegalAction):
        Game(ruleset, players=3, explicit_chance=True).new_initial_state().apply_action("sector north_west")


def test_settling_on_a_chott_makes_it_passable(ruleset):
    state = Game(ruleset, players=2, seed=0, explicit_chance=True).new_initial_state()
    state.apply_action("sector north_west")
    state.apply_action("sector south_east")
    # deal: a chott first (position 2), then anything
    state.force_chance("deal chott")
    while state.phase_name == "deal":
        state.apply_action(state.chance_outcomes()[0][0])
    assert kind_at(state, 2) == "chott"
    # position 2 is not in a sector; check the rule on a sector cell instead
    cell20 = state.game.cell_of_position[20]
    put(state, 20, kind="chott")
    state.apply_action("settle 20")
    assert kind_at(state, 20) == "settlement"
    state.apply_action("settle 12")
    # the settlement replaced the chott: camels may move onto it now
    move = state.game.pair_id[state.game.cell_of_position[21]][cell20]
    assert move in state.record.move_ids[state.game.cell_of_position[21]]


def test_unsupported_player_count_is_refused(ruleset):
    with pytest.raises(ValueError):
        Game(ruleset, players=5)
    with pytest.raises(ValueError):
        Game(ruleset, players=2, tribes=["kel_ress", "kel_ress"])


# --- rounds ------------------------------------------------------------------------

def test_small_die_gives_that_many_turns_and_the_fortune_cards(ruleset):
    state = settled_state(ruleset)
    state.apply_action("die 2")
    assert state.double_turn is False
    assert [state.tribal_cards_left(s) for s in range(4)] == [min(2, ruleset.tribal_cards)] * 4
    assert state.fortune_cards_left() == ruleset.fortune_cards_per_round


def test_high_die_gives_one_double_turn_each(ruleset):
    state = settled_state(ruleset)
    state.apply_action(f"die {ruleset.double_turn_from}")
    assert state.double_turn is True and [state.tribal_cards_left(s) for s in range(4)] == [1] * 4
    state.apply_action("turn " + state.game.tribe_ids[0])
    moves = 0
    while state.current_player() == 0:
        if state.phase_name in ("deposit", "move"):
            moves += 1
        state.apply_action("pass")
    assert moves == 2  # move + add, twice


def test_game_lasts_the_deck_out():
    for name, rounds in (("original-dutch", 16), ("swedish-12", 12), ("updated-treasury", 8)):
        rs = any_ruleset(name)
        state = settled_state(rs)
        while not state.is_terminal():
            state.apply_action("die 1")
            finish_round(state)
        assert state.round == rounds == rs.rounds
        assert state.end_reason == "deck"
        assert state.current_player() == TERMINAL


def test_levy_of_thirteen(ruleset):
    """Settlement 4 + guelta 3 + three regs 2 + fesh-fesh 0 = 13 (rulebook example)."""
    state = settled_state(ruleset)
    for position, kind in ((45, "guelta"), (46, "reg"), (28, "reg"), (29, "reg"), (34, "fesh_fesh")):
        put(state, position, kind=kind, owner=0, camels=1)
    assert state.game.levy(state.runtime, 0) == 13
    state.apply_action("die 1")
    cash_before = state.cash(0)
    state.force_chance("card " + ("drought" if "drought" in state.remaining_cards() else state.remaining_cards()[0]))
    finish_round(state)
    expected = 13 if _loses_cash(ruleset) else cash_before + 13
    assert state.cash(0) == expected


def test_cash_lost_at_round_end_only_where_the_variant_says():
    for name in REAL_VARIANTS:
        rs = any_ruleset(name)
        state = settled_state(rs)
        state.apply_action("die 1")
        state.force_chance("card drought")
        finish_round(state)
        levy = state.game.levy  # every player owns only the settlement: levy 4
        assert levy(state.runtime, 1) == 4
        assert state.cash(1) == (4 if _loses_cash(rs) else rs.start_cash[1] + 4)


def test_round_modifiers_reach_the_levy_and_then_expire():
    rs = dutch()
    state = settled_state(rs)
    put(state, 45, kind="mountain", owner=0, camels=1)
    state.apply_action("die 1")
    state.force_chance("card silver_in_mountains")
    assert state.economic(state.game.cell_of_position[45]) == 3
    finish_round(state)
    assert state.cash(0) == rs.start_cash[0] + 4 + 3
    assert state.economic(state.game.cell_of_position[45]) == 0


# --- the movement phase ---------------------------------------------------------------

def test_worked_attack_example_with_forced_dice(ruleset):
    """8 camels on a guelta attack 5 on a fesh-fesh; throws 4, 6, 3: T taken with 4 camels."""
    state = start_turn(settled_state(ruleset), 0)
    source = put(state, 45, kind="guelta", owner=0, camels=8)
    target = put(state, 46, kind="fesh_fesh", owner=1, camels=5)
    state.apply_action("attack 45 46")
    assert state.current_player() == CHANCE
    state.apply_action("die 4")  # defender loses (4 + 3) // 2 = 3
    assert state.camels(target) == 2
    state.apply_action("die 6")  # attacker loses (6 + 2) // 2 = 4
    assert state.camels(source) == 4
    assert state.phase_name == "attack_choice" and state.current_player() == 0
    assert sorted(map(state.action_to_string, state.legal_actions())) == ["again", "give up"]
    state.apply_action("again")
    state.apply_action("die 3")  # defender loses (3 + 3) // 2 = 3, capped at 2
    assert state.camels(target) == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["enter 1", "enter 2", "enter 3", "enter 4"]
    state.apply_action("enter 4")
    assert state.owner(target) == 0 and state.camels(target) == 4 and state.camels(source) == 0
    assert state.owner(source) == 0  # an emptied territory stays its owner's
    assert state.phase_name == "buy_cell"


def test_worked_attack_example_in_implicit_chance_mode():
    state = start_turn(settled_state(dutch()), 0)
    state.game.explicit_chance = False
    put(state, 45, kind="guelta", owner=0, camels=8)
    put(state, 46, kind="fesh_fesh", owner=1, camels=5)
    state.force_chance(4, 6, 3)
    state.apply_action("attack 45 46")
    state.apply_action("again")
    assert state.phase_name == "enter"
    state.apply_action("enter 4")
    assert state.owner(state.game.cell_of_position[46]) == 0


def test_failed_attack_keeps_the_source():
    state = start_turn(settled_state(dutch()), 0)
    source = put(state, 45, kind="reg", owner=0, camels=2)
    target = put(state, 46, kind="mountain", owner=1, camels=9)
    state.apply_action("attack 45 46")
    state.apply_action("die 1")  # (1 + 0) // 2 = 0
    state.apply_action("die 6")  # (6 + 1) // 2 = 3 >= 2: the attack fails
    assert state.camels(source) == 0 and state.owner(source) == 0
    assert state.camels(target) == 9 and state.owner(target) == 1
    assert state.phase_name == "buy_cell"


def test_giving_up_ends_the_attack():
    state = start_turn(settled_state(dutch()), 0)
    put(state, 45, kind="reg", owner=0, camels=10)
    put(state, 46, kind="mountain", owner=1, camels=9)
    state.apply_action("attack 45 46")
    state.apply_action("die 2")
    state.apply_action("die 2")
    state.apply_action("give up")
    assert state.phase_name == "buy_cell"
    with pytest.raises(IllegalAction):
        state.apply_action("again")


def test_empty_enemy_territory_is_moved_into_without_a_fight():
    state = start_turn(settled_state(dutch()), 0)
    put(state, 45, kind="reg", owner=0, camels=3)
    target = put(state, 46, kind="erg", owner=1, camels=0)
    with pytest.raises(IllegalAction, match="move there"):
        state.apply_action("attack 45 46")
    state.apply_action("move 45 46 2")
    assert state.owner(target) == 0 and state.camels(target) == 2
    assert state.phase_name == "buy_cell"


def test_moves_to_unowned_and_own_cells_and_at_most_one_move():
    state = start_turn(settled_state(dutch()), 0)
    home = state.settlement(0)  # position 20
    assert state.game.position_of_cell[home] == 20
    state.apply_action("move 20 21 3")
    assert state.owner(state.game.cell_of_position[21]) == 0
    with pytest.raises(IllegalAction):
        state.apply_action("move 20 21 1")  # the adding phase now
    state.apply_action("pass")
    with pytest.raises(IllegalAction):
        state.apply_action("move 20 19 11")


def test_chotts_are_never_entered_or_owned():
    state = start_turn(settled_state(dutch()), 0)
    put(state, 21, kind="chott")
    with pytest.raises(IllegalAction, match="impassable"):
        state.apply_action("move 20 21 1")
    assert all(not state.action_to_string(a).startswith("move 20 21") for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="not adjacent"):
        state.apply_action("move 20 23 1")


def test_deposit_only_in_treasury_variants_and_before_the_move():
    state = start_turn(settled_state(treasury()), 0)
    assert "deposit 10" in map(state.action_to_string, state.legal_actions())
    state.apply_action("deposit 4")
    assert state.cash(0) == 6 and state.treasury(0) == 4
    with pytest.raises(IllegalAction, match="not an action here: move, attack or pass"):
        state.apply_action("deposit 1")  # one deposit, before the move
    state.apply_action("pass")
    with pytest.raises(IllegalAction):
        state.apply_action("deposit 1")  # the adding phase
    plain = start_turn(settled_state(dutch()), 0)
    with pytest.raises(IllegalAction, match="no treasury"):
        plain.apply_action("deposit 1")


# --- the adding phase ---------------------------------------------------------------

def test_buying_costs_cash_and_comes_from_the_box():
    state = start_turn(settled_state(dutch()), 0)
    state.apply_action("pass")
    box = state.camels_in_box
    state.apply_action("buy 7 on 20")
    assert state.cash(0) == 3 and state.camels_in_box == box - 7
    assert state.camels(state.settlement(0)) == 17


def test_buying_on_the_salt_mine_follows_the_variant():
    for name, allowed in (("original-dutch", True), ("swedish-12", False), ("updated-treasury", False)):
        state = start_turn(settled_state(any_ruleset(name)), 0)
        put(state, 1, owner=0, camels=0)
        state.apply_action("pass")
        if allowed:
            state.apply_action("buy 2 on 1")
            assert state.camels(state.game.cell_of_position[1]) == 2
        else:
            with pytest.raises(IllegalAction):
                state.apply_action("buy 2 on 1")


def test_empty_camel_box_limits_buying_and_gifts():
    state = settled_state(dutch())
    put(state, 45, kind="reg", owner=1, camels=state.camels_in_box - 3)  # leave 3 in the box
    assert state.camels_in_box == 3
    start_turn(state, 0)
    state.apply_action("pass")
    assert state.buy_limit() == 3
    with pytest.raises(IllegalAction):
        state.apply_action("buy 4 on 20")
    state.apply_action("buy 3 on 20")
    assert state.camels_in_box == 0
    # the adding phases of others are skipped by themselves (nothing to buy); a gift gives nothing
    home = state.settlement(0)
    before = state.camels(home)
    state.force_chance("card gift_kel_ahaggar")
    assert state.camels(home) == before


# --- lost settlements, elimination, winners -------------------------------------------------

def test_lost_settlement_no_levy_no_gifts_cannot_win():
    rs = dutch()
    state = settled_state(rs)
    home = state.settlement(0)
    put(state, state.game.position_of_cell[home], owner=1)
    for position in (45, 46, 28, 29, 34, 33):
        put(state, position, kind="guelta", owner=0, camels=2)
    assert state.game.levy(state.runtime, 0) == 0 and state.holds_own_settlement(0) is False
    state.edit().set_deck(["gift_kel_ahaggar", "caravan_raid"])  # two rounds left
    state.apply_action("die 1")
    cash = state.cash(0)
    state.force_chance("card gift_kel_ahaggar")
    assert state.camels(home) == 10  # nobody receives the gift, not the new owner either
    finish_round(state)
    assert state.cash(0) == cash  # no levy
    state.apply_action("die 1")
    state.force_chance("card caravan_raid")
    assert state.cash(0) == cash and state.cash(1) == rs.start_cash[1] + 4 + 4 + 10
    finish_round(state)
    assert state.is_terminal() and state.end_reason == "deck"
    scores = state.scores()
    assert scores[0] == max(scores)  # the best score...
    assert 0 not in state.winners()  # ...but no settlement, no win
    assert state.returns()[0] == 0


def test_tie_breaks_decide_and_surviving_ties_are_draws():
    rs = dutch()  # score: economic value owned; tie-break camels + cash
    state = settled_state(rs, players=2)
    state.edit().set_deck(["drought"])
    state.apply_action("die 1")
    state.force_chance("card drought")
    finish_round(state)
    assert state.is_terminal()
    # identical positions (settlement, 10 camels, same cash): a draw
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5] and state.is_draw()

    state = settled_state(rs, players=2)
    state.edit().set_deck(["drought"])
    put(state, state.game.position_of_cell[state.settlement(1)], camels=11)
    state.apply_action("die 1")
    state.force_chance("card drought")
    finish_round(state)
    assert state.winners() == [1] and state.returns() == [0.0, 1.0]


def test_dutch_tie_break_adds_camels_and_cash():
    # docs/rules/targui.md section 7: "camels + cash". Seat 0 has more camels, seat 1
    # more camels and cash together: the sum decides, not camels first.
    state = settled_state(dutch(), players=2)
    state.edit().set_deck(["drought"])
    put(state, state.game.position_of_cell[state.settlement(0)], camels=12)
    state.edit().set_cash(0, 0)
    state.edit().set_cash(1, 5)
    state.apply_action("die 1")
    state.force_chance("card drought")
    finish_round(state)
    assert state.scores()[0] == state.scores()[1]
    assert state.winners() == [1]


def test_nobody_eligible_is_a_draw_among_those_still_playing():
    state = settled_state(dutch(), players=2)
    a, b = state.settlement(0), state.settlement(1)
    pa, pb = state.game.position_of_cell[a], state.game.position_of_cell[b]
    put(state, pa, owner=1)
    put(state, pb, owner=0)  # they swapped settlements
    state.edit().set_deck(["drought"])
    state.apply_action("die 1")
    state.force_chance("card drought")
    finish_round(state)
    assert state.winners() == [0, 1]


def test_elimination_skips_the_player_and_the_last_one_standing_wins():
    state = settled_state(dutch(), players=3)
    # seat 2 owns only its settlement, empty, next to seat 0's camels
    home2 = state.settlement(2)
    pos2 = state.game.position_of_cell[home2]
    put(state, pos2, camels=0)
    neighbour = state.game.neighbours[home2][0]
    put(state, state.game.position_of_cell[neighbour], kind="reg", owner=0, camels=5)
    start_turn(state, 0)
    state.apply_action(f"move {state.game.position_of_cell[neighbour]} {pos2} 2")
    assert len(state.cells_of(2)) == 0 and state.tribal_cards_left(2) == 0
    assert state.seats_in_game() == [0, 1]
    assert not state.is_terminal()
    # now seat 1 loses everything too: seat 0 wins outright at once
    home1 = state.settlement(1)
    pos1 = state.game.position_of_cell[home1]
    put(state, pos1, camels=0)
    n1 = state.game.neighbours[home1][0]
    put(state, state.game.position_of_cell[n1], kind="reg", owner=0, camels=5)
    state.apply_action("pass")
    while state.current_player() != 0:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            pass_turn(state)
    state.apply_action(f"move {state.game.position_of_cell[n1]} {pos1} 1")
    assert state.is_terminal() and state.end_reason == "last_standing"
    assert state.winners() == [0] and state.returns() == [1.0, 0.0, 0.0]


def test_illegal_actions_are_refused_with_a_reason():
    state = start_turn(settled_state(dutch()), 0)
    for text, message in (("move 20 21 0", "1..10"), ("move 10 11 1", "not yours"), ("move 20 99 1", "no position"),
                          ("buy 1 on 20", "not an action here"), ("settle 20", "not an action here"),
                          ("die 3", "unknown action")):
        with pytest.raises(IllegalAction, match=message):
            state.apply_action(text)


def test_a_round_long_change_never_leaks_into_the_lasting_value(tmp_path):
    """Issue 8's case: `reg.economic += 1 this round` and `reg.economic -= 1` in one round
    leave reg at 2 for that round and at 1 afterwards (it was stuck at 2 before)."""
    from targui_dsl import load_ruleset

    rule = tmp_path / "drift.yaml"
    rule.write_text("extends: original-dutch\nid: drift\ntitle: Drift\nhooks:\n  game_start:\n"
                    "    - |\n      reg.economic += 1 this round\n      reg.economic -= 1\n", encoding="utf-8")
    state = settled_state(load_ruleset(str(rule)))
    reg = state.game.kind_by_id["reg"]
    assert state.kind_economic(reg) == 2  # this round: 2 + 1 - 1
    state.apply_action("die 1")
    finish_round(state)
    assert state.kind_economic(reg) == 1  # the round's +1 expired; the lasting -1 stays
