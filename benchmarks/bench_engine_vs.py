"""The engine against an earlier version of itself, side by side, on CPU time.

    python benchmarks/bench_engine_vs.py [--baseline 9647e80] [--games 100] [--rounds 3]
    python benchmarks/bench_engine_vs.py --variants targi --players 2 --baseline 773427c --ways legal
    python benchmarks/bench_engine_vs.py --variants targi --players 2 --baseline c5bcff5 --ways legal --callgrind

The baseline is a git revision of this repository (by default the last
commit before the engine's second edition), unpacked with ``git archive``
into a temporary directory. Each measurement is one child process that
imports one tree and plays ``--games`` games with 4 players, and reports
its own CPU time (``time.process_time``); the children for both trees run
interleaved, round after round, so a drift in the machine's speed hits both
alike. Two ways of playing, for each variant:

* ``legal``: uniform random play through ``legal_actions()`` and
  ``apply_action()``, as an OpenSpiel user drives a game (the mean and
  the largest number of legal actions per decision are printed too);
* ``bot``: the random bot, through each version's own game loop.

Any built-in ruleset of either game may be a variant: Targi (``targi``,
2 players) against its first version, 773427c, stands where Targui has
its hand-written anchor (benchmarks/bench_anchor.py); its first version had
no bot loop for Targi yet, so compare the ``legal`` way with it.

Each child plays one game untimed first (seed ``--games``, outside the timed
seeds): the modules it imports and the card effects it compiles on first use
are charged to no version. ``--callgrind`` counts each child's instructions
in its timed games under valgrind (``valgrind --tool=callgrind``, between two
marks) instead of its CPU time: a figure no other job on the machine moves
(same seeds, same games); one round is enough.

Prints the median games/s and decisions/s of each version and the ratio
new/old per variant and way (with ``--callgrind``, instructions per game and
the ratio old/new). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from baseline import unpack
from children import run_child

VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")
DEFAULT_BASELINE = "9647e80"  # the last commit before the engine's second edition

# One measurement, run in a child whose sys.path starts with the tree to measure.
# Both engines speak `legal_actions()`/`apply_action()`; only the bot loop differs.
CHILD = r"""
import json, os, random, sys, time
tree, variant, way, games, players = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
if tree:  # else the interpreter's own install (--compiled)
    sys.path.insert(0, tree)
import targui_dsl
assert targui_dsl.__file__.startswith(tree), targui_dsl.__file__
from targui_dsl import load_ruleset
rs = load_ruleset(variant)
try:  # the game the ruleset plays (Targui or Targi), through its package
    from targui_dsl.games import game_of
    Game = game_of(rs).new_game
except ImportError:  # a tree from before the games/ package (7673ed2 and earlier)
    from targui_dsl.engine.game import Game
try:  # the second edition's game loop, wherever the tree keeps it
    from targui_dsl.engine.loop import play
    second_edition = True
except ImportError:
    second_edition = False
def run(first, count):
    rng = random.Random(12345)
    decisions = listed = largest = 0
    for index in range(first, first + count):
        state = Game(rs, players=players, seed=index).new_initial_state()
        if way == "legal":
            while not state.is_terminal():
                legal = state.legal_actions()
                decisions += 1
                listed += len(legal)
                if len(legal) > largest:
                    largest = len(legal)
                state.apply_action(rng.choice(legal))
        elif second_edition:
            from targui_dsl.agents import make_agent
            play(state, [make_agent("random", index * 8 + s) for s in range(players)])
            decisions += state.decisions
        else:
            from targui_dsl.agents import make_agent
            agents = [make_agent("random", index * 8 + s) for s in range(players)]
            while not state.is_terminal():
                state.apply_action(agents[state.current_player()].choose(state))
            decisions += state.decisions
    return decisions, listed, largest
run(games, 1)  # untimed: first imports, effects compiled on first use
os.getppid()  # (a mark for --callgrind: its instructions are counted from here)
start = time.process_time()
decisions, listed, largest = run(0, games)
seconds = time.process_time() - start
os.getppid()  # (... to here)
print(json.dumps({"seconds": seconds, "games": games, "decisions": decisions,
                  "mean_legal": listed / decisions if listed else None, "max_legal": largest or None}))
