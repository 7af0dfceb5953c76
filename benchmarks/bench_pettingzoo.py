"""Agent steps per second through the PettingZoo env and through pyspiel, each reading the
observation tensor at every step as a learner does, against the raw engine; CPU time.

    python benchmarks/bench_pettingzoo.py [--games 10] [--rounds 3] [--players 4] [--seed 0]
        [--variants original-dutch,swedish-12,updated-treasury,targi]
        [--ways engine,pettingzoo,pyspiel,pettingzoo-bare,pyspiel-bare,pettingzoo-mask,
         engine-reading,engine-reading-one]
        [--baseline 55055c8] [--compiled PYTHON] [--mcts] [--callgrind]

Each measurement is one child process that plays ``--games`` games one way and reports
its own CPU time (``time.process_time``); the children run interleaved, round after
round, so a drift in the machine's speed hits every way alike. With ``--baseline REV``,
the same children also run on that revision's tree (unpacked by ``git archive``): the
before and the after in one run. With ``--compiled PYTHON``, the same children also run under
``PYTHON``, an interpreter whose environment has the compiled build installed
(``TARGUI_COMPILE=1 pip install .``, docs/engine.md), importing that install (the child
checks that the engine it imported is compiled); a second ``--compiled`` adds ``compiled2``
(an earlier revision's build, say). Prints the median steps/s of each tree and way, and
each way's ratio to the raw engine of the same tree (a compiled tree's ratios are to its own
compiled raw engine).

The policy is uniform over the legal actions, drawn from one NumPy generator
(``legal[rng.integers(len(legal))]``) in every way:

* ``engine``: ``legal_actions()`` and ``apply_action()`` on a game with implicit chance
  (the engine's own generator), no observation: the raw engine;
* ``pettingzoo``: ``env.reset(seed)``, ``env.last()`` (the observation tensor and the
  action mask of the agent to move), the legal ids from the mask (``mask.nonzero()[0]``),
  ``env.step``; the env resolves chance itself;
* ``pyspiel``: the registered ``python_targui``; at each decision
  ``state.observation_tensor(player)`` (a list of floats), then ``legal_actions()`` and
  ``apply_action()``; chance outcomes drawn in Python;
* ``pettingzoo-bare``, ``pyspiel-bare`` (not by default): the same loops without the
  observation (``env.last(observe=False)`` and the state's legal actions; no
  ``observation_tensor``), what each adapter costs before any observation;
* ``pettingzoo-mask`` (not by default): the ``pettingzoo`` loop with each seat's array handed
  over as it is, never brought up to date (the mask, the copy and the call still made): what
  reading the tensor costs is the difference with ``pettingzoo``;
* ``engine-reading``, ``engine-reading-one`` (not by default): the ``engine`` loop reading a kept
  tensor at each decision, no adapter: the env's keeper of the seat to move (``seat_tensors``),
  or seat 0's own keeper (``seat_tensor``) at every decision (each step's changes written once).
  Less ``engine``: what a reading costs.

Each child plays one game untimed before its timed games (the modules a first game imports,
compiled afresh where no bytecode is cached, would otherwise be charged to the raw engine,
whose loop imports them inside its timing, and to no other way). An agent step is one
decision (a chance outcome is not one). ``--callgrind`` counts each child's instructions per agent
step under valgrind (``valgrind --tool=callgrind``, the timed games between two marks) instead
of its CPU time: a figure another job on the machine does not move (same seeds, same games).
``--mcts`` also times
OpenSpiel's MCTSBot (milliseconds per simulation) on this tree. Not a test: nothing
here asserts a time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from baseline import unpack
from children import run_child

HERE = Path(__file__).resolve().parent
VARIANTS = ("original-dutch", "swedish-12", "updated-treasury", "targi")
WAYS = ("engine", "pettingzoo", "pyspiel")
# the same loops reading no observation (each adapter's own cost), and the env's with its mask and
# copy but no tensor reading
BARE = ("pettingzoo-bare", "pyspiel-bare", "pettingzoo-mask")
# the raw loop reading the kept tensor of the seat to move (what the env reads), or one seat's at
# every decision (each step's changes written once, not once per seat's later reading)
READING = ("engine-reading", "engine-reading-one")

# one way on one tree: argv = tree ("" for what the interpreter has installed), way, variant, players,
# games, seed
CHILD = r"""
import json, os, sys, time
tree, way, variant, players, games, seed = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:7])
if tree:
    sys.path.insert(0, tree)
