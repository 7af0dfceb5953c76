"""The house-rule language played by the engine: hooks, per-seat values, dice, choices, land."""

from __future__ import annotations

import json

import pytest

from engine_fixtures import finish_round, put, settled_state, start_turn
from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.engine import EventLog, Game, GameState, Phase, play
from targui_dsl.resources import rulesets_dir

EXAMPLES = ("upkeep", "flash-flood", "caravan-choice", "land-grant", "gifts-back")


def example(name: str):
    return load_ruleset(str(rulesets_dir() / "examples" / f"{name}.yaml"))


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_every_example_house_rule_plays_to_its_end(name, kind):
    state = Game(example(name), players=4, seed=2).new_initial_state()
    play(state, [make_agent(kind, s) for s in range(4)])
    assert state.is_terminal() and state.winners()


def test_per_seat_starting_cash_and_the_upkeep_hook():
    state = settled_state(example("upkeep"))
    assert [state.cash(s) for s in range(4)] == [10, 12, 14, 16]  # cash: 10 + 2 * (seat - 1)
    put(state, state.game.position_of_cell[state.settlement(0)], camels=35)  # 35 camels: upkeep 3
    state.edit().set_deck(["drought"])
    state.apply_action("die 1")
    state.force_chance("card drought")
    finish_round(state)
    levy = state.game.levy(state.runtime, 0)
    assert state.cash(0) == 10 + levy - 3


def test_a_choice_inside_a_card_is_a_decision_of_that_player():
    state = start_turn(settled_state(example("caravan-choice"), players=2), 0)
    state.apply_action("move 20 21 4")  # seat 1 holds two territories with camels now
    state.apply_action("pass")
    state._log = log = EventLog()
    state.force_chance("card caravan")
    assert state.phase == Phase.EFFECT_CHOICE and state.current_player() == 0
    kind, prompt, options = state.choice()
    assert kind == "territory" and "chooses" not in prompt
    texts = sorted(state.action_to_string(a) for a in state.legal_actions())
    assert texts == ["choose 20", "choose 21"]
    # a paused effect copies, saves and resumes exactly
    copy = state.clone()
    saved = GameState.from_json(state.game.ruleset, json.loads(json.dumps(state.to_json())))
    for s in (state, copy, saved):
        s.apply_action("choose 21")
    assert state.camels(state.game.cell_of_position[21]) == 4 + 5
    assert copy.to_json() == state.to_json() == saved.to_json()
    assert [e["action"] for e in log.events if e["type"] == "decision"][:1] == ["choose 21"]
    assert any(e["type"] == "card" and e["card"] == "caravan" for e in log.events)


def test_land_changes_hands_and_camels_move_between_cells():
    state = start_turn(settled_state(example("land-grant"), players=2), 0)
    home = state.settlement(0)
    before = state.camels(home) + state.camels_in_box
    state.apply_action("pass")
    state.apply_action("pass")
    state.force_chance("card land_grant")
    while state.phase == Phase.EFFECT_CHOICE:  # the player with the fewest camels picks a free cell
        state.apply_action(state.legal_actions()[0])
    granted = [c for c in state.cells_of(0) if c != home] + [c for c in state.cells_of(1) if c != state.settlement(1)]
    assert granted and all(state.camels(c) == 3 for c in granted)
    assert state.camels(home) + state.camels_in_box + sum(state.camels(c) for c in state.cells_of(0) if c != home) \
        == before  # moved, not taken from the box


def test_dice_inside_effects_come_from_the_seed():
    def run():
        state = Game(example("flash-flood"), players=3, seed=11).new_initial_state()
        play(state, [make_agent("random", s) for s in range(3)])
        return state.to_json()

    assert run() == run()
