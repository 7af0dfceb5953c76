"""--plot and targui_dsl.study.plots (the drawing tests need matplotlib, an optional extra)."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from engine_fixtures import any_ruleset

from targui_cli.main import cli
from targui_dsl.study.simulate import compare_summaries, run_games


def test_without_matplotlib_plots_are_refused_before_any_game(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    out = tmp_path / "wins.png"
    for command in (["simulate", "swedish-12"], ["compare", "swedish-12", "swedish-12"]):
        result = CliRunner().invoke(cli, [*command, "-n", "100000", "--plot", str(out)])
        assert result.exit_code == 1
        assert "pip install '.[plot]'" in result.stderr
        assert not out.exists()


def _summary(rs_name, seed):
    return run_games(any_ruleset(rs_name), games=6, players=3, bots=["greedy", "random"], seed=seed)


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_plot_simulation(tmp_path, suffix, magic):
    pytest.importorskip("matplotlib")
    from targui_dsl.study.plots import plot_simulation

    path = tmp_path / f"wins{suffix}"
    plot_simulation(_summary("swedish-12", 1), path)
    data = path.read_bytes()
    assert data.startswith(magic) and len(data) > 5000


def test_plot_comparison(tmp_path):
    pytest.importorskip("matplotlib")
    from targui_dsl.study.plots import plot_comparison

    path = tmp_path / "ab.svg"
    plot_comparison(compare_summaries(_summary("swedish-12", 1), _summary("updated-treasury", 1)), path)
    text = path.read_text()
    assert "<svg" in text and "swedish-12" in text and "updated-treasury" in text


def test_plot_options(tmp_path):
    pytest.importorskip("matplotlib")
    runner = CliRunner()
    one, two = tmp_path / "one.png", tmp_path / "two.svg"
    result = runner.invoke(cli, ["simulate", "swedish-12", "-n", "3", "--json", "--plot", str(one)])
    assert result.exit_code == 0, result.output
    assert one.read_bytes().startswith(b"\x89PNG") and result.stdout.startswith("{")
    result = runner.invoke(cli, ["compare", "swedish-12", "original-dutch", "-n", "3", "--plot", str(two)])
    assert result.exit_code == 0, result.output
    assert "<svg" in two.read_text()
    missing = tmp_path / "no-such-dir" / "x.png"
    result = runner.invoke(cli, ["simulate", "swedish-12", "-n", "2", "--plot", str(missing)])
    assert result.exit_code == 1 and "cannot write" in result.stderr
