"""Targi's search bot (`ismcts`): it searches where a Targi goes and leaves every other decision
to `greedy`'s look-ahead; its score plays the round out, so a standing Targi counts."""

from __future__ import annotations

import random

from targi_fixtures import RS, display, do, give, new, placing, tribe, turn

from targui_dsl.agents import make_agent
from targui_dsl.games.targi.greedy import GreedyAgent
from targui_dsl.games.targi.score import TargiPolicy


def test_ismcts_pays_for_a_tribe_card_as_greedy_does_without_searching():
    state = new()
    display(state, 0, 20, 21, 22, row=0)  # three oases
    state.record.piles[1] = [tribe(236)]  # an oasis: 1 date, 1 pepper, 1 gold
    give(state, 0, goods=(1, 0, 1), gold=1)
    turn(state, 0, border=(14,))
    do(state, "border 14")
    bot = make_agent("ismcts:iterations=30", 4, "targi")
    legal = state.legal_actions()
    chosen = bot.choose(state.observation(0), legal)
    assert chosen == GreedyAgent(4).choose(state.observation(0), legal)
    assert state.action_to_string(0, chosen) == "pay 1 date 1 pepper 1 gold"
    assert bot.last_visits == {}  # nothing searched


def test_ismcts_searches_a_placement_among_the_legal_places():
    state = new()
    placing(state, 0, robber=4)
    bot = make_agent("ismcts:iterations=30", 4, "targi")
    legal = state.legal_actions()
    chosen = bot.choose(state.observation(0), legal)
    assert chosen in legal
    assert sum(bot.last_visits.values()) == 30 and set(bot.last_visits) <= set(legal)
    assert bot.last_visits[chosen] == max(bot.last_visits.values())


def test_the_score_of_a_placement_counts_what_a_standing_targi_brings_this_round():
    def first_seat_share(figures: dict[int, int]) -> float:
        state = new()
        placing(state, 1, robber=4, left=(0, 3))
        for number, seat in figures.items():
            state.record.figures[number - 1] = seat
        worths = [[0.0] * len(RS.ring) for _ in range(2)]
        return TargiPolicy(random.Random(0), worths).evaluate(state)[0]

    alone = first_seat_share({})
    assert alone == first_seat_share({})  # played out the same way each time
    # seat 1's Targi on Pepper (6) and Dates (2), crossing at the centre's middle card (goods):
    # the round brings it goods, though nothing is in its hands yet
    assert first_seat_share({6: 0, 2: 0}) > alone
