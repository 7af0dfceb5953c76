"""targui's public path against the hand-written anchor (benchmarks/anchor_targui.py), on CPU time.

    python benchmarks/bench_anchor.py [--games 100] [--rounds 3] [--players 4,2]
        [--variants original-dutch,...] [--baseline 73f7a44] [--compiled PYTHON] [--callgrind]

Both play a uniformly random policy: at each decision a uniform choice
(``random.Random.choice``) among the legal options, chance by their own
draws. targui is driven as an OpenSpiel user drives it:
``rng.choice(state.legal_actions())`` then ``state.apply_action(...)``. Each
measurement is one child process that plays ``--games`` games and reports
its own CPU time (``time.process_time``); the children run interleaved,
round after round, so a drift in the machine's speed hits every path alike.

Paths: ``anchor``; ``targui`` (this tree, plain CPython); with
``--baseline REV`` also ``REV`` (that revision unpacked by ``git archive``);
with ``--compiled PYTHON`` also ``compiled``: this tree's public path run by
``PYTHON``, an interpreter whose environment has the compiled build
installed (``TARGUI_COMPILE=1 pip install .``, see docs/engine.md; the
child checks that it imported compiled modules); a second ``--compiled``
adds ``compiled2`` (an earlier revision's build, say). Prints, per variant and
player count, the median games/s and decisions/s of each path and its ratio
to the anchor (games/s over games/s: both play the same games' lengths,
shown as decisions per game). Not a test: nothing here asserts a time.

``--callgrind`` counts instructions instead (valgrind's callgrind, exact
under any load; one round): each child marks the start of its first game,
its end and the end of the last (``os.getppid``, dumped apart), and the
table gives, per path, the instructions of the first game (a process's
first game compiles the ruleset's effects when they are first called), of
each later game, and the anchor's instructions per game over the path's
per later game ("x anchor", the higher the better).
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

HERE = Path(__file__).resolve().parent
VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")

ANCHOR_CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from anchor_targui import play_games
variant, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
os.getppid()  # (marks for --callgrind: the games are counted from here...)
os.getppid()  # (... with no first game of its own: nothing is compiled on first use)
start = time.process_time()
decisions, rounds = play_games(variant, players, games, seed=12345)
os.getppid()  # (... to here)
print(json.dumps({"seconds": time.process_time() - start, "games": games, "decisions": decisions, "later": games}))
"""

# targui's public path; the tree to import is argv[1] ("" for what the interpreter has installed)
TARGUI_CHILD = r"""
import json, os, random, sys, time
tree, variant, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if tree:
    sys.path.insert(0, tree)
import targui_dsl
if tree:
    assert targui_dsl.__file__.startswith(tree), targui_dsl.__file__
from targui_dsl import load_ruleset
try:
    from targui_dsl.games.targui.game import Game
except ImportError:  # a tree from before the games/ package
    from targui_dsl.engine.game import Game
import targui_dsl.engine.chance as chance  # (compiled in every compiled build; in every tree)
compiled = not chance.__file__.endswith(".py")
rs = load_ruleset(variant)
rng = random.Random(12345)
choice = rng.choice
decisions = 0
os.getppid()  # (marks for --callgrind: the first game from here, the later games from its end to the last)
start = time.process_time()
for index in range(games):
    state = Game(rs, players=players, seed=index).new_initial_state()
    while not state.is_terminal():
        state.apply_action(choice(state.legal_actions()))
        decisions += 1
    if index == 0:
        os.getppid()
seconds = time.process_time() - start
os.getppid()
print(json.dumps({"seconds": seconds, "games": games, "decisions": decisions, "compiled": compiled,
                  "later": games - 1}))
"""


