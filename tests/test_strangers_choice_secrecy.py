"""A number chosen in a card or hook may be an amount of silver: in a variant whose money is
secret it is told to the other seats without the number, like a deposit, while the chooser
and the log (the whole game) keep it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run

from targui_dsl import Game, load_ruleset
from targui_dsl.games.targui.phases import Phase

STASH = """\
extends: {base}
id: stash
title: Stash silver by a choice
hooks:
  turn_start:
    - |
      player chooses n in 0..3 {{
        player.cash -= n
        player.{where} += n
      }}
"""


def _ruleset(tmp_path: Path, base: str = "updated-treasury", where: str = "treasury") -> Path:
    path = tmp_path / f"stash-{base}.yaml"
    path.write_text(STASH.format(base=base, where=where), encoding="utf-8")
    return path


def _at_choice(path: Path):
    state = Game(load_ruleset(str(path)), players=2, seed=1).new_initial_state()
    while state.phase != Phase.EFFECT_CHOICE:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    return state


def _answered(path: Path, number: int):
    state = _at_choice(path)
    chooser = state.current_player()
    state.apply_action(f"choose {number}")
    return state, chooser


def test_a_number_stashed_in_a_treasury_variant_is_not_in_the_other_seats_observations(tmp_path: Path):
    path = _ruleset(tmp_path)
    (none, chooser), (three, _) = _answered(path, 0), _answered(path, 3)
    other = 1 - chooser
    assert three.treasury(chooser) == none.treasury(chooser) + 3
    # what the other seat sees, step by step and now, cannot tell 0 from 3
    assert three.information_state_string(other) == none.information_state_string(other)
    assert ":effect_choice:?" in three.information_state_string(other)
    assert three.observation_string(other) == none.observation_string(other)
    assert three.observation_tensor(other) == none.observation_tensor(other)
    # the chooser keeps its own answer
    assert three.information_state_string(chooser) != none.information_state_string(chooser)


def test_the_adapters_observations_leave_out_a_secret_number_chosen(tmp_path: Path):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("targui_dsl.adapters.openspiel")
    adapter = pytest.importorskip("targui_dsl.adapters.pettingzoo")
    from open_spiel.python.observation import make_observation

    path = _ruleset(tmp_path)
    game = pyspiel.load_game("python_targui", {"ruleset": str(path), "players": 2})
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    told = []
    for number in (0, 3):
        state = game.new_initial_state()
        while state.engine.phase != Phase.EFFECT_CHOICE:
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
        other = 1 - state.current_player()
        state.apply_action(state.engine.actions_from_text(f"choose {number}")[0])
        told.append(recall.string_from(state, other))
    assert told[0] == told[1] and ":effect_choice:?" in told[0]

    environment = adapter.env(str(path), 2)
    environment.reset(seed=1)
    seen = []
    for number in (0, 3):
        environment.reset(seed=1)
        state = environment.game_state
        while state.phase != Phase.EFFECT_CHOICE:
            environment.step(int(state.chance_outcomes()[0][0]) if state.is_chance_node()
                             else state.legal_actions()[0])
        other = environment.possible_agents[1 - state.current_player()]
        environment.step(state.actions_from_text(f"choose {number}")[0])
        seen.append(environment.observe(other)["observation"].tolist())
    assert seen[0] == seen[1]


def test_a_human_is_told_that_a_bot_chose_a_number_but_not_which(tmp_path: Path):
    log = tmp_path / "game.jsonl"
    played = run("play", str(_ruleset(tmp_path)), "--players", "2", "--human", "2", "--bots", "random",
                 "--seed", "3", "--no-board", "--log", str(log), input="1\n" * 60)
    chosen = [e for e in map(json.loads, log.read_text(encoding="utf-8").splitlines())
              if e.get("type") == "decision" and e["action"].startswith("choose")]
    bots = [e["action"] for e in chosen if e["player"] == 0]
    assert any(a != "choose 0" for a in bots), bots  # the log keeps the numbers
    assert "Kel Ahaggar: chooses a number" in played.output
    assert "Kel Ahaggar: choose " not in played.output
    assert "Kel Ajjer: choose " in played.output  # the human is told its own


def test_a_number_chosen_where_money_is_open_is_told_to_everybody(tmp_path: Path):
    path = _ruleset(tmp_path, base="original-dutch", where="cash")
    (none, chooser), (three, _) = _answered(path, 0), _answered(path, 3)
    assert three.information_state_string(1 - chooser) != none.information_state_string(1 - chooser)
    assert ":effect_choice:?" not in three.information_state_string(1 - chooser)
