"""A random masked policy in the PettingZoo environment of targui.

    pip install '.[pettingzoo]'
    python docs/examples/pettingzoo_random.py --ruleset updated-treasury --players 4 --games 3

Every agent picks uniformly among the legal ids of its ``action_mask``; the
engine's generator throws the dice and draws the cards, seeded by ``reset(seed)``.
Prints each game's rewards (1/number of winners to each winner). Exit status 0.
"""

from __future__ import annotations

import argparse

import numpy as np

from targui_dsl.adapters.pettingzoo import env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="updated-treasury", help="a built-in name or a path")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    environment = env(args.ruleset, args.players, render_mode="ansi")
    policy = np.random.default_rng(args.seed)
    for number in range(args.games):
        environment.reset(seed=args.seed + number)
        totals = dict.fromkeys(environment.possible_agents, 0.0)
        steps = 0
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = int(policy.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            environment.step(action)
        winners = ", ".join(agent for agent, total in totals.items() if total > 0)
        print(f"game {number + 1}: {steps} steps, won by {winners}; rewards {totals}")
    environment.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
