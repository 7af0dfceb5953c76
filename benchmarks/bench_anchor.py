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

``--callgrind`` counts instructions instead (``valgrind --tool=callgrind``, exact
under any load): each child's timed games, between two marks (``os.getppid``),
the import and the ruleset's loading left out; one round is enough. The table
then gives millions of instructions per path and the anchor's count over the
path's ("x anchor", as games/s over games/s would be).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import unpack

HERE = Path(__file__).resolve().parent
VARIANTS = ("original-dutch", "swedish-12", "updated-treasury")

ANCHOR_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from anchor_targui import play_games
variant, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
import os
os.getppid()  # (a mark for --callgrind: its instructions are counted from here)
start = time.process_time()
decisions, rounds = play_games(variant, players, games, seed=12345)
os.getppid()  # (... to here)
print(json.dumps({"seconds": time.process_time() - start, "games": games, "decisions": decisions}))
"""

# targui's public path; the tree to import is argv[1] ("" for what the interpreter has installed)
TARGUI_CHILD = r"""
import json, random, sys, time
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
import targui_dsl.games.targui.flow as flow
compiled = not flow.__file__.endswith(".py")
rs = load_ruleset(variant)
rng = random.Random(12345)
choice = rng.choice
decisions = 0
import os
os.getppid()  # (a mark for --callgrind: its instructions are counted from here)
start = time.process_time()
for index in range(games):
    state = Game(rs, players=players, seed=index).new_initial_state()
    while not state.is_terminal():
        state.apply_action(choice(state.legal_actions()))
        decisions += 1
seconds = time.process_time() - start
os.getppid()  # (... to here)
print(json.dumps({"seconds": seconds, "games": games, "decisions": decisions, "compiled": compiled}))
"""


def measure(python: str, child: str, tree: str, variant: str, players: int, games: int,
            callgrind: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [python, "-c", child, tree, variant, str(players), str(games)]
    with tempfile.TemporaryDirectory(prefix="targui-callgrind-") as marks:
        if callgrind:  # the instructions between the child's two marks (os.getppid) are dumped apart
            command = ["valgrind", "--tool=callgrind", "--dump-before=os_getppid*",
                       f"--callgrind-out-file={marks}/cg.out", *command]
        out = subprocess.run(command, check=True, capture_output=True, text=True, env=env,
                             cwd=tempfile.gettempdir()).stdout
        run = json.loads(out.strip().splitlines()[-1])
        if callgrind:
            dumped = (Path(marks) / "cg.out.2").read_text()
            run["instructions"] = int(re.search(r"^(?:summary|totals): (\d+)", dumped, re.M).group(1))
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
                        help="count instructions under valgrind's callgrind (exact under load) instead of timing")
    args = parser.parse_args()
    if args.callgrind and shutil.which("valgrind") is None:
        parser.error("--callgrind needs valgrind on the PATH")
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
        for round_index in range(args.rounds):
            for variant in variants:
                for players in counts:
                    for label, python, child, tree in paths:
                        run = measure(python, child, tree, variant, players, args.games, args.callgrind)
                        if label.startswith("compiled") and not run["compiled"]:
                            raise SystemExit(f"{python} imported targui's pure-Python modules, not the compiled build")
                        results.setdefault((variant, players, label), []).append(run)
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
    if args.callgrind:
        print_instructions(args, variants, counts, [label for label, *_ in paths], results)
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


def print_instructions(args: argparse.Namespace, variants: list[str], counts: list[int], labels: list[str],
                       results: dict[tuple[str, int, str], list[dict]]) -> None:
    """The callgrind table: millions of instructions of each path's games, and the anchor's over it."""
    print(f"public path vs the hand-written anchor: {args.games} games, instructions (callgrind), medians")
    print(f"{'variant':<17} {'pl':>2} {'path':<9} {'Minstr':>9} {'instr/dec':>9} {'dec/game':>8} {'x anchor':>8}")
    for variant in variants:
        for players in counts:
            anchor = statistics.median(r["instructions"] for r in results[(variant, players, "anchor")])
            for label in labels:
                runs = results[(variant, players, label)]
                count = statistics.median(r["instructions"] for r in runs)
                decisions = sum(r["decisions"] for r in runs) / len(runs)
                per_game = sum(r["decisions"] for r in runs) / sum(r["games"] for r in runs)
                print(f"{variant:<17} {players:>2} {label:<9} {count / 1e6:>9.1f} {count / decisions:>9.0f}"
                      f" {per_game:>8.1f} {anchor / count:>8.2f}")


if __name__ == "__main__":
    main()
