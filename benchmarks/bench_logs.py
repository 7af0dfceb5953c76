"""Log files: what writing a game's log costs against playing it, on CPU time, with a baseline side by side.

    python benchmarks/bench_logs.py [--games 30] [--rounds 3] [--rulesets original-dutch,targi]
        [--bots random] [--baseline 1b9952f] [--json-only] [--callgrind]

Each measurement is one child process that plays the same bot games (seeds
0..games-1) of one ruleset with no log, with a sink that reads every event,
with a log written to memory and logging through ``open_log_for_writing``
(what `targui play --log` uses: locked, whole lines gathered into few writes,
fsync at the end), game by game, and reports the CPU milliseconds per game
(``time.process_time``: user and system time, never wall) of each, the mean
bytes of a log, and a sha256 of every log's bytes. Before its timed games each
child plays one untimed game each way (the modules a first game imports and the
snippets it compiles would otherwise be charged to whichever way plays first),
and each way plays a seed first in turn (a bot's process-wide caches, such as
greedy's fight odds, are filled by whichever way meets a position first).
With ``--baseline REV`` the same child runs in that revision (unpacked by
``git archive``); the children run interleaved, tree after tree and ruleset
after ruleset, round after round, so a drift in the machine's speed hits all
alike. Prints per ruleset each tree's log cost as a multiple of playing without
one (the aim: 1.5x or less; the per-round figures show the spread), the log's
size, and whether both trees wrote the same bytes; and where the cost lies, each
as a multiple of no log: ``built``, the sink that reads every event and keeps
none (what building the events costs the game), and ``memory``, the log's lines
written to memory (building and encoding them, no file). ``--callgrind`` also
counts each way's instructions under valgrind (the child plays each way's games
between two marks, one way after another): exact under any load, but without
the kernel's part of the file (its fsync). Then, in this process,
the cost of reading and verifying a log. ``--json-only`` measures as an install without
orjson (the ``fast-logs`` extra). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from baseline import unpack
from children import run_child

HERE = Path(__file__).resolve().parent
BOTS = "random"
WAYS = ("bare", "built", "memory", "logged")  # the child's ways, in the order it plays them under callgrind

# argv: tree, ruleset, bots, games, json-only, time|callgrind, the folder of the logs ("" for the system's
# temporary folder); the tree is imported, never what is installed
CHILD = r"""
import hashlib, io, json, os, resource, statistics, sys, tempfile, time
tree, ruleset, bots, games = sys.argv[1], sys.argv[2], sys.argv[3].split(","), int(sys.argv[4])
counted = sys.argv[6] == "callgrind"
if sys.argv[5] == "json-only":
    sys.modules["orjson"] = None  # import orjson fails: as an install without the fast-logs extra
sys.path.insert(0, tree)
import targui_dsl
assert targui_dsl.__file__.startswith(tree), targui_dsl.__file__
from targui_dsl import load_ruleset
from targui_dsl.agents import seat_agents
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.gamelog.writer import open_log_for_writing
from targui_dsl.games import game_of
rs = load_ruleset(ruleset)
package = game_of(rs)
counts = rs.player_counts
players = 4 if 4 in counts else max(counts)
if len(bots) == 1:
    bots = bots * players  # one bot: at every seat
folder = tempfile.mkdtemp(prefix="targui-bench-logs-", dir=sys.argv[7] or None)
digest = hashlib.sha256()
sizes = []
class Built:  # reads every event and does nothing with it: what building the events costs
    wants = None
    def begin(self, game): pass
    def emit(self, event): pass
    def told_tuple(self, event): pass  # a tree whose games tell tuples: told as a log is told them
def one(seed, how):
    path = os.path.join(folder, f"{seed}.jsonl")
    logged = how == "logged"
    was = resource.getrusage(resource.RUSAGE_SELF)
    start = time.process_time()
    game = package.new_game(rs, players=len(bots), seed=seed)
    agents = seat_agents(game.seed, bots, package.name)
    if logged:
        with open_log_for_writing(path) as writer:
            play(game.new_initial_state(log=EventLog(writer, keep=False)), agents)
    elif how == "built":
        play(game.new_initial_state(log=Built()), agents)
    elif how == "memory":  # the log's lines written to memory: no file
        play(game.new_initial_state(log=EventLog(io.StringIO(), keep=False)), agents)
    else:
        play(game.new_initial_state(), agents)
    spent = time.process_time() - start
    now = resource.getrusage(resource.RUSAGE_SELF)
    for field in RUSAGE:  # user and system seconds (the kernel's split, sampled at its ticks), page faults, sleeps
        usage[how][field] += getattr(now, field) - getattr(was, field)
    if logged and not counted:
        take(seed)
    return spent
def take(seed):  # a log written: its bytes counted and hashed, the file removed
    path = os.path.join(folder, f"{seed}.jsonl")
    with open(path, "rb") as f:
        data = f.read()
    sizes.append(len(data))
    # the header names the ruleset's files by their absolute path: hashed without it
    digest.update(data[data.index(b"\n") + 1:])
    os.unlink(path)
