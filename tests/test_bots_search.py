"""The ismcts bot: legal choices, the same choices for the same seed and budget, decisions
from its own observation only (hidden money and the deck's order do not change them), and
its parameters spelled like every bot's."""

from __future__ import annotations

import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset

from targui_dsl.agents import BotSpecError, ISMCTSAgent, make_agent, parse_bot
from targui_dsl.engine.loop import play
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import Phase
from targui_dsl.games.targui.state import GameState


def reach(variant: str, seed: int, decisions: int) -> GameState:
    """A game played by greedy bots for ``decisions`` decisions (implicit chance)."""
    state = Game(any_ruleset(variant), players=4, seed=seed).new_initial_state()
    bots = [make_agent("greedy", seed * 10 + s) for s in range(4)]
    while state.decisions < decisions and not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    return state


def reach_phase(state: GameState, phase: Phase) -> GameState:
    bots = [make_agent("greedy", s) for s in range(4)]
    while state.phase != phase:
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    return state


class Checked:
    """Wraps a bot: records every choice and checks it is among the legal actions."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.choices: list[int] = []

    def choose(self, observation, legal_actions):
        action = self.bot.choose(observation, legal_actions)
        assert action in legal_actions, (observation.phase, action, legal_actions)
        self.choices.append(action)
        return action


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_ismcts_plays_whole_games_with_legal_actions_only(variant):
    state = Game(any_ruleset(variant), players=3, seed=5).new_initial_state()
    seats = [Checked(make_agent("ismcts:iterations=6:depth=2", 11)), Checked(make_agent("greedy", 2)),
             Checked(make_agent("ismcts:iterations=4", 13))]
    play(state, seats)
    assert state.is_terminal()
    assert seats[0].choices and seats[2].choices


def test_the_same_seed_and_iterations_give_the_same_choices():
    def game(seed: int) -> list[int]:
        state = Game(any_ruleset("updated-treasury"), players=4, seed=3).new_initial_state()
        bot = Checked(make_agent("ismcts:iterations=12:depth=3", seed))
        play(state, [bot] + [make_agent("greedy", s) for s in (1, 2, 3)])
        return bot.choices

    first = game(21)
    assert game(21) == first
    assert game(22) != first  # the seed matters: the test could tell two searches apart


def test_a_search_with_several_choices_spends_its_budget_on_them():
    state = reach_phase(reach("original-dutch", 4, 30), Phase.MOVE)
    bot = ISMCTSAgent(seed=1, iterations=40, depth=2)
    seat = state.current_player()
    legal = state.legal_actions()
    assert len(legal) > 1
    choice = bot.choose(state.observation(seat), legal)
    assert choice in legal
    assert sum(bot.last_visits.values()) == 40
    assert bot.last_visits[choice] == max(bot.last_visits.values())


def test_a_forced_decision_is_returned_without_search():
    state = reach_phase(reach("original-dutch", 4, 30), Phase.MOVE)
    bot = ISMCTSAgent(seed=1, iterations=1000)
    assert bot.choose(state.observation(state.current_player()), [0]) == 0
    assert bot.iterations_done == 0


def searched(state: GameState, seed: int = 9) -> tuple[int, dict[int, int], dict[int, float]]:
    bot = ISMCTSAgent(seed=seed, iterations=30, depth=4)
    seat = state.current_player()
    choice = bot.choose(state.observation(seat), state.legal_actions())
    return choice, bot.last_visits, bot.last_values


@pytest.mark.parametrize("phase", [Phase.MOVE, Phase.BUY_CELL, Phase.DEPOSIT])
def test_hidden_treasury_cash_and_deck_order_do_not_change_the_choice(phase):
    """Another seat's treasury and cash in hand (secret with a treasury) and the generator
    (the deck's order, the round stack's, every future die) are changed in the true state:
    the seat's observation is the same, so are its choice and its whole search."""
    state = reach_phase(reach("updated-treasury", 6, 25), phase)
    seat = state.current_player()
    other = (seat + 1) % 4
    changed = GameState.from_json(state.game.ruleset, state.to_json())
    edit = changed.edit()
    edit.set_treasury(other, state.treasury(other) + 37)
    edit.set_cash(other, state.cash(other) + 23)
    saved = changed.to_json()
    # another generator: another deck order, another round stack, other dice
    saved["state"]["rng"] = format(int(saved["state"]["rng"], 16) ^ 0x9E3779B97F4A7C15, "016x")
    changed = GameState.from_json(state.game.ruleset, saved)
    assert changed.to_json()["state"]["rng"] != state.to_json()["state"]["rng"]
    assert changed.treasury(other) != state.treasury(other) and changed.cash(other) != state.cash(other)
    assert changed.observation_string(seat) == state.observation_string(seat)
    assert changed.information_state_string(seat) == state.information_state_string(seat)

    same = searched(state)
    assert searched(changed) == same
    # and the search is sensitive enough to tell other draws apart, so the test can fail
    assert any(searched(state, seed=seed)[1:] != same[1:] for seed in range(10, 15))


