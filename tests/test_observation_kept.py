"""The adapters' observation arrays kept up to date (``AdapterHooks.tensor``: only the parts
whose record fields changed are written again) hold exactly the tensor built from scratch, at
every step of seeded random games of every built-in ruleset of both games, whichever way they
are read: every step, every few steps, from another game or a clone, through the PettingZoo
env and through pyspiel."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from targui_dsl import load_ruleset
from targui_dsl.games import game_of

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
# the three Targui variants, a ruleset with declared memory (some of it hidden), Targi and a house rule of it
CASES = [("original-dutch", (2, 3, 4)), ("swedish-12", (2, 4)), ("updated-treasury", (3, 4)),
         (str(RULESETS / "examples" / "auction.yaml"), (3,)), ("targi", (2,)),
         (str(RULESETS / "examples" / "targi-wide-display.yaml"), (2,))]


def _keepers(game, every):
    # the every-3rd reader keeps a list of floats instead of the array (pyspiel's form)
    width = game.observation_tensor_shape()[0]
    make = game_of(game.ruleset).adapter.tensor
    return [make(game, seat, np.full(width, 7.0, np.float32), often == 3) for seat in range(game.players)
            for often in every]


def _holds(keeper, state, seat):
    """Whether the keeper's array (its list, when it keeps one: floats, the same list at every
    reading) is the tensor built from scratch."""
    kept, exact = keeper.update(state), _exact(state, seat)
    if keeper.listed is None:
        return kept is keeper.out and np.array_equal(kept, exact)
    return kept is keeper.listed and kept == exact.tolist() and all(type(number) is float for number in kept)


def _exact(state, seat):
    return np.asarray(state.observation_tensor(seat), np.float32)


@pytest.mark.parametrize("ref,counts", CASES, ids=[Path(ref).stem for ref, _ in CASES])
def test_kept_arrays_are_the_tensor_at_every_step(ref, counts):
    ruleset = load_ruleset(ref)
    compared = 0
    for players in counts:
        game = game_of(ruleset).new_game(ruleset, players=players, seed=players)
        every = (1, 3, 7)  # one keeper per seat reads at every step, one every 3rd, one every 7th
        keepers = _keepers(game, every)
        for number in range(2):  # the second game is read by the keepers of the first
            rng = random.Random(100 * players + number)
            state = game.new_initial_state()
            step = 0
            while True:
                for index, keeper in enumerate(keepers):
                    if step % every[index % len(every)] == 0 or state.is_terminal():
                        seat = index // len(every)
                        assert _holds(keeper, state, seat), (players, step, seat)
                        compared += 1
                if state.is_terminal():
                    break
                if step == 40:  # a clone, gone on from there, read by the every-step keepers, then back
                    other = state.clone()
                    for _ in range(5):
                        if not other.is_terminal():
                            other.apply_action(rng.choice(other.legal_actions()))
                    for seat in range(players):  # (the every-step keeper, and the one with the list)
                        assert _holds(keepers[seat * len(every)], other, seat)
                        assert _holds(keepers[seat * len(every) + 1], other, seat)
                state.apply_action(rng.choice(state.legal_actions()))
                step += 1
    assert compared > 1000


@pytest.mark.parametrize("first,then,players", [("updated-treasury", "original-dutch", 4),
                                                 ("targi", str(RULESETS / "examples" / "targi-wide-display.yaml"), 2)])
def test_a_keeper_reads_a_state_of_another_ruleset_of_the_same_width(first, then, players):
    # what a ruleset decides (who sees whose cash, a centre card's numbers) is not carried over
    games = []
    for ref in (first, then):
        ruleset = load_ruleset(ref)
        games.append(game_of(ruleset).new_game(ruleset, players=players, seed=3))
    width = games[0].observation_tensor_shape()[0]
    assert games[1].observation_tensor_shape()[0] == width
    keepers = [game_of(games[0].ruleset).adapter.tensor(games[0], seat, np.zeros(width, np.float32))
               for seat in range(players)]
    rng = random.Random(8)
    states = [game.new_initial_state() for game in games]
    for step in range(120):  # both games under way, read in turn by the same keepers
        for state in states:
            if step >= 40:  # (past the setup: each ruleset's rounds, its secrets kept or not)
                for seat, keeper in enumerate(keepers):
                    assert np.array_equal(keeper.update(state), _exact(state, seat)), (step, seat)
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))


def test_reading_a_kept_tensor_leaves_the_engine_what_it_worked_out():
    # Targi's flow keeps the node's legal list (and a paused snippet's run) until its record may
    # be changed; a keeper only reads the record, so a step after a reading is not worked out again
    ruleset = load_ruleset("targi")
    game = game_of(ruleset).new_game(ruleset, players=2, seed=6)
    keepers = _keepers(game, (1,))
    rng = random.Random(6)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            legal = state.legal_actions()
            kept = state.flow.ready
            assert kept is not None
            for seat, keeper in enumerate(keepers):
                assert _holds(keeper, state, seat)
            assert state.flow.ready is kept
            decisions += 1
            state.apply_action(rng.choice(legal))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 50


def test_the_pettingzoo_env_observes_the_tensor_at_every_step():
    from targui_dsl.adapters.pettingzoo import env

    for ref, players in (("updated-treasury", 3), ("targi", 2)):
        environment = env(ref, players)
        rng = np.random.default_rng(5)
        for seed in (1, 2):
            environment.reset(seed=seed)
            held = []  # observations kept by a learner do not change as the game goes on
            for agent in environment.agent_iter():
                observation, _, terminated, truncated, _ = environment.last()
                state = environment.game_state
                seat = environment.possible_agents.index(agent)
                assert np.array_equal(observation["observation"], _exact(state, seat))
                other = environment.possible_agents[(seat + 1) % players]
                assert np.array_equal(environment.observe(other)["observation"], _exact(state, (seat + 1) % players))
                held.append((observation["observation"], _exact(state, seat)))
                if terminated or truncated:
                    environment.step(None)
                    continue
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            assert all(np.array_equal(kept, exact) for kept, exact in held)


def test_the_list_pyspiel_hands_out_is_the_callers_own():
    # the state keeps one list per seat up to date; each reading hands out a copy of it
    pyspiel = pytest.importorskip("pyspiel")
    import targui_dsl.adapters.openspiel  # noqa: F401

    for ref, players in (("original-dutch", 3), ("targi", 2)):
        game = pyspiel.load_game("python_targui", {"ruleset": ref, "players": players})
        rng = random.Random(4)
        state = game.new_initial_state()
        held = []
        for _ in range(60):
            if not state.is_chance_node():
                seat = state.current_player()
                first, second = state.observation_tensor(seat), state.observation_tensor(seat)
                assert first == second and first is not second
                first[:] = [9.0] * len(first)  # a caller changing its list changes no later reading
                assert state.observation_tensor(seat) == second == state.engine.observation_tensor(seat)
                held.append((second, list(second)))
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                          else state.legal_actions()))
        assert all(kept == copy for kept, copy in held)  # nor does the game going on change a kept one


def test_pyspiel_reads_the_tensor_at_every_step():
    pyspiel = pytest.importorskip("pyspiel")
    import targui_dsl.adapters.openspiel  # noqa: F401

    for ref, players in (("swedish-12", 4), ("targi", 2)):
        game = pyspiel.load_game("python_targui", {"ruleset": ref, "players": players})
        observer = game.make_py_observer()
        rng = random.Random(3)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if not state.is_chance_node():
                for seat in range(players):
                    exact = state.engine.observation_tensor(seat)
                    assert state.observation_tensor(seat) == exact
                    observer.set_from(state, seat)
                    assert np.array_equal(observer.tensor, np.asarray(exact, np.float32))
                if steps % 50 == 0:  # and through OpenSpiel's own C++ path, from another state
                    assert state.clone().observation_tensor(steps % players) == \
                        pyspiel.State.observation_tensor(state, steps % players)
                steps += 1
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                          else state.legal_actions()))
        assert steps > 50


@pytest.mark.parametrize("compiled", [False, True])
def test_the_places_a_kept_list_differs_either_way(monkeypatch, compiled):
    """kept_tensor.changed finds the same places in the interpreter's way (map and compress in
    C) and in the loop the compiled build runs (chosen by COMPILED: both run here, in Python)."""
    from targui_dsl.engine import kept_tensor

    monkeypatch.setattr(kept_tensor, "COMPILED", compiled)
    rng = random.Random(4)
    for _ in range(200):
        kept = [rng.randrange(4) for _ in range(rng.randrange(60))]
        now = [value if rng.random() < 0.8 else rng.randrange(4) for value in kept]
        assert kept_tensor.changed(now, kept) == [i for i, (a, b) in enumerate(zip(now, kept, strict=True)) if a != b]


def _played(ref, players, seed, going, listed):
    """A seeded random game of ``ref`` played while ``going(state, step)``, and a keeper per seat."""
    ruleset = load_ruleset(ref)
    game = game_of(ruleset).new_game(ruleset, players=players, seed=seed)
    rng = random.Random(seed)
    state, step = game.new_initial_state(), 0
    while going(state, step):
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    width = game.observation_tensor_shape()[0]
    make = game_of(ruleset).adapter.tensor
    return state, [make(game, seat, np.zeros(width, np.float32), listed) for seat in range(players)]


@pytest.mark.parametrize("listed", [False, True])
def test_a_targi_ring_owner_that_is_no_seat_is_written_as_from_scratch(listed):
    # the kept pairs cover the two seats and nobody; another owner (set by hand: never in a game of
    # two) takes the keeper's slower path, the array's and the list's alike
    state, (keeper, _) = _played("targi", 2, 1, lambda state, step: step < 20, listed)
    assert _holds(keeper, state, 0)
    figures = state.read_record.figures
    figures[3], figures[4] = 5, 70  # (a None slot of the kept pairs, and one past them)
    assert _holds(keeper, state, 0)
    figures[3], figures[4] = -1, -1
    assert _holds(keeper, state, 0)


@pytest.mark.parametrize("listed", [False, True])
def test_a_seat_that_loses_its_cells_or_its_settlement_is_written_as_from_scratch(listed):
    # a seat's standing (in game, own settlement) is looked at again only for the seats whose cells
    # changed hands, or for every seat when a settlement moved: taken by hand here, one cell at a
    # time, down to none (out of the game), then a settlement moved onto a cell of another seat
    state, keepers = _played("original-dutch", 3, 2, lambda state, step: state.record.round == 0, listed)
    assert all(_holds(keeper, state, seat) for seat, keeper in enumerate(keepers))
    r = state.record
    assert r.cells_of[1] and r.settlement[1] in r.cells_of[1] and state.in_game(1)
    while r.cells_of[1]:  # seat 1's cells go to seat 2 (its settlement among them)
        cell = r.cells_of[1].pop()
        r.owner[cell] = 2
        r.cells_of[2] = sorted((*r.cells_of[2], cell))
        assert all(_holds(keeper, state, seat) for seat, keeper in enumerate(keepers))
    assert not state.in_game(1) and state.holds_own_settlement(0)
    r.settlement[0] = r.cells_of[2][0]  # seat 0's settlement now on a cell it does not own
    assert not state.holds_own_settlement(0)
    assert all(_holds(keeper, state, seat) for seat, keeper in enumerate(keepers))
