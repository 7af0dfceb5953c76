"""Targi at the table: action texts a player can read, the old spellings still read
(logs written before keep verifying), 240's stored gold as a choice, the board and the
hot seat as a player sees them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from targi_fixtures import centre, do, give, new, texts, turn

from targui_cli.main import cli
from targui_dsl.games.targi.texts import old_text

OLD_LOGS = Path(__file__).resolve().parent / "targi_logs"


def run(*args: str, text: str = ""):
    return CliRunner().invoke(cli, list(args), input=text)


@pytest.mark.parametrize("name", ["main-greedy-random-seed4.jsonl", "main-greedy-greedy-seed1.jsonl"])
def test_a_log_written_before_actions_had_readable_texts_still_verifies(name):
    # written by main at 55055c8 (`play targi --bots greedy,random --seed 4 --log`), with its ruleset file
    result = run("replay", str(OLD_LOGS / name), "--verify", "--ruleset", str(OLD_LOGS / "targi-55055c8.yaml"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verified: all ")


# --- 1. prompts a player can read -----------------------------------------------------------------

def test_actions_read_as_the_border_card_the_centre_card_and_its_cost():
    state = new()
    centre(state, 0, 113, deck="goods")  # a good of choice
    centre(state, 1, 213)
    centre(state, 4, 115, deck="goods")
    turn(state, 0, border=(5, 2), spaces=(0, 1, 4))
    assert texts(state) == [
        "Dates (2)", "Merchant (5)",
        "centre 1: goods card 113 (1 good of your choice)",
        "centre 2: tribe card 213 (targia, 2 pts, cost 1 date 1 salt 2 pepper)",
        "centre 5: goods card 115 (1 gold)",
        "end my turn"]
    give(state, 0, goods=(3, 1, 2), gold=0)
    do(state, "centre 2: tribe card 213 (targia, 2 pts, cost 1 date 1 salt 2 pepper)")
    assert texts(state) == ["keep in hand", "discard", "pay 1 date 1 salt 2 pepper"]


def test_a_slash_cost_reads_as_either_option():
    state = new()
    centre(state, 1, 226)
    turn(state, 0, spaces=(1,))
    text = texts(state)[0]
    assert text.startswith("centre 2: tribe card 226 (camp, ") and " or 1 gold)" in text


def test_every_legal_action_is_read_back_from_its_text_and_from_the_older_spelling():
    state = new(seed=5)
    seen = set()
    while not state.is_terminal() and len(seen) < 200:
        if not state.is_chance_node():
            player = state.current_player()
            for action in state.legal_actions():
                assert state.actions_from_text(state.action_to_string(player, action)) == [action]
                assert state.actions_from_text(old_text(state.rs, state.record, player, action)) == [action]
                seen.add(action)
        state.apply_action(state.legal_actions()[0] if state.is_chance_node() else state.legal_actions()[-1])
    assert len(seen) > 20


def test_a_new_log_holds_the_readable_texts_and_verifies(tmp_path):
    log = tmp_path / "game.jsonl"
    assert run("play", "targi", "--bots", "greedy,random", "--seed", "4", "--log", str(log)).exit_code == 0
    actions = [json.loads(line)["action"] for line in log.read_text(encoding="utf-8").splitlines()
               if json.loads(line)["type"] == "decision"]
    assert "Tribal Expansion (14)" in actions and not [a for a in actions if a.startswith(("border ", "space "))]
    result = run("replay", str(log), "--verify")
    assert result.exit_code == 0, result.output
