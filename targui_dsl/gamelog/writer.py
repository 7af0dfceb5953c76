"""Writing a log file: locked against a second writer, whole lines only.

Writing (:func:`open_log_for_writing`): the path is locked (``flock``,
exclusive, non-blocking) before it is emptied, so a second ``targui play
--log`` on the same path is refused with one line instead of both games
writing into one file. Events are written as whole lines, gathered into
writes of about :data:`BATCH` bytes (one system call per line made a log
cost more than the game), and at every ``flush()``: ``targui play`` flushes
before a person decides, so the log is whole while they think. A write that
fails midway (a full disk) is undone back to the last complete line that
reached the file, so the file always ends at a complete event.

A log never grows past what every reader reads (:data:`~targui_dsl.gamelog.reader.TOTAL_CAP`,
64 MiB; a game of Targui writes some 50-150 kB): the write that would pass it
is refused (:class:`LogTooLarge`) and the game stops there, its log whole and
readable up to its last event within the cap.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import Any, Callable

from targui_dsl.gamelog.reader import TOTAL_CAP

__all__ = ["BATCH", "LogLocked", "LogTooLarge", "LogWriter", "open_log_for_writing", "open_log_for_appending"]

#: Bytes of complete lines gathered before they are written (a game of 1,000 events: about 7 writes).
BATCH = 16384


class LogLocked(OSError):
    """Another process is writing this log file."""


class LogTooLarge(OSError):
    """The next event would take the log past what a reader reads."""


class LogWriter:
    """A log file open for writing, locked against other targui processes.

    ``write`` takes text; complete lines are written once :data:`BATCH` bytes
    have gathered, at ``flush()`` and at ``close()`` (an unfinished line waits
    for its end). When a write fails midway, the file is cut back to the end of
    the last complete line that reached it, what was gathered is dropped and
    the error raised: a full disk leaves a log that ends at a complete event.
    """

    def __init__(self, fd: int, path: str, regular: bool, write: Callable[[int, memoryview], int] = os.write,
                 cap: int | None = None):
        self.fd, self.path, self.regular = fd, path, regular
        self.cap = TOTAL_CAP if cap is None else cap  # the readers' cap, read when the log is opened
        self._write = write
        self._parts: list[str] = []  # text not yet written (a list: joined once per write)
        self._size = 0  # characters in _parts
        self._good = 0  # bytes of complete lines in the file
        self.closed = False

    def write(self, text: str) -> int:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= BATCH:
            self._write_lines()
        return len(text)

    def _write_lines(self) -> None:
        """Write every complete line gathered; an unfinished one stays."""
        pending = "".join(self._parts)
        end = pending.rfind("\n") + 1
        rest = pending[end:]
        self._parts, self._size = ([rest] if rest else []), len(rest)
        if not end:
            return
        data = pending[:end].encode("utf-8", errors="surrogatepass")
        if self._good + len(data) > self.cap:
            # the whole lines that still fit are written: the log ends at its last event within the cap
            fit = data.rfind(b"\n", 0, max(0, self.cap - self._good)) + 1
            self._parts, self._size = [], 0
            if fit:
                self._write_all(data[:fit])
            size = f"{self.cap >> 20} MiB" if self.cap % (1 << 20) == 0 else f"{self.cap:,} bytes"
            raise LogTooLarge(errno.EFBIG, f"the log reached {size}, the most a log may hold "
                              "(no reader reads more); the game was stopped there, its log whole up to its "
                              "last event", self.path)
        self._write_all(data)

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        done = 0
        try:
            while done < len(data):
                written = self._write(self.fd, view[done:])
                if written <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                done += written
        except BaseException:  # a full disk, or a Ctrl-C between two partial writes
            self._parts, self._size = [], 0
            self._good += data.rfind(b"\n", 0, done) + 1  # the whole lines that did reach the file
            if self.regular:
                try:  # take back the part of a line that did get written
                    os.ftruncate(self.fd, self._good)
                    os.lseek(self.fd, self._good, os.SEEK_SET)
                except OSError:
                    pass
            raise
        self._good += len(data)

    def flush(self) -> None:
        """Write every complete line gathered so far (an unfinished line waits for its end)."""
        if self._parts:
            self._write_lines()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.flush()  # a failure here is the caller's to hear (a full disk at the last lines)
        finally:
            try:
                if self.regular:
                    os.fsync(self.fd)
            except OSError:
                pass
            finally:
                os.close(self.fd)  # closing releases the lock

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def open_log_for_writing(path: str, write: Callable[[int, memoryview], int] = os.write) -> LogWriter:
    """Open ``path`` to write a new log, locked; raises :class:`LogLocked` when another
    targui holds it, OSError when it cannot be opened.

    The lock (``flock``, exclusive, non-blocking) is taken *before* the file is
    emptied, so a refused second writer leaves the first one's log whole. A
    device or pipe (``/dev/null``) is written as it is, without a lock.
    """
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    try:  # a new file, the usual log: made here, so a regular file (no stat, no fstat, no O_NONBLOCK to undo)
        fd = os.open(path, flags | os.O_EXCL, 0o666)
    except FileExistsError:  # (a directory, a symbolic link, a device, a pipe, a file: each as below)
        return _open_existing_for_writing(path, flags, write)
    return _locked(fd, path, write)


def _open_existing_for_writing(path: str, flags: int, write: Callable[[int, memoryview], int]) -> LogWriter:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    regular = stat.S_ISREG(mode)
    # O_NONBLOCK: should the path turn into a FIFO after the stat, opening it fails instead of waiting
    fd = os.open(path, flags | os.O_NONBLOCK if regular else os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        os.set_blocking(fd, True)
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except BaseException:
        os.close(fd)
        raise
    return _locked(fd, path, write) if regular else LogWriter(fd, path, False, write)


def _locked(fd: int, path: str, write: Callable[[int, memoryview], int]) -> LogWriter:
    """The regular file open at ``fd`` locked, then emptied (:class:`LogLocked` when another targui
    holds it): even one just made, as a writer that opened it in between may have written it. An
    empty file is left as it is (an ``lseek`` is cheap; an ``ftruncate`` writes the inode's times)."""
    try:
        _lock(fd, path)
        if os.lseek(fd, 0, os.SEEK_END):
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return LogWriter(fd, path, True, write)


def _lock(fd: int, path: str) -> None:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LogLocked(errno.EBUSY, "another targui is writing this log now; "
                        "wait for it to finish or choose another file", path) from None


def open_log_for_appending(path: str, write: Callable[[int, memoryview], int] = os.write,
                           cut_to: int | None = None) -> LogWriter:
    """Open the log at ``path`` to add events after its last line, locked as
    :func:`open_log_for_writing` (:class:`LogLocked` when another targui holds it);
    for ``targui play --resume``. The file must be a regular file whose last line is
    complete (a newline at its end): a failed write is cut back to that length. ``cut_to``
    first cuts the file back to that many bytes (a last line cut short by a crash, which the
    reader left out: :attr:`~targui_dsl.gamelog.reader.LogStream.whole_bytes`)."""
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        os.set_blocking(fd, True)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        _lock(fd, path)
        end = os.lseek(fd, 0, os.SEEK_END)
        if cut_to is not None and cut_to != end:
            if not 0 <= cut_to < end:
                raise OSError(errno.EINVAL, "it changed since it was read", path)
            os.ftruncate(fd, cut_to)  # under the lock: nobody else writes it now
            end = os.lseek(fd, 0, os.SEEK_END)
        if end:
            with open(path, "rb") as check:
                check.seek(end - 1)
                if check.read(1) != b"\n":
                    raise OSError(errno.EINVAL, "its last line is cut short", path)
    except BaseException:
        os.close(fd)
        raise
    writer = LogWriter(fd, path, True, write)
    writer._good = end
    return writer

