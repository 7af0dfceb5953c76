"""Each of Targi's 45 tribe cards' abilities, as the effect language writes them in targi.yaml."""

from __future__ import annotations

import pytest
from targi_fixtures import RS, centre, display, do, give, goods_card, new, texts, tribe, turn

NO_ABILITY = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 210, 211, 212, 213, 214]


def buy_from_expansion(state, card_id, goods, gold=0, seat_cards=(), row="row 1", more=()):
    """Seat 0 draws ``card_id`` at Tribal Expansion and displays it (cost option 1) in ``row``."""
    display(state, 0, *seat_cards, row=2)
    state.record.piles[1] = [tribe(card_id)]
    give(state, 0, goods=goods, gold=gold)
    turn(state, 0, border=(14, 2) + tuple(more))
    do(state, "border 14", "option 1", row)


@pytest.mark.parametrize("card_id", NO_ABILITY)
def test_tribe_card_without_ability_scores_its_printed_points_only(card_id):
    state = new()
    card = RS.tribe_cards[tribe(card_id)]
    assert card.end is None and card.once is None and not card.modifiers and not card.hooks
    cost = card.costs[0]
    buy_from_expansion(state, card_id, goods=cost.goods, gold=cost.gold)
    side = state.record.sides[0]
    assert side.display[0] == [tribe(card_id)] and side.goods == [0, 0, 0] and side.gold == 0
    assert state.score_parts(0) == {"tokens": 4, "printed": card.points, "end": 0, "rows": 0}


@pytest.mark.parametrize(("card_id", "counted"), [(215, (26, 27, 28)), (216, (29, 210, 211)), (217, (212, 213, 214)),
                                                  (218, (20, 21, 22)), (219, (23, 24, 25))])
def test_tribe_card_end_one_point_per_two_cards_of_another_symbol(card_id, counted):
    state = new()
    display(state, 0, card_id, *counted[:1], row=0)
    assert state.score_parts(0)["end"] == 0
    display(state, 0, *counted[1:], row=1)  # three: rounded down
    assert state.score_parts(0)["end"] == 1


def test_tribe_card_220_one_point_for_strictly_more_cards_than_the_opponent():
    state = new()
    display(state, 0, 220, 20)
    display(state, 1, 21, 22)
    assert state.score_parts(0)["end"] == 0
    display(state, 0, 23)
    assert state.score_parts(0)["end"] == 1


def test_tribe_card_221_one_point_for_ten_cards_counting_itself():
    state = new()
    display(state, 0, 221, 20, 21, 22, row=0)
    display(state, 0, 23, 24, 25, 26, row=1)
    display(state, 0, 27, row=2)
    assert state.score_parts(0)["end"] == 0
    display(state, 0, 28, row=2)
    assert state.score_parts(0)["end"] == 1


def test_tribe_card_222_different_rows_score_4_for_at_most_two_rows():
    state = new()
    display(state, 0, 222, 20, 23, 26, row=0)  # targia oasis camel well
    display(state, 0, 29, 21, 24, 27, row=1)  # camp oasis camel well
    display(state, 0, 210, 22, 25, 28, row=2)
    parts = state.score_parts(0)
    assert parts["rows"] == 2 * 3 and parts["end"] == 2 * 2  # three rows of 2, two raised to 4


def test_tribe_card_223_two_points_in_the_fourth_space_of_a_complete_row():
    state = new()
    display(state, 0, 20, 21, 22, 223, row=0)
    assert state.score_parts(0)["end"] == 2
    state = new()
    display(state, 0, 20, 223, 21, 22, row=0)
    assert state.score_parts(0)["end"] == 0
    state = new()
    display(state, 0, 20, 21, 223, row=0)
    assert state.score_parts(0)["end"] == 0


@pytest.mark.parametrize(("perm", "later", "other"), [(224, 25, 28), (225, 28, 25), (226, 211, 28), (227, 214, 28),
                                                      (228, 22, 28)])
def test_tribe_card_discount_of_one_good_on_later_cards_of_its_symbol(perm, later, other):
    cost = list(RS.tribe_cards[tribe(later)].costs[0].goods)
    short = cost[:]
    short[short.index(max(short))] -= 1  # one good short
    state = new()
    buy_from_expansion(state, later, goods=tuple(short), seat_cards=(perm,))
    assert state.record.sides[0].display[0] == [tribe(later)] and state.record.sides[0].goods == [0, 0, 0]
    state = new()
    other_cost = list(RS.tribe_cards[tribe(other)].costs[0].goods)
    other_cost[other_cost.index(max(other_cost))] -= 1
    display(state, 0, perm, row=2)
    state.record.piles[1] = [tribe(other)]
    give(state, 0, goods=tuple(other_cost), gold=0)
    turn(state, 0, border=(14,))
    do(state, "border 14")
    assert not [t for t in texts(state) if t.startswith("option")]  # no discount on another symbol


