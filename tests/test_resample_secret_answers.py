"""A bot that searches draws hidden states from its seat's view: within a card or hook under
way, another seat's secret number (an amount of silver in a treasury variant) is drawn anew
among its options, not replayed as it was, while a seat's own answers and public answers
(a territory, a player) are replayed as given."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from targui_dsl import Game, load_ruleset
from targui_dsl.games.targui.phases import Phase

TWO_CHOICES = """\
extends: {base}
id: two-choices
title: Stash silver, then another seat answers
hooks:
  turn_start:
    - |
      player chooses n in 0..3 {{
        player.cash -= n
        player.{where} += n
      }}
      for p in seats {{
        p chooses m in 0..1 {{
          p.cash -= m
        }}
      }}
"""


def _ruleset(tmp_path: Path, base: str = "updated-treasury", where: str = "treasury") -> Path:
    path = tmp_path / f"two-{base}.yaml"
    path.write_text(TWO_CHOICES.format(base=base, where=where), encoding="utf-8")
    return path


def _at_second_seat(path: Path, number: int):
    """The state where the other seat answers, after the first seat stashed ``number``."""
    state = Game(load_ruleset(str(path)), players=2, seed=1).new_initial_state()
    while state.phase != Phase.EFFECT_CHOICE:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    chooser = state.current_player()
    state.apply_action(f"choose {number}")
    while state.current_player() == chooser:
        state.apply_action(state.legal_actions()[0])
    assert state.phase == Phase.EFFECT_CHOICE
    return state, chooser


def _draws(state, seat: int, seed: int = 7, count: int = 8) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps(state.resample_from_infostate(seat, rng).to_json(), sort_keys=True) for _ in range(count)]


def test_another_seats_secret_number_does_not_change_what_a_search_draws(tmp_path: Path):
    path = _ruleset(tmp_path)
    (none, chooser), (three, _) = _at_second_seat(path, 0), _at_second_seat(path, 3)
    other = 1 - chooser
    assert none.treasury(chooser) != three.treasury(chooser)
    assert _draws(none, other) == _draws(three, other)


def test_a_seat_searching_keeps_its_own_secret_answer(tmp_path: Path):
    path = _ruleset(tmp_path)
    state, chooser = _at_second_seat(path, 3)
    before = state.treasury(chooser)
    rng = random.Random(5)
    for _ in range(8):
        assert state.resample_from_infostate(chooser, rng).treasury(chooser) == before


def test_a_number_where_money_is_open_is_still_replayed_as_it_was(tmp_path: Path):
    path = _ruleset(tmp_path, base="original-dutch", where="cash")
    (none, chooser), (three, _) = _at_second_seat(path, 0), _at_second_seat(path, 3)
    other = 1 - chooser
    assert _draws(none, other) != _draws(three, other)
    rng = random.Random(5)
    for _ in range(8):
        assert three.resample_from_infostate(other, rng).cash(chooser) == three.cash(chooser)


def test_the_openspiel_adapters_resampling_does_not_see_another_seats_secret_number(tmp_path: Path):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("targui_dsl.adapters.openspiel")
    path = _ruleset(tmp_path)
    game = pyspiel.load_game("python_targui", {"ruleset": str(path), "players": 2})
    drawn = []
    for number in (0, 3):
        state = game.new_initial_state()
        while state.engine.phase != Phase.EFFECT_CHOICE:
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
        chooser = state.current_player()
        state.apply_action(state.engine.actions_from_text(f"choose {number}")[0])
        while state.current_player() == chooser:
            state.apply_action(state.legal_actions()[0])
        rng = random.Random(3)
        drawn.append([json.dumps(state.resample_from_infostate(1 - chooser, rng.random).engine.to_json(),
                                 sort_keys=True) for _ in range(4)])
    assert drawn[0] == drawn[1]
