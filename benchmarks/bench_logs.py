"""Log files: what writing a game's log costs against playing it, on CPU time, with a baseline side by side.

    python benchmarks/bench_logs.py [--games 30] [--rounds 3] [--ruleset original-dutch]
        [--bots random,random,random,random] [--baseline 55055c8]

Each measurement is one child process that plays the same bot games (seeds
0..games-1) with no log, then logging through ``open_log_for_writing`` (what
`targui play --log` uses: locked, whole lines gathered
into writes of 16 KiB, fsync at the end), and reports the median CPU
milliseconds per game (``time.process_time``: user and system time, never
wall) and a sha256 of every log's bytes. With ``--baseline REV`` the same
child runs in that revision (unpacked by ``git archive``); the children run
interleaved, round after round, so a drift in the machine's speed hits both
alike. Prints each tree's log cost as a multiple of playing without one (the
aim: 1.5x or less) and whether both trees wrote the same bytes. Then, in this
process, the cost of reading and verifying a log. Not a test: nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import unpack

HERE = Path(__file__).resolve().parent
BOTS = "random,random,random,random"

# argv: tree, ruleset, bots, games; the tree is imported, never what is installed
CHILD = r"""
import hashlib, json, os, statistics, sys, tempfile, time
tree, ruleset, bots, games = sys.argv[1], sys.argv[2], sys.argv[3].split(","), int(sys.argv[4])
sys.path.insert(0, tree)
import targui_dsl
assert targui_dsl.__file__.startswith(tree), targui_dsl.__file__
from targui_dsl import load_ruleset
from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.writer import open_log_for_writing
from targui_dsl.games.targui.game import Game
rs = load_ruleset(ruleset)
folder = tempfile.mkdtemp(prefix="targui-bench-logs-")
digest = hashlib.sha256()
def one(seed, logged):
    path = os.path.join(folder, f"{seed}.jsonl")
    start = time.process_time()
    game = Game(rs, players=len(bots), seed=seed)
    agents = seat_agents(game.seed, bots)
    if logged:
        with open_log_for_writing(path) as writer:
            play(game.new_initial_state(log=EventLog(writer, keep=False)), agents)
    else:
        play(game.new_initial_state(), agents)
    spent = time.process_time() - start
    if logged:
        with open(path, "rb") as f:
            data = f.read()
        # the header names the ruleset's files by their absolute path: hashed without it
        digest.update(data[data.index(b"\n") + 1:])
        os.unlink(path)
    return spent
bare, logged = [], []
for seed in range(games):  # interleaved game by game
    bare.append(one(seed, False))
    logged.append(one(seed, True))
os.rmdir(folder)
print(json.dumps({"bare": statistics.median(bare) * 1000, "logged": statistics.median(logged) * 1000,
                  "sha256": digest.hexdigest()}))
"""


def measure(tree: str, ruleset: str, bots: str, games: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", CHILD, tree, ruleset, bots, str(games)], check=True,
                         capture_output=True, text=True, env=env, cwd=tempfile.gettempdir()).stdout
    return json.loads(out)


def read_and_verify(ruleset: str, bots: str, games: int) -> float:
    """Median CPU ms to read and verify one log (this tree)."""
    import time

    from targui_dsl import load_ruleset
    from targui_dsl.agents import seat_agents
    from targui_dsl.engine.loop import play
    from targui_dsl.gamelog.events import EventLog
    from targui_dsl.gamelog.reader import read_log_file
    from targui_dsl.gamelog.replay import verify_log
    from targui_dsl.gamelog.writer import open_log_for_writing
    from targui_dsl.games.targui.game import Game

    rs = load_ruleset(ruleset)
    seats = bots.split(",")
    times = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        for seed in range(games):
            game = Game(rs, players=len(seats), seed=seed)
            with open_log_for_writing(str(path)) as writer:
                play(game.new_initial_state(log=EventLog(writer, keep=False)), seat_agents(game.seed, seats))
            start = time.process_time()
            run = verify_log(rs, read_log_file(path).events)
            times.append(time.process_time() - start)
            assert run.ok and run.chance_checked
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved measurements per tree")
    parser.add_argument("--ruleset", default="original-dutch")
    parser.add_argument("--bots", default=BOTS, help="a bot per seat (random: the cost shows most)")
    parser.add_argument("--baseline", help="also measure this git revision")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="targui-baseline-") as tmp:
        trees = [("this tree", str(HERE.parent))]
        if args.baseline:
            trees.append((args.baseline, str(unpack(args.baseline, Path(tmp)))))
        runs: dict[str, list[dict]] = {label: [] for label, _ in trees}
        for round_index in range(args.rounds):
            for label, tree in trees:
                runs[label].append(measure(tree, args.ruleset, args.bots, args.games))
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{args.ruleset}, {args.games} games of {args.bots} x {args.rounds} rounds, CPU ms per game, medians; "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'tree':<10} {'no log':>8} {'log':>8} {'log/no log':>11}  per round")
    for label, _ in trees:
        bare = statistics.median(r["bare"] for r in runs[label])
        logged = statistics.median(r["logged"] for r in runs[label])
        rounds = " ".join(f"{r['logged'] / r['bare']:.2f}x" for r in runs[label])
        print(f"{label:<10} {bare:>8.2f} {logged:>8.2f} {logged / bare:>10.2f}x  {rounds}")
    digests = {r["sha256"] for rs in runs.values() for r in rs}
    print(f"the same log bytes in every tree and round: {'yes' if len(digests) == 1 else 'NO'}")
    print(f"read + verify a log (this tree): {read_and_verify(args.ruleset, args.bots, min(args.games, 10)):.1f} ms")


if __name__ == "__main__":
    main()
