"""A study against the public path: CPU time of `targui simulate`'s runner against plain random play.

    python benchmarks/bench_simulate.py [--games 200] [--rulesets original-dutch,swedish-12,updated-treasury,targi]
        [--players 4] [--repeats 3] [--baseline 1b9952f]

Not a test: nothing here asserts a time. For each ruleset (every Targui variant and Targi by
default; ``--players`` seats, or the most the ruleset seats when that is fewer: 2 for Targi)
both sides play the same games (the study's seeds, its random bots seeded per seat) in this
process, one after the other, ``--repeats`` times interleaved so that another job on the
machine slows both alike; it prints each side's CPU seconds (``time.process_time``), games per
CPU second and the study's share of the public path's speed (the median of the repeats). The
public path is a loop over ``legal_actions()`` and ``apply_action()`` with no event sink, what
a user's own script would write.

With ``--baseline REV`` each repeat also runs both sides in a child process
importing that revision (unpacked by ``git archive``) and one importing this
tree, one after the other, so that the two trees' ratios are printed side by
side from the same stretch of the machine's time, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from baseline import unpack

from targui_dsl.agents import seat_agents
from targui_dsl.games import game_of
from targui_dsl.study import RulesetSource, Study, compile_source, run_study
from targui_dsl.study.games import game_seed

HERE = Path(__file__).resolve().parent

# argv: tree, ruleset, games, players, seed; both sides in the tree's own code
CHILD = r"""
import json, sys, time
tree, ruleset, games, players, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, tree)
sys.path.insert(0, tree + "/benchmarks")
import targui_dsl
assert targui_dsl.__file__.startswith(tree), targui_dsl.__file__
from bench_simulate import public_path
from targui_dsl.study import RulesetSource, Study, compile_source, run_study
source = RulesetSource.from_reference(ruleset)
rs = compile_source(source)
study = Study(source, games, players, ("random",) * players, seed)
cpu = time.process_time()
decisions = public_path(rs, games, players, seed)
public = time.process_time() - cpu
cpu = time.process_time()
result = run_study(study)
studied = time.process_time() - cpu
assert result.decisions_played == decisions
print(json.dumps({"public": public, "study": studied}))
"""


def players_for(ruleset: str, players: int) -> int:
    """``players``, or the most the ruleset seats when that is fewer (2 for Targi)."""
    counts = compile_source(RulesetSource.from_reference(ruleset)).player_counts
    fitting = [n for n in counts if n <= players]
    return max(fitting) if fitting else min(counts)


def in_child(tree: str, ruleset: str, players: int, args: argparse.Namespace) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", CHILD, tree, ruleset, str(args.games), str(players),
                          str(args.seed)], check=True, capture_output=True, text=True, env=env,
                         cwd=tempfile.gettempdir()).stdout
    return json.loads(out)


def side_by_side(args: argparse.Namespace, rulesets: list[tuple[str, int]]) -> None:
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="targui-baseline-") as tmp:
        trees = [("this tree", str(HERE.parent)), (args.baseline, str(unpack(args.baseline, Path(tmp))))]
        runs: dict[tuple[str, str], list[dict]] = {(r, label): [] for r, _ in rulesets for label, _ in trees}
        for repeat in range(args.repeats):
            for ruleset, players in rulesets:
                for label, tree in trees:
                    runs[(ruleset, label)].append(in_child(tree, ruleset, players, args))
            print(f"repeat {repeat + 1} of {args.repeats} done", file=sys.stderr)
    print(f"{args.games} random games a ruleset, seed {args.seed}, {args.repeats} repeats in child processes, "
          f"interleaved; load average (1 min) {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"{'ruleset':<17} {'players':>7} {'tree':<10} {'public CPU s':>13} {'study CPU s':>12} "
          f"{'ratio (median)':>15}  per repeat")
    for ruleset, players in rulesets:
        for label, _ in trees:
            got = runs[(ruleset, label)]
            ratios = [r["public"] / r["study"] for r in got]
            print(f"{ruleset:<17} {players:>7} {label:<10} {statistics.median(r['public'] for r in got):>13.2f} "
                  f"{statistics.median(r['study'] for r in got):>12.2f} {statistics.median(ratios):>14.2f}x  "
                  + " ".join(f"{x:.2f}x" for x in ratios))


def public_path(ruleset: object, games: int, players: int, seed: int) -> int:
    """Play the study's games through the public API only; the decisions made."""
    package = game_of(ruleset)
    decisions = 0
    for index in range(games):
        game = package.new_game(ruleset, players=players, seed=game_seed(seed, index))
        agents = seat_agents(game.seed, ("random",) * players, package.name)
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(agents[seat].choose(None, state.legal_actions()))
        decisions += state.decisions
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rulesets", default="original-dutch,swedish-12,updated-treasury,targi",
                        help="comma-separated built-in names or paths")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", help="also run this git revision, side by side (in child processes)")
    args = parser.parse_args()
    rulesets = [(r, players_for(r, args.players)) for r in args.rulesets.split(",")]
    if args.baseline:
        side_by_side(args, rulesets)
        return
    print(f"{args.games} random games a ruleset, seed {args.seed}; load average (1 min) {os.getloadavg()[0]:.2f}")
    print(f"{'ruleset':<17} {'repeat':>6} {'public CPU s':>13} {'games/s':>8} {'study CPU s':>12} {'games/s':>8} "
          f"{'ratio':>6}")
    for name, players in rulesets:
        source = RulesetSource.from_reference(name)
        ruleset = compile_source(source)
        study = Study(source, args.games, players, ("random",) * players, args.seed)
        ratios = []
        for repeat in range(args.repeats):
            cpu = time.process_time()
            decisions = public_path(ruleset, args.games, players, args.seed)
            public = time.process_time() - cpu
            cpu = time.process_time()
            result = run_study(study)
            studied = time.process_time() - cpu
            if result.decisions_played != decisions:
                raise SystemExit(f"the study played other games: {result.decisions_played} decisions, "
                                 f"not {decisions}")
            ratios.append(public / studied)
            print(f"{name:<17} {repeat + 1:>6} {public:>13.2f} {args.games / public:>8.1f} {studied:>12.2f} "
                  f"{args.games / studied:>8.1f} {public / studied:>5.2f}x", flush=True)
        print(f"{name}, {players} players: the study at {statistics.median(ratios):.2f}x the public path's speed "
              f"(median of {args.repeats})")


if __name__ == "__main__":
    main()
