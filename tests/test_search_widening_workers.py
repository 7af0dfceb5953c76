"""The search bot's progressive widening (`widen`, `alpha`) and root parallelism (`workers`):
how many root options a search tries as its budget grows, and that several processes give
the same choice for the same seed, whether forked or run one after another."""

from __future__ import annotations

import math

import pytest
from test_bots_search import reach, reach_phase

from targui_dsl.agents import BotSpecError, ISMCTSAgent, make_agent, parse_bot
from targui_dsl.games.targui.phases import Phase


def wide_choice():
    """A move with many legal actions (21 here) and the seat that makes it."""
    state = reach_phase(reach("original-dutch", 4, 30), Phase.MOVE)
    return state, state.current_player(), state.legal_actions()


def test_progressive_widening_tries_more_root_options_as_the_budget_grows():
    state, seat, legal = wide_choice()
    assert len(legal) > 12
    tried = {}
    for iterations in (9, 100, 400):
        bot = ISMCTSAgent(seed=1, iterations=iterations, widen=1, alpha=0.5)
        choice = bot.choose(state.observation(seat), legal)
        assert choice in legal
        assert sum(bot.last_visits.values()) == iterations
        # ceil(1 * n^0.5) candidates at the last visit, plus pass and the heuristic's favourite
        assert len(bot.last_visits) <= math.ceil((iterations - 1) ** 0.5) + 2
        tried[iterations] = len(bot.last_visits)
    assert tried[9] < tried[100] < tried[400]
    fixed = ISMCTSAgent(seed=1, iterations=400)  # a fixed width of 6 never grows
    fixed.choose(state.observation(seat), legal)
    assert len(fixed.last_visits) < tried[400]


def test_widening_settings_are_spelled_and_checked_like_the_others():
    spec = parse_bot("ismcts:widen=1.5:alpha=0.25")
    assert spec.params["widen"] == 1.5 and spec.params["alpha"] == 0.25
    assert spec.spelling() == "ismcts:widen=1.5:alpha=0.25"
    assert parse_bot("ismcts:widen=0").spelling() == "ismcts"  # the default: a fixed width
    with pytest.raises(BotSpecError, match="alpha.*at most 1"):
        parse_bot("ismcts:widen=1:alpha=2")
    with pytest.raises(BotSpecError, match="widen.*at least 0"):
        parse_bot("ismcts:widen=-1")


def test_a_widening_bot_with_one_candidate_per_visit_still_plays_legal_moves():
    state, seat, legal = wide_choice()
    bot = make_agent("ismcts:iterations=20:widen=0.1:alpha=0", 3)  # k(n) = 1 at every node
    assert bot.choose(state.observation(seat), legal) in legal
