"""Reading a path a user (or a stranger's file) named: only files, never without bound.

``targui validate fifo`` used to wait forever for a writer, ``targui replay
/dev/zero`` to read until memory ran out. :func:`read_bounded` looks at what
a path is before opening it (``os.stat``), refuses directories, devices,
sockets and named pipes (FIFOs) with a one-line reason, opens without
blocking, checks again what it opened (the path may have been swapped in
between) and reads at most ``cap + 1`` bytes, so the caller can tell "too
large" from "exactly the cap".

One kind of pipe is accepted: an anonymous one handed over as
``/dev/fd/N`` (a shell's ``<(...)``), whose writer is already there; it is
read with the same cap.

Writing (:func:`check_output`, :func:`open_output`): an output path must be a
regular file or not exist yet. A FIFO used to block ``simulate --out`` for
ever (and the open could not be interrupted); a device or socket is refused
the same way. :func:`same_file` tells two spellings of one file apart from two
files (device and inode, links resolved).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["NotAFile", "read_bounded", "describe_kind", "check_output", "open_output", "same_file"]


class NotAFile(OSError):
    """The path is not something targui reads (a directory, device, socket or FIFO).

    An OSError whose ``strerror`` is the reason, so code that reports
    ``err.strerror`` for an unreadable path reports this one too.
    """

    def __init__(self, path: str, reason: str):
        super().__init__(0, reason, path)


def describe_kind(mode: int, verb: str = "reads") -> str | None:
    """Why a file of this mode is not read (or, ``verb="writes"``, written); None: a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return f"is a named pipe (FIFO), not a file; targui {verb} only files"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    return "is not a regular file"


def _anonymous_pipe(path: str) -> bool:
    """``/dev/fd/N`` (or ``/proc/self/fd/N``) standing for a pipe a shell handed over
    (readlink follows the ``/dev/fd`` link itself; the last one names the pipe)."""
    try:
        return os.readlink(path).startswith("pipe:[")
    except (OSError, ValueError):
        return False


def read_bounded(path: str | Path, cap: int) -> bytes:
    """The bytes of ``path``, at most ``cap + 1`` of them (more than ``cap``: too large).

    Raises :class:`NotAFile` for a directory, device, socket or named pipe,
    and OSError (ValueError for a NUL in the name) when it cannot be read.
    """
    name = os.fspath(path)
    mode = os.stat(name).st_mode  # before opening: opening a FIFO may block, a device may never end
    allowed_pipe = stat.S_ISFIFO(mode) and _anonymous_pipe(name)
    reason = None if allowed_pipe else describe_kind(mode)
    if reason is not None:
        raise NotAFile(name, reason)
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        opened = os.fstat(fd).st_mode
        if not (stat.S_ISREG(opened) or (allowed_pipe and stat.S_ISFIFO(opened))):
            raise NotAFile(name, describe_kind(opened) or "is not a regular file")  # swapped since the stat
        if allowed_pipe:
            os.set_blocking(fd, True)  # its writer is there: wait for it
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_output(path: str | Path) -> bool:
    """Refuse (:class:`NotAFile`) an output path that exists and is not a regular file
    (links followed); True when it exists, False when it is still to be made.
    Only looks: nothing is opened, so a FIFO cannot block."""
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        return False
    reason = describe_kind(mode, "writes")
    if reason is not None:
        raise NotAFile(name, reason)
    return True


def open_output(path: str | Path, flags: int, mode: int = 0o666) -> int:
    """A file descriptor for writing to ``path`` (``flags`` as for ``os.open``, e.g.
    ``os.O_RDWR | os.O_CREAT``), refusing anything but a regular file.

    The path is looked at first; the open itself is non-blocking (a FIFO
    swapped in since fails at once, never waits for a reader, so a signal is
    answered), and what was opened is checked again. The descriptor returned
    is blocking and not inherited by child processes.
    """
    name = os.fspath(path)
    check_output(name)
    fd = os.open(name, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        reason = describe_kind(os.fstat(fd).st_mode, "writes")
        if reason is not None:
            raise NotAFile(name, reason)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two paths name one file: the same device and inode when both exist
    (``//tmp/x``, a symbolic link, a hard link), else the same resolved path."""
    try:
        a, b = os.stat(first), os.stat(second)
    except (OSError, ValueError):
        return os.path.realpath(first) == os.path.realpath(second)
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