def test_parameters_are_spelled_like_every_bot():
    bot = make_agent("ismcts:iterations=50", 3)
    assert isinstance(bot, ISMCTSAgent) and bot.iterations == 50 and bot.seconds == 0
    bot = make_agent("ismcts:seconds=0.02:exploration=1.2:depth=3", 3)
    assert isinstance(bot, ISMCTSAgent) and (bot.seconds, bot.exploration, bot.depth) == (0.02, 1.2, 3)
    assert parse_bot("ismcts:depth=3:iterations=50").spelling() == "ismcts:iterations=50:depth=3"
    with pytest.raises(BotSpecError, match="`iterations` must be at least 1"):
        make_agent("ismcts:iterations=0", 1)
    with pytest.raises(BotSpecError, match="has no parameter `iteration`; did you mean `iterations`"):
        make_agent("ismcts:iteration=5", 1)


def test_a_time_budget_decides_too():
    state = reach_phase(reach("swedish-12", 2, 20), Phase.MOVE)
    bot = make_agent("ismcts:seconds=0.01", 4)
    seat = state.current_player()
    legal = state.legal_actions()
    assert bot.choose(state.observation(seat), legal) in legal
    assert bot.iterations_done >= 1


# The search over the game protocol: what it knows of a game comes from the game's package ------

