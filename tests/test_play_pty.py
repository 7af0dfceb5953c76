"""`targui play --human` through a real pseudo-terminal: colour on a terminal, garbage
input answered, a typed and a numbered action taken, Ctrl-D and Ctrl-C leave cleanly.

Every read is bounded by a deadline and the child is killed if it outlives the
test, so a broken prompt fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import time

import pytest

pty = pytest.importorskip("pty")  # POSIX only

from pty_session import Session  # noqa: E402

PROMPT = "Kel Ahaggar [1]> "


@pytest.fixture
def start(tmp_path):
    sessions = []

    def start(*args):
        session = Session(["play", *args])  # a colour terminal, NO_COLOR unset
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