def test_tribe_card_discount_the_player_picks_the_good_left_out():
    state = new()
    display(state, 0, 224, row=2)
    state.record.piles[1] = [tribe(25)]  # 1 date + 2 pepper + 2 salt
    give(state, 0, goods=(1, 2, 2))
    turn(state, 0, border=(14,))
    do(state, "border 14", "option 1")
    assert texts(state) == ["leave out date", "leave out salt", "leave out pepper"]
    do(state, "good salt", "row 1")
    assert state.record.sides[0].goods == [0, 1, 0]


def test_tribe_card_226_slash_cost_goods_or_one_gold():
    state = new()
    state.record.piles[1] = [tribe(226)]
    give(state, 0, goods=(0, 0, 0), gold=1)
    turn(state, 0, border=(14,))
    do(state, "border 14")
    assert set(texts(state)) == {"pay 1 gold", "keep in hand", "discard"}


def test_tribe_card_230_the_noble_costs_one_good_less():
    state = new()
    display(state, 0, 230, row=2)
    state.record.sides[0].hand = tribe(24)  # 1 date + 1 pepper + 2 salt
    give(state, 0, goods=(1, 1, 1))
    turn(state, 0, border=(1,))
    do(state, "border 1", "option 1", "row 1")
    assert state.record.sides[0].display[0] == [tribe(24)] and state.record.sides[0].goods == [0, 0, 0]


def test_tribe_card_230_does_not_discount_tribal_expansion():
    state = new()
    display(state, 0, 230, row=2)
    state.record.piles[1] = [tribe(24)]
    give(state, 0, goods=(1, 1, 1))
    turn(state, 0, border=(14,))
    do(state, "border 14")
    assert texts(state) == ["keep in hand", "discard"]


@pytest.mark.parametrize(("card_id", "good", "goods_id"), [(233, 1, 12), (234, 2, 14), (235, 0, 10)])
def test_tribe_card_one_more_good_in_a_round_with_that_good_from_a_goods_card(card_id, good, goods_id):
    state = new()
    display(state, 0, card_id)
    give(state, 0, goods=(0, 0, 0))
    centre(state, 0, goods_id, deck="goods")
    centre(state, 2, goods_id + 1, deck="goods")
    turn(state, 0, border=(2, 3, 6), spaces=(0, 2))
    do(state, "space 1")
    assert state.record.sides[0].goods[good] == 2
    do(state, "space 3")  # at most once a round
    assert state.record.sides[0].goods[good] == 3
    before = state.record.sides[0].goods[:]
    do(state, "border 3" if good == 1 else "border 6" if good == 2 else "border 2")  # border cards never count
    assert sum(state.record.sides[0].goods) == sum(before) + 1


def test_tribe_card_233_counts_gains_earlier_in_the_round_it_is_displayed():
    state = new()
    centre(state, 0, 12, deck="goods")  # 1 salt
    give(state, 0, goods=(0, 1, 1))
    turn(state, 0, border=(14,), spaces=(0,))
    do(state, "space 1")
    state.record.piles[1] = [tribe(233)]  # 2 salt + 1 pepper
    do(state, "border 14", "option 1", "row 1")
    assert state.record.sides[0].goods == [0, 1, 0]


def test_tribe_card_236_a_good_of_choice_in_a_round_without_goods_from_goods_cards():
    state = new()
    display(state, 0, 236)
    give(state, 0, goods=(0, 0, 0))
    turn(state, 0, border=(2,))
    do(state, "border 2")
    assert texts(state) == ["good date", "good salt", "good pepper"]
    do(state, "good pepper")
    assert state.record.sides[0].goods == [1, 0, 1]


def test_tribe_card_236_nothing_after_a_good_from_a_goods_card():
    state = new()
    display(state, 0, 236)
    give(state, 0, goods=(0, 0, 0))
    centre(state, 0, 10, deck="goods")
    turn(state, 0, spaces=(0,))
    do(state, "space 1")  # the round ends with no choice of a good
    assert state.record.sides[0].goods == [1, 0, 0]


def test_tribe_card_237_a_good_of_choice_per_two_displayed_cards_counting_itself():
    state = new()
    buy_from_expansion(state, 237, goods=(1, 2, 1), seat_cards=(20, 21, 22))
    assert texts(state) == ["good date", "good salt", "good pepper"]
    do(state, "good date", "good salt")
    assert state.record.sides[0].goods == [1, 1, 0]


