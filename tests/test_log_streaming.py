"""A big log is answered in time proportional to what is needed to decide: a log of one
decision repeated over and over is refused at the first repeat, without reading (or
checking) the rest of the file, by `replay`, `replay --verify` and `play --resume`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run

REPEATS = 3000


@pytest.fixture(scope="module")
def repeated(tmp_path_factory) -> tuple[Path, int]:
    """A real game's log up to its first move, then that move again and again, and a last
    line that is no event at all: whoever reads the whole file says so."""
    folder = tmp_path_factory.mktemp("big")
    game = folder / "game.jsonl"
    played = run("play", "original-dutch", "--players", "2", "--seed", "3", "--bots", "random", "--no-board",
                 "--log", str(game))
    assert played.exit_code == 0, played.output
    lines = game.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines)
                 if json.loads(line)["type"] == "decision" and json.loads(line)["action"].startswith("move"))
    big = folder / "repeated.jsonl"
    big.write_text("\n".join(lines[:first + 1] + [lines[first]] * REPEATS + ["this is not an event"]) + "\n",
                   encoding="utf-8")
    return big, first + 1


def test_verify_refuses_a_repeated_decision_at_the_first_repeat_without_reading_on(repeated):
    log, repeat = repeated
    result = run("replay", str(log), "--verify", "-q")
    assert result.exit_code == 1
    assert f"verify FAILED at event {repeat} (line {repeat + 1}): the engine rejects" in result.stderr
    assert "not JSON" not in result.stderr  # the last line was never read


def test_replay_tells_a_repeated_decision_log_up_to_where_the_engine_parts_from_it(repeated):
    log, repeat = repeated
    result = run("replay", str(log))
    assert result.exit_code == 1
    assert f"the engine cannot follow the log past event {repeat} (line {repeat + 1})" in result.stderr
    assert "the rest of the log is not read" in result.stderr and "not JSON" not in result.stderr
    assert result.stdout.count("move") <= 2  # the move told once and its repeat, not 3,000 times


def test_resume_refuses_a_repeated_decision_log_at_the_first_repeat(repeated, tmp_path):
    log = tmp_path / "resume.jsonl"
    log.write_bytes(repeated[0].read_bytes())
    result = run("play", "--resume", str(log), "--no-board")
    assert result.exit_code == 1
    assert f"cannot resume: event {repeated[1]} (line {repeated[1] + 1}) does not match the engine" in result.stderr
    assert log.read_bytes() == repeated[0].read_bytes()  # nothing written


def test_a_bad_line_after_the_game_still_fails_a_log_read_to_its_end(repeated, tmp_path):
    # what streaming must not lose: a log the engine follows to its end is read to its end
    game = repeated[0].parent / "game.jsonl"
    broken = tmp_path / "broken.jsonl"
    broken.write_text(game.read_text(encoding="utf-8") + "this is not an event\n", encoding="utf-8")
    for args in (["--verify", "-q"], ["-q"]):
        result = run("replay", str(broken), *args)
        assert result.exit_code == 1
        assert f"line {len(game.read_text(encoding='utf-8').splitlines()) + 1}: not JSON" in result.stderr


def test_step_goes_through_a_repeated_decision_log_as_far_as_the_engine_follows_it(repeated):
    pytest.importorskip("pty")  # POSIX only
    from pty_session import Session

    log, repeat = repeated
    game = Session(["replay", str(log), "--step"])
    try:
        game.expect(f"event 0 of {repeat}:")  # not of the 3,000 repeats after it
        game.expect("q quit")
        game.send(b"$")
        game.expect(f"event {repeat} of {repeat}:")
        game.expect("the engine cannot follow the log here")
        game.send(b"q")
        assert game.wait() == 0
        assert "Traceback" not in game.text
    finally:
        game.close()
