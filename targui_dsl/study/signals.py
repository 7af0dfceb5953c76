"""SIGINT, SIGTERM and SIGHUP stop a study the same way: cleanly, keeping what finished.

Inside :class:`StopOnSignals` each of the three signals raises
:class:`StudyInterrupted` in the main thread, except inside
:func:`critical` (writing a finished chunk to the --out and --records
files), where it waits for the end of the write. After the first signal,
further ones are noted and ignored, so stopping the workers is never cut
short. A signal the parent process ignores (``nohup``, a background job)
stays ignored.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["STOP_SIGNALS", "StopOnSignals", "StudyInterrupted", "critical"]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class StudyInterrupted(KeyboardInterrupt):
    """A study stopped by a signal; ``exit_code`` is the shell's convention, 128 + the signal number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.chunks_kept = 0  # set by the runner: finished chunks in the --out file
        self.chunk_count = 0

    @property
    def signal_name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


class StopOnSignals:
    """While active (main thread only), the stop signals raise :class:`StudyInterrupted`."""

    active: StopOnSignals | None = None

    def __init__(self) -> None:
        self._previous: dict[int, Any] = {}
        self._critical = 0
        self.pending: int | None = None
        self.stopping = False

    def _handler(self, signum: int, frame: Any) -> None:
        if self.stopping:
            return  # already stopping: let the clean-up finish
        if self._critical:
            self.pending = signum
            return
        self.stopping = True
        raise StudyInterrupted(signum)

    def __enter__(self) -> StopOnSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                if signal.getsignal(sig) is not signal.SIG_IGN:
                    self._previous[sig] = signal.signal(sig, self._handler)
        StopOnSignals.active = self
        return self

    def __exit__(self, *exc: Any) -> None:
        StopOnSignals.active = None
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)

    @contextmanager
    def _hold(self) -> Iterator[None]:
        self._critical += 1
        try:
            yield
        finally:
            self._critical -= 1
        if not self._critical and self.pending is not None and not self.stopping:
            self.stopping = True
            raise StudyInterrupted(self.pending)


@contextmanager
def critical() -> Iterator[None]:
    """A section a stop signal does not cut short (it takes effect at its end)."""
    guard = StopOnSignals.active
    if guard is None:
        yield
    else:
        with guard._hold():
            yield


@contextmanager
def signals_blocked() -> Iterator[None]:
    """Block the stop signals (they wait, pending) while worker processes are started.

    A forked worker starts with the parent's signal handlers; blocked, no
    signal reaches it before its initializer has set its own.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
