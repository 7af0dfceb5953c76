"""Study throughput: games/s on 1, 2 and 4 local workers and on a local Dask cluster.

    python benchmarks/bench_study.py [--games 20000] [--ruleset updated-treasury] [--workers 1,2,4]
                                     [--dask-workers 2] [--no-dask]

Not a test: nothing here asserts a time. For each executor it prints the
wall time (for local pools including starting the workers; for Dask on a
cluster already running, as with `--scheduler`), games/s, the speed-up over
one worker, the CPU time of this process and of the workers (the sum of
every chunk's CPU time), and the load average before and after, since on a
shared machine other work takes cores too. It also checks that every
executor gave the identical summary.

On a shared machine the wall speed-up says more about the other jobs than
about the workers, so for the local executors it also prints what the
parallel overhead is made of, in CPU time: the CPU milliseconds per game
(the chunks' CPU over the games: equal with 1 and 2 workers when the
workers cost nothing), the chunk plan and each worker's share of it (chunks
and CPU seconds: the imbalance), the start of the pool (fork, first round
trip) and the pickling of the chunks' results (bytes, and the time to
pickle and unpickle them all once, as the worker and this process do), and
the workers' CPU time outside their chunks (the CPU of the exited workers,
``os.times()``, less the chunks' own: starting, taking chunks, sending
results, exiting). The
speed-up two workers would reach on an idle machine is then at most
``workers x (CPU per game with 1) / (CPU per game with W) x (mean / max
worker CPU)``, less the start and the parent's share: printed as
``idle bound``.
"""

from __future__ import annotations

import argparse
import os
import pickle
import time
from concurrent.futures import Executor, Future
from typing import Any, Callable

from targui_dsl.study import RulesetSource, Study, check_seating, compile_source, local_pool, run_study
from targui_dsl.study.executors import InlineExecutor


def _tagged(fn: Callable[..., Any], *args: Any) -> tuple[int, Any]:
    """In the worker: the chunk's result, and which process played it."""
    return os.getpid(), fn(*args)


