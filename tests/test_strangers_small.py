"""Smaller findings of issue 21, item 12 (the parts of the safety wing): PettingZoo actions
that are not whole numbers, the exit-status table of `replay --help`, and `extends:`
naming something that exists but is not a file."""

from __future__ import annotations

import os

import numpy as np
import pytest
from cli_run import run

pettingzoo = pytest.importorskip("pettingzoo")

from targui_dsl.adapters import pettingzoo as adapter  # noqa: E402
from targui_dsl.games.targui.actions import IllegalAction  # noqa: E402


def _env():
    environment = adapter.env("original-dutch", 2)
    environment.reset(seed=1)
    return environment


@pytest.mark.parametrize("action", [None, 262.9, 262.0, "262", True, [262], np.float64(262.0), 1 + 2j])
def test_a_pettingzoo_action_that_is_not_a_whole_number_is_refused_and_nothing_is_played(action):
    environment = _env()
    legal = int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[0])
    before = environment.game_state.to_json()
    with pytest.raises(IllegalAction, match="an action is a whole number"):
        environment.step(action if not isinstance(action, float) else legal + 0.9)
    assert environment.game_state.to_json() == before
    environment.step(np.int64(legal))  # numpy's integers are whole numbers
    assert environment.game_state.to_json() != before


def test_a_finished_pettingzoo_game_still_takes_none_for_its_dead_steps():
    environment = _env()
    rng = np.random.default_rng(3)
    for agent in environment.agent_iter(max_iter=200000):
        _, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
        else:
            mask = environment.observe(agent)["action_mask"]
            environment.step(int(rng.choice(np.flatnonzero(mask))))
    assert environment.agents == []


def test_replay_help_keeps_its_exit_status_table_and_shows_no_control_character():
    text = run("replay", "--help").output
    assert "\x08" not in text and "\\x08" not in text
    lines = text.splitlines()
    start = lines.index("  Exit status:")
    assert lines[start + 1].strip().startswith("0  told")
    assert any(line.strip().startswith("2  the command line itself is wrong") for line in lines[start:start + 8])


@pytest.mark.parametrize("kind, words", [("fifo", "is a named pipe (FIFO), not a file"),
                                         ("folder", "is a directory, not a file"),
                                         ("nothing", "which does not exist")])
def test_extends_naming_a_fifo_or_folder_says_what_it_is(tmp_path, kind, words):
    base = tmp_path / "base.yaml"
    if kind == "fifo":
        os.mkfifo(base)
    elif kind == "folder":
        base.mkdir()
    rules = tmp_path / "house.yaml"
    rules.write_text("extends: base.yaml\nid: house\n", encoding="utf-8")
    result = run("validate", str(rules))
    assert result.exit_code == 1 and words in result.output