spent = {"bare": 0.0, "built": 0.0, "memory": 0.0, "logged": 0.0}
RUSAGE = ("ru_utime", "ru_stime", "ru_minflt", "ru_nvcsw")
def zero():
    return {how: dict.fromkeys(RUSAGE, 0.0) for how in spent}
usage = zero()
for how in spent:  # one untimed game each way first: what a first game loads and compiles is no way's cost
    one(games, how)
if counted:
    take(games)
sizes.clear()
digest = hashlib.sha256()
usage = zero()  # (the untimed games' are no way's)
ways = list(spent)
if counted:  # under callgrind: each way's games between two marks (os.getppid), one way after another
    for how in ways:
        os.getppid()
        for seed in range(games):
            spent[how] += one(seed, how)
    os.getppid()
    for seed in range(games):  # (reading the logs back is no way's cost)
        take(seed)
else:
    for seed in range(games):  # interleaved game by game, each way first in turn (a bot's process-wide caches,
        for how in ways[seed % 4:] + ways[:seed % 4]:  # greedy's fight odds, are filled by whichever plays first)
            spent[how] += one(seed, how)
os.rmdir(folder)
print(json.dumps({**{how: total / games * 1000 for how, total in spent.items()},
                  **{f"{how}_{field[3:]}": value / games * (1000 if field.endswith("time") else 1)
                     for how, fields in usage.items() for field, value in fields.items()},
                  "bytes": sum(sizes) / games, "sha256": digest.hexdigest()}))
