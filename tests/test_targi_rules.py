"""Targi's rules, each test named after the rule it checks (TARGI-RULES.md, TARGI-CARDS.md)."""

from __future__ import annotations

import pytest
from targi_fixtures import (
    DATE,
    PEPPER,
    RS,
    SALT,
    centre,
    display,
    do,
    give,
    goods_card,
    new,
    placing,
    run_frames,
    texts,
    tribe,
    turn,
)


def borders(state) -> set[int]:
    return {int(t.rsplit("(", 1)[1].rstrip(")")) for t in texts(state) if t.endswith(")") and "(" in t
            and t.rsplit("(", 1)[1].rstrip(")").isdigit()}


# --- placement: the four bans ------------------------------------------------------------------

def test_placement_ban_the_robbers_card():
    state = new()
    placing(state, 0, robber=2)
    assert 2 not in borders(state) and 3 in borders(state)


def test_placement_ban_the_raid_corners():
    state = new()
    placing(state, 0, robber=1)
    assert borders(state).isdisjoint({4, 8, 12, 16})


def test_placement_ban_a_card_holding_a_targi():
    state = new()
    placing(state, 0, robber=1)
    do(state, "border 5")
    assert 5 not in borders(state)


def test_placement_ban_the_card_opposite_an_opponents_targi():
    state = new()
    placing(state, 0, robber=1)
    do(state, "border 2")  # opposite: 10
    assert 10 not in borders(state)  # seat 1 may not
    do(state, "border 6")  # seat 1; opposite: 14
    assert 10 in borders(state) and 14 not in borders(state)  # own Targi opposite is no ban


def test_placement_alternates_from_the_amulet_holder():
    state = new()
    placing(state, 1, robber=1)
    seats = []
    for _ in range(6):
        seats.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert seats == [1, 0, 1, 0, 1, 0]


def test_card_232_lifts_only_the_robber_ban():
    state = new()
    display(state, 0, 232)
    placing(state, 0, robber=2)
    assert 2 in borders(state) and 4 not in borders(state)


def test_card_244_the_opponent_places_only_2_next_round():
    state = new()
    turn(state, 0, border=(14,))
    state.record.piles[1] = [tribe(244)]
    give(state, 0, goods=(1, 1, 2))
    do(state, "border 14", "option 1", "row 1")  # the round ends: the next one's placement
    placed = [0, 0]
    while state.record.stack and state.record.stack[-1]["k"] == "place":
        placed[state.current_player()] += 1
        state.apply_action(state.legal_actions()[0])
    assert placed == [3, 2]


# --- tribe markers at the crossings ------------------------------------------------------------

def markers_for(figures: tuple[int, ...]) -> list[int]:
    state = new()
    record = state.record
    record.figures = [-1] * 16
    record.markers = [-1] * 9
    for number in figures:
        record.figures[number - 1] = 0
    run_frames(state, {"k": "round", "step": "markers"})
    return [space for space, owner in enumerate(record.markers) if owner == 0]


def test_markers_at_the_crossings_two_markers():
    assert markers_for((1, 2, 15)) == [0, 1]  # columns 1 and 2 cross row 1


def test_markers_at_the_crossings_one_marker():
    assert markers_for((1, 11, 15)) == [0]  # two Targi in one column: one crossing


def test_markers_at_the_crossings_no_marker():
    assert markers_for((1, 2, 3)) == []  # three columns, no row


def test_markers_at_the_crossings_of_rows_5_6_7_with_columns_9_10_11():
    assert markers_for((11, 5, 7)) == [0, 6]


# --- actions ------------------------------------------------------------------------------------

def test_order_of_actions_is_the_players_choice():
    state = new()
    centre(state, 0, 16, deck="goods")  # 2 dates
    give(state, 0, goods=(0, 0, 0))
    turn(state, 0, border=(3, 6), spaces=(0,))
    assert sorted(texts(state)) == ["Pepper (6)", "Salt (3)", "centre 1: goods card 16 (2 date)", "end my turn"]
    do(state, "space 1")
    assert state.record.sides[0].goods == [2, 0, 0]
    assert sorted(texts(state)) == ["Pepper (6)", "Salt (3)", "end my turn"]
    do(state, "border 6")
    assert state.record.sides[0].goods == [2, 0, 1]


def test_order_of_actions_a_player_may_stop_and_skip_the_rest():
    state = new()
    give(state, 0, goods=(0, 0, 0))
    turn(state, 0, border=(3, 6))
    do(state, "stop")
    assert state.record.sides[0].goods == [0, 0, 0]


