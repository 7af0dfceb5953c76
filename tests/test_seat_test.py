"""Does seat order matter? `simulate` tests whether every seat wins equally often (Pearson's chi-square)."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from targui_cli.main import cli
from targui_dsl.study.stats import chi_square_equal_shares, regularized_gamma_q


def test_chi_square_p_values_match_closed_forms():
    # two degrees of freedom: p = exp(-x / 2); one: p = erfc(sqrt(x / 2))
    test = chi_square_equal_shares([649, 730, 616])
    assert test.df == 2 and test.statistic == pytest.approx(10.3489, abs=1e-4)
    assert test.p == pytest.approx(math.exp(-test.statistic / 2), rel=1e-12)
    for x in (0.1, 1.0, 3.84, 12.0, 40.0):
        assert regularized_gamma_q(0.5, x / 2) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
    assert regularized_gamma_q(1.5, 7.8147 / 2) == pytest.approx(0.05, abs=1e-5)  # 3 df, the 5% point
    assert chi_square_equal_shares([50, 50, 50, 50]).p == 1.0
    assert chi_square_equal_shares([100, 0, 0, 0]).p < 1e-20
    assert chi_square_equal_shares([0, 0]).p == 1.0


def test_simulate_reports_whether_the_seats_win_alike():
    result = CliRunner().invoke(cli, ["simulate", "swedish-12", "-n", "6", "-p", "3", "--seed", "1", "--json"])
    figures = json.loads(result.stdout)
    wins = [figures["win_rates"][tribe]["wins"] for tribe in figures["tribes"]]
    test = figures["seat_test"]
    assert test["df"] == 2 and test["p"] == pytest.approx(chi_square_equal_shares(wins).p)
    text = CliRunner().invoke(cli, ["simulate", "swedish-12", "-n", "6", "-p", "3", "--seed", "1"]).stdout
    assert f"seats alike? chi-square {test['statistic']:.2f}, df 2, p" in text
