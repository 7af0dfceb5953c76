"""What each seat sees (docs/rules/targui.md section 8), and bots that decide from it alone."""

from __future__ import annotations

import random

import engine_fixtures
import pytest
from engine_fixtures import REAL_VARIANTS, any_ruleset, settled_state, start_turn

from targui_dsl.agents import make_agent
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.phases import Phase


def state_mid_game(variant: str, seed: int = 4, decisions: int = 120):
    """A game of random bots stopped at a decision of seat 0, some way in."""
    state = Game(any_ruleset(variant), players=4, seed=seed).new_initial_state()
    bots = [make_agent("random", seed + s) for s in range(4)]
    made = 0
    while not state.is_terminal():
        seat = state.current_player()
        if made >= decisions and seat == 0 and state.phase in (Phase.DEPOSIT, Phase.MOVE, Phase.BUY_CELL):
            return state
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
        made += 1
    raise AssertionError("the game ended before seat 0's decision")


def with_hidden_changes(state, seat: int):
    """A copy that differs from ``state`` only in what ``seat`` cannot see: other seats'
    treasury (and, with a treasury, their cash in hand) and the generator (the deck's order)."""
    other = state.clone()
    editor = other.edit()
    for s in range(state.game.players):
        if s != seat and state.game.treasury:  # without a treasury, cash is public and treasuries stay 0
            editor.set_treasury(s, state.treasury(s) + 37)
            editor.set_cash(s, state.cash(s) + 11)
    other.record.rng ^= 0xDEADBEEF  # another generator: another deck order, other dice to come
    return other


@pytest.mark.parametrize("variant", REAL_VARIANTS)
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_a_bot_decides_from_its_observation_only(variant, kind):
    state = state_mid_game(variant)
    other = with_hidden_changes(state, 0)
    assert state.observation_string(0) == other.observation_string(0)
    assert state.observation_tensor(0) == other.observation_tensor(0)
    assert state.information_state_string(0) == other.information_state_string(0)
    first = make_agent(kind, 9).choose(state.observation(0), state.legal_actions())
    second = make_agent(kind, 9).choose(other.observation(0), other.legal_actions())
    assert first == second


def test_with_a_treasury_others_money_is_hidden_and_deposits_are_seen_without_amounts():
    state = start_turn(settled_state(any_ruleset("updated-treasury")), 0)
    state.apply_action("deposit 4")
    seen_by_1 = state.observation(1)
    assert seen_by_1.cash(0) is None and seen_by_1.treasury(0) is None
    assert state.observation(0).cash(0) == 6 and state.observation(0).treasury(0) == 4
    assert "cash ? treasury ?" in state.observation_string(1)
    info = state.information_state_string(1)
    assert "1:deposit" in info and "deposit 4" not in info
    assert "1:deposit" in state.information_state_string(2)
    mine = state.information_state_string(0)
    assert "1:deposit:" in mine  # the seat's own deposit stays a step, with its amount


def test_without_a_treasury_cash_is_public():
    state = start_turn(settled_state(any_ruleset("original-dutch")), 0)
    assert state.observation(1).cash(0) == state.cash(0)
    assert state.observation(1).treasury(0) is None  # a treasury is its owner's alone


def test_everything_is_revealed_at_the_end():
    state = Game(any_ruleset("updated-treasury"), players=3, seed=2).new_initial_state()
    from targui_dsl.engine.loop import play

    play(state, [make_agent("greedy", s) for s in range(3)])
    view = state.observation(1)
    assert [view.cash(s) for s in range(3)] == [state.cash(s) for s in range(3)]
    assert [view.treasury(s) for s in range(3)] == [state.treasury(s) for s in range(3)]


def test_the_tensor_has_the_declared_shape_and_hides_money():
    state = state_mid_game("updated-treasury")
    for seat in range(4):
        assert len(state.observation_tensor(seat)) == state.game.observation_tensor_shape()[0]
    richer = state.clone()
    richer.edit().set_cash(0, state.cash(0) + 50)
    assert richer.observation_tensor(1) == state.observation_tensor(1)  # seat 0's hand is hidden from seat 1
    assert richer.observation_tensor(0) != state.observation_tensor(0)  # and known to seat 0


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_resampling_keeps_the_observation_and_ignores_the_hidden_truth(variant):
    state = state_mid_game(variant)
    other = with_hidden_changes(state, 0)
    a = state.resample_from_infostate(0, random.Random(5))
    b = other.resample_from_infostate(0, random.Random(5))
    assert a.to_json() == b.to_json()  # nothing hidden leaked into the sample
    assert a.observation_string(0) == state.observation_string(0)
    assert a.information_state_string(0) == state.information_state_string(0)
    assert a.legal_actions() == state.legal_actions()
    # the sample is a real game: it plays on to the end
    bots = [make_agent("random", s) for s in range(4)]
    from targui_dsl.engine.loop import play

    play(a, bots)
    assert a.is_terminal()


def test_engine_tests_use_the_real_rulesets_and_fail_without_them(monkeypatch):
    ruleset = any_ruleset("original-dutch")
    assert ruleset.files[0].endswith("original-dutch.yaml")  # loaded by the front end, not built in Python

    def broken(name):
        raise RuntimeError("the front end is broken")

    engine_fixtures.any_ruleset.cache_clear()
    monkeypatch.setattr(engine_fixtures, "load_ruleset", broken)
    with pytest.raises(RuntimeError, match="front end is broken"):
        engine_fixtures.any_ruleset("swedish-12")
    engine_fixtures.any_ruleset.cache_clear()


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_every_seat_cannot_tell_a_resampled_state_from_the_true_one(variant):
    """Search bots (ours, OpenSpiel's ISMCTS) take a sample for the true state: at every
    moment of a game, for every seat, it shows that seat the same information state."""
    game = Game(any_ruleset(variant), players=3, seed=2)
    state = game.new_initial_state()
    rng = random.Random(2)
    step = 0
    while not state.is_terminal():
        if step % 5 == 0:
            for seat in range(3):
                sample = state.resample_from_infostate(seat, random.Random(step))
                assert sample.information_state_string(seat) == state.information_state_string(seat), (step, seat)
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(rng.choice([a for a, _ in outcomes]) if outcomes else rng.choice(state.legal_actions()))
        step += 1
