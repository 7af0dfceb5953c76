"""Where chunks run: in this process, in a local process pool, or on a Dask cluster.

The runner takes any :class:`concurrent.futures.Executor`; these are the
ones the CLI makes.

- :class:`InlineExecutor` runs each chunk at once in the calling thread
  (one worker: no processes to start).
- :func:`local_pool` is a process pool that starts fast: on Linux its
  workers are forked, so they neither import targui again nor compile the
  ruleset (the parent's compiled ruleset is inherited); elsewhere they are
  spawned and compile it once, in their initializer. Workers ignore Ctrl-C
  (the parent stops them), die quietly on SIGTERM or SIGHUP, and on Linux
  die with their parent, even one killed with SIGKILL.
- :func:`dask_executor` connects to a running Dask scheduler
  (``pip install '.[dask]'``).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import socket
import struct
import sys
import time
import urllib.parse
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.study.signals import STOP_SIGNALS, signals_blocked
from targui_dsl.study.source import RulesetSource, compile_source, remember_compiled

__all__ = ["ExecutorUnavailable", "InlineExecutor", "dask_executor", "local_pool", "probe_scheduler",
           "scheduler_endpoint", "stop_workers"]


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


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux: ``prctl(PR_SET_PDEATHSIG)``),
    so that a worker never outlives a study killed with SIGKILL; and if the parent is already
    gone (it died before this was set), exit now. Elsewhere: nothing (the pool's own pipes
    end idle workers)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


def _worker_init(source: RulesetSource, parent: int) -> None:
    """In each worker: it dies with its parent; Ctrl-C is the parent's business; SIGTERM/SIGHUP
    end it silently; compile once."""
    die_with_parent(parent)
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
    # what the parent holds (modules, the compiled ruleset) is frozen out of the collector while the
    # workers are forked: a worker's collections then never walk it (nor copy its pages by touching it)
    gc.freeze()
    try:
        with signals_blocked():
            executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init,
                                           initargs=(source, os.getpid()))
            try:
                for _ in range(workers):  # start every worker now, while the stop signals wait
                    executor.submit(_ready)
            except BaseException:
                stop_workers(executor)
                raise
    finally:
        gc.unfreeze()  # in this process only: the workers keep it frozen
    try:
        yield executor
        executor.shutdown(wait=True)
    except BaseException:
        stop_workers(executor)
        raise


CONNECT_SECONDS = 4.0  # how long to try reaching a Dask scheduler (and to wait for its greeting)
_GREETING_CAP = 1 << 20  # a scheduler's first message (its handshake) is a few hundred bytes


def scheduler_endpoint(address: str) -> tuple[str, int]:
    """(host, port) of a Dask scheduler address: ``tcp://HOST:PORT`` or ``HOST:PORT``
    (``[::1]:8786`` for IPv6); :class:`ExecutorUnavailable` for anything else, before
    anything is connected (``inproc://``, ``tcp://`` without a host, no port, ...)."""
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme != "tcp":
        raise ExecutorUnavailable(f"--scheduler {address!r}: only tcp:// addresses are supported "
                                  "(tcp://HOST:PORT)")
    try:
        parts = urllib.parse.urlsplit("tcp://" + rest)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or port is None or port == 0 or parts.path or parts.query or parts.fragment \
            or parts.username is not None:
        raise ExecutorUnavailable(f"--scheduler {address!r} is not an address: write tcp://HOST:PORT "
                                  "(tcp://10.0.0.5:8786)")
    return host, port


def _in_process_scheduler(address: str) -> str:
    """An ``inproc://`` address is a scheduler in this very process (a test's
    ``LocalCluster(processes=False)``); one that names none is refused at once."""
    from distributed.comm.inproc import global_manager

    try:
        listener = global_manager.get_listener_for(address.removeprefix("inproc://"))
    except ValueError:  # not host/pid/number, or another process's
        listener = None
    if listener is None:
        raise ExecutorUnavailable(f"--scheduler {address!r}: no scheduler of this process has that address; "
                                  "write tcp://HOST:PORT (tcp://10.0.0.5:8786)")
    return address


def probe_scheduler(host: str, port: int, timeout: float = CONNECT_SECONDS) -> None:
    """Check that a Dask scheduler answers at (host, port) before Dask's client is made:
    the port accepts within ``timeout`` and its first message (a scheduler greets every
    connection with its handshake) arrives whole within ``timeout``, framed as Dask frames
    it (an 8-byte length, then that many bytes). :class:`ExecutorUnavailable` otherwise:
    a refused port, a server that says nothing, one that says something else."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            deadline = time.monotonic() + timeout
            head = _read_exactly(sock, 8, deadline)
            (length,) = struct.unpack("<Q", head)
            if not 0 < length <= _GREETING_CAP:
                raise ExecutorUnavailable("it answers, but not as a Dask scheduler")
            _read_exactly(sock, length, deadline)
    except socket.timeout:
        raise ExecutorUnavailable(f"no answer within {timeout:g} s") from None
    except ConnectionError as err:
        if isinstance(err, ConnectionRefusedError):
            raise ExecutorUnavailable("connection refused") from None
        raise ExecutorUnavailable("it closed the connection: not a Dask scheduler") from None
    except OSError as err:  # an unknown host, an unreachable network
        raise ExecutorUnavailable(err.strerror or str(err)) from None


def _read_exactly(sock: socket.socket, count: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    while count > 0:
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout
        sock.settimeout(left)
        chunk = sock.recv(min(count, 65536))
        if not chunk:
            raise ConnectionResetError
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


@contextmanager
def dask_executor(address: str, timeout: float | None = None) -> Iterator[tuple[Executor, int]]:
    """An executor on the Dask cluster at ``address`` and its number of worker threads.

    The address is checked and the scheduler probed first (:func:`scheduler_endpoint`,
    :func:`probe_scheduler`): a bad address, a closed port or a server that is not Dask's
    is one :class:`ExecutorUnavailable` within seconds, and no half-made client is left
    to complain when the process exits."""
    try:
        from distributed import Client
    except ImportError:
        raise ExecutorUnavailable("--scheduler needs Dask's `distributed`: pip install '.[dask]'") from None
    seconds = timeout or CONNECT_SECONDS
    if address.startswith("inproc://"):
        target = _in_process_scheduler(address)
    else:
        host, port = scheduler_endpoint(address)
        try:
            probe_scheduler(host, port, seconds)
        except ExecutorUnavailable as err:
            raise ExecutorUnavailable(f"cannot reach the Dask scheduler at {address}: {err}") from None
        target = f"tcp://{host}:{port}" if ":" not in host else f"tcp://[{host}]:{port}"
    try:
        client = Client(target, timeout=seconds, set_as_default=False)
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
