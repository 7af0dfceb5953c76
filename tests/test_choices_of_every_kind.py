"""Choices of every kind (issue 20 item 4) and hooks in the story (item 3): yes/no, one of a
written list, a kind, a territory (the legal ones only); each a decision with readable actions
and a mask, answered by every bot, logged, told and replayed; hooks that change something are
events of the log, told at the table with secrecy kept, and counted in studies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import no_crash, run
from engine_fixtures import settled_state, start_turn

from targui_dsl import load_ruleset
from targui_dsl.agents import make_agent, seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.frontend.build import build
from targui_dsl.frontend.resources import rulesets_dir
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.replay import verify_log
from targui_dsl.games.targui.bounds import ADAPTER
from targui_dsl.games.targui.console import TableNarrator
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.metrics import TarguiCounter
from targui_dsl.games.targui.phases import Phase


def example(name: str):
    return load_ruleset(str(rulesets_dir() / "examples" / f"{name}.yaml"))


def house(tmp_path: Path, text: str, base: str = "original-dutch"):
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {base}\nid: house\n" + text, encoding="utf-8")
    return path


def logged_game(ruleset, bots: list[str], seed: int = 3, players: int = 3) -> tuple[list[dict], object]:
    log = EventLog()
    state = Game(ruleset, players=players, seed=seed).new_initial_state(log=log)
    play(state, [make_agent(b, seed + s) for s, b in enumerate(bots)])
    return [json.loads(json.dumps(e)) for e in log.events], state


# --- yes/no ------------------------------------------------------------------------------


def test_a_yes_no_choice_is_a_decision_with_readable_actions_and_a_mask():
    state = start_turn(settled_state(example("hired-guides"), players=2), 0)
    assert state.phase == Phase.EFFECT_CHOICE and state.current_player() == 0
    kind, prompt, options = state.choice()
    assert kind == "yes/no" and "hire in [true, false]" in prompt
    legal = state.legal_actions()
    assert [state.action_to_string(a) for a in legal] == ["choose yes", "choose no"]
    mask = state.legal_actions_mask()
    assert len(mask) == state.game.num_distinct_actions() and [i for i, m in enumerate(mask) if m] == legal
    settlement = state.settlement(0)
    cash, camels = state.cash(0), state.camels(settlement)
    no = state.clone()
    no.apply_action("choose no")
    assert (no.cash(0), no.camels(settlement)) == (cash, camels)
    state.apply_action("choose yes")
    assert (state.cash(0), state.camels(settlement)) == (cash - 3, camels + 5)
    with pytest.raises(ValueError, match="choices: yes, no"):
        start_turn(settled_state(example("hired-guides"), players=2), 0).apply_action("choose maybe")


def test_the_yes_no_example_logs_its_answers_and_the_hook_and_verifies(tmp_path):
    log = tmp_path / "guides.jsonl"
    result = run("play", str(rulesets_dir() / "examples" / "hired-guides.yaml"), "--players", "3", "--seed", "3",
                 "--log", str(log))
    assert result.exit_code == 0, result.output
    no_crash(result.output)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    answers = [i for i, e in enumerate(events)
               if e["type"] == "decision" and e["action"] in ("choose yes", "choose no")]
    assert answers
    for i in answers:  # a yes is followed by the hook's event: 3 silver paid, camels on the settlement
        e, after = events[i], events[i + 1]
        if e["action"] == "choose yes":
            assert after["type"] == "hook" and after["moment"] == "turn_start" and after["hook"] == 1
            (before_cash, after_cash), = after["changes"]["cash"].values()
            assert before_cash - after_cash == 3
        else:
            assert after["type"] != "hook"
    assert "choose yes" in result.output and "house rule (turn_start 1)" in result.output
    verified = run("replay", "--verify", str(log))
    assert verified.exit_code == 0 and "verified" in verified.output, verified.output


# --- a territory: the legal ones only ----------------------------------------------------


def test_a_choice_of_territory_offers_the_legal_ones_only_and_the_example_verifies(tmp_path):
    ruleset = example("nomad-camp")
    state = settled_state(ruleset, players=2)
    state.apply_action("die 1")  # round_start: seat 1 is asked first
    assert state.phase == Phase.EFFECT_CHOICE and state.current_player() == 0
    game = state.game
    allowed = sorted(c for c in range(game.cells)
                     if state.owner(c) < 0 and game.kind_passable[state.kind(c)]
                     and any(state.owner(n) == 0 for n in game.neighbours[c]))
    legal = state.legal_actions()
    assert sorted(game.actions.cell_of(a) for a in legal) == allowed
    pick = allowed[-1]
    state.apply_action(f"choose {game.position_of_cell[pick]}")
    assert state.owner(pick) == 0 and state.camels(pick) == 1

    log = tmp_path / "camp.jsonl"
    result = run("play", str(rulesets_dir() / "examples" / "nomad-camp.yaml"), "--players", "3", "--seed", "3",
                 "--log", str(log))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    hooks = [e for e in events if e["type"] == "hook"]
    assert hooks and all(e["moment"] == "round_start" for e in hooks)
    assert all(sorted(b - a for a, b in e["changes"]["camels"].values()).count(1) >= 1 for e in hooks)
    assert run("replay", "--verify", str(log)).exit_code == 0


# --- a hook giving silver: events in play, replay, the log and studies --------------------


def test_a_hook_giving_silver_is_logged_told_replayed_and_counted(tmp_path):
    log = tmp_path / "market.jsonl"
    path = str(rulesets_dir() / "examples" / "market-day.yaml")
    result = run("play", path, "--players", "3", "--seed", "3", "--log", str(log))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    hooks = [e for e in events if e["type"] == "hook" and e["moment"] == "round_start"]
    assert [e["round"] for e in hooks] == [2, 4, 6, 8]
    for e in hooks:
        assert e["changes"]["cash"] and all(b - a == 3 for a, b in e["changes"]["cash"].values())
    assert result.output.count("house rule (round_start 1)") == 4
    replayed = run("replay", str(log))
    assert replayed.exit_code == 0 and replayed.output.count("house rule (round_start 1)") == 4
    assert run("replay", "--verify", str(log)).exit_code == 0
    counter = TarguiCounter()
    for e in events[1:]:
        counter(e)
    assert counter.cards()["round_start hook 1"][0] == 4  # changed something 4 times
    assert counter.cards()["round_start hook 1"][4] == sum(3 * len(e["changes"]["cash"]) for e in hooks)


def test_at_the_table_a_hooks_secret_amounts_are_told_only_to_whom_may_see_them():
    ruleset = example("market-day")
    events, state = logged_game(ruleset, ["greedy"] * 3)
    hook = next(e for e in events if e["type"] == "hook" and e["moment"] == "round_start")
    table = TableNarrator(state.game, humans=[0], state=state)
    table.state = Game(ruleset, players=3, seed=3).new_initial_state()  # mid-game: others' cash is secret
    line = table(hook)
    mine, others = state.game.tribe_ids[0], state.game.tribe_ids[1:]
    names = {t.id: t.name for t in ruleset.tribes}
    a, b = hook["changes"]["cash"][mine]
    assert f"{names[mine]} cash {a}->{b}" in line
    for tribe in others:
        assert f"{names[tribe]} cash ?" in line and f"{names[tribe]} cash {hook['changes']['cash'][tribe][0]}" \
            not in line


# --- a kind, a list; the language's checks -----------------------------------------------


def test_a_choice_of_a_kind_and_of_a_written_list(tmp_path):
    path = house(tmp_path, """hooks:
  turn_start:
    - player chooses k in [reg, erg, reg] { k.economic += 2 this round }
