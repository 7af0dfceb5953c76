"""`targui compare A B` (and `targui simulate A --against B`), and compare_summaries."""

from __future__ import annotations

import csv
import json
import signal

import pytest
from click.testing import CliRunner
from engine_fixtures import any_ruleset

from targui_cli.compare import compare
from targui_cli.main import cli
from targui_dsl.study.signals import StudyInterrupted
from targui_dsl.study.simulate import compare_summaries, run_games, without_timing
from targui_dsl.study.stats import holm


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


# Three rulesets or more ---------------------------------------------------------------------

THREE = ["original-dutch", "swedish-12", "updated-treasury"]


def test_three_rulesets_each_against_the_first_with_holm():
    runner = CliRunner()
    args = ["-n", "20", "--seed", "1"]
    data = json.loads(runner.invoke(compare, [*THREE, *args, "--json"]).output)
    assert data["labels"] == data["rulesets"] == THREE and data["correction"] == "holm"
    assert list(data["summaries"]) == THREE
    # every figure of every ruleset is its own study's: what `simulate` gives with the same seed
    for ruleset in THREE:
        alone = json.loads(runner.invoke(cli, ["simulate", ruleset, *args, "--json"]).output)
        assert without_timing(data["summaries"][ruleset]) == without_timing(alone)
    rows = {row["key"]: row for row in data["rows"]}
    rounds = rows["metrics.rounds"]
    assert rounds["values"] == [data["summaries"][r]["metrics"]["rounds"]["mean"] for r in THREE]
    raised = 0
    for row in data["rows"]:
        assert [d["ruleset"] for d in row["differences"]] == THREE[1:]
        p = [d["p"] for d in row["differences"]]
        assert [d["p_holm"] for d in row["differences"]] == holm(p)
        for d, value in zip(row["differences"], row["values"][1:], strict=True):
            assert d["difference"] == pytest.approx(value - row["values"][0])
            assert d["significant"] == (d["p_holm"] is not None and d["p_holm"] < 0.05)
            if d["ci"] is not None:
                assert d["ci"][0] <= d["difference"] <= d["ci"][1]
            raised += d["p_holm"] is not None and d["p_holm"] > d["p"]
    assert raised  # a p-value was adjusted upwards for the two comparisons
    # the 20 games said C ends early less often (p 0.035), but not after Holm (0.070)
    early = rows["end_reasons.last_standing"]["differences"][1]
    assert early["p"] < 0.05 <= early["p_holm"] and not early["significant"]
    assert len(data["verdicts"]) == sum(d["significant"] for row in data["rows"] for d in row["differences"])
    text = runner.invoke(compare, [*THREE, *args]).output
    lines = text.splitlines()
    assert lines[:3] == ["A = Targui (original Dutch rules) (original-dutch)",
                         "B = Targui (Swedish rules, 12 rounds) (swedish-12)",
                         "C = Targui (updated rules with treasury) (updated-treasury)"]
    header = next(line for line in lines if line.startswith("metric"))
    assert header.split() == ["metric", *THREE, "B", "-", "A", "95%", "CI", "p", "p", "Holm", "sig.",
                              "C", "-", "A", "95%", "CI", "p", "p", "Holm", "sig."]
    early_line = next(line for line in lines if line.startswith("ended early"))
    assert early_line.split()[-3:] == ["0.035", "0.070", "no"]
    assert "Significant differences (after Holm):" in text
    assert "Under updated-treasury, games are shorter" in text and "(Holm-adjusted p < 0.001)" in text


class _StopSecondStudy:
    """Wraps the study runner so that the second study of the run is stopped, as SIGTERM would,
    once ``games`` of its games are done (the runner itself plays and saves)."""

    def __init__(self, run, games):
        self.run, self.games, self.calls = run, games, 0

    def __call__(self, plan, executor=None, **kwargs):
        self.calls += 1
        if self.calls == 2:
            tick = kwargs.get("progress")

            def progress(done):
                if tick is not None:
                    tick(done)
                if done >= self.games:
                    raise StudyInterrupted(signal.SIGTERM)
            kwargs["progress"] = progress
        return self.run(plan, executor, **kwargs)


