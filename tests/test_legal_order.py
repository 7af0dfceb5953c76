"""Every legal list is strictly increasing, and apply_action takes exactly its ids.

apply_action finds an action in the node's legal list by bisection, so the
order is what makes a legal step legal: checked at every node of random
games, chance nodes included, with the ids between and around the legal ones
refused.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort

import pytest
from engine_fixtures import any_ruleset

from targui_dsl.games.targui.actions import IllegalAction
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.ownership import insert_sorted, remove_value
from targui_dsl.games.targui.rules_setup import index_of
from targui_dsl.games.targui.state import insertion_point


@pytest.mark.parametrize("variant", ["original-dutch", "swedish-12", "updated-treasury"])
@pytest.mark.parametrize("players", [2, 4])
def test_legal_lists_are_increasing_and_nothing_else_is_taken(variant: str, players: int):
    rng = random.Random(players)
    refused = 0
    for seed in range(2):
        state = Game(any_ruleset(variant), players=players, seed=seed, explicit_chance=True).new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal)), legal  # strictly increasing
            outside = sorted({legal[0] - 1, legal[-1] + 1} | {a + 1 for a in legal} - set(legal))
            for action in rng.sample(outside, min(3, len(outside))):
                if action < 0:
                    continue
                copy = state.clone()
                with pytest.raises(IllegalAction):
                    copy.apply_action(action)
                refused += 1
            state.apply_action(rng.choice(legal))
    assert refused > 100


def test_the_written_out_bisection_is_bisect_left():
    # the compiled build's search (state.insertion_point): where bisect_left puts every id
    rng = random.Random(7)
    for size in [0, 1, 2, 3, 8, 33, 400]:
        legal = sorted(rng.sample(range(1000), size))
        for action in range(-1, 1002):
            assert insertion_point(legal, action) == bisect_left(legal, action), (legal, action)


def test_a_chance_node_asked_for_its_outcomes_first_takes_exactly_them():
    # pyspiel asks chance_outcomes() before it applies one: the node keeps their ids as its legal list
    rng = random.Random(3)
    state = Game(any_ruleset("original-dutch"), players=3, seed=5, explicit_chance=True).new_initial_state()
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids = [outcome for outcome, _ in state.chance_outcomes()]
            assert state.legal_actions() == ids
            for action in {ids[0] - 1, ids[-1] + 1} - {-1}:
                with pytest.raises(IllegalAction):
                    state.clone().apply_action(action)
            asked += 1
            state.apply_action(rng.choice(ids))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert asked > 20


def test_the_written_out_list_edits_are_insort_remove_and_index():
    # the compiled build's searches (ownership.insert_sorted and remove_value, rules_setup.index_of)
    rng = random.Random(11)
    for size in [0, 1, 2, 5, 30]:
        values = sorted(rng.sample(range(100), size))
        for value in set(range(-1, 101)) - set(values):
            ours, theirs = values[:], values[:]
            insert_sorted(ours, value)
            insort(theirs, value)
            assert ours == theirs, (values, value)
        for value in values:
            ours, theirs = values[:], values[:]
            remove_value(ours, value)
            theirs.remove(value)
            assert ours == theirs, (values, value)
            assert index_of(tuple(values), value) == values.index(value)


@pytest.mark.parametrize("variant", ["original-dutch", "updated-treasury"])
def test_the_written_out_list_edits_play_the_same_games(monkeypatch, variant: str):
    # compiled, ownership and the board's fixing take the written-out roads; forced here in the
    # interpreter, the same seeds play the same games
    from targui_dsl.games.targui import ownership, rules_setup

    def played() -> list[dict]:
        rng, out = random.Random(2), []
        for seed in range(3):
            state = Game(any_ruleset(variant), players=3, seed=seed).new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            out.append(state.to_json())
        return out

    library = played()
    monkeypatch.setattr(ownership, "COMPILED", True)
    monkeypatch.setattr(rules_setup, "COMPILED", True)
    assert played() == library
