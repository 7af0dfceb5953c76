"""A command run on a pseudo-terminal, with bounded reads, for tests of what a person sees.

Every read has a deadline and the child is killed if it outlives the test, so a
broken prompt fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import re
import select
import signal
import sys
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|[\x01\x02]")
TIMEOUT = 20.0


def plain(raw: bytes) -> str:
    return ANSI.sub(b"", raw).decode("utf-8", "replace").replace("\r\n", "\n")


class Session:
    """``python -m targui_cli.main ARGS`` on a pty."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, cwd: str | None = None):
        if env is None:
            env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TARGUI_DEBUG")}
            env.update(TERM="xterm", COLUMNS="100", LINES="50", PYTHONIOENCODING="utf-8")
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the command
            try:
                if cwd:
                    os.chdir(cwd)
                os.execvpe(sys.executable, [sys.executable, "-m", "targui_cli.main", *args], env)
            finally:
                os._exit(127)
        self.raw = b""
        self.pos = 0  # where the next expect() starts, in the plain text
        self.status = None

    @property
    def text(self) -> str:
        return plain(self.raw)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        self.raw += data
        return bool(data)

    def expect_any(self, needles: list[str], timeout: float = TIMEOUT) -> tuple[str, str]:
        """Wait until one of ``needles`` appears after the last match: (the needle, the text up to it)."""
        deadline = time.monotonic() + timeout
        open_ = True
        while True:
            text = self.text
            found = [(text.find(n, self.pos), n) for n in needles]
            found = [(i, n) for i, n in found if i >= 0]
            if found:
                index, needle = min(found)
                start, self.pos = self.pos, index + len(needle)
                return needle, text[start:self.pos]
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not open_:
                raise AssertionError(f"none of {needles!r} within {timeout}s; the output after the last match:\n"
                                     f"{text[self.pos:][-3000:]}")
            open_ = self._read(min(remaining, 0.5))

    def expect(self, needle: str, timeout: float = TIMEOUT) -> str:
        return self.expect_any([needle], timeout)[1]

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self._read(0.05):
                    pass
                self.status = status
                return os.waitstatus_to_exitcode(status)
        raise AssertionError(f"the command did not exit within {timeout}s:\n{self.text[-3000:]}")

    def close(self) -> None:
        if self.status is None:  # still running after a failed check: end it (only this child)
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)