class Counting:
    """A game's evaluator wrapped: counts what the search asks of it and of its rollout policy."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.asked = {"favourite": 0, "policy": 0, "evaluate": 0}

    def searches(self, observation, legal_actions):
        return self.inner.searches(observation, legal_actions)

    def favourite(self, observation, legal_actions, last_choice):
        self.asked["favourite"] += 1
        return self.inner.favourite(observation, legal_actions, last_choice)

    def policy(self, observation, rng):
        self.asked["policy"] += 1
        policy = self.inner.policy(observation, rng)
        evaluate = policy.evaluate

        def counted(state):
            self.asked["evaluate"] += 1
            return evaluate(state)
        policy.evaluate = counted
        return policy


def test_the_search_scores_positions_with_the_evaluator_its_game_gives():
    from dataclasses import replace

    from targui_dsl.games import game_package
    from targui_dsl.games.targui.score import TarguiEvaluator

    made: list[Counting] = []

    def evaluator(seed: int) -> Counting:
        made.append(Counting(TarguiEvaluator(seed)))
        return made[-1]

    # a game that gives no features is searched with its evaluator's own score
    package = replace(game_package("targui"), evaluator=evaluator, features=None)
    state = reach("original-dutch", 3, 30)
    seat = state.current_player()
    legal = state.legal_actions()
    bot = ISMCTSAgent(7, iterations=12, game=package)
    plain = ISMCTSAgent(7, iterations=12, learned=0)
    assert bot.choose(state.observation(seat), legal) == plain.choose(state.observation(seat), legal)
    asked = made[0].asked
    # one root favourite and one policy per searched decision, one position score per iteration
    assert (asked["favourite"], asked["policy"], asked["evaluate"]) == (1, 1, 12)


def test_a_game_without_a_position_score_has_no_search_bot():
    from dataclasses import replace

    from targui_dsl.games import game_package

    package = replace(game_package("targui"), evaluator=None, title="A game")
    with pytest.raises(ValueError, match="A game gives none"):
        ISMCTSAgent(1, game=package)


def test_greedy_is_the_games_own_bot_found_through_its_package():
    from targui_dsl.agents import bots_of
    from targui_dsl.agents.spec import BOTS
    from targui_dsl.games.targui.greedy import GreedyAgent

    assert "greedy" not in BOTS  # not a shared bot: the game's package brings it
    assert {"greedy", "random", "ismcts"} <= set(bots_of("targui"))
    assert isinstance(make_agent("greedy", 1, "targui"), GreedyAgent)
    assert parse_bot("greedy", "targui").spelling() == "greedy"
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_agent("greedy", 1, "chess")


def test_the_default_search_is_the_one_documented():
    """`ismcts` alone (the `normal` level) is spelled with the defaults docs/bots.md's parameter
    table gives, each game's own where they differ (Targui searches deeper than Targi), and a bot
    built from it searches with them."""
    import re
    from pathlib import Path

    from targui_dsl.agents.spec import LEVELS

    docs = (Path(__file__).parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    assert LEVELS["normal"] == "ismcts"
    targui, targi = parse_bot("ismcts", "targui"), parse_bot("ismcts", "targi")
    for name, value in targui.params.items():
        row = re.search(rf"^\| `{name}` \| ([^|]+) \|", docs, re.MULTILINE)
        assert row is not None, name
        documented = row.group(1).strip()
        own = re.fullmatch(r"(\S+) \(Targi: (\S+)\)", documented)
        if isinstance(value, str):  # a named choice, written as code: `own`
            assert documented == f"`{value}`" == f"`{targi.params[name]}`", (name, documented, value)
            continue
        assert float(own.group(1) if own else documented) == float(value), (name, documented, value)
        assert float(own.group(2) if own else documented) == float(targi.params[name]), (name, documented)
    assert (targui.params["depth"], targi.params["depth"]) == (20, 2)
    assert targui.spelling() == targi.spelling() == "ismcts"  # each game's default is its plain `ismcts`
    assert parse_bot("ismcts:depth=2", "targui").spelling() == "ismcts:depth=2"
    bot = make_agent("ismcts", 5, "targui")
    assert isinstance(bot, ISMCTSAgent) and (bot.iterations, bot.depth) == (100, 20)
    bot = make_agent("ismcts", 5, "targi")
    assert isinstance(bot, ISMCTSAgent) and (bot.iterations, bot.depth) == (40, 2)


def test_the_default_rollouts_give_the_same_search_for_the_same_seed():
    """Twenty-step rollouts (Targui's default) draw their dice from the search's generator: the
    same seed searches a position the same way, visit for visit; another seed does not."""
    state = reach_phase(reach("updated-treasury", 5, 30), Phase.MOVE)
    seat = state.current_player()
    legal = state.legal_actions()

    def search(seed: int) -> tuple[int, dict[int, int], dict[int, float]]:
        bot = make_agent("ismcts:iterations=24", seed, "targui")
        assert isinstance(bot, ISMCTSAgent) and bot.depth == 20
        choice = bot.choose(state.observation(seat), legal)
        return choice, bot.last_visits, bot.last_values

    first = search(3)
    assert first[0] in legal and sum(first[1].values()) == 24
    assert search(3) == first
    assert any(search(seed)[1:] != first[1:] for seed in (4, 5, 6))
