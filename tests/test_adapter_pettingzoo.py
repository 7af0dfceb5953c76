"""The PettingZoo adapter: env(ruleset, players) passes PettingZoo's API and seed
tests for every built-in variant, draws chance from reset(seed), pays the engine's
returns at the end and shows each agent only its seat's observation."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
adapter = pytest.importorskip("targui_dsl.adapters.pettingzoo")

from engine_fixtures import REAL_VARIANTS, any_ruleset  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from targui_dsl.games.targui.actions import IllegalAction  # noqa: E402
from targui_dsl.games.targui.game import Game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def play_random(environment, seed: int, policy_seed: int = 0) -> tuple[dict[str, float], list[int]]:
    """A random masked policy to the end: each agent's summed rewards, and the actions taken."""
    environment.reset(seed=seed)
    policy = np.random.default_rng(policy_seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    taken = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        assert observation["action_mask"].dtype == np.int8
        assert observation["observation"].dtype == np.float32
        action = int(policy.choice(np.flatnonzero(observation["action_mask"])))
        taken.append(action)
        environment.step(action)
    return totals, taken


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_pettingzoo_api_and_seed_tests_pass(variant, players):
    with warnings.catch_warnings():
        # PettingZoo warns about any dict observation ("not a NumPy array"), ours included
        warnings.simplefilter("ignore", UserWarning)
        api_test(adapter.env(variant, players, render_mode="ansi"), num_cycles=2000)
        seed_test(lambda: adapter.env(variant, players), num_cycles=2000)


@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_a_random_masked_game_ends_with_the_engines_returns(variant):
    environment = adapter.env(variant, 3)
    totals, taken = play_random(environment, seed=11)
    state = environment.game_state
    assert state.is_terminal() and environment.agents == []
    assert list(totals.values()) == state.returns()
    assert sum(totals.values()) == pytest.approx(1.0)
    assert len(taken) == state.decisions  # every step the agents took, and only those


def test_spaces_and_agents_follow_the_engine():
    environment = adapter.env("updated-treasury", 4)
    game = Game(any_ruleset("updated-treasury"), players=4)
    assert environment.possible_agents == ["kel_ahaggar_0", "kel_ajjer_1", "kel_ilbakan_2", "kel_ress_3"]
    agent = environment.possible_agents[2]
    assert environment.action_space(agent) == spaces.Discrete(game.num_distinct_actions())
    space = environment.observation_space(agent)
    assert space["observation"].shape == tuple(game.observation_tensor_shape())
    assert space["action_mask"].shape == (game.num_distinct_actions(),)


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    first = play_random(adapter.env("original-dutch", 4), seed=3)
    again = play_random(adapter.env("original-dutch", 4), seed=3)
    other = play_random(adapter.env("original-dutch", 4), seed=4)
    assert first == again
    assert first[1] != other[1]


@pytest.mark.parametrize("ref,players", [("swedish-12", 3), ("targi", 2)])
def test_a_seed_plays_the_engines_game_of_that_seed(ref, players):
    # the engine's own generator draws the env's chance: the env's game of seed 9 is the
    # engine's game of seed 9 played with the same actions, throw for throw
    from targui_dsl import load_ruleset
    from targui_dsl.games import game_of

    environment = adapter.env(ref, players)
    _, taken = play_random(environment, seed=9)
    ruleset = load_ruleset(ref)
    state = game_of(ruleset).new_game(ruleset, players=players, seed=9).new_initial_state()
    for action in taken:
        state.apply_action(action)
    assert state.is_terminal()
    assert state.to_json() == environment.game_state.to_json()
    # reset() without a seed goes on from the last seed given: the same games after the same seed
    other = adapter.env(ref, players)
    seeds = []
    for each in (environment, other):
        each.reset(seed=-3)  # any whole number, as the engine takes it
        each.reset()
        seeds.append(each.game_state.game.seed)
        each.reset()
        seeds.append(each.game_state.game.seed)
    assert seeds[:2] == seeds[2:] and seeds[0] != seeds[1]


def test_the_mask_is_the_movers_legal_actions_and_others_get_none():
    environment = adapter.env("swedish-12", 3)
    environment.reset(seed=2)
    state = environment.game_state
    mover = environment.agent_selection
    assert environment.possible_agents[state.current_player()] == mover
    assert list(np.flatnonzero(environment.observe(mover)["action_mask"])) == state.legal_actions()
    for agent in environment.possible_agents:
        if agent != mover:
            assert not environment.observe(agent)["action_mask"].any()


def test_an_agent_sees_only_its_seats_observation():
    environment = adapter.env("updated-treasury", 3)
    environment.reset(seed=5)
    policy = np.random.default_rng(1)
    state = environment.game_state
    while state.round < 3:  # some cash and treasuries to hide
        observation = environment.observe(environment.agent_selection)
        environment.step(int(policy.choice(np.flatnonzero(observation["action_mask"]))))
    for seat, agent in enumerate(environment.possible_agents):
        assert list(environment.observe(agent)["observation"]) == pytest.approx(state.observation_tensor(seat))
    before = environment.observe(environment.possible_agents[0])["observation"].copy()
    state.edit().set_treasury(1, state.treasury(1) + 50)  # another seat's secret changes
    assert np.array_equal(environment.observe(environment.possible_agents[0])["observation"], before)


def test_an_observation_kept_by_an_agent_is_its_own():
    """What observe() hands over is the agent's: later steps leave it alone, and writing into
    it changes no later observation (the env keeps each seat's tensor and each legal list's
    mask, and hands over copies)."""
    environment = adapter.env("original-dutch", 2)
    environment.reset(seed=3)
    policy = np.random.default_rng(2)
    kept = []
    for _ in range(60):
        observation = environment.observe(environment.agent_selection)
        kept.append((observation, observation["observation"].copy(), observation["action_mask"].copy()))
        environment.step(int(policy.choice(np.flatnonzero(observation["action_mask"]))))
    for observation, tensor, mask in kept:
        assert np.array_equal(observation["observation"], tensor)
        assert np.array_equal(observation["action_mask"], mask)
        observation["observation"][:] = -1.0
        observation["action_mask"][:] = 1
    # every mask its own writable bytes (none shares memory with another, nor is read-only)
    masks = [observation["action_mask"] for observation, _, _ in kept]
    assert all(mask.flags.writeable and mask.flags.c_contiguous for mask in masks)
    assert not any(np.shares_memory(mask, other) for mask, other in zip(masks[:-1], masks[1:], strict=True))
    state = environment.game_state
    for seat, agent in enumerate(environment.possible_agents):
        now = environment.observe(agent)
        assert list(now["observation"]) == pytest.approx(state.observation_tensor(seat))
        legal = state.legal_actions() if seat == state.current_player() else []
        assert list(np.flatnonzero(now["action_mask"])) == legal


def test_agent_iter_stops_after_max_iter_and_at_the_end():
    environment = adapter.env("original-dutch", 2)
    environment.reset(seed=1)
    assert len(list(environment.agent_iter(5))) == 5  # (no step taken: the same agent five times)
    totals, taken = play_random(environment, seed=1)
    assert not environment.agents and list(environment.agent_iter()) == []


def test_an_illegal_action_is_refused_with_the_reason():
    environment = adapter.env("original-dutch", 2)
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction):
        environment.step(illegal)


def test_render_is_the_movers_observation_string():
    environment = adapter.env("updated-treasury", 4, render_mode="ansi")
    environment.reset(seed=7)
    seat = environment.possible_agents.index(environment.agent_selection)
    assert environment.render() == environment.game_state.observation_string(seat)
    with pytest.raises(ValueError, match="ansi"):
        adapter.env("updated-treasury", 4, render_mode="human")


def test_the_random_policy_example_runs():
    result = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "examples" / "pettingzoo_random.py"), "--games", "2", "--players", "3"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("won by") == 2