def test_the_amulet_holder_acts_first_then_the_other_player():
    state = new()
    record = state.record
    record.figures = [-1] * 16
    record.figures[1], record.figures[2] = 0, 1
    record.stack = [{"k": "round", "step": "actions"}]
    state._advance()
    assert state.current_player() == record.amulet == 0
    do(state, "border 2")
    assert state.current_player() == 1


def test_replacement_by_the_other_kind_face_down_and_the_turn_up():
    state = new()
    centre(state, 0, 16, deck="goods")
    turn(state, 0, border=(2,), spaces=(0,))
    do(state, "space 1")
    record = state.record
    assert record.centre_kind[0] == 1 and not record.centre_up[0] and record.centre[0] >= 0
    assert state.view(0)["centre"][0] == {"deck": "tribe", "card": None}
    assert goods_card(16) in record.discards[0]
    do(state, "stop")
    assert record.centre_up[0]  # turned up at the end of the round


def test_a_used_tribe_card_is_replaced_by_a_goods_card_face_down():
    state = new()
    centre(state, 1, 20)
    turn(state, 0, border=(2,), spaces=(1,))
    do(state, "space 2", "discard")
    assert state.record.centre_kind[1] == 0 and not state.record.centre_up[1]
    assert tribe(20) in state.record.discards[1]


def test_hand_limit_one_card_kept_in_hand_only_when_the_hand_is_empty():
    state = new()
    centre(state, 1, 20)
    centre(state, 3, 21)
    give(state, 0, goods=(0, 0, 0), gold=0)
    turn(state, 0, spaces=(1, 3))
    do(state, "space 2")
    assert texts(state) == ["keep in hand", "discard"]  # cannot pay
    do(state, "hand")
    do(state, "space 4")
    assert texts(state) == ["discard"]  # the hand is full
    assert state.record.sides[0].hand == tribe(20)


def test_noble_displays_the_hand_card_paying_its_cost():
    state = new()
    state.record.sides[0].hand = tribe(20)  # 1 pepper + 1 gold
    give(state, 0, goods=(0, 0, 1), gold=1)
    turn(state, 0, border=(1,))
    do(state, "border 1")
    assert set(texts(state)) == {"pay 1 pepper 1 gold", "discard"}
    do(state, "option 1", "row 2")
    side = state.record.sides[0]
    assert side.hand == -1 and side.display[1] == [tribe(20)] and side.goods == [0, 0, 0] and side.gold == 0


def test_noble_discards_the_hand_card():
    state = new()
    state.record.sides[0].hand = tribe(20)
    give(state, 0, goods=(0, 0, 0), gold=0)
    turn(state, 0, border=(1,))
    do(state, "border 1", "discard")
    assert state.record.sides[0].hand == -1 and tribe(20) in state.record.discards[1]


def test_noble_with_an_empty_hand_does_nothing():
    state = new()
    turn(state, 0, border=(1, 2))
    do(state, "border 1")
    assert sorted(texts(state)) == ["Dates (2)", "end my turn"]


def test_a_full_display_accepts_no_more_cards():
    state = new()
    display(state, 0, 20, 21, 22, 23, row=0)
    display(state, 0, 24, 25, 26, 27, row=1)
    display(state, 0, 28, 29, 210, 211, row=2)
    centre(state, 1, 212)
    give(state, 0, goods=(5, 5, 5), gold=3)
    turn(state, 0, spaces=(1,))
    do(state, "space 2")
    assert texts(state) == ["keep in hand", "discard"]  # no option to display it


# --- border cards -------------------------------------------------------------------------------

@pytest.mark.parametrize(("number", "good"), [(2, DATE), (3, SALT), (6, PEPPER), (7, DATE), (11, PEPPER),
                                                (15, SALT)])
def test_border_card_goods_take_one(number, good):
    state = new()
    give(state, 0, goods=(0, 0, 0))
    turn(state, 0, border=(number,))
    do(state, f"border {number}")
    expected = [0, 0, 0]
    expected[good] = 1
    assert state.record.sides[0].goods == expected


def test_border_card_merchant_any_number_of_exchanges_of_any_goods():
    state = new()
    give(state, 0, goods=(2, 2, 1), gold=0)
    turn(state, 0, border=(5,))
    do(state, "border 5", "choose 1", "good date", "good salt", "good pepper")  # 3 goods -> 1 gold
    assert state.record.sides[0].gold == 1
    do(state, "choose 2", "good date", "good salt", "good pepper")  # 2 goods -> 1 good of choice
    assert state.record.sides[0].goods == [0, 0, 1]
    assert texts(state) == ["choose 0"]  # nothing left to exchange: stop
    do(state, "choose 0")
    assert all(frame["k"] != "effect" for frame in state.record.stack)  # the visit is over


