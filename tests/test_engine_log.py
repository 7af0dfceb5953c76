"""The event log: valid against schemas/game-log.schema.json line by line, and replayable."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset, put, start_turn

from targui_dsl.gamelog.events import EventLog, ReplayMismatch, read_log, replay
from targui_dsl.games.targui.game import Game
from targui_dsl.study.simulate import play_game

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "game-log.schema.json").read_text())


def logged_game(name="updated-treasury", players=4, seed=3, bots=("greedy", "random")):
    stream = io.StringIO()
    log = EventLog(stream)
    seats = list(bots) + ["random"] * (players - len(bots))
    play_game(Game(any_ruleset(name), players=players, seed=seed), seats, log=log)
    return stream.getvalue().splitlines(), log


def test_schema_is_a_valid_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name", REAL_VARIANTS)
def test_every_line_of_a_real_log_matches_the_schema(name):
    lines, _ = logged_game(name)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for number, line in enumerate(lines, start=1):
        errors = sorted(validator.iter_errors(json.loads(line)), key=str)
        assert not errors, f"line {number}: {line}\n{errors[0].message}"
    types = {json.loads(line)["type"] for line in lines}
    assert {"header", "chance", "decision", "round", "turn", "card", "round_end", "end"} <= types
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1])["type"] == "end"


def test_schema_rejects_a_malformed_line():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert list(validator.iter_errors({"type": "decision", "round": 1, "player": -1, "tribe": "x", "action": "pass"}))
    assert list(validator.iter_errors({"type": "chance", "round": 1, "node": "reveal", "action": "move 1 2 3"}))


def test_header_and_end_carry_the_game_and_result():
    lines, log = logged_game("original-dutch", players=3, seed=9)
    head, end = json.loads(lines[0]), json.loads(lines[-1])
    assert head["ruleset"] == "original-dutch" and head["players"] == 3 and head["seed"] == 9
    assert head["tribes"] == ["kel_ahaggar", "kel_ajjer", "kel_ilbakan"]
    assert set(end["scores"]) == set(head["tribes"])
    assert end["winners"] and set(end["winners"]) <= set(head["tribes"])


def test_levy_per_player_in_round_end_lines():
    _, log = logged_game("original-dutch")
    ends = [e for e in log.events if e["type"] == "round_end"]
    assert len(ends) == 16
    assert all(set(e["levy"]) == {"kel_ahaggar", "kel_ajjer", "kel_ilbakan", "kel_ress"} for e in ends)
    assert all(v >= 4 or v == 0 for e in ends for v in e["levy"].values())


def test_card_lines_record_what_changed():
    _, log = logged_game("original-dutch", seed=11)
    cards = [e for e in log.events if e["type"] == "card"]
    assert len(cards) == 16
    for event in cards:
        before, after = event["changes"]["box"]
        moved = sum(a - b for b, a in event["changes"]["camels"].values())
        assert before - after == moved  # camels added came from the box, removed went back


@pytest.mark.parametrize("name", REAL_VARIANTS)
def test_replay_reproduces_the_game(name):
    lines, _ = logged_game(name, seed=21)
    events = read_log(lines)
    state = replay(any_ruleset(name), events)
    end = events[-1]
    assert [state.game.tribe_ids[s] for s in state.winners()] == end["winners"]
    assert state.scores() == [end["scores"][t] for t in state.game.tribe_ids]


def test_replay_detects_a_tampered_log():
    lines, _ = logged_game("original-dutch", seed=4)
    events = read_log(lines)
    for event in events:
        if event["type"] == "round_end":
            event["levy"]["kel_ajjer"] += 1
            break
    with pytest.raises(ReplayMismatch):
        replay(any_ruleset("original-dutch"), events)


# --- the end of a game is its last event ---------------------------------------------------

def dutch():
    return any_ruleset("original-dutch")


def settled_with_log(ruleset, players: int = 2):
    log = EventLog()
    state = Game(ruleset, players=players, seed=1, explicit_chance=True).new_initial_state(log=log)
    while state.round == 0:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state, log


def test_conquest_that_ends_the_game_logs_the_end_last():
    """Taking the last enemy territory by attack: `end` must be the last event (docs/engine.md),
    after the attack's own `attack_end`."""
    state, log = settled_with_log(dutch(), players=2)
    start_turn(state, 0)
    home1 = state.settlement(1)
    # seat 1 owns nothing but its settlement, with 1 camel; seat 0 stands next to it
    for cell in range(state.game.cells):
        if state.owner(cell) == 1 and cell != home1:
            put(state, state.game.position_of_cell[cell], unowned=True, camels=0)
    target = state.game.position_of_cell[home1]
    put(state, target, camels=1)
    source = state.game.position_of_cell[state.game.neighbours[home1][0]]
    put(state, source, kind="reg", owner=0, camels=6)
    state.apply_action(f"attack {source} {target}")
    state.apply_action("die 6")  # (6 + 0) // 2 = 3 >= 1: the settlement falls
    state.apply_action("enter 2")
    assert state.is_terminal() and state.end_reason == "last_standing" and state.winners() == [0]
    types = [e["type"] for e in log.events]
    assert types[-1] == "end", types[-4:]
    assert types[-3:] == ["attack_end", "eliminated", "end"]
    assert state.owner(home1) == 0 and state.camels(home1) == 2
