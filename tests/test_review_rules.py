"""Review: rules (RULES.md sections 1-7) the engine played wrongly, one test per finding."""

from __future__ import annotations

from pathlib import Path

from engine_fixtures import any_ruleset, put, start_turn
from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent
from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.engine import play, EventLog, Game


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


def _finished_state():
    from targui_dsl.agents import make_agent

    state = Game(dutch(), players=3, seed=4).new_initial_state()
    bots = [make_agent("random", s) for s in range(3)]
    play(state, bots)
    return state


def test_saved_state_shares_no_list_with_the_game():
    """to_json()/from_json() copy the results too: changing the saved dict later
    must not change the state (and the other way round)."""
    from targui_dsl.engine import GameState

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