""")
    state = start_turn(settled_state(load_ruleset(str(path)), players=2), 0)
    assert state.choice()[0] == "kind"
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["choose reg", "choose erg"]
    erg = state.game.kind_by_id["erg"]
    before = state.kind_economic(erg)
    state.apply_action("choose erg")
    assert state.kind_economic(erg) == before + 2


@pytest.mark.parametrize("effect, code, column, words", [
    ("for x in [kel_ress] { }", "E0504", 10, "tribes cannot be ranged over"),
    ("for x in [] { }", "E0504", 10, "empty list"),
    ("for x in [1, true] { }", "E0504", 14, "this list holds a whole number"),
    ("current_player chooses x in [nobody] { }", "E0504", 30, "`nobody` cannot be"),
    ("current_player chooses x in [" + ", ".join(["1"] * 257) + "] { }", "E0522", 29, "257 values"),
])
def test_a_bad_list_is_refused_at_its_place_with_a_hint(tmp_path, effect, code, column, words):
    path = house(tmp_path, f"hooks:\n  turn_start:\n    - {effect}\n")
    report = build(str(path))
    found = [d for d in report.diagnostics if d.code == code]
    assert found, [d.message for d in report.diagnostics]
    assert (found[0].span.line, found[0].span.column) == (5, 6 + column)
    assert words in found[0].message and found[0].hint


# --- bots --------------------------------------------------------------------------------


GIFT = """hooks:
  turn_start:
    - player chooses take in [false, true] {{ if take {{ player.cash {op} }} }}