def test_tribe_card_238_the_hand_card_without_the_noble_at_one_good_more():
    state = new()
    display(state, 0, 238, row=2)
    state.record.sides[0].hand = tribe(20)  # 1 pepper + 1 gold
    give(state, 0, goods=(1, 0, 1), gold=1)
    turn(state, 0, border=(2,))
    assert "display my hand card 20" in texts(state)
    do(state, "display hand", "option 1", "good date", "row 1")
    side = state.record.sides[0]
    assert side.display[0] == [tribe(20)] and side.hand == -1 and side.goods == [0, 0, 0]


def test_tribe_card_238_not_offered_without_the_extra_good():
    state = new()
    display(state, 0, 238, row=2)
    state.record.sides[0].hand = tribe(20)
    give(state, 0, goods=(0, 0, 1), gold=1)
    turn(state, 0, border=(2,))
    assert not [t for t in texts(state) if t.startswith("display my hand card")]


def test_tribe_card_239_the_merchant_trades_one_good_for_one_of_choice():
    state = new()
    display(state, 0, 239)
    give(state, 0, goods=(1, 0, 0), gold=0)
    turn(state, 0, border=(5,))
    do(state, "border 5", "choose 2", "good date", "good pepper")
    assert state.record.sides[0].goods == [0, 0, 1]
    do(state, "choose 0")


def test_tribe_card_240_stored_gold_pays_a_later_cards_gold():
    state = new()
    buy_from_expansion(state, 240, goods=(1, 0, 0), gold=1)
    side = state.record.sides[0]
    assert side.stored_gold == 1 and side.gold == 0
    state.record.piles[1] = [tribe(20)]  # 1 pepper + 1 gold
    give(state, 0, goods=(0, 0, 1), gold=0)
    state.record.figures[13] = 0
    do(state, "border 14", "option 1", "row 1")
    assert state.record.sides[0].stored_gold == 0 and tribe(20) in state.record.sides[0].cards


@pytest.mark.parametrize(("choice", "after"), [("choose 1", None), ("choose 2", (1, 0)), ("choose 3", (0, 1))])
def test_tribe_card_241_three_goods_or_one_gold_or_one_point(choice, after):
    state = new()
    buy_from_expansion(state, 241, goods=(1, 1, 2), gold=0)
    points = state.record.sides[0].points
    assert texts(state) == ["choose 1", "choose 2", "choose 3"]
    do(state, choice)
    if after is None:
        do(state, "good date", "good date", "good pepper")
        assert state.record.sides[0].goods == [2, 0, 1]
    else:
        assert (state.record.sides[0].gold, state.record.sides[0].points - points) == after


def test_tribe_card_242_a_good_of_choice_per_two_empty_spaces():
    state = new()
    buy_from_expansion(state, 242, goods=(2, 1, 0), seat_cards=(20, 21))
    # 3 displayed, 9 empty: 4 goods
    for _ in range(4):
        assert texts(state) == ["good date", "good salt", "good pepper"]
        do(state, "good salt")
    assert state.record.sides[0].goods == [0, 4, 0]


def test_tribe_card_243_moves_two_displayed_cards_leaving_no_gaps():
    state = new()
    display(state, 0, 223, 20, 21, row=0)
    buy_from_expansion(state, 243, goods=(0, 1, 1), gold=1, row="row 1")
    assert texts(state) == [f"card {i} ({symbol}, row 1)" for i, symbol in
                            ((223, "camel_rider"), (20, "oasis"), (21, "oasis"), (243, "oasis"))]
    do(state, "card 223", "choose 1")  # to the end of its own row
    do(state, "card 20", "choose 2")
    display_rows = state.record.sides[0].display
    assert display_rows[0] == [tribe(21), tribe(243), tribe(223)] and display_rows[1] == [tribe(20)]


def test_tribe_card_244_is_written_as_an_effect_on_the_opponent():
    card = RS.tribe_cards[tribe(244)]
    assert card.once is not None and "opponent.next_figures = 2" in card.once.source


def test_goods_card_of_choice_counts_for_the_good_chosen():
    state = new()
    display(state, 0, 233)
    give(state, 0, goods=(0, 0, 0))
    centre(state, 0, 112, deck="goods")
    turn(state, 0, border=(2,), spaces=(0,))
    do(state, "space 1", "good salt")
    assert state.record.sides[0].goods == [0, 2, 0]
    assert goods_card(112) in state.record.discards[0]
