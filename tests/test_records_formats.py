"""--records in CSV, JSON lines and Parquet, read by pandas as the docs show: the same table
in each, integer columns as integers and a draw's winner empty (pandas' nullable Int64)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run

from targui_dsl.study.games import GameRecord
from targui_dsl.study.records import RecordWriter, record_row

pandas = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

STUDY = ("simulate", "swedish-12", "-n", "8", "-p", "3", "--bots", "greedy,random", "--rotate", "--seed", "5")


def read(path: Path):
    """Each format as docs/simulate.md reads it."""
    if path.suffix == ".csv":
        return pandas.read_csv(path, dtype={"winner": "Int64"})
    if path.suffix == ".jsonl":
        return pandas.read_json(path, lines=True, dtype={"winner": "Int64"})
    return pandas.read_parquet(path)


def test_parquet_records_keep_their_types_and_match_csv_and_json_lines(tmp_path: Path):
    tables = {}
    for name in ("games.parquet", "games.csv", "games.jsonl"):
        result = run(*STUDY, "--records", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        tables[name] = read(tmp_path / name)
    parquet = tables["games.parquet"]
    assert (tmp_path / "games.parquet").read_bytes()[:4] == b"PAR1"  # Parquet, not JSON lines
    assert list(parquet["game"]) == list(range(8))
    dtypes = parquet.dtypes
    assert dtypes["winner"] == "Int64" and dtypes["game"] == "int64" and dtypes["rounds"] == "int64"
    assert dtypes["seed"] == "uint64" and dtypes["draw"] == "bool" and dtypes["score_1"] == "int64"
    assert dtypes["draws_sandstorm"] == "int64"
    for name in ("games.csv", "games.jsonl"):
        other = tables[name]
        assert list(other.columns) == list(parquet.columns)
        assert other["winner"].dtype == "Int64"
        assert other.astype(str).equals(parquet.astype(str)), name


def draw_and_win() -> list[GameRecord]:
    cards = {"sandstorm": [1, 2, 0, 0, 0]}  # drawn once; then the game's card fields
    common = dict(bots=("greedy", "random"), tribes=("kel_ahaggar", "kel_ajjer"), rounds=12, end_reason="deck",
                  decisions=90, cards=cards)
    return [GameRecord(index=0, seed=2**64 - 1, winners=(0, 1), scores=(7, 7), **common),
            GameRecord(index=1, seed=3, winners=(1,), scores=(5, 9), **common)]


@pytest.mark.parametrize("name", ["games.parquet", "games.csv", "games.jsonl"])
def test_a_draw_is_an_empty_winner_not_a_float(tmp_path: Path, name: str):
    path = tmp_path / name
    writer = RecordWriter(str(path))
    writer.write(record_row(r, ["sandstorm"]) for r in draw_and_win())
    writer.close()
    table = read(path)
    assert table["winner"].dtype == "Int64"
    assert table["winner"].isna().tolist() == [True, False] and table["winner"][1] == 2
    assert table["draw"].tolist() == [True, False]
    assert table["seed"].tolist() == [2**64 - 1, 3]
    assert table["score_2"].dtype.kind == "i"


def test_unknown_extension_is_refused_and_records_format_names_one(tmp_path: Path):
    refused = run(*STUDY, "--records", str(tmp_path / "games.txt"))
    assert refused.exit_code == 2
    assert "cannot tell the format of" in refused.output and "--records-format" in refused.output
    assert not (tmp_path / "games.txt").exists()
    named = run(*STUDY, "--records", str(tmp_path / "games.txt"), "--records-format", "csv")
    assert named.exit_code == 0, named.output
    assert (tmp_path / "games.txt").read_text().startswith("game,seed,winner,")


def test_parquet_is_refused_for_a_resumable_study(tmp_path: Path):
    result = run(*STUDY, "--records", str(tmp_path / "games.parquet"), "--out", str(tmp_path / "study.jsonl"))
    assert result.exit_code == 2 and "cannot be continued" in result.output
