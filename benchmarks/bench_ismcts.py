"""ISMCTS speed: iterations per second and decisions per second (CPU time) per variant.

    python benchmarks/bench_ismcts.py [--games 2] [--players 4] [--bot ismcts] [--seed 0]
    python benchmarks/bench_ismcts.py --variants targi:2 --games 4

A variant may name its own player count (``targi:2``: Targi seats two);
the others play ``--players``. By default every built-in ruleset, Targi too.

Each variant plays ``--games`` games with the bot in seat 1 and ``greedy`` in
the others; only the bot's own decisions with a choice are timed (a forced step
is not searched; a game's evaluator may leave some to its heuristic: Targi's
searches only placements, counted under "searched"). Prints iterations/s,
decisions/s, the mean and the 95th percentile of a decision's CPU time. Not a
test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import time

from targui_dsl import load_ruleset
from targui_dsl.agents import ISMCTSAgent, make_agent
from targui_dsl.engine.loop import play
from targui_dsl.games import game_of

VARIANTS = ("original-dutch", "swedish-12", "updated-treasury", "targi:2")


class Timed:
    """Times each decision of the bot it wraps (CPU time of this process)."""

    def __init__(self, bot: ISMCTSAgent) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, observation, legal_actions):
        start = time.process_time()
        action = self.bot.choose(observation, legal_actions)
        if len(legal_actions) > 1:
            self.times.append(time.process_time() - start)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per variant")
    parser.add_argument("--players", type=int, default=4, help="players, where a variant names none")
    parser.add_argument("--bot", default="ismcts", help="an ismcts spelling, e.g. ismcts:iterations=400")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print(f"bot {args.bot}, {args.games} game(s) per variant, CPU time")
    print(f"{'variant':<18} {'players':>7} {'decisions':>9} {'iterations':>10} {'iter/s':>8} {'decisions/s':>11}"
          f" {'searched':>8} {'mean ms':>8} {'p95 ms':>7}")
    for item in args.variants.split(","):
        name, _, count = item.partition(":")
        players = int(count) if count else args.players
        rs = load_ruleset(name)
        package = game_of(rs)  # each ruleset's own game: its state and its greedy
        times: list[float] = []
        iterations = searched = 0
        for g in range(args.games):
            bot = make_agent(args.bot, args.seed + g, package.name)
            if not isinstance(bot, ISMCTSAgent):
                parser.error(f"{args.bot} is not an ismcts bot")
            timed = Timed(bot)
            seats = [timed] + [make_agent("greedy", 100 + g * 10 + s, package.name) for s in range(1, players)]
            play(package.new_game(rs, players=players, seed=args.seed + g).new_initial_state(), seats)
            times += timed.times
            iterations += bot.iterations_done
            searched += bot.decisions_searched
        total = sum(times)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))] if times else 0.0
        print(f"{name:<18} {players:>7} {len(times):>9} {iterations:>10} {iterations / total:>8.0f}"
              f" {len(times) / total:>11.1f} {searched:>8} {1000 * total / len(times):>8.1f} {1000 * p95:>7.1f}")


if __name__ == "__main__":
    main()