import numpy as np
import targui_dsl
if tree:
    assert targui_dsl.__file__.startswith(tree), targui_dsl.__file__
from targui_dsl import load_ruleset
from targui_dsl.games import game_of
policy = np.random.default_rng(seed)
if way == "engine":
    ruleset = load_ruleset(variant)

    def play(first, count):
        steps = 0
        for number in range(first, first + count):
            state = game_of(ruleset).new_game(ruleset, players=players, seed=number).new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(policy.integers(len(legal)))])
                steps += 1
        return steps
elif way.startswith("engine-reading"):  # the raw loop, reading a kept tensor at each decision (no env)
    from targui_dsl.adapters._tensor import seat_tensor, seat_tensors
    ruleset = load_ruleset(variant)
    one = way == "engine-reading-one"

    def play(first, count):
        steps = 0
        for number in range(first, first + count):
            game = game_of(ruleset).new_game(ruleset, players=players, seed=number)
            width = game.observation_tensor_shape()[0]
            keepers = [seat_tensor(game, 0, width)] if one else seat_tensors(game, width)
            state = game.new_initial_state()
            while not state.is_terminal():
                keepers[0 if one else state.current_player()].update(state)
                legal = state.legal_actions()
                state.apply_action(legal[int(policy.integers(len(legal)))])
                steps += 1
        return steps
elif way.startswith("pettingzoo"):
    from targui_dsl.adapters.pettingzoo import env
    environment = env(variant, players)
    observe = way != "pettingzoo-bare"
    if way == "pettingzoo-mask":  # each seat's array handed over as it is, never brought up to date

        class Still:
            def __init__(self, out):
                self.out = out

            def update(self, state):
                return self.out

        environment._tensors = [Still(keeper.out) for keeper in environment._tensors]

    def play(first, count):
        steps = 0
        for number in range(first, first + count):
            environment.reset(seed=number)
            for _ in environment.agent_iter():
                observation, _, terminated, truncated, _ = environment.last(observe)
                if terminated or truncated:
                    environment.step(None)
                    continue
                if observe:  # what a learner reads: the tensor, and the legal ids from the mask
                    observation["observation"]
                    legal = observation["action_mask"].nonzero()[0]
                else:
                    legal = environment.game_state.legal_actions()
                environment.step(int(legal[int(policy.integers(len(legal)))]))
                steps += 1
        return steps
else:  # pyspiel, pyspiel-bare
    import pyspiel
    import targui_dsl.adapters.openspiel  # registers python_targui
    game = pyspiel.load_game("python_targui", {"ruleset": variant, "players": players})
    observe = way == "pyspiel"
    chance = np.random.default_rng(seed + 1).random

    def play(first, count):
        steps = 0
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    left, chosen = chance(), outcomes[-1][0]
                    for outcome, probability in outcomes:
                        left -= probability
                        if left < 0:
                            chosen = outcome
                            break
                    state.apply_action(chosen)
                    continue
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(policy.integers(len(legal)))])
                steps += 1
        return steps
