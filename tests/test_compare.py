"""`targui compare A B` (and `targui simulate A --against B`), and compare_summaries."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from engine_fixtures import any_ruleset

from targui_cli.compare import compare
from targui_cli.main import cli
from targui_dsl.study.simulate import compare_summaries, run_games, without_timing


def rich_start(tmp_path):
    """A house rule that changes one thing a lot: 100 silver at the start instead of 10."""
    path = tmp_path / "rich-start.yaml"
    path.write_text("extends: original-dutch\nid: rich-start\ntitle: Rich start\nsetup:\n  cash: 100\n")
    return str(path)


def test_a_ruleset_against_itself_differs_in_nothing():
    result = CliRunner().invoke(compare, ["swedish-12", "swedish-12", "-n", "12", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["labels"] == ["A", "B"] and data["verdicts"] == []
    assert data["rows"] and all(not row["significant"] and row["difference"] == 0 for row in data["rows"])
    assert all(row["p"] == 1.0 for row in data["rows"] if row["p"] is not None)
    text = CliRunner().invoke(compare, ["swedish-12", "swedish-12", "-n", "12", "--seed", "4"]).output
    assert "No significant difference at 0.05" in text


def test_a_much_richer_start_shows_where_it_matters(tmp_path):
    runner = CliRunner()
    result = runner.invoke(compare, ["original-dutch", rich_start(tmp_path), "-n", "30", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["a"], data["b"]) == ("original-dutch", "rich-start")
    rows = {row["key"]: row for row in data["rows"]}
    bought = rows["metrics.camels_bought"]
    assert bought["significant"] and bought["b"] > bought["a"] and bought["p"] < 0.001
    assert bought["difference"] == pytest.approx(bought["b"] - bought["a"])
    assert any("more camels are bought" in v and "rich-start" in v for v in data["verdicts"])
    assert len(data["verdicts"]) == sum(row["significant"] for row in data["rows"])
    assert not rows["metrics.rounds"]["significant"]  # the deck still decides the length
    assert data["summaries"]["a"]["ruleset"] == "original-dutch"
    text = runner.invoke(compare, ["original-dutch", rich_start(tmp_path), "-n", "30", "--seed", "2"]).output
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("metric"))
    assert header.split() == ["metric", "original-dutch", "rich-start", "difference", "p", "significant"]
    row = next(line for line in lines if line.startswith("camels bought a game"))
    assert row.endswith("yes *") and "< 0.001" in row
    assert "Significant differences:" in text and "Under rich-start, more camels are bought" in text


def test_simulate_against_is_compare():
    runner = CliRunner()
    args = ["-n", "4", "--seed", "7", "--bots", "greedy,random", "--json"]
    one = json.loads(runner.invoke(cli, ["compare", "swedish-12", "updated-treasury", *args]).output)
    two = json.loads(runner.invoke(cli, ["simulate", "swedish-12", "--against", "updated-treasury", *args]).output)
    for data in (one, two):
        for side in ("a", "b"):
            data["summaries"][side] = without_timing(data["summaries"][side])
    assert one == two
    assert any(row["key"] == "wins_by_bot.greedy" for row in one["rows"])


def test_compare_summaries_tests_rates_and_means():
    rs = any_ruleset("original-dutch")
    a = run_games(rs, games=10, players=2, bots=["random"], seed=1)
    b = run_games(rs, games=10, players=2, bots=["random"], seed=2)
    result = compare_summaries(a, b)
    keys = [row["key"] for row in result["rows"]]
    assert keys[:2] == ["wins.seat1", "wins.seat2"]
    assert {"draws", "end_reasons.last_standing", "metrics.rounds", "metrics.attacks", "metrics.camels_bought",
            "metrics.eliminations"} <= set(keys)
    for row in result["rows"]:
        assert row["test"] in ("z", "welch") and 0.0 <= row["p"] <= 1.0
        assert row["significant"] == (row["p"] < 0.05)
    assert "verdicts" not in result  # the library gives numbers; the sentences are the CLI's
    json.dumps(result)


def test_compare_errors(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: no-such-ruleset\n")
    assert runner.invoke(compare, ["swedish-12", str(bad)]).exit_code == 1
    assert runner.invoke(compare, ["swedish-12"]).exit_code == 2
    assert runner.invoke(compare, ["swedish-12", "original-dutch", "--bots", "clever"]).exit_code == 2
    assert runner.invoke(compare, ["swedish-12", "original-dutch", "--players", "7"]).exit_code == 2
    assert runner.invoke(compare, ["swedish-12", "original-dutch", "--workers", "x"]).exit_code == 2
    assert runner.invoke(cli, ["compare", "--help"]).exit_code == 0
