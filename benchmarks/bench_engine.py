"""Engine speed: N all-random games per variant; prints games/s and decisions/s.

    python benchmarks/bench_engine.py [--games 200] [--players 4] [--bots random] [--profile]

Not a test: nothing here asserts a time. ``--profile`` runs the first
variant under cProfile and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from targui_dsl import load_ruleset
from targui_dsl.study.simulate import run_games

VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per variant")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random", help="comma-separated bot kinds per seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--profile", action="store_true", help="profile the first variant instead")
    args = parser.parse_args()
    bots = args.bots.split(",")
    variants = args.variants.split(",")
    if args.profile:
        rs = load_ruleset(variants[0])
        profiler = cProfile.Profile()
        profiler.runcall(run_games, rs, args.games, args.players, bots, args.seed)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    print(f"{'variant':<18} {'games':>6} {'seconds':>8} {'games/s':>9} "
          f"{'decisions':>10} {'decisions/s':>12} {'rounds':>7}")
    for name in variants:
        rs = load_ruleset(name)
        result = run_games(rs, args.games, args.players, bots, args.seed)
        print(f"{name:<18} {args.games:>6} {result['seconds']:>8.2f} {result['games_per_second']:>9.1f}"
              f" {result['decisions']:>10} {result['decisions_per_second']:>12.0f} {result['rounds']['mean']:>7.1f}")


if __name__ == "__main__":
    main()