def test_border_card_silversmith_exactly_one_exchange():
    state = new()
    give(state, 0, goods=(2, 2, 0), gold=2, points=0)
    turn(state, 0, border=(10,))
    do(state, "border 10")
    assert set(texts(state)) == {"choose 0", "choose 1", "choose 2", "choose 3", "choose 4"}  # 0: none
    do(state, "choose 4")  # 2 gold -> 4 points
    side = state.record.sides[0]
    assert (side.gold, side.points, side.goods) == (0, 4, [2, 2, 0])
    assert all(frame["k"] != "effect" for frame in state.record.stack)  # one exchange, no second


def test_border_card_silversmith_four_goods_for_three_points():
    state = new()
    give(state, 0, goods=(2, 2, 0), gold=0, points=0)
    turn(state, 0, border=(10,))
    do(state, "border 10", "choose 2", "good date", "good date", "good salt", "good salt")
    assert state.record.sides[0].points == 3 and state.record.sides[0].goods == [0, 0, 0]


def test_border_card_fata_morgana_moves_an_unused_marker_to_a_free_face_up_card():
    state = new()
    give(state, 0, goods=(0, 0, 0))
    centre(state, 8, 18, deck="goods")  # 2 pepper
    turn(state, 0, border=(9,), spaces=(0,))
    do(state, "border 9", "space 1")
    assert "space 1" not in texts(state)
    do(state, "space 9")
    assert state.record.markers[8] == 0 and state.record.markers[0] == -1
    do(state, "space 9")
    assert state.record.sides[0].goods == [0, 0, 2]


def test_border_card_caravan_takes_the_top_goods_card_which_is_discarded():
    state = new()
    give(state, 0, goods=(0, 0, 0))
    state.record.piles[0] = [goods_card(17)]  # 2 salt
    turn(state, 0, border=(13,))
    do(state, "border 13")
    assert state.record.sides[0].goods == [0, 2, 0]
    assert state.record.discards[0] == [goods_card(17)]


def test_border_card_caravan_reshuffles_the_goods_discards():
    state = new()
    give(state, 0, goods=(0, 0, 0))
    state.record.piles[0] = []
    state.record.discards[0] = [goods_card(10)]
    turn(state, 0, border=(13,))
    do(state, "border 13")
    assert state.record.sides[0].goods == [1, 0, 0]


def test_border_card_tribal_expansion_display_hand_or_discard():
    state = new()
    state.record.piles[1] = [tribe(20)]
    give(state, 0, goods=(0, 0, 1), gold=1)
    turn(state, 0, border=(14,))
    do(state, "border 14")
    assert set(texts(state)) == {"pay 1 pepper 1 gold", "keep in hand", "discard"}
    do(state, "option 1", "row 3")
    assert state.record.sides[0].display[2] == [tribe(20)]


def test_display_rows_fill_from_the_left_and_the_player_picks_the_row():
    state = new()
    display(state, 0, 20, 21, 22, 23, row=0)
    state.record.piles[1] = [tribe(24)]
    give(state, 0, goods=(1, 2, 1))
    turn(state, 0, border=(14,))
    do(state, "border 14", "option 1")
    assert texts(state) == ["row 2 (empty)", "row 3 (empty)"]


# --- raids --------------------------------------------------------------------------------------

def raid(number: int, goods=(2, 2, 2), gold=1, points=4, seat_cards=()):
    state = new()
    for seat in range(2):
        give(state, seat, goods=goods, gold=gold, points=points)
    display(state, 0, *seat_cards)
    record = state.record
    record.figures = [-1] * 16
    record.robber = number - 2
    record.stack = [{"k": "round", "step": "robber"}]
    state._advance()
    return state


@pytest.mark.parametrize(("number", "options", "shown"), [
    (4, ("goods", 1, "points", 1), ["give 1 good", "give 1 point"]),
    (8, ("goods", 2, "points", 1), ["give 2 goods", "give 1 point"]),
    (12, ("goods", 3, "points", 2), ["give 3 goods", "give 2 points"]),
    (16, ("gold", 1, "points", 3), ["give 1 gold", "give 3 points"])])
def test_each_raid_offers_its_two_options(number, options, shown):
    state = raid(number)
    assert state.record.stack[-1]["k"] == "raid_pay" and state.current_player() == 0  # the amulet holder first
    assert texts(state) == shown
    assert RS.ring[number - 1].raid == ((options[0], options[1]), (options[2], options[3]))


def test_raid_1_one_good_of_the_players_choice():
    state = raid(4)
    do(state, "option 1", "good pepper")
    assert state.record.sides[0].goods == [2, 2, 1]
    do(state, "option 2")
    assert state.record.sides[1].points == 3


def test_raid_2_two_goods_or_one_point():
    state = raid(8)
    do(state, "option 1", "good date", "good date", "option 2")
    assert state.record.sides[0].goods == [0, 2, 2] and state.record.sides[1].points == 3