def test_an_interrupted_comparison_continues_from_out(tmp_path, monkeypatch):
    import targui_dsl.study as study

    runner = CliRunner()
    args = [*THREE, "-n", "24", "--seed", "3", "--json"]
    straight = json.loads(runner.invoke(compare, [*args, "--records", str(tmp_path / "straight.csv")]).output)
    out, records = str(tmp_path / "study.jsonl"), str(tmp_path / "games.csv")
    with monkeypatch.context() as patched:
        patched.setattr(study, "run_study", _StopSecondStudy(study.run_study, 10))
        stopped = runner.invoke(compare, [*args, "--out", out, "--records", records])
    assert stopped.exit_code == 128 + signal.SIGTERM
    assert "interrupted by SIGTERM" in stopped.output and "study.swedish-12.jsonl" in stopped.output
    assert (tmp_path / "study.original-dutch.jsonl").exists()
    assert not (tmp_path / "study.updated-treasury.jsonl").exists()  # C never began
    resumed = runner.invoke(compare, [*args, "--out", out, "--records", records])
    assert resumed.exit_code == 0, resumed.output
    data = json.loads(resumed.output)
    assert data["out"] == [str(tmp_path / f"study.{r}.jsonl") for r in THREE]
    played = [s["games_played"] for s in data["summaries"].values()]
    assert played[0] == 0 and 0 < played[1] < 24 and played[2] == 24  # A was done, B went on, C began
    for whole in (data, straight):
        whole["summaries"] = {k: without_timing(v) for k, v in whole["summaries"].items()}
    for key in ("rows", "verdicts", "summaries"):
        assert data[key] == straight[key]
    for ruleset in THREE:  # the same rows as the run straight through, each game once
        with open(tmp_path / f"games.{ruleset}.csv") as f:
            got = sorted(csv.DictReader(f), key=lambda row: int(row["game"]))
        with open(tmp_path / f"straight.{ruleset}.csv") as f:
            assert got == list(csv.DictReader(f))
    again = runner.invoke(compare, [*THREE, "-n", "24", "--seed", "3", "--out", out])
    assert again.exit_code == 0 and "0 of 72 games played in this run" in again.output


def test_records_of_a_comparison_read_by_pandas(tmp_path):
    pandas = pytest.importorskip("pandas")
    records = tmp_path / "games.jsonl"
    result = CliRunner().invoke(compare, [*THREE, "-n", "6", "--seed", "2", "--records", str(records)])
    assert result.exit_code == 0, result.output
    table = pandas.concat([pandas.read_json(tmp_path / f"games.{r}.jsonl", lines=True) for r in THREE])
    assert table.groupby("ruleset").size().to_dict() == {r: 6 for r in THREE}
    assert sorted(table[table.ruleset == "swedish-12"].game) == list(range(6))
    seeds = {r: list(table[table.ruleset == r].seed) for r in THREE}
    assert seeds["original-dutch"] == seeds["swedish-12"] == seeds["updated-treasury"]  # the same games
    mean_rounds = table.groupby("ruleset").rounds.mean()
    data = json.loads(CliRunner().invoke(compare, [*THREE, "-n", "6", "--seed", "2", "--json"]).output)
    rounds = next(row for row in data["rows"] if row["key"] == "metrics.rounds")
    assert [mean_rounds[r] for r in THREE] == pytest.approx(rounds["values"])


def test_the_same_ruleset_twice_is_told_apart_by_letters(tmp_path):
    result = CliRunner().invoke(compare, ["swedish-12", "swedish-12", "original-dutch", "-n", "4", "--json",
                                          "--out", str(tmp_path / "s.jsonl")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["labels"] == ["A", "B", "C"] and data["rulesets"] == ["swedish-12", "swedish-12", "original-dutch"]
    assert data["out"] == [str(tmp_path / f"s.{x}.jsonl") for x in "ABC"]
    assert all(d["difference"] == 0 and d["p"] in (1.0, None) for row in data["rows"] for d in row["differences"][:1])


def test_comparison_usage_errors(tmp_path):
    runner = CliRunner()
    one = runner.invoke(compare, ["swedish-12"])
    assert one.exit_code == 2 and "Missing argument 'B...'" in one.output
    plot = runner.invoke(compare, [*THREE, "--plot", str(tmp_path / "x.svg")])
    assert plot.exit_code == 2 and "a plot draws two rulesets" in plot.output
    same = runner.invoke(compare, [*THREE, "--out", str(tmp_path / "a.jsonl"), "--records", str(tmp_path / "a.jsonl")])
    assert same.exit_code == 2 and "two different files" in same.output
