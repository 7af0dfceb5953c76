"""A study against the public path: CPU time of `targui simulate`'s runner against plain random play.

    python benchmarks/bench_simulate.py [--games 200] [--ruleset original-dutch] [--players 4] [--repeats 3]

Not a test: nothing here asserts a time. Both sides play the same games (the
study's seeds, its random bots seeded per seat) in this process, one after
the other, ``--repeats`` times interleaved so that another job on the machine
slows both alike; it prints each side's CPU seconds (``time.process_time``),
games per CPU second and the study's share of the public path's speed (the
median of the repeats). The public path is a loop over ``legal_actions()`` and
``apply_action()`` with no event sink, what a user's own script would write.
"""

from __future__ import annotations

import argparse
import statistics
import time

from targui_dsl.agents import seat_agents
from targui_dsl.games import game_of
from targui_dsl.study import RulesetSource, Study, compile_source, run_study
from targui_dsl.study.games import game_seed


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
    parser.add_argument("--ruleset", default="original-dutch")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    source = RulesetSource.from_reference(args.ruleset)
    ruleset = compile_source(source)
    study = Study(source, args.games, args.players, ("random",) * args.players, args.seed)
    print(f"{args.games} random games of {args.ruleset}, {args.players} players, seed {args.seed}")
    print(f"{'repeat':>6} {'public CPU s':>13} {'games/s':>8} {'study CPU s':>12} {'games/s':>8} {'ratio':>6}")
    ratios = []
    for repeat in range(args.repeats):
        cpu = time.process_time()
        decisions = public_path(ruleset, args.games, args.players, args.seed)
        public = time.process_time() - cpu
        cpu = time.process_time()
        result = run_study(study)
        studied = time.process_time() - cpu
        if result.decisions_played != decisions:
            raise SystemExit(f"the study played other games: {result.decisions_played} decisions, not {decisions}")
        ratios.append(public / studied)
        print(f"{repeat + 1:>6} {public:>13.2f} {args.games / public:>8.1f} {studied:>12.2f} "
              f"{args.games / studied:>8.1f} {public / studied:>5.2f}x", flush=True)
    print(f"the study at {statistics.median(ratios):.2f}x the public path's speed (median of {args.repeats})")


if __name__ == "__main__":
    main()
