"""OpenSpiel's own MCTS bot against a targui bot, through the python_targui game.

    pip install '.[openspiel]'
    python docs/examples/openspiel_mcts.py --ruleset original-dutch --players 2 --simulations 50 --games 2

Seat 1 is OpenSpiel's ``MCTSBot`` (UCT with random rollouts); the other seats are
the targui bot given by ``--bot`` (a bot spelling, as ``targui play --bots`` takes
it). OpenSpiel's MCTS searches the true state, so it is a fair player only in a
variant without a treasury (perfect information); the targui bots decide from
their seat's observation. Seats rotate from game to game. Exit status 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from targui_dsl.adapters.openspiel import TarguiBot  # registers python_targui


def play_game(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState,
              decisions: list[int]) -> list[float]:
    """One game: chance outcomes drawn from ``rng``, each seat's bot decides its steps
    (``decisions[seat]`` counts them)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            seat = state.current_player()
            decisions[seat] += 1
            state.apply_action(int(bots[seat].step(state)))
    return list(state.returns())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="original-dutch", help="a built-in name or a path")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="ismcts", help="the targui bot's spelling (make_agent)")
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations per decision")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = pyspiel.load_game("python_targui", {"ruleset": args.ruleset, "players": args.players})
    rng = np.random.RandomState(args.seed)
    wins = {"mcts": 0.0, args.bot: 0.0}
    searched = 0  # MCTS decisions
    started = time.process_time()
    for number in range(args.games):
        mcts_seat = number % args.players
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed + number))
        bots: list[pyspiel.Bot] = [
            mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator,
                         random_state=np.random.RandomState(args.seed + number))
            if seat == mcts_seat else TarguiBot(args.bot, seed=args.seed * 1000 + number * 10 + seat)
            for seat in range(args.players)
        ]
        decisions = [0] * args.players
        returns = play_game(game, bots, rng, decisions)
        searched += decisions[mcts_seat]
        wins["mcts"] += returns[mcts_seat]
        wins[args.bot] += sum(r for seat, r in enumerate(returns) if seat != mcts_seat)
        print(f"game {number + 1}: mcts at seat {mcts_seat + 1}, returns {returns}")
    seconds = time.process_time() - started
    print(f"{args.games} games of {game}: mcts won {wins['mcts']:g}, {args.bot} won {wins[args.bot]:g}; "
          f"{searched} MCTS decisions of {args.simulations} simulations, {seconds:.1f} s CPU in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
