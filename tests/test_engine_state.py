"""The state API: actions as text, clone, save/resume, chance nodes, the text board."""

from __future__ import annotations

import json
import random

import pytest

from engine_fixtures import FIXTURE_VARIANTS, any_ruleset, fixture_ruleset, put, settled_state, start_turn
from targui_dsl.engine import CHANCE, Action, EventLog, Game, GameState, IllegalAction, parse_action
from targui_dsl.engine.chance import below, derive_seed, seed_state


def play_random(state, steps, rng):
    """Apply ``steps`` uniformly random legal actions (chance included at explicit nodes)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


# --- actions ---------------------------------------------------------------------

@pytest.mark.parametrize("text", ["sector north_west", "settle 47", "deposit 5", "move 12 13 4", "attack 12 13",
                                  "again", "give up", "enter 3", "buy 5 on 12", "pass", "deal guelta", "die 4",
                                  "turn kel_ress", "card sandstorm"])
def test_actions_print_as_they_parse(text):
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action
    assert hash(action) == hash(parse_action(text))


def test_parse_is_lenient_about_case_spaces_and_hyphens():
    assert parse_action("  Move 12  13 4 ") == Action("move", (12, 13, 4))
    assert parse_action("GIVE UP") == Action("give up")
    assert parse_action("buy 5 12") == parse_action("buy 5 on 12")
    assert parse_action("sector north-west") == Action("sector", ("north_west",))


@pytest.mark.parametrize("text,message", [("", "empty"), ("fly 1 2", "unknown action"), ("move 1 2", "3 arguments"),
                                          ("move a b c", "not a number"), ("give", "unknown action"),
                                          ("move 1_2 3 4", "not a number"), ("buy +5 on 12", "not a number"),
                                          ("enter \u0663", "not a number")])
def test_bad_action_text_is_explained(text, message):
    with pytest.raises(IllegalAction, match=message):
        parse_action(text)


def test_parse_with_a_state_checks_legality():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    assert parse_action("move 20 21 2", state) == Action("move", (20, 21, 2))
    with pytest.raises(IllegalAction, match="not yours"):
        parse_action("move 10 11 2", state)


def test_every_legal_action_round_trips_through_text():
    rng = random.Random(5)
    state = Game(any_ruleset("updated-treasury"), players=3, seed=5, explicit_chance=True).new_initial_state()
    seen = set()
    while not state.is_terminal() and len(seen) < 12:
        actions = state.legal_actions()
        for action in actions[:50]:
            assert parse_action(str(action), state) == action
        seen.add(state.phase_name)
        state.apply_action(rng.choice(actions))


# --- chance ----------------------------------------------------------------------

def test_generator_is_stable_and_unbiased_enough():
    state = seed_state(0)
    draws = []
    for _ in range(6000):
        state, r = below(state, 6)
        draws.append(r)
    assert draws[:10] == [1, 0, 1, 4, 1, 0, 5, 2, 5, 2]  # fixed forever: saved games depend on it
    assert all(900 < draws.count(v) < 1100 for v in range(6))
    assert derive_seed(1, 0) != derive_seed(1, 1) != derive_seed(2, 0)


def test_explicit_chance_nodes_list_outcomes_with_probabilities():
    state = settled_state(any_ruleset("updated-treasury"))
    assert state.current_player() == CHANCE and state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"die {d}" for d in range(1, 7)]
    state.apply_action("die 2")
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    turns = {str(a): p for a, p in outcomes if a.verb == "turn"}
    assert turns == {f"turn {t}": pytest.approx(2 / 10) for t in state.game.tribe_ids}
    cards = [p for a, p in outcomes if a.verb == "card"]
    assert len(cards) == 16 and sum(cards) == pytest.approx(2 / 10)
    with pytest.raises(IllegalAction):
        state.apply_action("die 3")  # not a reveal outcome
    assert state.legal_actions() == [a for a, _ in outcomes]


def test_same_seed_same_game_different_seed_different_game():
    def run(seed):
        game = Game(any_ruleset("original-dutch"), players=4, seed=seed)
        from targui_dsl.simulate import play_game
        return play_game(game, ["random"] * 4).to_json()

    assert run(3) == run(3)
    assert run(3) != run(4)


# --- clone and save ------------------------------------------------------------------

def test_clone_is_independent():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    copy = state.clone()
    state.apply_action("move 20 21 4")
    assert copy.cell_camels != state.cell_camels and copy.phase_name == "move"
    copy.apply_action("pass")
    assert state.to_json() != copy.to_json()
    assert copy.clone().to_json() == copy.to_json()


def test_json_round_trip_loses_nothing():
    rng = random.Random(2)
    state = Game(any_ruleset("updated-treasury"), players=4, seed=8, explicit_chance=True).new_initial_state()
    for _ in range(200):
        play_random(state, 7, rng)
        data = json.loads(json.dumps(state.to_json()))
        again = GameState.from_json(state.game.ruleset, data)
        assert again.to_json() == state.to_json()
        assert str(again) == str(state)


def test_saved_mid_attack_resumes_identically():
    """Save in the middle of a fight (implicit chance, seeded dice); both copies play on alike."""
    state = start_turn(settled_state(any_ruleset("original-dutch"), seed=4), 0)
    state.game.explicit_chance = False
    put(state, 45, kind="guelta", owner=0, camels=30)
    put(state, 46, kind="fesh_fesh", owner=1, camels=25)
    state.apply_action("attack 45 46")
    assert state.phase_name == "attack_choice"
    saved = json.dumps(state.to_json())
    resumed = GameState.from_json(state.game.ruleset, json.loads(saved))
    resumed.game.explicit_chance = False
    for copy in (state, resumed):
        rng = random.Random(1)
        copy.log = EventLog()
        while not copy.is_terminal():
            copy.apply_action(rng.choice(copy.legal_actions()))
    assert state.to_json() == resumed.to_json()
    assert state.log.events == resumed.log.events


def test_from_json_refuses_another_ruleset():
    data = settled_state(any_ruleset("original-dutch")).to_json()
    with pytest.raises(ValueError, match="saved for ruleset"):
        GameState.from_json(any_ruleset("swedish-12"), data)


def test_forced_outcomes_survive_saving():
    state = settled_state(any_ruleset("original-dutch"))
    state.game.explicit_chance = False
    data = state.to_json()
    data["state"]["forced_outcomes"] = ["die 6"]
    data["explicit_chance"] = False
    resumed = GameState.from_json(state.game.ruleset, data)
    resumed._advance()
    assert resumed.round_die == 6 and resumed.double


# --- the text board ------------------------------------------------------------------

def test_text_board_shows_grid_players_and_result():
    state = start_turn(settled_state(any_ruleset("updated-treasury")), 0)
    text = str(state)
    lines = text.splitlines()
    assert lines[0].startswith("updated-treasury: round 1/8")
    assert len(lines) == 1 + 7 + 4 + 1
    assert " 20se1 10" in lines[3]  # position 20, a settlement of seat 1, 10 camels
    assert lines[8].startswith(">1 Kel Ahaggar: cash 10 treasury 0")


@pytest.mark.parametrize("variant", FIXTURE_VARIANTS)
def test_hand_built_fixture_rulesets_play_to_the_end(variant):
    from targui_dsl.simulate import play_game

    state = play_game(Game(fixture_ruleset(variant), players=4, seed=1), ["random"] * 4)
    assert state.is_terminal() and state.round == fixture_ruleset(variant).rounds
