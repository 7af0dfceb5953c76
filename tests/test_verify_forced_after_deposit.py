"""A pass the engine forced right after a player chose to deposit nothing is logged as
`forced: true` (a `deposit 0` is not logged by itself); the one replayer still follows such
a log, so `replay --verify` and `play --resume` accept the games `targui play` writes."""

from __future__ import annotations

import json

from targui_dsl import load_ruleset
from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.replay import replay_log, verify_log
from targui_dsl.games.targui.game import Game


def test_a_forced_pass_after_a_chosen_deposit_of_nothing_replays_and_verifies():
    rs = load_ruleset("updated-treasury")
    game = Game(rs, players=4, seed=7)
    log = EventLog()
    state = game.new_initial_state(log=log)
    play(state, seat_agents(7, ["greedy"] * 4))
    events = [json.loads(json.dumps(e)) for e in log.events]
    # the case: a turn whose first logged decision is a forced pass by a player with cash in hand
    cases = [i for i, e in enumerate(events)
             if e["type"] == "decision" and e["forced"] and e["action"] == "pass"
             and events[i - 1]["type"] == "turn" and events[i - 1]["player"] == e["player"]]
    assert cases, "the game no longer has the case this test is about"
    run = verify_log(rs, events)
    assert run.ok and run.complete and run.chance_checked, run.difference
    assert replay_log(rs, events, compare=True).ok
