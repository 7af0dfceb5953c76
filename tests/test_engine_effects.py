"""The house-rule language played by the engine: hooks, per-seat values, dice, choices, land."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_fixtures import finish_round, put, settled_state, start_turn

from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.engine.loop import play
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import Phase
from targui_dsl.games.targui.state import GameState

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
    state.record.sink = log = EventLog()
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


def test_with_explicit_chance_a_die_inside_an_effect_is_a_chance_node():
    state = start_turn(settled_state(example("flash-flood"), players=2), 0)
    state.apply_action("pass")
    state.apply_action("pass")
    guelta = put(state, 45, kind="guelta", owner=0, camels=10)
    state.apply_action("card flash_flood")
    assert state.is_chance_node() and state.phase == Phase.EFFECT_ROLL
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [f"die {d}" for d in range(1, 7)]
    copy = state.clone()
    state.apply_action("die 5")  # 4-6: every owned guelta gains 4
    copy.apply_action("die 2")  # otherwise every guelta loses 4
    assert state.camels(guelta) == 14 and copy.camels(guelta) == 6


def test_a_choice_in_a_hook_of_the_rounds_end_waits_for_its_answer(tmp_path):
    rule = tmp_path / "tithe.yaml"
    rule.write_text(
        "extends: original-dutch\nid: tithe\ntitle: Tithe\nhooks:\n  before_levy:\n"
        "    - |\n      for p in players { p chooses n in 0..2 { p.cash += n } }\n", encoding="utf-8")
    state = settled_state(load_ruleset(str(rule)), players=2)
    state.edit().set_deck(["drought"])
    state.apply_action("die 1")
    state.force_chance("card drought")
    start = state.cash(0)
    while state.phase != Phase.EFFECT_CHOICE:
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0])
    assert state.current_player() == 0 and state.choice()[0] == "number"
    saved = GameState.from_json(state.game.ruleset, json.loads(json.dumps(state.to_json())))
    for s in (state, saved):
        s.apply_action("choose 2")
        s.apply_action("choose 0")
    assert state.to_json() == saved.to_json()
    assert state.is_terminal()  # the deck's last card: the game ends after the levy
    assert state.cash(0) == start + 2 + state.game.levy(state.runtime, 0)


def test_a_treasury_change_made_by_a_card_is_told(tmp_path):
    from targui_dsl.games.targui.narrate import Narrator

    rule = tmp_path / "tax.yaml"
    rule.write_text("extends: updated-treasury\nid: tax\ntitle: Tax\ncards:\n  caravan_raid:\n"
                    "    effect: for p in players { p.treasury += 3 }\n", encoding="utf-8")
    state = start_turn(settled_state(load_ruleset(str(rule)), players=2), 0)
    state.record.sink = log = EventLog()
    state.apply_action("pass")
    state.apply_action("pass")
    state.apply_action("card caravan_raid")
    line = Narrator(state.game)(next(e for e in log.events if e["type"] == "card"))
    assert "Kel Ahaggar treasury 0->3" in line and "no effect" not in line


def test_simulate_stops_a_runaway_effect_with_one_line_and_exit_1(tmp_path):
    import subprocess
    import sys

    rule = tmp_path / "runaway.yaml"
    rule.write_text("extends: original-dutch\nid: runaway\ntitle: Runaway\nhooks:\n  round_start:\n    - |\n"
                    "      for a in territories { for b in territories { for c in territories {\n"
                    "        for d in territories { a.camels += 0 } } } }\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "targui_cli.main", "simulate", str(rule), "--games", "2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "ran past its budget" in done.stderr and "Traceback" not in done.stderr


def test_resampling_in_the_middle_of_a_choice_keeps_no_hidden_value(tmp_path):
    import random

    rule = tmp_path / "choice-treasury.yaml"
    rule.write_text(
        "extends: updated-treasury\nid: choice-treasury\ntitle: A choice with a treasury\ncards:\n"
        "  caravan_raid:\n    effect: |\n      let d = roll(6)\n"
        "      for p in players { p chooses t in p.territories { t.camels += d } }\n", encoding="utf-8")
    state = start_turn(settled_state(load_ruleset(str(rule)), players=2), 0)
    state.apply_action("deposit 3")
    state.apply_action("pass")
    state.apply_action("pass")
    put(state, 21, kind="reg", owner=0, camels=2)  # two territories each: real choices
    put(state, 26, kind="reg", owner=1, camels=2)
    state.force_chance("card caravan_raid")
    while state.phase != Phase.EFFECT_CHOICE or state.current_player() != 1:
        state.apply_action(state.legal_actions()[0])  # the die inside the card, then seat 0's choice
    other = state.clone()
    other.record.effect.start.treasury[0] = 99  # the truth differs where seat 1 cannot see
    other.edit().set_treasury(0, 99)
    a = state.resample_from_infostate(1, random.Random(3))
    b = other.resample_from_infostate(1, random.Random(3))
    assert a.to_json() == b.to_json()
    assert a.observation_string(1) == state.observation_string(1)
    a.apply_action(a.legal_actions()[0])  # the sample plays on


# --- a runaway house rule stays playable ---------------------------------------------------

def test_a_runaway_house_rule_levy_is_capped(tmp_path: Path):
    # A levy that squares the cash would grow past any bound in a few rounds;
    # stored amounts stop at MAX_VALUE, so the game stays playable.
    path = tmp_path / "squared-levy.yaml"
    path.write_text(
        "extends: original-dutch\nid: squared-levy\ntitle: Squared levy\n"
        "levy: player.cash * player.cash + 10\n",
        encoding="utf-8",
    )
    rs = load_ruleset(str(path))
    state = Game(rs, players=2, seed=3).new_initial_state()
    bots = [make_agent("random", 1), make_agent("random", 2)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    assert max(state.cash(s) for s in range(state.game.players)) == MAX_VALUE