"""


def measure(tree: str, ruleset: str, bots: str, games: int, json_only: bool = False,
            callgrind: bool = False, folder: str = "") -> dict:
    """One child's games of one tree, its logs written in ``folder`` (the system's temporary folder
    when empty); with ``callgrind``, also each way's instructions per game (``i_bare``, ``i_built``,
    ``i_memory``, ``i_logged``)."""
    run, counts = run_child([sys.executable, "-c", CHILD, tree, ruleset, bots, str(games),
                             "json-only" if json_only else "any", "callgrind" if callgrind else "time", folder],
                            callgrind=callgrind, parts=len(WAYS))
    if callgrind:  # one part a way, between the child's marks
        for how, count in zip(WAYS, counts, strict=True):
            run[f"i_{how}"] = count / games
    return run


def read_and_verify(ruleset: str, bots: str, games: int) -> float:
    """Median CPU ms to read and verify one log (this tree)."""
    import time

    if str(HERE.parent) not in sys.path:  # this tree, with or without PYTHONPATH
        sys.path.insert(0, str(HERE.parent))

    from targui_dsl import load_ruleset
    from targui_dsl.agents import seat_agents
    from targui_dsl.engine.loop import play
    from targui_dsl.gamelog.events import EventLog
    from targui_dsl.gamelog.reader import read_log_file
    from targui_dsl.gamelog.replay import verify_log
    from targui_dsl.gamelog.writer import open_log_for_writing
    from targui_dsl.games import game_of

    rs = load_ruleset(ruleset)
    package = game_of(rs)
    seats = seats_of(rs, bots)
    times = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        for seed in range(games):
            game = package.new_game(rs, players=len(seats), seed=seed)
            with open_log_for_writing(str(path)) as writer:
                play(game.new_initial_state(log=EventLog(writer, keep=False)),
                     seat_agents(game.seed, seats, package.name))
            start = time.process_time()
            run = verify_log(rs, read_log_file(path).events)
            times.append(time.process_time() - start)
            assert run.ok and run.chance_checked
    return statistics.median(times) * 1000


def seats_of(rs: object, bots: str) -> list[str]:
    """A bot per seat: as given, or one bot at each of 4 seats (the most the ruleset seats, if fewer)."""
    spellings = bots.split(",")
    if len(spellings) > 1:
        return spellings
    counts = rs.player_counts  # type: ignore[attr-defined]
    return spellings * (4 if 4 in counts else max(counts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved measurements per tree")
    parser.add_argument("--rulesets", default="original-dutch,swedish-12,updated-treasury,targi",
                        help="comma-separated rulesets, each measured apart")
    parser.add_argument("--bots", default=BOTS, help="a bot per seat, or one for every seat (random: the cost "
                                                     "shows most)")
    parser.add_argument("--baseline", help="also measure this git revision")
    parser.add_argument("--json-only", action="store_true",
                        help="as an install without orjson (the fast-logs extra): logs encoded by json alone")
    parser.add_argument("--verify-games", type=int, default=5, help="logs read and verified per ruleset (0: none)")
    parser.add_argument("--callgrind", action="store_true",
                        help="also count each way's instructions under valgrind (exact under any load; the "
                             "kernel's part of the file is not counted); one round is enough")
    parser.add_argument("--folder", default="", help="write the logs in this folder (default: the system's "
                                                     "temporary one), to see what its file system costs")
    args = parser.parse_args()
    if args.callgrind and not shutil.which("valgrind"):
        parser.error("--callgrind needs valgrind on the PATH")
    rulesets = args.rulesets.split(",")
    with tempfile.TemporaryDirectory(prefix="targui-baseline-") as tmp:
        trees = [("this tree", str(HERE.parent))]
        if args.baseline:
            trees.append((args.baseline, str(unpack(args.baseline, Path(tmp)))))
        runs: dict[tuple[str, str], list[dict]] = {(r, label): [] for r in rulesets for label, _ in trees}
        for round_index in range(args.rounds):
            for ruleset in rulesets:
                for label, tree in trees:
                    runs[ruleset, label].append(measure(tree, ruleset, args.bots, args.games, args.json_only,
                                                       args.callgrind, args.folder))
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{args.games} games of {args.bots} x {args.rounds} rounds, CPU ms per game (the rounds' medians"
          f"{'; under valgrind: its times, not the machine' + chr(39) + 's' if args.callgrind else ''}); "
          f"load {os.getloadavg()[0]:.2f}{'; json only (no orjson)' if args.json_only else ''}")
    print(f"{'ruleset':<17} {'tree':<10} {'no log':>8} {'log':>8} {'log/no log':>11} {'bytes/game':>11}  "
          f"{'built':>6} {'memory':>6}  per round")
    for ruleset in rulesets:
        for label, _ in trees:
            got = runs[ruleset, label]
            bare = statistics.median(r["bare"] for r in got)
            logged = statistics.median(r["logged"] for r in got)
            rounds = " ".join(f"{r['logged'] / r['bare']:.2f}x" for r in got)
            built = statistics.median(r["built"] for r in got) / bare
            memory = statistics.median(r["memory"] for r in got) / bare
            print(f"{ruleset:<17} {label:<10} {bare:>8.2f} {logged:>8.2f} {logged / bare:>10.2f}x "
                  f"{got[0]['bytes']:>11,.0f}  {built:>5.2f}x {memory:>5.2f}x  {rounds}")
        digests = {r["sha256"] for label, _ in trees for r in runs[ruleset, label]}
        print(f"{'':<17} the same log bytes in every tree and round: {'yes' if len(digests) == 1 else 'NO'}")
    print_usage(rulesets, trees, runs)
    if args.callgrind:
        print_instructions(rulesets, trees, runs)
    if args.verify_games:
        for ruleset in rulesets:
            print(f"read + verify a log of {ruleset} (this tree): "
                  f"{read_and_verify(ruleset, args.bots, args.verify_games):.1f} ms")


def print_usage(rulesets: list[str], trees: list[tuple[str, str]], runs: dict[tuple[str, str], list[dict]]) -> None:
    """Each way's user and system CPU ms, minor page faults and sleeps (voluntary context switches,
    an ``fsync``'s wait) per game, the rounds' medians, by ``getrusage``: its user/system split is
    the kernel's, sampled at its clock ticks, so only their sum is as exact as the table above."""
    print("by getrusage, per game: user ms / system ms, minor page faults, sleeps (the split sampled at the "
          "kernel's ticks)")
    print(f"{'ruleset':<17} {'tree':<10} " + " ".join(f"{how:>24}" for how in WAYS))
    for ruleset in rulesets:
        for label, _ in trees:
            got = runs[ruleset, label]
            if "bare_utime" not in got[0]:
                continue
            cells = []
            for how in WAYS:
                user, system, faults, sleeps = (statistics.median(r[f"{how}_{field}"] for r in got)
                                                for field in ("utime", "stime", "minflt", "nvcsw"))
                cells.append(f"{user:.2f}/{system:.2f} {faults:5.0f} {sleeps:4.1f}")
            print(f"{ruleset:<17} {label:<10} " + " ".join(f"{cell:>24}" for cell in cells))


def print_instructions(rulesets: list[str], trees: list[tuple[str, str]],
                       runs: dict[tuple[str, str], list[dict]]) -> None:
    """``--callgrind``'s table: instructions per game with no log, and each way as a multiple of it
    (the same games in every round: the first round's)."""
    print("instructions per game (callgrind; the file's kernel work, fsync, is not counted)")
    print(f"{'ruleset':<17} {'tree':<10} {'no log':>8} {'log/no log':>11} {'built':>7} {'memory':>7}")
    for ruleset in rulesets:
        for label, _ in trees:
            got = runs[ruleset, label][0]
            bare = got["i_bare"]
            print(f"{ruleset:<17} {label:<10} {bare / 1e6:>7.3f}M {got['i_logged'] / bare:>10.3f}x "
                  f"{got['i_built'] / bare:>6.3f}x {got['i_memory'] / bare:>6.3f}x")


if __name__ == "__main__":
    main()
