"""`targui replay` of a log whose header was edited or that was cut short: a clear verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("review") / "game.jsonl"
    assert run("play", "original-dutch", "--seed", "1", "--no-board", "--log", str(log)).exit_code == 0
    return log


# --- game logs ---------------------------------------------------------------------------

def _with_header(game_log: Path, tmp_path: Path, **changes) -> Path:
    lines = game_log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    for key, value in changes.items():
        if value is None:
            header.pop(key, None)
        else:
            header[key] = value
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    return path


def test_replay_of_a_header_without_its_optional_title(game_log, tmp_path):
    log = _with_header(game_log, tmp_path, title=None, seal=None)  # as an older targui wrote it
    result = run("replay", str(log))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("Targui (original Dutch rules) (original-dutch): 4 players")
    assert run("replay", str(log), "--verify", "-q").exit_code == 0


@pytest.mark.parametrize("changes", [
    {"ruleset": "a" * 5000, "files": None},
    {"ruleset": "house", "files": ["b" * 5000 + ".yaml"]},
    {"ruleset": "house", "files": ["bad\u0000name.yaml"]},
])
def test_replay_of_a_header_naming_an_impossible_file(game_log, tmp_path, changes):
    result = run("replay", str(_with_header(game_log, tmp_path, **changes)), "-q")
    assert result.exit_code == 1
    assert "is not built in" in result.stderr and "--ruleset" in result.stderr


def test_replay_partial_without_verify_tells_a_game_quit_midway(game_log, tmp_path):
    lines = game_log.read_text(encoding="utf-8").splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:200]) + "\n", encoding="utf-8")
    result = run("replay", str(short), "--partial")
    assert result.exit_code == 0 and "before the game is over" not in result.stderr
