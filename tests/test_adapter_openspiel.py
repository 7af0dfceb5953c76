"""The OpenSpiel adapter: python_targui passes OpenSpiel's own random simulation test
(with serialisation) for every built-in variant and player count, and plays the
engine's game: its ids, chance outcomes, observations, returns and saved states."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("targui_dsl.adapters.openspiel")

from engine_fixtures import REAL_VARIANTS, any_ruleset  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from targui_dsl.games.targui.actions import AGAIN, GIVE_UP  # noqa: E402
from targui_dsl.games.targui.game import Game  # noqa: E402
from targui_dsl.games.targui.phases import Phase  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def load(ruleset: str, players: int, **extra: int) -> "pyspiel.Game":
    return pyspiel.load_game("python_targui", {"ruleset": ruleset, "players": players, **extra})


def random_step(state: "pyspiel.State", rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probabilities)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def play_on_together(state: "pyspiel.State", copies: list, rng: random.Random) -> None:
    """Play ``state`` to its end at random, each step applied to the copies too; they end equal."""
    while not state.is_terminal():
        before = len(state.history())
        random_step(state, rng)
        for copy in copies:
            copy.apply_action(state.history()[before])
    for copy in copies:
        assert copy.engine.to_json() == state.engine.to_json()


def reach(game: "pyspiel.Game", phase: Phase, seed: int) -> "pyspiel.State":
    """A state of a random game at a decision of ``phase`` (new games until one gets there)."""
    rng = random.Random(seed)
    for _ in range(50):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.engine.phase == phase:
                return state
            random_step(state, rng)
    raise AssertionError(f"no random game reached {phase.label}")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", REAL_VARIANTS)
def test_openspiel_random_simulation_test_passes_with_serialisation(variant, players):
    game = load(variant, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)  # a whole game; CI time


@pytest.mark.parametrize("variant, information", [
    ("original-dutch", "PERFECT_INFORMATION"),
    ("swedish-12", "PERFECT_INFORMATION"),
    ("updated-treasury", "IMPERFECT_INFORMATION"),  # the secret treasury
])
def test_the_game_type_follows_the_ruleset(variant, information):
    game = load(variant, 3)
    kind = game.get_type()
    assert kind.information == getattr(pyspiel.GameType.Information, information)
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    engine = Game(any_ruleset(variant), players=3)
    assert game.num_distinct_actions() == engine.num_distinct_actions()
    assert game.max_chance_outcomes() == engine.max_chance_outcomes()
    assert game.observation_tensor_shape() == engine.observation_tensor_shape()
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)


def test_a_ruleset_path_and_a_bad_player_count():
    path = ROOT / "rulesets" / "swedish-12.yaml"
    game = load(str(path), 2)
    assert game.num_players() == 2
    with pytest.raises(Exception, match="seats 2, 3, 4 players, not 7"):
        load("swedish-12", 7)


def test_states_play_the_engine_game_step_for_step():
    game = load("updated-treasury", 4)
    state = game.new_initial_state()
    engine = Game(any_ruleset("updated-treasury"), players=4, explicit_chance=True).new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        assert state.current_player() == engine.current_player()
        assert state.is_chance_node() == engine.is_chance_node()
        if state.is_chance_node():
            assert state.chance_outcomes() == engine.chance_outcomes()
        else:
            assert state.legal_actions() == engine.legal_actions()
            seat = state.current_player()
            assert state.observation_tensor(seat) == pytest.approx(engine.observation_tensor(seat))
            assert state.observation_string(seat) == engine.observation_string(seat)
            assert state.information_state_string(seat) == engine.information_state_string(seat)
        before = len(state.history())
        random_step(state, rng)
        engine.apply_action(state.history()[before])
    assert state.returns() == engine.returns()
    assert sum(state.returns()) == pytest.approx(1.0)


def test_clone_and_serialisation_resume_mid_attack_identically():
    game = load("original-dutch", 3)
    state = reach(game, Phase.ATTACK_CHOICE, seed=5)
    clone = state.clone()
    assert clone.engine is not state.engine and clone.engine.to_json() == state.engine.to_json()
    assert clone.engine.game.ruleset is state.engine.game.ruleset  # shared, not copied
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    pickled = pickle.loads(pickle.dumps(state))
    copies = [clone, restored, pickled]
    for copy in copies:
        assert copy.history() == state.history() and str(copy) == str(state)
    play_on_together(state, copies, random.Random(9))
    for copy in copies:
        assert copy.returns() == state.returns()


def test_a_card_that_asks_players_is_cloned_and_saved_mid_choice():
    # rulesets/examples/caravan-choice.yaml: card 17 asks each player for a territory
    game = load(str(ROOT / "rulesets" / "examples" / "caravan-choice.yaml"), 2)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = reach(game, Phase.EFFECT_CHOICE, seed=1)
    assert state.engine.choice() is not None
    copies = [state.clone(), pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]]
    play_on_together(state, copies, random.Random(2))
    # choices inside effects are bounded by the effects' step budget, so they count in the bound
    assert game.max_game_length() > load("original-dutch", 2).max_game_length()


def test_a_clone_is_independent():
    game = load("swedish-12", 2)
    state = reach(game, Phase.MOVE, seed=2)
    saved = state.engine.to_json()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[-1])
    assert state.engine.to_json() == saved


def test_past_again_limit_an_attack_can_only_be_given_up():
    game = load("original-dutch", 2, again_limit=0)
    state = reach(game, Phase.ATTACK_CHOICE, seed=3)
    assert state.engine.legal_actions() == [AGAIN, GIVE_UP]  # the rules allow both
    assert state.legal_actions() == [GIVE_UP]
    with pytest.raises(Exception, match="again_limit"):
        state.clone().apply_action(AGAIN)
    state.apply_action(GIVE_UP)
    assert state.engine.phase != Phase.ATTACK_CHOICE


def test_again_limit_counts_the_continuations_of_one_attack():
    game = load("original-dutch", 2, again_limit=1)
    state = reach(game, Phase.ATTACK_CHOICE, seed=3)
    state.apply_action(AGAIN)
    for seed in range(200):  # throws after which both sides still stand: the same attack asks again
        trial = state.clone()  # the count of continuations comes along
        rng = random.Random(seed)
        while trial.is_chance_node():
            random_step(trial, rng)
        if trial.engine.phase == Phase.ATTACK_CHOICE:
            break
    else:
        raise AssertionError("no throws left both sides standing")
    assert trial.engine.legal_actions() == [AGAIN, GIVE_UP]
    assert trial.legal_actions() == [GIVE_UP]
    assert pickle.loads(pickle.dumps(trial)).legal_actions() == [GIVE_UP]


@pytest.mark.parametrize("ref,players,limit",
                         [("original-dutch", 2, 0), ("updated-treasury", 3, 200), ("targi", 2, 200)])
def test_legal_actions_and_node_kinds_answer_as_pyspiels_own_path(ref, players, limit):
    # TarguiState answers these from Python; pyspiel's C++ State (PyState) is the reference,
    # at every node of a random game: chance nodes, decisions, a repeat past again_limit, the end
    game = load(ref, players, again_limit=limit)
    rng = random.Random(4)
    state = game.new_initial_state()
    nodes = 0
    while True:
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(players):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.is_player_node() == pyspiel.State.is_player_node(state)
        nodes += 1
        if state.is_terminal():
            break
        if state.is_player_node():  # a pseudo-player is refused as pyspiel refuses it
            with pytest.raises(pyspiel.SpielError):
                state.legal_actions(-1)
        random_step(state, rng)
    assert state.legal_actions() == [] and nodes > 100


def test_max_game_length_grows_with_the_ruleset_and_the_limit():
    ruleset = any_ruleset("original-dutch")
    base = openspiel.max_game_length(ruleset, 4, again_limit=200)
    assert openspiel.max_game_length(ruleset, 4, again_limit=400) > base
    assert openspiel.max_game_length(ruleset, 2, again_limit=200) < base
    assert load("original-dutch", 4).max_game_length() == base
    # shorter games: fewer rounds (swedish-12) and fewer turns per round (3 tribal cards)
    assert openspiel.max_game_length(any_ruleset("swedish-12"), 4) < base
    assert openspiel.max_game_length(any_ruleset("updated-treasury"), 4) < base


def test_the_observers_are_the_engines_observations():
    game = load("updated-treasury", 3)
    state = reach(game, Phase.BUY_CELL, seed=6)
    for seat in range(3):
        observation = make_observation(game)
        observation.set_from(state, seat)
        assert list(observation.tensor) == pytest.approx(state.engine.observation_tensor(seat))
        assert observation.string_from(state, seat) == state.engine.observation_string(seat)
        recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
        assert recall.string_from(state, seat) == state.engine.information_state_string(seat)
    with pytest.raises(Exception, match="own secrets"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_a_targui_bot_plays_through_the_adapter_from_its_observation():
    game = load("updated-treasury", 3)
    bots = [openspiel.TarguiBot("greedy", seed=1), openspiel.TarguiBot("random", seed=2),
            openspiel.TarguiBot("greedy", seed=3)]
    state = game.new_initial_state()
    rng = random.Random(8)
    while not state.is_terminal():
        if state.is_chance_node():
            random_step(state, rng)
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_the_mcts_example_runs():
    result = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "examples" / "openspiel_mcts.py"), "--simulations", "2", "--games", "1",
         "--bot", "ismcts:iterations=10"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "mcts won" in result.stdout and "ismcts:iterations=10 won" in result.stdout
    assert "MCTS decisions of 2 simulations" in result.stdout


def test_openspiels_own_ismcts_bot_plays_the_treasury_variant_through_the_adapter():
    """OpenSpiel's ISMCTSBot resamples the state from the information state and checks
    that the sample's information state is the player's: the adapter's resampling keeps it."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("updated-treasury", 2)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    rng = np.random.RandomState(1)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=10,
                              random_state=rng)
    opponent = openspiel.TarguiBot("greedy", 1)
    state, chance = game.new_initial_state(), random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            random_step(state, chance)
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        state.apply_action((search if player == 0 else opponent).step(state))
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
