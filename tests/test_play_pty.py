"""`targui play --human` through a real pseudo-terminal: colour on a terminal, garbage
input answered, a typed and a numbered action taken, Ctrl-D and Ctrl-C leave cleanly.

Every read is bounded by a deadline and the child is killed if it outlives the
test, so a broken prompt fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import sys
import time

import pytest

pty = pytest.importorskip("pty")  # POSIX only

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|[\x01\x02]")
PROMPT = "Kel Ahaggar [1]> "
TIMEOUT = 10.0  # seconds per expected piece of output: generous, a normal run takes well under one


class Session:
    """A child process on a pty, with bounded reads."""

    def __init__(self, args, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the command
            try:
                os.execvpe(sys.executable, [sys.executable, *args], env)
            finally:
                os._exit(127)
        self.raw = b""
        self.pos = 0  # where the next expect() starts, in the plain text
        self.status = None

    @property
    def text(self) -> str:
        return ANSI.sub(b"", self.raw).decode("utf-8", "replace").replace("\r\n", "\n")

    def _read(self, timeout: float) -> bool:
        """Read what is there within `timeout`; False once the child has closed the terminal."""
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        self.raw += data
        return bool(data)

    def expect(self, needle: str, timeout: float = TIMEOUT) -> str:
        """Wait until `needle` appears after the last match; return the text up to and including it."""
        deadline = time.monotonic() + timeout
        open_ = True
        while True:
            index = self.text.find(needle, self.pos)
            if index >= 0:
                start, self.pos = self.pos, index + len(needle)
                return self.text[start:self.pos]
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not open_:
                raise AssertionError(f"no {needle!r} within {timeout}s; the output after the last match:\n"
                                     f"{self.text[self.pos:][-3000:]}")
            open_ = self._read(min(remaining, 0.5))

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait(self, timeout: float = TIMEOUT) -> int:
        """The exit status; the rest of the output is read on the way."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self._read(0.05):
                    pass
                self.status = status
                return os.waitstatus_to_exitcode(status)
        raise AssertionError(f"the game did not exit within {timeout}s:\n{self.text[-3000:]}")

    def close(self) -> None:
        if self.status is None:  # still running after a failed check: end it (only this child)
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


@pytest.fixture
def start(tmp_path):
    sessions = []
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TARGUI_DEBUG")}
    env.update(TERM="xterm", COLUMNS="100", LINES="50", PYTHONIOENCODING="utf-8")

    def start(*args):
        session = Session(["-m", "targui_cli.main", "play", *args], env)
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        session.close()


def game_args(log):
    return ["updated-treasury", "--players", "2", "--human", "1", "--seed", "3", "--log", str(log)]


def test_a_game_at_a_terminal_then_ctrl_d(start, tmp_path):
    log = tmp_path / "game.jsonl"
    game = start(*game_args(log))
    game.expect(PROMPT)
    assert b"\x1b[1m" in game.raw and b"\x1b[" in game.raw  # a terminal: colour by itself
    first = game.text
    assert "| 1 Sal" in first and "1) sector north_west" in first

    game.send(b"flibble\n")  # garbage: the reason, then the prompt again
    answer = game.expect(PROMPT)
    assert "`flibble`: unknown action `flibble`" in answer

    game.send(b"sector north_west\n")  # a typed action
    answer = game.expect(PROMPT)
    assert "Kel Ahaggar: sector north_west" in answer and "1) settle 20" in answer

    game.send(b"1\n")  # a numbered choice
    answer = game.expect(PROMPT)
    assert "Kel Ahaggar: settle 20" in answer and "movement phase" in answer

    game.send(b"\x04")  # Ctrl-D at an empty line: end of input
    game.expect("Game left in round 1 (end of input), unfinished.")
    assert game.wait() == 0
    assert "Traceback" not in game.text
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "header"
    mine = [e["action"] for e in events if e["type"] == "decision" and e["player"] == 0 and not e["forced"]]
    assert mine == ["sector north_west", "settle 20"]


def test_ctrl_c_at_the_prompt_exits_130_and_keeps_the_log(start, tmp_path):
    log = tmp_path / "game.jsonl"
    game = start(*game_args(log), "--colour", "never")
    game.expect(PROMPT)
    assert b"\x1b[1m" not in game.raw  # --colour never, even on a terminal
    game.send(b"sector south_east\n")
    game.expect(PROMPT)
    # Ctrl-C: the terminal sends SIGINT to the game. Wait a moment first: a signal that lands
    # between readline's prompt and its wait for input is only noticed at the next key (CPython).
    time.sleep(0.5)
    game.send(b"\x03")
    game.expect("(interrupted), unfinished.")
    assert game.wait() == 130
    assert "Traceback" not in game.text
    lines = log.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    assert any(e["type"] == "decision" and e["action"] == "sector south_east" for e in events)