# one game untimed first: the modules a first game imports (and any table made on first use)
# are not charged to the way that happens to meet them inside its timing
play(seed + games, 1)
os.getppid()  # (a mark for --callgrind: its instructions are counted from here)
started = time.process_time()
steps = play(seed, games)
seconds = time.process_time() - started
os.getppid()  # (... to here)
import importlib
# compiled: the engine's flow of the game played (an earlier build may not have compiled its kept tensors)
flow = importlib.import_module(f"targui_dsl.games.{'targi' if variant.startswith('targi') else 'targui'}.flow")
print(json.dumps({"steps": steps, "seconds": seconds, "compiled": not flow.__file__.endswith(".py")}))
"""


def measure(python: str, tree: str, way: str, variant: str, players: int, games: int, seed: int,
            callgrind: bool = False) -> dict:
    run, counts = run_child([python, "-c", CHILD, tree, way, variant, str(players), str(games), str(seed)],
                            callgrind=callgrind)
    if callgrind:  # the timed games, between the child's two marks
        run["instructions"] = counts[0]
    return run


def mcts_ms_per_simulation(variant: str, players: int, seed: int, decisions: int = 5,
                           simulations: int = 50) -> float:
    """OpenSpiel's MCTSBot (random rollouts) deciding at the first few decisions after the setup."""
    sys.path.insert(0, str(HERE.parent))  # this tree, as the children import it
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import targui_dsl.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("python_targui", {"ruleset": variant, "players": players})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    spent, searched, setup = 0.0, 0, True
    while not state.is_terminal() and searched < decisions:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        setup = setup and getattr(state.engine, "round", 1) == 0
        if not setup:  # a decision of the game proper
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
    parser.add_argument("--games", type=int, default=10, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved measurements per tree, variant and way")
    parser.add_argument("--players", type=int, default=4, help="seats (Targi always has 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--ways", default=",".join(WAYS), help=f"of {', '.join(WAYS + BARE + READING)}")
    parser.add_argument("--baseline", help="also measure this git revision's tree (the before)")
    parser.add_argument("--compiled", metavar="PYTHON", action="append", default=[],
                        help="also measure under this interpreter (the compiled build installed); may be given"
                             " twice (say, this tree's build and an earlier one's)")
    parser.add_argument("--mcts", action="store_true", help="also time OpenSpiel's MCTSBot on this tree")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions per agent step under valgrind's callgrind instead of timing (the"
                             " same on a loaded machine as on an idle one; one round is enough; about 50x slower)")
    args = parser.parse_args()
    if args.callgrind and shutil.which("valgrind") is None:
        parser.error("--callgrind runs each child under valgrind, which is not on this machine's PATH")
    variants, ways = args.variants.split(","), args.ways.split(",")
    if "engine" not in ways or not set(ways) <= set(WAYS + BARE + READING):
        parser.error(f"--ways: engine (the ratios are to it) and any of {', '.join(WAYS[1:] + BARE + READING)}")
    with tempfile.TemporaryDirectory(prefix="targui-baseline-") as tmp:
        trees = [("this tree", sys.executable, str(HERE.parent))]  # label, interpreter, tree
        if args.baseline:
            trees.append((args.baseline, sys.executable, str(unpack(args.baseline, Path(tmp)))))
        for index, python in enumerate(args.compiled):
            label = "compiled" if index == 0 else f"compiled{index + 1}"
            print(f"{label}: {python}", file=sys.stderr)
            trees.append((label, python, ""))
        results: dict[tuple[str, str, str], list[dict]] = {}
        for round_index in range(args.rounds):
            for variant in variants:
                players = 2 if variant.startswith("targi") else args.players
                for label, python, tree in trees:
                    for way in ways:
                        run = measure(python, tree, way, variant, players, args.games, args.seed, args.callgrind)
                        if label.startswith("compiled") and not run["compiled"]:
                            raise SystemExit(f"{python} imported targui's pure-Python modules, not the compiled build")
                        results.setdefault((label, variant, way), []).append(run)
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
    if args.callgrind:  # a cost per step: the raw engine's over the way's is the way's share
        print(f"instructions per agent step (callgrind): {args.games} random games per tree, variant and way; ratio = "
              "the raw engine's instructions per step over the way's, of the same tree")
        column = "instr/step"
    else:  # a rate: the way's over the raw engine's
        print(f"agent steps/s: {args.games} random games x {args.rounds} rounds per tree, variant and way; CPU time, "
              "medians; ratio = steps/s over the raw engine's of the same tree")
        column = "steps/s"

    def figure(label: str, variant: str, way: str) -> float:
        runs = results[(label, variant, way)]
        if args.callgrind:
            return statistics.median(r["instructions"] / r["steps"] for r in runs)
        return statistics.median(r["steps"] / r["seconds"] for r in runs)

    print(f"{'variant':<17} {'tree':<10} {'way':<18} {column:>10} {'ratio':>6}")
    for variant in variants:
        for label, *_ in trees:
            engine = figure(label, variant, "engine")
            for way in ways:
                value = figure(label, variant, way)
                share = engine / value if args.callgrind else value / engine
                print(f"{variant:<17} {label:<10} {way:<18} {value:>10.0f} {share:>6.2f}")
        if args.mcts and not args.callgrind:
            players = 2 if variant.startswith("targi") else args.players
            ms = mcts_ms_per_simulation(variant, players, args.seed)
            print(f"{variant:<17} OpenSpiel MCTSBot (random rollouts): {ms:.1f} ms CPU per simulation")


if __name__ == "__main__":
    main()