class Tagged(Executor):
    """An executor that notes which process played each chunk, its CPU time, and what its result
    costs to pickle; the runner gets the chunk results as from the executor it wraps."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.workers: dict[int, list[float]] = {}  # pid: [chunks, CPU seconds]
        self.pickled_bytes = 0
        self.pickle_seconds = 0.0  # CPU: pickling and unpickling every result once

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        outer: Future = Future()

        def done(inner: Future) -> None:
            try:
                pid, result = inner.result()
            except BaseException as err:  # noqa: BLE001 - handed to the runner as the executor's would be
                outer.set_exception(err)
                return
            share = self.workers.setdefault(pid, [0, 0.0])
            share[0] += 1
            share[1] += result.cpu_seconds
            cpu = time.process_time()
            data = pickle.dumps(result)
            pickle.loads(data)
            self.pickle_seconds += time.process_time() - cpu
            self.pickled_bytes += len(data)
            outer.set_result(result)

        self.inner.submit(_tagged, fn, *args, **kwargs).add_done_callback(done)
        return outer


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--ruleset", default="updated-treasury")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random", help="one bot kind for every seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", default="1,2,4", help="comma-separated local worker counts")
    parser.add_argument("--dask-workers", type=int, default=2, help="worker processes of the local Dask cluster")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask cluster")
    args = parser.parse_args()

    source = RulesetSource.from_reference(args.ruleset)
    ruleset = compile_source(source)
    bots = (args.bots,) * args.players
    check_seating(ruleset, args.players, bots)
    study = Study(source, args.games, args.players, bots, args.seed)
    print(f"{args.games} games of {args.ruleset}, {args.players} players, {args.bots} bots, "
          f"{study.chunk_count} chunks of {study.chunk_size}; {os.cpu_count()} CPUs")
    print(f"{'executor':<22} {'wall s':>8} {'games/s':>9} {'speed-up':>9} {'parent CPU s':>13} "
          f"{'workers CPU s':>14} {'load 1/5 min before':>20} {'after':>11}")
    summaries = {}
    base = None

    def report(name: str, seconds: float, parent_cpu: float, workers_cpu: float, before: str) -> None:
        nonlocal base
        rate = args.games / seconds
        base = base or rate
        print(f"{name:<22} {seconds:>8.2f} {rate:>9.1f} {rate / base:>8.2f}x {parent_cpu:>13.2f} "
              f"{workers_cpu:>14.2f} {before:>20} {load():>11}", flush=True)

    overheads = []
    for workers in (int(w) for w in args.workers.split(",")):
        before, cpu, started = load(), time.process_time(), time.perf_counter()
        reaped = os.times()  # the CPU of the workers, once they have exited and been waited for
        start_wall = start_cpu = 0.0
        if workers == 1:
            tagged = Tagged(InlineExecutor())
            result = run_study(study, tagged)
        else:
            with local_pool(workers, source, ruleset) as pool:
                start_wall, start_cpu = time.perf_counter() - started, time.process_time() - cpu
                tagged = Tagged(pool)
                result = run_study(study, tagged, window=4 * workers)
        seconds = time.perf_counter() - started
        parent_cpu = time.process_time() - cpu - tagged.pickle_seconds  # the pickling check is the bench's own
        summaries[f"{workers} local"] = result.summary
        report(f"{workers} local worker{'s' if workers > 1 else ''}", seconds, parent_cpu, result.cpu_seconds, before)
        after = os.times()
        # the workers' CPU outside their chunks: starting, taking chunks, pickling results, exiting
        outside = (after.children_user + after.children_system - reaped.children_user - reaped.children_system
                   - result.cpu_seconds) if workers > 1 else 0.0
        overheads.append((workers, result.cpu_seconds, parent_cpu, start_wall, start_cpu, outside, tagged))

    print(f"\nparallel overhead, CPU time ({study.chunk_count} chunks of {study.chunk_size} games):")
    print(f"{'workers':>7} {'CPU ms/game':>11} {'chunks per worker':>18} {'worker CPU s':>18} {'mean/max':>8} "
          f"{'pool start ms wall/CPU':>22} "
          f"{'results kB':>10} {'pickle ms':>9} {'parent CPU ms':>13} {'workers CPU ms outside chunks':>29} "
          f"{'idle bound':>10}")
    one = None
    for workers, chunk_cpu, parent_cpu, start_wall, start_cpu, outside, tagged in overheads:
        per_game = chunk_cpu / args.games * 1000
        one = one or per_game
        shares = sorted(tagged.workers.values(), key=lambda share: -share[1])
        cpus = [share[1] for share in shares]
        balance = (sum(cpus) / workers) / max(cpus) if len(cpus) == workers else 0.0
        # at best: each worker's CPU, the slowest worker's share, plus the start and the parent's part
        ideal = workers * one / per_game * balance
        wall_best = max(cpus) + start_wall + (parent_cpu + outside) / max(1, workers)
        bound = min(ideal, chunk_cpu / wall_best) if workers > 1 else 1.0
        start = f"{start_wall * 1000:.1f}/{start_cpu * 1000:.1f}"
        print(f"{workers:>7} {per_game:>11.3f} {'/'.join(str(int(s[0])) for s in shares):>18} "
              f"{'/'.join(f'{c:.2f}' for c in cpus):>18} {balance:>8.3f} {start:>22} "
              f"{tagged.pickled_bytes / 1000:>10.1f} {tagged.pickle_seconds * 1000:>9.1f} "
              f"{parent_cpu * 1000:>13.1f} {outside * 1000:>29.1f} {bound:>9.2f}x")

    if not args.no_dask:
        try:
            import distributed
        except ImportError:
            print("Dask: not installed (pip install '.[dask]')")
        else:
            started = time.perf_counter()
            with distributed.LocalCluster(n_workers=args.dask_workers, threads_per_worker=1, processes=True,
                                          dashboard_address=None) as cluster, distributed.Client(cluster) as client:
                print(f"(local Dask cluster of {args.dask_workers} worker processes started in "
                      f"{time.perf_counter() - started:.2f} s, not counted below)")
                before, cpu, started = load(), time.process_time(), time.perf_counter()
                result = run_study(study, client.get_executor(pure=False), window=max(32, 4 * args.dask_workers))
                seconds = time.perf_counter() - started
                summaries["dask"] = result.summary
                report(f"Dask, {args.dask_workers} workers", seconds, time.process_time() - cpu,
                       result.cpu_seconds, before)

    first = next(iter(summaries.values()))
    same = all(s == first for s in summaries.values())
    print(f"identical summaries on every executor: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
