"""Log files: the cost of the locked, line-at-a-time writer and of reading and verifying a log.

    python benchmarks/bench_logs.py [--games 15] [--ruleset original-dutch] [--bots greedy,random,random,random]

Plays the same bot games with no log, logging to a plain buffered file (what
`play --log` did before) and through ``open_log_for_writing`` (locked, whole
lines gathered into writes of 16 KiB, fsync at the end), then reads and
verifies the log. Prints the median CPU milliseconds per game and each log's
cost as a multiple of playing without one (the aim: 1.5x or less). Not a
test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from targui_dsl import load_ruleset
from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play as play_on
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.reader import read_log_file
from targui_dsl.gamelog.replay import verify_log
from targui_dsl.gamelog.writer import open_log_for_writing
from targui_dsl.games.targui.game import Game

BOTS = ["greedy", "random", "random", "random"]


def play(rs, seed: int, open_stream: Callable) -> None:
    game = Game(rs, players=len(BOTS), seed=seed)
    agents = seat_agents(game.seed, BOTS)
    stream = open_stream()
    try:
        state = game.new_initial_state(log=EventLog(stream, keep=False) if stream is not None else None)
        play_on(state, agents)
    finally:
        if stream is not None:
            stream.close()


def median_ms(run: Callable[[int], None], games: int) -> float:
    times = []
    for seed in range(games):
        start = time.process_time()
        run(seed)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--ruleset", default="original-dutch")
    parser.add_argument("--bots", default=",".join(BOTS), help="a bot per seat (random: the cost shows most)")
    args = parser.parse_args()
    BOTS[:] = args.bots.split(",")
    rs = load_ruleset(args.ruleset)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        bare = median_ms(lambda s: play(rs, s, lambda: None), args.games)
        plain = median_ms(lambda s: play(rs, s, lambda: path.open("w", encoding="utf-8")), args.games)
        locked = median_ms(lambda s: play(rs, s, lambda: open_log_for_writing(str(path))), args.games)
        events = len(path.read_text(encoding="utf-8").splitlines())

        def check(_seed: int) -> None:
            run = verify_log(rs, read_log_file(path).events)
            assert run.ok and run.chance_checked

        verify = median_ms(check, args.games)
    print(f"{args.ruleset}, {args.games} games of {args.bots}, last log {events} events")
    print(f"  play, no log             {bare:7.1f} ms/game")
    print(f"  play, buffered file      {plain:7.1f} ms/game  {plain / bare:4.2f}x")
    print(f"  play, locked line writer {locked:7.1f} ms/game  {locked / bare:4.2f}x")
    print(f"  read + verify a log      {verify:7.1f} ms/log")


if __name__ == "__main__":
    main()
