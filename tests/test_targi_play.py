"""Targi through the shared toolkit: bots, logs that verify, studies, the adapters."""

from __future__ import annotations

import json
import random

import pytest
from cli_run import no_crash, run
from targi_fixtures import RS, new

from targui_dsl.games.targi.actions import A_BORDER
from targui_dsl.games.targi.state import Game, TargiState


def test_random_games_end_by_the_last_raid_or_a_full_display_with_legal_actions_only():
    for seed in range(5):
        state = new(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            state.apply_action(rng.choice(legal))
        assert state.end_reason in ("raid", "display") and 1 <= state.round <= 12
        assert sum(state.returns()) == 1.0


def test_same_seed_same_game():
    def game(seed):
        state, rng, actions = new(seed), random.Random(7), []
        while not state.is_terminal():
            actions.append(rng.choice(state.legal_actions()))
            state.apply_action(actions[-1])
        return actions, state.to_json()
    assert game(3) == game(3)
    assert game(3) != game(4)


def test_a_state_saves_and_loads_exactly_and_clones_apart():
    state = new(2)
    rng = random.Random(2)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    data = json.loads(json.dumps(state.to_json()))
    again = TargiState.from_json(RS, data)
    assert again.to_json() == state.to_json() and again.legal_actions() == state.legal_actions()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.to_json() != state.to_json()


def test_observation_hides_face_down_cards_the_piles_and_the_opponents_hand():
    state = new(0)
    state.record.sides[1].hand = 5
    state.record.centre_up[4] = False
    view = state.view(0)
    assert view["sides"][1]["hand"] is True and view["sides"][0]["hand"] is None
    assert view["centre"][4]["card"] is None
    assert view["piles"] == [len(p) for p in state.record.piles]
    assert state.view(1)["sides"][1]["hand"] == RS.tribe_cards[5].id


def test_resample_deals_hidden_cards_again_and_keeps_what_the_seat_sees():
    state = new(0)
    state.record.sides[1].hand = state.record.piles[1][0]
    state.record.piles[1].pop(0)
    seen = state.view(0)
    hands = set()
    for seed in range(20):
        sample = state.resample(0, random.Random(seed))
        assert sample.view(0) == seen
        hands.add(sample.record.sides[1].hand)
        assert sorted(sample.record.piles[1] + [sample.record.sides[1].hand]) == \
            sorted(state.record.piles[1] + [state.record.sides[1].hand])
    assert len(hands) > 1


def test_explicit_chance_draws_are_chance_nodes_over_the_pile():
    state = Game(RS, seed=0, explicit_chance=True).new_initial_state()
    assert state.is_chance_node() and state.current_player() == -1
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(RS.goods_cards) and abs(sum(p for _, p in outcomes) - 1) < 1e-9


def test_bot_games_of_greedy_and_ismcts_log_and_verify(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", "targi", "--bots", "greedy,ismcts:iterations=20", "--seed", "5", "--log", str(log))
    no_crash(played.output)
    assert played.exit_code == 0 and "Game over" in played.output
    verified = run("replay", str(log), "--verify")
    assert verified.exit_code == 0 and "verified" in verified.output


def test_simulate_greedy_games_with_targis_own_figures():
    result = run("simulate", "targi", "-n", "6", "--bots", "greedy,greedy", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 6 and figures["players"] == 2
    assert set(figures["points_by_source"]) == {"tokens", "printed", "end", "rows"}
    assert sum(figures["endings"].values()) == 6


def test_openspiel_random_sim_test_on_targi():
    pyspiel = pytest.importorskip("pyspiel")
    from targui_dsl.adapters import openspiel  # noqa: F401 - registers python_targui

    game = pyspiel.load_game("python_targui", {"ruleset": "targi", "players": 2})
    assert game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pettingzoo_api_test_on_targi():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from targui_dsl.adapters.pettingzoo import env

    api_test(env("targi", 2), num_cycles=100)


def test_a_position_changed_through_the_record_is_what_the_state_lists_and_plays():
    state = Game(RS, seed=3).new_initial_state()
    legal = state.legal_actions()
    taken = legal[0]
    state.record.figures[taken - A_BORDER] = 1  # the other seat's Targi already stands there
    now = state.legal_actions()
    assert taken not in now and now != legal
    assert now == TargiState.from_json(RS, state.to_json()).legal_actions()  # as a state built afresh lists
    with pytest.raises(ValueError):
        state.apply_action(taken)
