"""Saved states are checked strictly: every field, every failure a ValueError naming the field.

A saved state may come from anywhere (a file a user edited, another program):
``GameState.from_json`` either refuses it with a message naming the field or
gives a state the engine plays to its end without an exception.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from engine_fixtures import any_ruleset, settled_state

from targui_dsl import load_ruleset
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import Phase
from targui_dsl.games.targui.state import GameState


def mid_game(variant: str = "updated-treasury", seed: int = 5, steps: int = 150) -> GameState:
    """A real state some way into a game: random play from a seed."""
    state = Game(any_ruleset(variant), players=4, seed=seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def saved(state: GameState) -> dict[str, Any]:
    return json.loads(json.dumps(state.to_json()))


def refused(data: dict[str, Any], field: str, ruleset: Any = None) -> str:
    with pytest.raises(ValueError, match=re.escape(f"`{field}`")) as caught:
        GameState.from_json(ruleset or any_ruleset("updated-treasury"), data)
    return str(caught.value)


def test_a_saved_state_with_negative_camels_is_refused_naming_the_field():
    data = saved(mid_game())
    data["state"]["camels"][3] = -4
    assert "-4 is outside" in refused(data, "camels[3]")


def test_a_saved_state_with_an_owner_out_of_range_is_refused_naming_the_field():
    data = saved(mid_game())
    data["state"]["owner"][10] = 4  # four players: seats 0..3
    refused(data, "owner[10]")


def test_a_saved_state_with_a_short_list_is_refused_naming_the_field():
    data = saved(mid_game())
    data["state"]["cash"] = data["state"]["cash"][:3]
    assert "3 entries, expected 4" in refused(data, "cash")
    data = saved(mid_game())
    data["state"]["kind"].pop()
    refused(data, "kind")


def test_a_saved_state_without_players_is_a_value_error_naming_the_field():
    data = saved(mid_game())
    del data["players"]
    refused(data, "players")


def test_a_saved_state_with_a_generator_beyond_64_bits_is_refused():
    data = saved(mid_game())
    data["state"]["rng"] = "1" + "0" * 16
    refused(data, "rng")


def test_a_saved_state_whose_stack_count_disagrees_with_its_cards_is_refused():
    data = saved(mid_game())
    data["state"]["stack_left"] = 2**64  # once made the generator spin for ever
    refused(data, "stack_left")
    data = saved(mid_game())
    data["state"]["stack_left"] += 1
    assert "the stack holds" in refused(data, "stack_left")


def test_a_saved_state_whose_seat_lists_disagree_with_the_owners_is_refused():
    data = saved(mid_game())
    seat = next(s for s, cells in enumerate(data["state"]["cells_of"]) if cells)
    data["state"]["cells_of"][seat].pop()
    refused(data, f"cells_of[{seat}]")


def test_a_saved_state_with_true_for_a_number_or_a_number_for_true_is_refused():
    data = saved(mid_game())
    data["state"]["box"] = True
    assert "expected an integer" in refused(data, "box")
    data = saved(mid_game())
    data["state"]["double"] = 1
    refused(data, "double")


def test_a_saved_state_with_owned_land_on_an_impassable_card_is_refused():
    state = mid_game("original-dutch")
    data = saved(state)
    chott = state.game.kind_by_id["chott"]
    cell = next(c for c in range(state.game.cells) if state.owner(c) >= 0 and state.kind(c) != chott
                and state.settlement(state.owner(c)) != c)
    data["state"]["kind"][cell] = chott
    refused(data, f"owner[{cell}]", any_ruleset("original-dutch"))


def test_a_finished_game_saved_without_its_winners_is_refused():
    state = mid_game(steps=100000)
    assert state.is_terminal()
    data = saved(state)
    data["state"]["winners"] = None
    assert "missing at the game's end" in refused(data, "winners")


def test_an_older_saved_state_is_refused_with_a_clear_message():
    data = saved(mid_game())
    data["format"] = "targui-state/1"
    with pytest.raises(ValueError, match="cannot resume.*replay the game's log"):
        GameState.from_json(any_ruleset("updated-treasury"), data)


def test_a_paused_effect_saved_at_another_card_is_refused(tmp_path):
    rule = tmp_path / "tithe.yaml"
    rule.write_text(
        "extends: original-dutch\nid: tithe\ntitle: Tithe\nhooks:\n  before_levy:\n"
        "    - |\n      for p in players { p chooses n in 0..2 { p.cash += n } }\n", encoding="utf-8")
    ruleset = load_ruleset(str(rule))
    state = settled_state(ruleset, players=2)
    state.edit().set_deck(["drought"])
    state.apply_action("die 1")
    state.force_chance("card drought")
    while state.phase != Phase.EFFECT_CHOICE:
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0])
    data = saved(state)
    assert GameState.from_json(ruleset, data).to_json() == state.to_json()  # the real one loads
    data["state"]["effect"]["where"] = ["hook", "before_levy", 7]
    refused(data, "effect", ruleset)
    data = saved(state)
    del data["state"]["effect"]
    refused(data, "effect", ruleset)


# --- mutations ----------------------------------------------------------------------------

_ODD_VALUES: tuple[Any, ...] = (-1, 0, 1, 2, 3, 7, 255, 256, 10**9, 10**9 + 1, 2**63, 2**64, -(2**70), True, False,
                                None, "x", "move", 1.5, [], {}, [0], [-1, 5])


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, containers and leaves."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, path + (index,))
    return found


def _mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    paths = [p for p in _paths(data) if p]
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        path = rng.choice(paths)
        parent: Any = data
        try:  # an earlier mutation may have replaced a container on the way
            for key in path[:-1]:
                parent = parent[key]
            key = path[-1]
            old = parent[key]
        except (KeyError, IndexError, TypeError):
            continue
        how = rng.random()
        if how < 0.1 and isinstance(parent, dict):
            del parent[key]
        elif how < 0.2 and isinstance(old, list) and old:
            old.pop(rng.randrange(len(old)))
        elif how < 0.3 and isinstance(old, list):
            old.append(rng.choice(old) if old else 0)
        elif how < 0.6 and old.__class__ is int:
            parent[key] = old + rng.choice((-2, -1, 1, 2, 5, 100))
        else:
            parent[key] = rng.choice(_ODD_VALUES)
    return data


def _plays_to_the_end(state: GameState, rng: random.Random) -> None:
    for _ in range(20000):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0] if outcomes else state.legal_actions()[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        state.clone()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant", ["updated-treasury", "original-dutch"])
def test_random_mutations_of_a_saved_state_are_refused_or_play_to_the_end(variant):
    rng = random.Random(17)
    states = [mid_game(variant, seed=seed, steps=steps) for seed, steps in ((3, 40), (4, 400))]
    bases = [saved(s) for s in states]
    ruleset = any_ruleset(variant)
    accepted = refusals = 0
    for trial in range(1500):
        data = _mutate(bases[trial % len(bases)], rng)
        try:
            state = GameState.from_json(ruleset, data)
        except ValueError:
            refusals += 1
            continue
        accepted += 1
        if accepted % 10 == 0:  # a sample played out (each takes hundreds of steps)
            _plays_to_the_end(state, random.Random(trial))
        else:  # the rest: a few steps, a copy and a save each
            for _ in range(5):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
            GameState.from_json(ruleset, json.loads(json.dumps(state.clone().to_json())))
    assert refusals > 500 and accepted > 100  # the mutations reach both sides


def test_random_mutations_of_a_state_paused_in_an_effect_are_refused_or_play_to_the_end():
    examples = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
    ruleset = load_ruleset(str(examples / "caravan-choice.yaml"))
    bases = []
    for seed in range(40):
        state = Game(ruleset, players=4, seed=seed).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and state.phase != Phase.EFFECT_CHOICE:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.phase == Phase.EFFECT_CHOICE:
            bases.append(saved(state))
        if len(bases) == 2:
            break
    assert len(bases) == 2
    rng = random.Random(23)
    accepted = refusals = 0
    for trial in range(600):
        data = _mutate(bases[trial % 2], rng)
        try:
            state = GameState.from_json(ruleset, data)
        except ValueError:
            refusals += 1
            continue
        accepted += 1
        if accepted % 5 == 0:
            _plays_to_the_end(state, random.Random(trial))
        else:
            state.apply_action(rng.choice(state.legal_actions()))  # answers the effect's choice
        GameState.from_json(ruleset, json.loads(json.dumps(state.clone().to_json())))
    assert refusals > 200 and accepted > 50