"""


@pytest.mark.parametrize("op, best", [("+= 30", "choose yes"), ("= 0", "choose no")])
@pytest.mark.parametrize("bot", ["greedy", "ismcts:iterations=60"])
def test_greedy_and_ismcts_see_the_consequence_of_an_answer(tmp_path, op, best, bot):
    # updated-treasury scores cash: taking 30 silver is good, losing it all bad
    path = house(tmp_path, GIFT.format(op=op), base="updated-treasury")
    state = start_turn(settled_state(load_ruleset(str(path)), players=2), 0)
    assert state.phase == Phase.EFFECT_CHOICE and state.cash(0) > 0
    agent = make_agent(bot, 5)
    choice = agent.choose(state.observation(0), state.legal_actions())
    assert state.action_to_string(choice) == best


@pytest.mark.parametrize("name", ["hired-guides", "nomad-camp", "market-day"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_examples_play_to_their_end_with_every_bot_and_verify(name, bot):
    ruleset = example(name)
    events, state = logged_game(ruleset, [bot] * 3, seed=4)
    assert state.is_terminal() and events[-1]["type"] == "end"
    assert any(e["type"] == "hook" for e in events)
    # the adapters' bounds still hold: every answer an id of the action space, the game within its length
    answers = [e for e in events if e["type"] == "decision" and e["action"].startswith("choose")]
    assert answers or name == "market-day"
    assert state.decisions <= ADAPTER.max_game_length(ruleset, 3, 10**6)
    run_ = verify_log(ruleset, events)
    assert run_.ok and run_.complete, run_.difference


def test_a_human_is_asked_the_question_with_its_answers_at_the_prompt(tmp_path):
    script = "sector north_west\n1\n2\nquit\n"  # settle by menu, then answer 2) choose no
    result = run("play", str(rulesets_dir() / "examples" / "hired-guides.yaml"), "--players", "2", "--human", "1",
                 "--seed", "1", "--log", str(tmp_path / "g.jsonl"), input=script)
    no_crash(result.output)
    assert "a card or house rule asks you to choose yes or no: hire in [true, false]:" in result.output
    assert "1) choose yes    2) choose no" in result.output
    events = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert [e["action"] for e in events if e["type"] == "decision" and e["player"] == 0][-1] == "choose no"


def test_studies_report_silver_and_score_at_the_end_per_seat(tmp_path):
    from targui_dsl.study.games import record_game
    from targui_dsl.study.records import record_row

    ruleset = example("market-day")
    record = record_game(ruleset, 3, 11, ["greedy"] * 3)
    state = Game(ruleset, players=3, seed=11).new_initial_state()
    play(state, seat_agents(11, ["greedy"] * 3))  # the same game, as a study plays it
    silver = [state.cash(s) + state.treasury(s) for s in range(3)]
    assert record.seats == {"silver": silver} and list(record.scores) == state.scores()
    row = record_row(record, ruleset.deck)
    assert [row[f"silver_{s}"] for s in (1, 2, 3)] == silver
    result = run("simulate", str(rulesets_dir() / "examples" / "market-day.yaml"), "--players", "3", "--games", "4",
                 "--seed", "2", "--format", "json")
    figures = json.loads(result.output)
    tribes = figures["tribes"]
    assert set(figures["per_seat"]["silver"]) == set(tribes)
    assert all(figures["per_seat"]["silver"][t]["n"] == 4 for t in tribes)
    text = run("simulate", str(rulesets_dir() / "examples" / "market-day.yaml"), "--players", "3", "--games", "4",
               "--seed", "2").output
    assert "At the end" in text and "seat 1 " in text and " silver " in text