"""


def measure(tree: Path | None, variant: str, way: str, games: int, players: int,
            python: str = sys.executable, callgrind: bool = False) -> dict:
    """One child's games; ``tree`` None: what ``python`` has installed (the compiled build)."""
    run, counts = run_child([python, "-c", CHILD, str(tree or ""), variant, way, str(games), str(players)], tree,
                            callgrind)
    if callgrind:  # the timed games, between the child's two marks
        run["instructions"] = counts[0]
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision to compare with")
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved measurements per version")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--ways", default="legal,bot")
    parser.add_argument("--compiled", metavar="PYTHON",
                        help="also time the build this interpreter has installed (TARGUI_COMPILE=1, docs/engine.md)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions under valgrind instead of timing (exact under any load)")
    args = parser.parse_args()
    if args.callgrind and not shutil.which("valgrind"):
        parser.error("--callgrind needs valgrind on the PATH")
    new_tree = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="targui-baseline-") as tmp:
        old_tree = unpack(args.baseline, Path(tmp))
        results: dict[tuple[str, str, str], list[dict]] = {}
        for round_index in range(args.rounds):
            for variant in args.variants.split(","):
                for way in args.ways.split(","):
                    for label, tree in (("new", new_tree), ("old", old_tree)):
                        run = measure(tree, variant, way, args.games, args.players, callgrind=args.callgrind)
                        results.setdefault((variant, way, label), []).append(run)
                    if args.compiled:
                        run = measure(None, variant, way, args.games, args.players, args.compiled,
                                      callgrind=args.callgrind)
                        results.setdefault((variant, way, "compiled"), []).append(run)
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
    if args.callgrind:
        print_instructions(args, results)
        return
    print(f"engine vs {args.baseline}: {args.games} games x {args.rounds} rounds, {args.players} players, CPU time,"
          " medians")
    print(f"{'variant':<18} {'way':<6} {'old games/s':>11} {'new games/s':>11} {'ratio':>6}"
          f" {'old dec/s':>10} {'new dec/s':>10} {'old legal mean/max':>19} {'new legal mean/max':>19}")
    for variant in args.variants.split(","):
        for way in args.ways.split(","):
            row = {}
            for label in ("old", "new"):
                runs = results[(variant, way, label)]
                row[label] = (
                    statistics.median(r["games"] / r["seconds"] for r in runs),
                    statistics.median(r["decisions"] / r["seconds"] for r in runs),
                    runs[0]["mean_legal"], runs[0]["max_legal"],
                )
            legal = {label: (f"{row[label][2]:.1f}/{row[label][3]}" if row[label][2] else "-") for label in row}
            print(f"{variant:<18} {way:<6} {row['old'][0]:>11.1f} {row['new'][0]:>11.1f}"
                  f" {row['new'][0] / row['old'][0]:>6.2f} {row['old'][1]:>10.0f} {row['new'][1]:>10.0f}"
                  f" {legal['old']:>19} {legal['new']:>19}")
            if args.compiled:
                compiled = statistics.median(r["games"] / r["seconds"] for r in results[(variant, way, "compiled")])
                print(f"{'':<18} {way:<6} compiled ({args.compiled}): {compiled:.1f} games/s,"
                      f" {compiled / row['old'][0]:.2f}x old")


def print_instructions(args: argparse.Namespace, results: dict[tuple[str, str, str], list[dict]]) -> None:
    """The table of ``--callgrind``: instructions per game (the same games on every run: the first round's)."""
    print(f"engine vs {args.baseline}: {args.games} games, {args.players} players, instructions (callgrind)")
    print(f"{'variant':<18} {'way':<6} {'old M/game':>10} {'new M/game':>10} {'old/new':>7}"
          + (f" {'compiled M/game':>15} {'old/compiled':>12}" if args.compiled else ""))
    for variant in args.variants.split(","):
        for way in args.ways.split(","):
            per_game = {label: results[(variant, way, label)][0]["instructions"] / args.games / 1e6
                        for label in ("old", "new", "compiled") if (variant, way, label) in results}
            line = (f"{variant:<18} {way:<6} {per_game['old']:>10.2f} {per_game['new']:>10.2f}"
                    f" {per_game['old'] / per_game['new']:>7.3f}")
            if "compiled" in per_game:
                line += f" {per_game['compiled']:>15.2f} {per_game['old'] / per_game['compiled']:>12.3f}"
            print(line)


if __name__ == "__main__":
    main()