def test_raid_3_three_goods_or_two_points_and_the_robber_moves_on():
    state = raid(12)
    do(state, "option 2", "option 2")
    assert [s.points for s in state.record.sides] == [2, 2]
    assert state.record.robber == 12  # card 13: the raid took no round
    assert state.record.stack[-1]["k"] == "place"


def test_raid_4_one_gold_or_three_points_and_the_game_ends_at_once():
    state = raid(16)
    do(state, "option 1", "option 2")
    assert state.is_terminal() and state.end_reason == "raid"
    assert state.record.sides[0].gold == 0 and state.record.sides[1].points == 1


def test_raid_a_player_who_cannot_pay_in_full_pays_what_they_have():
    state = raid(12, goods=(1, 0, 0))
    do(state, "option 1", "good date")
    assert state.record.sides[0].goods == [0, 0, 0]
    assert state.current_player() == 1


def test_raid_with_nothing_of_the_option_pays_nothing():
    state = raid(8, goods=(0, 0, 0))
    do(state, "option 1")
    assert state.record.sides[0].goods == [0, 0, 0] and state.current_player() == 1


def test_card_229_its_owner_gives_nothing_at_raids():
    state = raid(8, seat_cards=(229,))
    assert state.current_player() == 1


def test_card_231_one_point_after_each_raid():
    state = raid(4, seat_cards=(231,))
    do(state, "option 2", "option 2")
    assert [s.points for s in state.record.sides] == [4, 3]


def test_cards_229_and_231_together_pay_nothing_and_gain_a_point():
    state = raid(16, seat_cards=(229, 231))
    do(state, "option 2")
    assert state.is_terminal() and state.record.sides[0].points == 5


# --- end of a round, the end of the game ----------------------------------------------------------

def test_limits_at_the_end_of_a_round_goods_returned_by_choice_and_gold_cut():
    state = new()
    give(state, 0, goods=(5, 4, 4), gold=5)
    turn(state, 0)
    assert state.current_player() == 0 and state.record.stack[-1] == {"k": "give", "seat": 0, "left": 3}
    do(state, "good date", "good date", "good salt")
    assert state.record.sides[0].goods == [3, 3, 4] and state.record.sides[0].gold == 3


def test_limits_do_not_count_stored_gold():
    state = new()
    give(state, 0, goods=(0, 0, 0), gold=3)
    state.record.sides[0].stored_gold = 1
    turn(state, 0)
    assert state.record.sides[0].gold == 3 and state.record.sides[0].stored_gold == 1


def test_the_amulet_passes_at_the_end_of_a_round():
    state = new()
    turn(state, 0)
    assert state.record.amulet == 1


def test_the_12th_card_finishes_the_round_and_the_other_player_takes_a_full_turn():
    state = new()
    display(state, 0, 20, 21, 22, 23, row=0)
    display(state, 0, 24, 25, 26, 27, row=1)
    display(state, 0, 28, 29, 210, row=2)
    state.record.piles[1] = [tribe(211)]
    give(state, 0, goods=(5, 5, 5), gold=3)
    give(state, 1, goods=(0, 0, 0))
    record = state.record
    record.figures = [-1] * 16
    record.figures[13], record.figures[1] = 0, 1  # 14 expansion, 2 dates
    record.stack = [{"k": "round", "step": "actions"}]
    state._advance()
    do(state, "border 14", "option 1", "row 3")
    assert record.last_round and not state.is_terminal()
    assert state.current_player() == 1
    do(state, "border 2")
    assert state.is_terminal() and state.end_reason == "display"
    assert record.sides[1].goods == [1, 0, 0]


def test_tie_breaks_more_gold_then_more_goods_then_a_draw():
    state = new()
    for seat in range(2):
        give(state, seat, goods=(1, 1, 1), gold=1, points=5)
    assert state.winners() == [0, 1]
    give(state, 1, gold=2)
    assert state.winners() == [1]
    give(state, 1, gold=1, goods=(1, 1, 0))
    assert state.winners() == [0]
    give(state, 0, points=6)
    give(state, 1, gold=3)
    assert state.winners() == [0]  # points first


def test_the_rulebooks_scoring_example_gives_33():
    state = new()
    display(state, 0, 215, 20, 21, 22, row=0)  # four oases: 4
    display(state, 0, 26, 29, 212, 223, row=1)  # four symbols, 223 at the row's end: 2 + 2
    display(state, 0, 27, row=2)  # with 26, two wells: 215 gives 1
    give(state, 0, points=3)
    parts = state.score_parts(0)
    assert parts == {"tokens": 3, "printed": 21, "end": 1 + 2, "rows": 4 + 2}
    assert state.scores()[0] == 33
