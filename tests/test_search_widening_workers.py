"""The search bot's progressive widening (`widen`, `alpha`) and root parallelism (`workers`):
how many root options a search tries as its budget grows, and that several processes give
the same choice for the same seed, whether forked or run one after another."""

from __future__ import annotations

import math
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest
from cli_run import no_crash, run, targui
from test_bots_search import reach, reach_phase

from targui_dsl.agents import BotSpecError, ISMCTSAgent, ismcts, make_agent, parse_bot
from targui_dsl.games.targui.phases import Phase
from targui_dsl.study.simulate import run_games, without_timing


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


def test_a_decision_split_over_workers_spends_the_whole_budget_and_repeats_for_its_seed():
    state, seat, legal = wide_choice()

    def search(seed: int, workers: int) -> tuple[int, dict[int, int]]:
        bot = ISMCTSAgent(seed=seed, iterations=61, workers=workers)
        choice = bot.choose(state.observation(seat), legal)
        assert sum(bot.last_visits.values()) == 61 == bot.iterations_done
        assert bot.last_visits[choice] == max(bot.last_visits.values())
        return choice, bot.last_visits

    first = search(5, 3)
    assert search(5, 3) == first
    assert search(6, 3)[1] != first[1]  # the seed matters
    assert search(5, 2)[1] != first[1]  # and so does how many trees share the budget


@pytest.mark.parametrize("ruleset", ["updated-treasury", "targi"])
def test_forked_workers_and_workers_in_turn_play_the_same_game(ruleset, monkeypatch):
    """Where the bot may not fork (a study's worker, a system without fork) its parts run one
    after another: the games are the same as with forked processes."""
    def played() -> dict:
        return without_timing(run_games(ruleset, games=1, players=2, seed=4,
                                        bots="ismcts:iterations=9:workers=2,greedy"))

    assert ismcts.can_fork()  # pytest's own process (Linux): the parts are forked
    forked = played()
    monkeypatch.setattr(ismcts, "can_fork", lambda: False)
    assert played() == forked


def test_a_game_in_a_study_worker_does_not_fork_again():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        assert pool.submit(ismcts.can_fork).result() is False


def test_a_study_with_several_workers_plays_the_same_games_as_one_process():
    bots = "ismcts:iterations=6:workers=2,greedy"
    alone = without_timing(run_games("original-dutch", games=2, players=2, seed=8, bots=bots))
    shared = without_timing(run_games("original-dutch", games=2, players=2, seed=8, bots=bots, workers=2))
    assert shared == alone


def test_play_with_a_forking_bot_writes_each_line_once():
    args = ("play", "original-dutch", "-p", "2", "--seed", "3", "--bots", "ismcts:iterations=8:workers=2,greedy")
    alone = targui(*args, timeout=300)
    assert alone.returncode == 0, alone.stderr
    no_crash(alone.stderr)
    assert alone.stdout == run(*args).output
