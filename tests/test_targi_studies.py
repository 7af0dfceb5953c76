"""Targi in every study path: tournament (with records), simulate --out read back by compare,
--records, workers, a Dask cluster, and replay --verify of a bot game's log."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_run import run

from targui_dsl.study.simulate import without_timing

ROOT = Path(__file__).resolve().parent.parent
SIMULATE = ("simulate", "targi", "-n", "6", "--seed", "3", "--bots", "greedy,random", "--rotate")


def study_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_targi_tournament_rates_its_bots_and_records_a_row_per_game(tmp_path):
    records = tmp_path / "games.csv"
    table = study_json("tournament", "targi", "--bots", "random,greedy", "-n", "6", "--seed", "2",
                       "--resamples", "20", "--records", str(records))
    assert table["ruleset"] == "targi" and table["games"] == 6
    rows = {row["bot"]: row for row in table["table"]}
    assert set(rows) == {"random", "greedy"}
    assert sum(row["wins"] for row in rows.values()) + table.get("draws", 0) == 6
    with records.open() as f:
        games = list(csv.DictReader(f))
    assert sorted(int(g["game"]) for g in games) == list(range(6))
    assert {g["bot_1"] for g in games} | {g["bot_2"] for g in games} == {"random", "greedy"}
    assert all(g["end_reason"] in ("raid", "display") for g in games)


def test_targi_simulate_records_a_row_per_game_that_adds_up_to_the_summary(tmp_path):
    records = tmp_path / "games.csv"
    summary = study_json(*SIMULATE, "--records", str(records))
    with records.open() as f:
        games = list(csv.DictReader(f))
    assert len(games) == 6 == summary["games"]
    assert sum(int(g["displayed"]) for g in games) == summary["metrics"]["displayed"]["total"]
    wins = {tribe: sum(1 for g in games if g["winner_tribe"] == tribe) for tribe in summary["tribes"]}
    assert wins == summary["wins"]
    reasons = {r: sum(1 for g in games if g["end_reason"] == r) for r in {g["end_reason"] for g in games}}
    assert reasons == summary["end_reasons"]


def test_targi_simulate_out_is_read_back_by_compare(tmp_path):
    out = tmp_path / "study.targi.jsonl"
    alone = study_json(*SIMULATE, "--out", str(out))
    kept = out.read_bytes()
    assert kept.count(b"\n") >= 2  # a header and the chunks of games
    house = str(ROOT / "rulesets" / "examples" / "targi-wide-display.yaml")
    both = study_json("compare", "targi", house, "-n", "6", "--seed", "3", "--bots", "greedy,random", "--rotate",
                      "--out", str(tmp_path / "study.jsonl"))
    assert out.read_bytes() == kept  # every game was read from simulate's file, none played again
    assert without_timing(both["summaries"]["a"]) == without_timing(alone)
    displayed = next(row for row in both["rows"] if row["key"] == "metrics.displayed")
    assert displayed["a"] == alone["metrics"]["displayed"]["mean"]
    # and the file is really read: the same --out for a study of another size is refused
    other = run("compare", "targi", house, "-n", "8", "--seed", "3", "--out", str(tmp_path / "study.jsonl"))
    assert other.exit_code == 2 and "holds another study" in other.output


def test_targi_gives_the_same_results_with_one_and_two_workers():
    one = study_json(*SIMULATE, "--workers", "1")
    two = study_json(*SIMULATE, "--workers", "2")
    assert one["workers"] == 1 and two["workers"] == 2
    assert without_timing(one) == without_timing(two)
    assert one["games"] == 6 and sum(one["wins"].values()) + one["draws"] == 6


def test_targi_gives_the_same_results_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    local = study_json(*SIMULATE)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) \
            as cluster:
        remote = study_json(*SIMULATE, "--scheduler", cluster.scheduler_address)
    assert remote["workers"] == 2 and without_timing(remote) == without_timing(local)


def test_targi_bot_game_log_passes_replay_verify(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", "targi", "--bots", "greedy,random", "--seed", "11", "--log", str(log))
    assert played.exit_code == 0, played.output
    verified = run("replay", str(log), "--verify")
    assert verified.exit_code == 0, verified.output
    assert "verified" in verified.output
    # and a decision changed in the log is caught
    lines = log.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "decision")
    event = json.loads(lines[n])
    event["action"] = "border 99"  # no such border card
    lines[n] = json.dumps(event)
    log.write_text("\n".join(lines) + "\n")
    tampered = run("replay", str(log), "--verify")
    assert tampered.exit_code != 0 and "verified" not in tampered.output.replace("not verified", "")


# --- what a study of Targi shows is Targi's (review findings) ---------------------------------


def test_targi_comparison_rows_are_targis_endings_not_targuis_ended_early():
    house = str(ROOT / "rulesets" / "examples" / "targi-wide-display.yaml")
    both = study_json("compare", "targi", house, "-n", "4", "--seed", "1")
    metrics = [row["metric"] for row in both["rows"]]
    assert not any("one player left" in m or "ended early" in m for m in metrics)
    ends = {row["key"]: row for row in both["rows"] if row["key"].startswith("end_reasons.")}
    assert set(ends) == {"end_reasons.raid", "end_reasons.display"}
    assert ends["end_reasons.raid"]["metric"] == "ended by the last raid"
    assert ends["end_reasons.raid"]["a"] + ends["end_reasons.display"]["a"] == pytest.approx(1.0)
    text = run("compare", "targi", house, "-n", "4", "--seed", "1").output
    assert "ended by a full display" in text and "one player left" not in text


def sixth_symbol(tmp_path: Path) -> Path:
    """A house rule of Targi whose tribe deck has a sixth symbol on five cards."""
    yaml = pytest.importorskip("yaml")
    data = yaml.safe_load((ROOT / "rulesets" / "targi.yaml").read_text())
    cards = data["tribe_cards"]
    for card in cards:
        if card["id"] in (20, 23, 26, 29, 212):
            card["symbol"] = "caravanserai"
    house = {"extends": "targi", "id": "targi-sixth-symbol", "title": "Targi with a sixth symbol",
             "description": "Five tribe cards carry a sixth symbol.", "symbols": [*data["symbols"], "caravanserai"],
             "tribe_cards": cards}
    path = tmp_path / "sixth.yaml"
    path.write_text(yaml.safe_dump(house, sort_keys=False))
    return path


def test_a_house_rules_sixth_symbol_is_counted_shown_and_compared(tmp_path):
    house = str(sixth_symbol(tmp_path))
    records = tmp_path / "games.csv"
    alone = study_json("simulate", house, "-n", "6", "--seed", "2", "--records", str(records))
    metrics = alone["metrics"]
    symbols = ["oasis", "camel_rider", "well", "camp", "targia", "caravanserai"]
    assert sum(metrics[f"displayed_{s}"]["total"] for s in symbols) == metrics["displayed"]["total"]
    assert metrics["displayed_caravanserai"]["total"] > 0  # the seed's games display some
    with records.open() as f:
        assert "displayed_caravanserai" in next(csv.reader(f))
    text = run("simulate", house, "-n", "6", "--seed", "2").output
    assert "caravanserai" in text
    both = study_json("compare", "targi", house, "-n", "6", "--seed", "2")
    row = next(r for r in both["rows"] if r["key"] == "metrics.displayed_caravanserai")
    assert row["a"] == 0 and row["b"] == metrics["displayed_caravanserai"]["mean"]
    assert row["metric"] == "caravanserai cards displayed a game"
    keys = [r["key"] for r in both["rows"]]
    assert keys.index("metrics.displayed_targia") < keys.index("metrics.displayed_caravanserai") \
        < keys.index("metrics.decisions")


def test_a_house_rules_end_game_reason_gets_a_row_in_compare():
    sudden = str(ROOT / "rulesets" / "examples" / "sudden-death.yaml")
    alone = study_json("simulate", sudden, "-n", "6", "--seed", "1")
    reasons = set(alone["end_reasons"]) - {"deck", "last_standing"}
    assert reasons  # the house rule's own `end game` ends some of these games
    both = study_json("compare", "original-dutch", sudden, "-n", "6", "--seed", "1")
    rows = {row["key"]: row for row in both["rows"]}
    for reason in reasons:
        row = rows[f"end_reasons.{reason}"]
        assert row["metric"] == f"ended: {reason}"
        assert row["a"] == 0 and row["b"] == alone["end_reasons"][reason] / 6
    assert rows["end_reasons.last_standing"]["metric"] == "ended early (one player left)"
    # with three rulesets, a reason only the last one saw still has its row in every comparison
    three = study_json("compare", "original-dutch", "swedish-12", sudden, "-n", "6", "--seed", "1")
    for reason in reasons:
        row = next(r for r in three["rows"] if r["key"] == f"end_reasons.{reason}")
        assert row["values"] == [0, 0, alone["end_reasons"][reason] / 6]


def test_targi_simulate_names_its_tribe_cards_by_symbol_and_points_and_counts_them_shown():
    result = run("simulate", "targi", "-n", "4", "--bots", "greedy,random", "--seed", "1")
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("Tribe cards"):]
    heading, first = table.splitlines()[:2]
    assert heading.split() == ["Tribe", "cards", "shown", "by", "winner"]
    assert first.split()[:4] == ["20", "oasis,", "2", "pts"]
    assert "per draw" not in result.output and "drawn" not in result.output  # Targui's words
