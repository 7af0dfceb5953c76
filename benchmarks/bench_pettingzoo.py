"""Agent steps per second through the PettingZoo env, per variant, against the same
random policy on the raw engine; with ``--openspiel`` also through pyspiel and
OpenSpiel's MCTS (milliseconds per simulation).

    python benchmarks/bench_pettingzoo.py [--games 20] [--players 4] [--seed 0] [--openspiel]

CPU time (``time.process_time``), not wall time. The policy is uniform over the
legal actions at every step, drawn from one NumPy generator:

* ``pettingzoo``: ``env.reset(seed)``, ``env.last()`` (the observation tensor and
  the action mask), ``env.step``; the env resolves chance itself;
* ``engine``: ``legal_actions()`` and ``apply_action()`` on a game with implicit
  chance (the engine's own generator), no observation;
* ``pyspiel`` (``--openspiel``): ``legal_actions()``/``apply_action()`` and chance
  outcomes sampled in Python, through the registered ``python_targui``.

An agent step is one decision step (a chance outcome is not one). Not a test:
nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from targui_dsl import load_ruleset
from targui_dsl.games.targui.game import Game

VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")


def pettingzoo_steps(variant: str, players: int, games: int, seed: int) -> tuple[int, float]:
    from targui_dsl.adapters.pettingzoo import env

    environment = env(variant, players)
    policy = np.random.default_rng(seed)
    steps = 0
    started = time.process_time()
    for number in range(games):
        environment.reset(seed=seed + number)
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(int(policy.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps, time.process_time() - started


def engine_steps(variant: str, players: int, games: int, seed: int) -> tuple[int, float]:
    ruleset = load_ruleset(variant)
    policy = np.random.default_rng(seed)
    steps = 0
    started = time.process_time()
    for number in range(games):
        state = Game(ruleset, players=players, seed=seed + number).new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(policy.integers(len(legal)))])
            steps += 1
    return steps, time.process_time() - started


def pyspiel_steps(variant: str, players: int, games: int, seed: int) -> tuple[int, float]:
    import pyspiel

    import targui_dsl.adapters.openspiel  # noqa: F401  (registers python_targui)

    game = pyspiel.load_game("python_targui", {"ruleset": variant, "players": players})
    policy = np.random.default_rng(seed)
    steps = 0
    started = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[int(policy.choice(len(outcomes), p=probabilities))])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(policy.integers(len(legal)))])
                steps += 1
    return steps, time.process_time() - started


def mcts_ms_per_simulation(variant: str, players: int, seed: int, decisions: int = 5,
                           simulations: int = 50) -> float:
    """OpenSpiel's MCTSBot (random rollouts) deciding at the first few move decisions."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import targui_dsl.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("python_targui", {"ruleset": variant, "players": players})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    spent, searched = 0.0, 0
    while not state.is_terminal() and searched < decisions:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        if state.engine.round > 0:  # a decision of the game proper, not of the setup
            started = time.process_time()
            action = bot.step(state)
            spent += time.process_time() - started
            searched += 1
        else:
            action = state.legal_actions()[0]
        state.apply_action(int(action))
    return 1000 * spent / max(1, searched * simulations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per variant and way")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--openspiel", action="store_true", help="also through pyspiel, and OpenSpiel's MCTS")
    args = parser.parse_args()
    ways: list[tuple[str, Any]] = [("pettingzoo", pettingzoo_steps), ("engine", engine_steps)]
    if args.openspiel:
        ways.append(("pyspiel", pyspiel_steps))
    print(f"{args.games} random games per variant and way, {args.players} players; CPU seconds")
    print(f"{'variant':<18} {'way':<11} {'steps':>8} {'seconds':>8} {'steps/s':>9}")
    for variant in args.variants.split(","):
        rates = {}
        for name, run in ways:
            steps, seconds = run(variant, args.players, args.games, args.seed)
            rates[name] = steps / seconds
            print(f"{variant:<18} {name:<11} {steps:>8} {seconds:>8.2f} {rates[name]:>9.0f}")
        for name in rates:
            if name != "engine":
                print(f"{variant:<18} {name:<11} is {rates['engine'] / rates[name]:.1f}x slower than the raw engine")
        if args.openspiel:
            ms = mcts_ms_per_simulation(variant, args.players, args.seed)
            print(f"{variant:<18} OpenSpiel MCTSBot (random rollouts): {ms:.1f} ms CPU per simulation")


if __name__ == "__main__":
    main()
