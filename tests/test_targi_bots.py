"""Targi's bots on positions built for them: what `greedy` prefers, and that it beats random."""

from __future__ import annotations

import json

from cli_run import run
from targi_fixtures import centre, display, do, give, new, placing, tribe, turn

from targui_dsl.games.targi.greedy import GreedyAgent


def choose(state, seat=0):
    return GreedyAgent(3).choose(state.observation(seat), state.legal_actions())


def test_greedy_displays_a_card_that_completes_a_same_symbol_row_rather_than_keeping_it():
    state = new()
    display(state, 0, 20, 21, 22, row=0)  # three oases
    state.record.piles[1] = [tribe(236)]  # an oasis: 1 date, 1 pepper, 1 gold
    give(state, 0, goods=(1, 0, 1), gold=1)
    turn(state, 0, border=(14,))
    do(state, "border 14")
    assert state.action_to_string(0, choose(state)) == "pay 1 date 1 pepper 1 gold"
    state.apply_action(choose(state))
    assert state.action_to_string(0, choose(state)) == "row 1 (3 cards)"  # the row it completes, not an empty one


def test_greedy_places_where_its_crossing_gives_an_affordable_tribe_card_over_a_goods_card():
    state = new()
    placing(state, 0, robber=4)
    state.record.figures[0] = 0  # its Targi on border 1: column 1
    state.record.figures[12] = 1  # the opponent on border 13 (row 3): border 7 is barred too
    display(state, 0, 20, 21, 22, row=0)
    centre(state, 0, 17, deck="goods")  # row 1 crosses two salt
    centre(state, 3, 236)  # row 2 crosses an oasis that completes its row
    give(state, 0, goods=(1, 0, 1), gold=1)
    assert state.action_to_string(0, choose(state)) in ("Pepper (6)", "Tribal Expansion (14)")


def test_greedy_beats_random_in_every_game():
    result = run("simulate", "targi", "-n", "20", "--bots", "greedy,random", "--rotate", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["wins_by_bot"]["greedy"] == 20


def test_greedy_goes_to_the_noble_for_a_hand_card_it_can_pay_for_and_not_otherwise():
    def first_placement(goods, gold):
        state = new()
        placing(state, 0, robber=4)
        state.record.sides[0].hand = tribe(236)  # an oasis: 1 date, 1 pepper, 1 gold
        give(state, 0, goods=goods, gold=gold)
        return state.action_to_string(0, choose(state))

    assert first_placement((1, 0, 1), 1) == "Noble (1)"  # the Noble displays it
    assert first_placement((0, 0, 0), 0) != "Noble (1)"  # nothing to pay with: the Noble would discard it
