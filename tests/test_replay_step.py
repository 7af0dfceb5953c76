"""`targui replay LOG --step`: at a terminal, the board redrawn at each event, moving forward
and back by event, turn and round, and to an event by its number; elsewhere a usage error."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

pytest.importorskip("pty")  # POSIX only

from pty_session import Session  # noqa: E402

from targui_cli.main import cli  # noqa: E402
from targui_cli.replay import step_target  # noqa: E402


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("step") / "game.jsonl"
    result = CliRunner().invoke(cli, ["play", "original-dutch", "--players", "2", "--seed", "1", "--no-board",
                                      "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path


def events_of(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_stepping_forward_and_back_at_a_terminal(log):
    events = events_of(log)
    last = len(events) - 1
    first_round = next(i for i, e in enumerate(events) if e["type"] == "round")
    first_turn = next(i for i, e in enumerate(events) if e["type"] == "turn")
    second_turn = next(i for i, e in enumerate(events) if e["type"] == "turn" and i > first_turn)
    game = Session(["replay", str(log), "--step"])
    try:
        def screen_at(n):
            text = game.expect(f"event {n} of {last}")
            rest = game.expect("q quit")  # the end of the screen: the lines told, the keys
            return text + rest

        first = screen_at(0)
        assert "+--------+" in first and "? not dealt yet" in first  # the board before the deal
        game.send(b"n")
        assert "event 1 of" in screen_at(1)
        game.send(b"\x1b[C")  # the right arrow: the next event
        screen_at(2)
        game.send(b"p")
        screen_at(1)
        game.send(b"r")  # the next round
        dealt = screen_at(first_round)
        assert "round 1" in dealt and "? not dealt yet" not in dealt  # the board drawn anew, as dealt
        game.send(b"R")  # no round before the first one: it stays, and says so
        stay = screen_at(first_round)
        assert f"no round before event {first_round}" in stay
        game.send(b"t")
        screen_at(first_turn)
        game.send(b"t")
        screen_at(second_turn)
        game.send(b"T")
        screen_at(first_turn)
        game.send(b"g")
        game.expect(f"go to event (0..{last}): ")
        game.send(b"100\n")
        at_100 = screen_at(100)
        assert "> 100  " in at_100  # the line told at this event is marked
        game.send(b"\x1b[D")  # the left arrow: back one
        screen_at(99)
        game.send(b"$")
        screen_at(last)
        game.send(b"q")
        assert game.wait() == 0
        assert "Traceback" not in game.text
    finally:
        game.close()


def test_step_is_a_usage_error_without_a_terminal(log):
    result = CliRunner().invoke(cli, ["replay", str(log), "--step"])
    assert result.exit_code == 2
    assert "--step needs a terminal" in result.output


def test_step_targets():
    events = [{"type": "header"}, {"type": "round"}, {"type": "turn"}, {"type": "decision"}, {"type": "turn"},
              {"type": "round"}, {"type": "turn"}]
    assert step_target(events, 0, "next") == 1 and step_target(events, 6, "next") == 6
    assert step_target(events, 0, "previous") == 0 and step_target(events, 3, "previous") == 2
    assert step_target(events, 2, "next turn") == 4 and step_target(events, 4, "previous turn") == 2
    assert step_target(events, 3, "next round") == 5 and step_target(events, 5, "previous round") == 1
    assert step_target(events, 1, "previous round") == 1  # none before: stays
    assert step_target(events, 3, "first") == 0 and step_target(events, 3, "last") == 6


def test_verify_prints_only_its_verdict_unless_verbose(log):
    quiet = CliRunner().invoke(cli, ["replay", str(log), "--verify"])
    assert quiet.exit_code == 0
    assert quiet.output.splitlines() == [f"verified: all {len(events_of(log)) - 1} events of {log} match the "
                                         f"engine, re-run from seed 1"]
    told = CliRunner().invoke(cli, ["replay", str(log), "--verify", "--verbose"])
    assert told.exit_code == 0 and "-- round 1:" in told.output and told.output.rstrip().endswith("seed 1")
    assert "Game over after round" in told.output  # the end screen, as without --verify
