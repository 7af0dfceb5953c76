"""A player who chooses to deposit nothing is logged like any other decision (`deposit 0`,
format 2), so the pass the engine then forces follows it in the log; a log of format 1,
written before that, held no `deposit 0` and still replays and verifies."""

from __future__ import annotations

import json

from targui_dsl import load_ruleset
from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.header import seal_header
from targui_dsl.gamelog.replay import replay_log, verify_log
from targui_dsl.games.targui.game import Game


def _game_events() -> list[dict]:
    rs = load_ruleset("updated-treasury")
    log = EventLog()
    state = Game(rs, players=4, seed=7).new_initial_state(log=log)
    play(state, seat_agents(7, ["greedy"] * 4))
    return [json.loads(json.dumps(e)) for e in log.events]


def test_a_chosen_deposit_of_nothing_is_logged_before_the_pass_it_forces():
    rs = load_ruleset("updated-treasury")
    events = _game_events()
    assert events[0]["format"] == "targui-log/2"
    cases = [i for i, e in enumerate(events)
             if e["type"] == "decision" and e["forced"] and e["action"] == "pass"
             and events[i - 1]["type"] == "decision" and events[i - 1]["action"] == "deposit 0"]
    assert cases, "the game no longer has the case this test is about"
    assert all(not events[i - 1]["forced"] and events[i - 1]["player"] == events[i]["player"] for i in cases)
    run = verify_log(rs, events)
    assert run.ok and run.complete and run.chance_checked, run.difference
    assert replay_log(rs, events, compare=True).ok


def test_a_format_1_log_without_its_deposits_of_nothing_still_verifies():
    rs = load_ruleset("updated-treasury")
    events = _game_events()
    header = {k: v for k, v in events[0].items() if k != "seal"}
    old = [seal_header({**header, "format": "targui-log/1"})]
    old += [e for e in events[1:] if e["type"] != "hook" and e.get("action") != "deposit 0"]
    assert len(old) < len(events)
    run = verify_log(rs, old)
    assert run.ok and run.complete and run.chance_checked, run.difference
    # a log of today's format must hold them: the same lines under format 2 differ from the engine
    header2 = seal_header({**header, "format": "targui-log/2"})
    assert not verify_log(rs, [header2] + old[1:]).ok


def test_a_format_1_log_replays_but_is_not_continued(tmp_path):
    from cli_run import run

    rs_path = "updated-treasury"
    events = _game_events()
    header = {k: v for k, v in events[0].items() if k != "seal"}
    old = [seal_header({**header, "format": "targui-log/1", "seats": ["greedy"] * 4})]
    old += [e for e in events[1:-60] if e["type"] != "hook" and e.get("action") != "deposit 0"]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in old))
    replayed = run("replay", "--verify", "--partial", str(path))
    assert replayed.exit_code == 0 and "verified" in replayed.output, replayed.output
    resumed = run("play", rs_path, "--resume", str(path))
    assert resumed.exit_code == 1 and "older format (targui-log/1)" in resumed.output, resumed.output
