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
"""

from __future__ import annotations

import argparse
import os
import time

from targui_dsl.study import RulesetSource, Study, check_seating, compile_source, local_pool, run_study


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

    for workers in (int(w) for w in args.workers.split(",")):
        before, cpu, started = load(), time.process_time(), time.perf_counter()
        if workers == 1:
            result = run_study(study)
        else:
            with local_pool(workers, source, ruleset) as pool:
                result = run_study(study, pool, window=4 * workers)
        seconds = time.perf_counter() - started
        summaries[f"{workers} local"] = result.summary
        report(f"{workers} local worker{'s' if workers > 1 else ''}", seconds, time.process_time() - cpu,
               result.cpu_seconds, before)

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