def measure(python: str, child: str, tree: str, variant: str, players: int, games: int,
            callgrind: bool = False) -> dict:
    run, counts = run_child([python, "-c", child, tree, variant, str(players), str(games)], callgrind=callgrind,
                            parts=2)
    if callgrind:  # the first game, then the later ones (the games after the 2nd mark)
        run["first"], run["later"] = counts[0], counts[1] / max(1, run["later"])
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved measurements per path")
    parser.add_argument("--players", default="4,2", help="player counts, comma-separated")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--baseline", help="also time this git revision's public path")
    parser.add_argument("--compiled", metavar="PYTHON", action="append", default=[],
                        help="also time the public path under this interpreter (the compiled build installed);"
                             " may be given twice (say, this tree's build and an earlier one's)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions under valgrind's callgrind (one round): a first game and each later"
                             " one, instead of timing")
    args = parser.parse_args()
    if args.callgrind and shutil.which("valgrind") is None:
        parser.error("--callgrind runs each child under valgrind, which is not on this machine's PATH")
    rounds = 1 if args.callgrind else args.rounds
    variants = args.variants.split(",")
    counts = [int(p) for p in args.players.split(",")]
    with tempfile.TemporaryDirectory(prefix="targui-baseline-") as tmp:
        paths: list[tuple[str, str, str, str]] = [  # label, interpreter, child, tree
            ("anchor", sys.executable, ANCHOR_CHILD, str(HERE)),
            ("targui", sys.executable, TARGUI_CHILD, str(HERE.parent)),
        ]
        for index, python in enumerate(args.compiled):
            label = "compiled" if index == 0 else f"compiled{index + 1}"
            print(f"{label}: {python}", file=sys.stderr)
            paths.append((label, python, TARGUI_CHILD, ""))
        if args.baseline:
            paths.append((args.baseline, sys.executable, TARGUI_CHILD, str(unpack(args.baseline, Path(tmp)))))
        results: dict[tuple[str, int, str], list[dict]] = {}
        for round_index in range(rounds):
            for variant in variants:
                for players in counts:
                    for label, python, child, tree in paths:
                        run = measure(python, child, tree, variant, players, args.games, args.callgrind)
                        if label.startswith("compiled") and not run["compiled"]:
                            raise SystemExit(f"{python} imported targui's pure-Python modules, not the compiled build")
                        results.setdefault((variant, players, label), []).append(run)
            print(f"round {round_index + 1} of {rounds} done", file=sys.stderr)
    if args.callgrind:
        _instruction_table(results, variants, counts, [label for label, *_ in paths], args.games)
        return
    print(f"public path vs the hand-written anchor: {args.games} games x {args.rounds} rounds, CPU time, medians")
    print(f"{'variant':<17} {'pl':>2} {'path':<9} {'games/s':>8} {'dec/s':>9} {'dec/game':>8} {'x anchor':>8}")
    for variant in variants:
        for players in counts:
            anchor = statistics.median(r["games"] / r["seconds"] for r in results[(variant, players, "anchor")])
            for label, *_ in paths:
                runs = results[(variant, players, label)]
                games_s = statistics.median(r["games"] / r["seconds"] for r in runs)
                dec_s = statistics.median(r["decisions"] / r["seconds"] for r in runs)
                per_game = sum(r["decisions"] for r in runs) / sum(r["games"] for r in runs)
                print(f"{variant:<17} {players:>2} {label:<9} {games_s:>8.1f} {dec_s:>9.0f} {per_game:>8.1f}"
                      f" {games_s / anchor:>8.2f}")


def _instruction_table(results: dict[tuple[str, int, str], list[dict]], variants: list[str], counts: list[int],
                       labels: list[str], games: int) -> None:
    print(f"public path vs the hand-written anchor: {games} games, instructions (callgrind), millions")
    print(f"{'variant':<17} {'pl':>2} {'path':<9} {'first game':>10} {'a later one':>11} {'dec/game':>8}"
          f" {'x anchor':>8}")
    for variant in variants:
        for players in counts:
            anchor = results[(variant, players, "anchor")][0]["later"]
            for label in labels:
                run = results[(variant, players, label)][0]
                first = "" if label == "anchor" else f"{run['first'] / 1e6:.2f}"
                print(f"{variant:<17} {players:>2} {label:<9} {first:>10} {run['later'] / 1e6:>11.3f}"
                      f" {run['decisions'] / run['games']:>8.1f} {anchor / run['later']:>8.3f}")


if __name__ == "__main__":
    main()
