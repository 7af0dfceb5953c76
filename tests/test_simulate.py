"""run_games and the `play` / `simulate` commands."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from engine_fixtures import any_ruleset
from targui_cli.play import play
from targui_cli.main import cli
from targui_cli.simulate import simulate
from targui_dsl.simulate import run_games, seat_bots


def test_run_games_summary():
    result = run_games(any_ruleset("swedish-12"), games=6, players=3, bots=["random"], seed=4)
    for key in ("ruleset", "players", "games", "seed", "wins", "draws", "rounds", "decisions", "seconds"):
        assert key in result
    assert result["ruleset"] == "swedish-12" and result["games"] == 6 and result["players"] == 3
    assert sum(result["wins"].values()) + result["draws"] == 6
    assert set(result["rounds"]) == {"mean", "min", "max"} and result["rounds"]["max"] <= 12
    assert result["decisions"] > 0
    json.dumps(result)


def test_run_games_is_reproducible_and_seed_dependent():
    rs = any_ruleset("updated-treasury")
    a = run_games(rs, games=5, players=4, bots=["random"], seed=1)
    b = run_games(rs, games=5, players=4, bots=["random"], seed=1)
    c = run_games(rs, games=5, players=4, bots=["random"], seed=2)
    strip = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "games_per_second", "decisions_per_second")}
    assert strip(a) == strip(b)
    assert strip(a) != strip(c)


def test_bot_lists():
    assert seat_bots("greedy", 3) == ["greedy"] * 3
    assert seat_bots(["greedy", "random"], 4) == ["greedy", "random", "random", "random"]
    with pytest.raises(ValueError):
        seat_bots(["random"] * 5, 4)
    with pytest.raises(ValueError):
        run_games(any_ruleset("swedish-12"), games=1, bots=["nobody"])


def test_play_command_tells_the_game(tmp_path):
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(play, ["original-dutch", "--players", "2", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "-- round 16:" in result.output and "Game over after round" in result.output
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "header" and json.loads(lines[-1])["type"] == "end"


def test_simulate_command_json_and_text():
    runner = CliRunner()
    result = runner.invoke(simulate, ["swedish-12", "--games", "3", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and data["ruleset"] == "swedish-12"
    result = runner.invoke(simulate, ["swedish-12", "--games", "2", "--bots", "greedy,random"])
    assert result.exit_code == 0 and "bot greedy" in result.output


@pytest.mark.parametrize("command", [play, simulate])
def test_usage_errors_exit_2_and_bad_rulesets_exit_1(command, tmp_path):
    runner = CliRunner()
    assert runner.invoke(command, ["original-dutch", "--bots", "clever"]).exit_code == 2
    assert runner.invoke(command, ["original-dutch", "--players", "7"]).exit_code == 2
    assert runner.invoke(command, ["original-dutch", "--seed", "x"]).exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: no-such-ruleset\n")
    result = runner.invoke(command, [str(bad)])
    assert result.exit_code == 1
    assert runner.invoke(command, ["--help"]).exit_code == 0


EXPECTED_ROUNDS = {"original-dutch": 16, "swedish-12": 12, "updated-treasury": 8}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", sorted(EXPECTED_ROUNDS))
def test_simulate_200_games_last_as_long_as_the_deck(variant, players):
    result = CliRunner().invoke(
        cli, ["simulate", variant, "--games", "200", "--players", str(players), "--seed", "11", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 200
    assert sum(summary["wins"].values()) + summary["draws"] == 200
    expected = EXPECTED_ROUNDS[variant]
    reasons = summary["end_reasons"]
    assert set(reasons) <= {"deck", "last_standing"}
    assert sum(reasons.values()) == 200
    # A game runs the whole deck unless one player is left alone earlier.
    assert summary["rounds"]["max"] == expected
    if reasons.get("last_standing", 0) == 0:
        assert summary["rounds"]["min"] == expected
