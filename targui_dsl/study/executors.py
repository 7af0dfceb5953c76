"""Where chunks run: in this process, in a local process pool, or on a Dask cluster.

The runner takes any :class:`concurrent.futures.Executor`; these are the
ones the CLI makes.

- :class:`InlineExecutor` runs each chunk at once in the calling thread
  (one worker: no processes to start).
- :func:`local_pool` is a process pool that starts fast: on Linux its
  workers are forked, so they neither import targui again nor compile the
  ruleset (the parent's compiled ruleset is inherited); elsewhere they are
  spawned and compile it once, in their initializer. Workers ignore Ctrl-C
  (the parent stops them) and die quietly on SIGTERM or SIGHUP.
- :func:`dask_executor` connects to a running Dask scheduler
  (``pip install '.[dask]'``).
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.study.signals import STOP_SIGNALS, signals_blocked
from targui_dsl.study.source import RulesetSource, compile_source, remember_compiled

__all__ = ["ExecutorUnavailable", "InlineExecutor", "dask_executor", "local_pool", "stop_workers"]


class ExecutorUnavailable(RuntimeError):
    """The executor asked for cannot be had (Dask missing, the scheduler unreachable)."""


class InlineExecutor(Executor):
    """Runs each call when it is submitted, in the calling thread."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as err:  # a stop signal (a BaseException) goes to the caller instead
            future.set_exception(err)
        return future


def _worker_init(source: RulesetSource) -> None:
    """In each worker: Ctrl-C is the parent's business; SIGTERM/SIGHUP end it silently; compile once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in STOP_SIGNALS:
        if sig != signal.SIGINT:
            signal.signal(sig, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    try:
        compile_source(source)
    except Exception:  # noqa: BLE001 - the first chunk reports it, with its own message
        pass


def _ready() -> None:
    return None


def start_method() -> str:
    """'fork' where it is safe and available (Linux), else the platform's default."""
    methods = multiprocessing.get_all_start_methods()
    return "fork" if sys.platform.startswith("linux") and "fork" in methods else multiprocessing.get_start_method()


def stop_workers(executor: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now, not after the games already queued."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    # The pool's manager thread sees its workers gone and fails the queued futures; let it finish
    # before shutting down (cancelling them first races it, and Python 3.11 then prints a traceback).
    manager = getattr(executor, "_executor_manager_thread", None)
    if manager is not None:
        manager.join()
    executor.shutdown(wait=True)


@contextmanager
def local_pool(workers: int, source: RulesetSource, ruleset: CompiledRuleset | None = None) -> Iterator[Executor]:
    """A process pool of ``workers`` workers; on an error or a stop signal the workers are stopped at once."""
    if ruleset is not None:
        remember_compiled(source, ruleset)  # forked workers inherit it: nothing to compile
    context = multiprocessing.get_context(start_method())
    with signals_blocked():
        executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init, initargs=(source,))
        try:
            for _ in range(workers):  # start every worker now, while the stop signals wait
                executor.submit(_ready)
        except BaseException:
            stop_workers(executor)
            raise
    try:
        yield executor
        executor.shutdown(wait=True)
    except BaseException:
        stop_workers(executor)
        raise


CONNECT_SECONDS = 10.0  # how long to try reaching a Dask scheduler


@contextmanager
def dask_executor(address: str, timeout: float | None = None) -> Iterator[tuple[Executor, int]]:
    """An executor on the Dask cluster at ``address`` and its number of worker threads."""
    try:
        from distributed import Client
    except ImportError:
        raise ExecutorUnavailable("--scheduler needs Dask's `distributed`: pip install '.[dask]'") from None
    try:
        client = Client(address, timeout=timeout or CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise ExecutorUnavailable(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        executor = client.get_executor(pure=False)
        try:
            yield executor, max(1, sum(client.nthreads().values()))
        except BaseException:
            executor.shutdown(wait=False)  # cancels what is queued or running on the cluster
            raise
    finally:
        client.close()
