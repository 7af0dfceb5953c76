"""The state API: integer actions and their texts, chance nodes, clone, save/resume, the text board."""

from __future__ import annotations

import json
import random

import pytest
from engine_fixtures import any_ruleset, put, settled_state, start_turn

from targui_dsl.engine.chance import below, derive_seed, seed_state
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games.targui.actions import COUNT_BASE, PASS, IllegalAction
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import CHANCE, Phase
from targui_dsl.games.targui.state import GameState


def play_random(state, steps, rng):
    """Apply ``steps`` uniformly random legal actions (chance included at explicit nodes)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


# --- the action space ----------------------------------------------------------------

def test_the_action_space_has_a_fixed_documented_size():
    game = Game(any_ruleset("original-dutch"), players=4)
    space = game.actions
    # pass, again, give up, 256 counts, 4 sectors, 49 cells, 312 ordered adjacent pairs, 4 seats
    assert game.num_distinct_actions() == 3 + 256 + 4 + 49 + 312 + 4
    assert space.pair_base == 3 + 256 + 4 + 49
    assert game.max_chance_outcomes() == max(6, 8, 4 + 16)


def test_a_move_is_a_pair_then_a_count_and_logs_as_one_action():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    state.record.sink = log = EventLog()
    legal = state.legal_actions()
    assert legal[0] == PASS and legal == sorted(legal)
    pair = state.string_to_action("move 20 21")
    assert pair in legal and state.action_to_string(pair) == "move 20 21"
    state.apply_action(pair)
    assert state.phase == Phase.MOVE_COUNT and state.current_player() == 0
    assert state.legal_actions() == [COUNT_BASE + n for n in range(1, 11)]
    assert state.action_to_string(COUNT_BASE + 4) == "count 4"
    state.apply_action(COUNT_BASE + 4)
    assert state.camels(state.game.cell_of_position[21]) == 4
    assert [e["action"] for e in log.events if e["type"] == "decision"] == ["move 20 21 4"]


def test_legal_lists_are_the_callers_own_to_change():
    # a count's ids come from one table: what a caller does to its list touches no other list
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    legal = state.legal_actions()
    legal.clear()
    assert state.legal_actions()[0] == PASS
    state.apply_action(state.string_to_action("move 20 21"))
    counts = state.legal_actions()
    counts.reverse()
    counts.append(-1)
    again = state.legal_actions()
    assert again == [COUNT_BASE + n for n in range(1, 11)]
    again[:] = []
    assert state.clone().legal_actions() == [COUNT_BASE + n for n in range(1, 11)]
    state.apply_action(COUNT_BASE + 4)
    assert state.camels(state.game.cell_of_position[21]) == 4


def test_readable_actions_take_every_step_they_stand_for():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    assert len(state.actions_from_text("move 20 21 4")) == 2
    state.apply_action("move 20 21 4")
    assert state.phase == Phase.BUY_CELL
    state.apply_action("buy 3 on 21")
    assert state.camels(state.game.cell_of_position[21]) == 7


@pytest.mark.parametrize("text,message", [
    ("", "empty"), ("fly 1 2", "unknown action"), ("move a b c", "not a number"),
    ("move 1_2 3 4", "not a number"), ("move 10 11 2", "not yours"), ("move 20 30 2", "not adjacent"),
    ("move 20 21 11", "can move 1..10"), ("move 20 21 0", "can move 1..10"), ("enter \u0663", "not an action here"),
])
def test_bad_action_text_is_explained_and_nothing_is_applied(text, message):
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        state.apply_action(text)
    assert state.to_json() == before


def test_an_illegal_id_is_refused_with_what_is_expected():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    with pytest.raises(IllegalAction, match="move, attack or pass"):
        state.apply_action(COUNT_BASE + 3)
    with pytest.raises(IllegalAction, match="no action"):
        state.apply_action(10**6)


def test_every_legal_action_round_trips_through_its_text():
    rng = random.Random(5)
    state = Game(any_ruleset("updated-treasury"), players=3, seed=5, explicit_chance=True).new_initial_state()
    phases = set()
    while not state.is_terminal() and len(phases) < 12:
        actions = state.legal_actions()
        for action in actions:
            assert state.string_to_action(state.action_to_string(action)) == action
        phases.add(state.phase)
        state.apply_action(rng.choice(actions))
    assert {Phase.DEPOSIT, Phase.MOVE, Phase.BUY_CELL} <= phases


def test_mask_matches_the_legal_list():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    mask = state.legal_actions_mask()
    assert len(mask) == state.game.num_distinct_actions()
    assert [i for i, bit in enumerate(mask) if bit] == state.legal_actions()


# --- huge numbers: a decision never lists more than 256 counts ---------------------------

def test_huge_counts_are_chosen_digit_by_digit():
    from dataclasses import replace

    ruleset = replace(any_ruleset("original-dutch"), camel_box=10**9)
    state = start_turn(settled_state(ruleset), 0)
    state.edit().set_cash(0, 10**9)
    put(state, 20, camels=123_456_789)
    state.apply_action("move 20 21")
    legal = state.legal_actions()
    assert len(legal) <= 256
    assert state.action_to_string(legal[0]).startswith("count 1..")
    steps = state.actions_from_text("count 100000000")
    assert len(steps) == 4
    for step in steps:
        assert len(state.legal_actions()) <= 256
        state.apply_action(step)
    assert state.camels(state.game.cell_of_position[21]) == 100_000_000
    assert state.phase == Phase.BUY_CELL
    limit = state.buy_limit()
    assert limit == state.camels_in_box  # the box, not the 10**9 silver, is the limit
    state.apply_action(f"buy {limit} on 21")
    assert state.camels(state.game.cell_of_position[21]) == 100_000_000 + limit and state.camels_in_box == 0


def test_a_bot_can_aim_at_any_count():
    from dataclasses import replace

    state = start_turn(settled_state(replace(any_ruleset("original-dutch"), camel_box=10**9)), 0)
    put(state, 20, camels=70_000)
    state.apply_action("move 20 21")
    while state.phase == Phase.MOVE_COUNT:
        state.apply_action(state.count_step(65_432))
    assert state.camels(state.game.cell_of_position[21]) == 65_432


def test_a_small_count_of_a_huge_range_takes_leading_zero_digits():
    from dataclasses import replace

    state = start_turn(settled_state(replace(any_ruleset("original-dutch"), camel_box=10**9)), 0)
    put(state, 20, camels=70_000)
    state.apply_action("move 20 21")
    while state.phase == Phase.MOVE_COUNT:
        assert len(state.legal_actions()) <= 256
        state.apply_action(state.count_step(5))
    assert state.camels(state.game.cell_of_position[21]) == 5


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
    assert [state.action_to_string(a) for a, _ in outcomes] == [f"die {d}" for d in range(1, 7)]
    state.apply_action("die 2")
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    texts = {state.action_to_string(a): p for a, p in outcomes}
    assert {t: p for t, p in texts.items() if t.startswith("turn")} == {
        f"turn {t}": pytest.approx(2 / 10) for t in state.game.tribe_ids}
    cards = [p for t, p in texts.items() if t.startswith("card")]
    assert len(cards) == 16 and sum(cards) == pytest.approx(2 / 10)
    with pytest.raises(IllegalAction):
        state.apply_action("die 3")  # not a reveal outcome
    assert state.legal_actions() == [a for a, _ in outcomes]


def test_same_seed_same_game_different_seed_different_game():
    def run(seed):
        game = Game(any_ruleset("original-dutch"), players=4, seed=seed)
        from targui_dsl.study.simulate import play_game
        return play_game(game, ["random"] * 4).to_json()

    assert run(3) == run(3)
    assert run(3) != run(4)


# --- clone and save ------------------------------------------------------------------

def test_clone_is_independent():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    copy = state.clone()
    state.apply_action("move 20 21 4")
    assert copy.camels(state.game.cell_of_position[21]) == 0 and copy.phase_name == "move"
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
        assert again.legal_actions() == state.legal_actions()


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
    logs = []
    for copy in (state, resumed):
        rng = random.Random(1)
        copy.record.sink = log = EventLog()
        logs.append(log)
        while not copy.is_terminal():
            copy.apply_action(rng.choice(copy.legal_actions()))
    assert state.to_json() == resumed.to_json()
    assert logs[0].events == logs[1].events


def test_from_json_refuses_another_ruleset_and_older_formats():
    data = settled_state(any_ruleset("original-dutch")).to_json()
    with pytest.raises(ValueError, match="saved for ruleset"):
        GameState.from_json(any_ruleset("swedish-12"), data)
    with pytest.raises(ValueError, match="cannot resume.*replay the game's log"):
        GameState.from_json(any_ruleset("original-dutch"), {**data, "format": "targui-state/1"})
    broken = json.loads(json.dumps(data))
    del broken["state"]["camels"]
    with pytest.raises(ValueError, match="field `camels` is missing"):
        GameState.from_json(any_ruleset("original-dutch"), broken)


def test_forced_outcomes_survive_saving():
    state = settled_state(any_ruleset("original-dutch"))
    data = state.to_json()
    data["state"]["forced_outcomes"] = ["die 6"]
    data["explicit_chance"] = False
    resumed = GameState.from_json(state.game.ruleset, data)
    resumed.force_chance()
    assert resumed.round_die == 6 and resumed.double_turn


# --- the text board ------------------------------------------------------------------

def test_text_board_shows_grid_players_and_result():
    state = start_turn(settled_state(any_ruleset("updated-treasury")), 0)
    text = str(state)
    lines = text.splitlines()
    assert lines[0].startswith("updated-treasury: round 1/8")
    assert len(lines) == 1 + 7 + 4 + 1
    assert " 20se1 10" in lines[3]  # position 20, a settlement of seat 1, 10 camels
    assert lines[8].startswith(">1 Kel Ahaggar: cash 10 treasury 0")


# --- a saved state shares nothing with the game --------------------------------------------

def dutch():
    return any_ruleset("original-dutch")


def _finished_state():
    from targui_dsl.agents import make_agent

    state = Game(dutch(), players=3, seed=4).new_initial_state()
    bots = [make_agent("random", s) for s in range(3)]
    play(state, bots)
    return state


def test_saved_state_shares_no_list_with_the_game():
    """to_json()/from_json() copy the results too: changing the saved dict later
    must not change the state (and the other way round)."""
    from targui_dsl.games.targui.state import GameState

    state = _finished_state()
    scores, tie_breaks, winners = state.scores(), state.tie_break_values(), state.winners()
    saved = state.to_json()
    saved["state"]["final_scores"].append(99)
    saved["state"]["final_tie_breaks"][0].append(99)
    saved["state"]["winners"].append(99)
    assert (state.scores(), state.tie_break_values(), state.winners()) == (scores, tie_breaks, winners)

    saved = state.to_json()
    restored = GameState.from_json(state.game.ruleset, saved)
    saved["state"]["final_scores"][0] = -1
    saved["state"]["final_tie_breaks"][0][0] = -1
    saved["state"]["winners"].clear()
    assert (restored.scores(), restored.tie_break_values(), restored.winners()) == (scores, tie_breaks, winners)
