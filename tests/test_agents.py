"""Bots: the registry, legal choices only, and the greedy bot's odds and strength."""

from __future__ import annotations

import re

import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset, put, settled_state, start_turn

from targui_dsl.agents import BotSpecError, bot_names, make_agent, parse_bot, parse_bot_list
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.greedy import FightOdds, GreedyAgent
from targui_dsl.study.simulate import run_games


def decide(agent, state) -> str:
    """The agent's choice for the seat to move, as text."""
    seat = state.current_player()
    return state.action_to_string(agent.choose(state.observation(seat), state.legal_actions()))


def test_registry():
    assert {"greedy", "random"} <= set(bot_names())
    assert make_agent("random", 1).name == "random" and make_agent("greedy", 1).name == "greedy"
    with pytest.raises(ValueError, match="unknown bot"):
        make_agent("clever", 0)


@pytest.mark.parametrize("spelling, message", [
    ("gredy", "unknown bot `gredy`; did you mean `greedy`?"),
    ("greedy:depth=2", "bot `greedy` takes no parameters"),
    ("random:", "write a parameter as `name=value`"),
])
def test_a_bad_bot_spelling_says_what_is_wrong(spelling, message):
    with pytest.raises(BotSpecError, match=re.escape(message)):
        parse_bot(spelling)


def test_bot_parameters_are_read_checked_and_written_back_canonically():
    from targui_dsl.agents import BotKind, BotParam
    from targui_dsl.agents.spec import register, unregister

    made = []
    kind = BotKind("probe", lambda seed, depth, c: made.append((seed, depth, c)) or make_agent("random", seed),
                   "test bot", (BotParam("depth", int, 2, "plies", minimum=1), BotParam("c", float, 1.0, "weight")))
    register(kind)
    try:
        assert parse_bot("probe").spelling() == "probe"
        spec = parse_bot(" probe : c=0.5 : depth=3 ")
        assert spec.params == {"depth": 3, "c": 0.5} and spec.spelling() == "probe:depth=3:c=0.5"
        spec.build(7)
        assert made == [(7, 3, 0.5)]
        with pytest.raises(BotSpecError, match="`depth` must be a whole number, not `two`"):
            parse_bot("probe:depth=two")
        with pytest.raises(BotSpecError, match="`depth` must be at least 1"):
            parse_bot("probe:depth=0")
        with pytest.raises(BotSpecError, match="has no parameter `dpeth`; did you mean `depth`"):
            parse_bot("probe:dpeth=3")
        with pytest.raises(BotSpecError, match="`c` is given twice"):
            parse_bot("probe:c=1:c=2")
        assert [s.spelling() for s in parse_bot_list("probe:depth=2,greedy")] == ["probe", "greedy"]
        with pytest.raises(BotSpecError, match="an empty bot"):
            parse_bot_list("greedy,,random")
    finally:
        unregister("probe")


@pytest.mark.parametrize("kind", ["random", "greedy"])
@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_bots_choose_only_legal_actions(kind, variant):
    state = Game(any_ruleset(variant), players=3, seed=7).new_initial_state()
    agent = make_agent(kind, 3)
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = agent.choose(state.observation(seat), legal)
        assert action in legal
        state.apply_action(action)


def test_random_bot_is_not_passive():
    result = run_games(any_ruleset("original-dutch"), games=5, players=4, bots=["random"], seed=2)
    assert result["decisions"] > 5 * 100
    state = Game(any_ruleset("original-dutch"), players=4, seed=2).new_initial_state()
    agent = make_agent("random", 0)
    kinds = set()
    while not state.is_terminal():
        seat = state.current_player()
        action = agent.choose(state.observation(seat), state.legal_actions())
        kinds.add(state.action_to_string(action).split()[0])
        state.apply_action(action)
    assert {"move", "attack", "buy", "pass", "again", "give", "count", "enter"} <= kinds


def test_fight_odds_match_the_worked_example():
    # guelta (3) attacks fesh-fesh (2): losses by die 1..6
    odds = FightOdds(tuple((d + 3) // 2 for d in range(1, 7)), tuple((d + 2) // 2 for d in range(1, 7)))
    win, kept = odds(8, 5)
    assert 0.5 < win < 1 and 0 < kept < 8
    assert odds(1, 40)[0] < 0.01 and odds(40, 1)[0] == pytest.approx(1.0)
    # zero losses on both sides (die 1, strategic 0) must not loop forever
    flat = FightOdds((0, 1, 1, 2, 2, 3), (0, 1, 1, 2, 2, 3))
    assert 0 < flat(5, 5)[0] < 1


def test_greedy_attacks_a_weak_neighbour_and_not_a_strong_one():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    put(state, 45, kind="guelta", owner=0, camels=20)
    put(state, 46, kind="guelta", owner=1, camels=2)
    assert decide(GreedyAgent(0), state) == "attack 45 46"
    put(state, 46, camels=60)
    assert decide(GreedyAgent(0), state) != "attack 45 46"


def test_greedy_banks_cash_in_the_treasury_in_the_last_round():
    state = settled_state(any_ruleset("updated-treasury"))
    state.edit().set_round(state.game.ruleset.rounds)
    start_turn(state, 0)
    assert decide(GreedyAgent(0), state) == "deposit 10"


def test_greedy_buys_where_it_is_threatened():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    put(state, 45, kind="reg", owner=0, camels=1)
    put(state, 46, kind="reg", owner=1, camels=30)
    state.apply_action("pass")
    agent = GreedyAgent(0)
    assert decide(agent, state) in ("buy on 45", "buy on 20")
    state.apply_action(agent.choose(state.observation(0), state.legal_actions()))
    assert decide(agent, state) == "count 10"


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_greedy_beats_three_random_bots(variant):
    result = run_games(any_ruleset(variant), games=16, players=4, bots=["greedy", "random"], seed=5, rotate=True)
    assert result["wins_by_bot"]["greedy"] >= 10  # far above the 25% of an equal player


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_a_game_with_a_billion_camels_and_silver_ends(kind):
    """Counts are chosen digit by digit and greedy starts no fight of millions of throws:
    a house rule's huge numbers neither stall a game nor fill memory."""
    from dataclasses import replace


    rs = replace(any_ruleset("original-dutch"), camel_box=10**9, start_cash=(10**9,) * 4)
    state = Game(rs, players=4, seed=1).new_initial_state()
    largest = 0
    bots = [make_agent(kind, s) for s in range(4)]
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        largest = max(largest, len(legal))
        state.apply_action(bots[seat].choose(state.observation(seat), legal))
    assert largest <= 400 and state.decisions < 20_000


def test_bots_command_lists_every_bot_and_the_default_and_play_refuses_a_misspelling():
    from click.testing import CliRunner

    from targui_cli.main import cli

    listing = CliRunner().invoke(cli, ["bots"])
    assert listing.exit_code == 0
    assert "greedy:" in listing.output and "random:" in listing.output and "default: greedy" in listing.output
    refused = CliRunner().invoke(cli, ["play", "original-dutch", "--bots", "greedy,gredy"])
    assert refused.exit_code == 2 and "did you mean `greedy`?" in refused.output
