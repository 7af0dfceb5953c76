"""targui_dsl.study.stats against published values and basic laws."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from targui_dsl.study.stats import (
    describe,
    holm,
    normal_cdf,
    normal_two_sided_p,
    proportion_difference_interval,
    regularized_beta,
    t_cdf,
    t_quantile,
    t_two_sided_p,
    two_proportion_z_test,
    welch_interval,
    welch_t_test,
    welch_t_test_samples,
    wilson_interval,
)


def test_wilson_interval_known_values():
    # Newcombe (1998), Stat. Med. 17, 857-872, example: 81 of 263 -> 0.2553 to 0.3662
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-5) and high == pytest.approx(0.3662, abs=5e-5)
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=5e-5) and high == pytest.approx(0.7634, abs=5e-5)
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.2775, abs=5e-5))
    assert wilson_interval(10, 10) == (pytest.approx(0.7225, abs=5e-5), 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


@given(st.integers(min_value=1, max_value=5000), st.data())
def test_wilson_interval_holds_the_rate(trials, data):
    successes = data.draw(st.integers(min_value=0, max_value=trials))
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_normal_distribution():
    assert normal_cdf(0) == 0.5
    assert normal_cdf(1.959964) == pytest.approx(0.975, abs=1e-6)
    assert normal_cdf(-1.644854) == pytest.approx(0.05, abs=1e-6)
    assert normal_two_sided_p(2.575829) == pytest.approx(0.01, abs=1e-6)


def test_regularized_beta():
    assert regularized_beta(1, 1, 0.3) == pytest.approx(0.3)
    # I_x(a, b) for whole a, b is P(Binomial(a + b - 1, x) >= a): P(Bin(4, 0.4) >= 2) = 0.5248
    assert regularized_beta(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-12)
    assert regularized_beta(2.5, 0.5, 0.9) == pytest.approx(1 - regularized_beta(0.5, 2.5, 0.1))


@pytest.mark.parametrize("t, df", [(12.706, 1), (4.303, 2), (2.571, 5), (2.228, 10), (2.042, 30), (1.984, 100)])
def test_t_distribution_critical_values(t, df):
    # two-sided 5% critical values from any t table
    assert t_two_sided_p(t, df) == pytest.approx(0.05, abs=2e-4)


def test_t_distribution():
    assert t_two_sided_p(2.0, 10) == pytest.approx(0.07339, abs=1e-5)
    assert t_two_sided_p(0.0, 7) == 1.0
    assert t_cdf(-2.228, 10) == pytest.approx(0.025, abs=1e-4)
    assert t_cdf(2.228, 10) == pytest.approx(0.975, abs=1e-4)
    assert t_two_sided_p(1.96, 1e9) == pytest.approx(normal_two_sided_p(1.96), abs=1e-6)
    assert t_two_sided_p(1.5, math.inf) == normal_two_sided_p(1.5)


def test_two_proportion_z_test():
    result = two_proportion_z_test(45, 100, 55, 100)
    assert result.statistic == pytest.approx(math.sqrt(2), abs=1e-9)  # 0.10 / sqrt(0.25 * 0.02)
    assert result.p == pytest.approx(0.1573, abs=1e-4)
    assert not result.significant()
    other = two_proportion_z_test(55, 100, 45, 100)
    assert other.statistic == -result.statistic and other.p == result.p
    strong = two_proportion_z_test(20, 200, 60, 200)
    assert strong.p < 1e-5 and strong.significant()
    assert two_proportion_z_test(0, 10, 0, 30).p == 1.0
    assert two_proportion_z_test(10, 10, 30, 30).p == 1.0
    with pytest.raises(ValueError):
        two_proportion_z_test(1, 0, 1, 1)


# Wikipedia, "Welch's t-test", example 1: t = -2.46 (A1 - A2), df = 25.0, p = 0.021
A1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
A2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]


def test_welch_t_test_known_example():
    result = welch_t_test_samples(A1, A2)
    assert result.statistic == pytest.approx(2.46, abs=0.005)  # the sign of mean2 - mean1
    assert result.df == pytest.approx(25.0, abs=0.05)
    assert result.p == pytest.approx(0.021, abs=0.0005)
    a, b = describe(A1), describe(A2)
    same = welch_t_test(a.mean, a.sd, a.n, b.mean, b.sd, b.n)
    assert same == result
    assert welch_t_test_samples(A2, A1).statistic == pytest.approx(-result.statistic)


def test_welch_t_test_edge_cases():
    assert welch_t_test(12.0, 0.0, 50, 12.0, 0.0, 50).p == 1.0
    certain = welch_t_test(12.0, 0.0, 50, 14.0, 0.0, 50)
    assert certain.p == 0.0 and certain.statistic > 0
    assert welch_t_test(1.0, 1.0, 30, 1.0, 2.0, 40).p == pytest.approx(1.0)
    with pytest.raises(ValueError):
        welch_t_test(1.0, 1.0, 1, 2.0, 1.0, 10)


def test_describe():
    d = describe([2, 4, 4, 4, 5, 5, 7, 9])
    assert (d.n, d.mean, d.min, d.max, d.total) == (8, 5.0, 2, 9, 40)
    assert d.sd == pytest.approx(math.sqrt(32 / 7))
    assert describe([]).n == 0 and describe([3]).sd == 0.0
    assert set(d.as_dict()) == {"n", "mean", "sd", "min", "max", "total"}


@given(st.lists(st.integers(min_value=0, max_value=40), min_size=2, max_size=30),
       st.lists(st.integers(min_value=0, max_value=40), min_size=2, max_size=30))
def test_p_values_are_probabilities(a, b):
    assert 0.0 <= welch_t_test_samples(a, b).p <= 1.0
    assert 0.0 <= two_proportion_z_test(min(a[0], len(a)), len(a), min(b[0], len(b)), len(b)).p <= 1.0


def test_holm_worked_example():
    # Wikipedia, "Holm-Bonferroni method", example: four hypotheses, p 0.01, 0.04, 0.03, 0.005 at alpha 0.05;
    # sorted, 0.005 * 4 = 0.02, 0.01 * 3 = 0.03, 0.03 * 2 = 0.06 (stop: H1 and H4 rejected), 0.04 * 1 -> 0.06
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [p < 0.05 for p in adjusted] == [True, False, False, True]
    assert holm([0.2]) == [0.2]  # one comparison: nothing to correct
    assert holm([0.6, None, 0.01]) == [pytest.approx(0.6), None, pytest.approx(0.02)]  # untested: not counted
    assert holm([0.5, 0.7, 0.9]) == [1.0, 1.0, 1.0]  # never above 1, never below an earlier step
    assert holm([0.9, 0.02, 0.018]) == pytest.approx([0.9, 0.054, 0.054])  # 0.02 * 2 = 0.04 < 0.054: raised
    assert holm([]) == []


@pytest.mark.parametrize("t, df", [(12.706, 1), (4.303, 2), (2.571, 5), (2.228, 10), (2.042, 30), (1.984, 100)])
def test_t_quantile_inverts_the_table(t, df):
    assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-3)
    assert t_quantile(0.025, df) == pytest.approx(-t, abs=1e-3)
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError):
        t_quantile(1.0, df)


def test_welch_interval_agrees_with_the_test():
    a, b = describe(A1), describe(A2)
    test = welch_t_test(a.mean, a.sd, a.n, b.mean, b.sd, b.n)
    low, high = welch_interval(a.mean, a.sd, a.n, b.mean, b.sd, b.n)
    assert 0 < low < b.mean - a.mean < high  # p = 0.021: the 95% interval leaves 0 out
    assert (low + high) / 2 == pytest.approx(b.mean - a.mean)
    edge, _ = welch_interval(a.mean, a.sd, a.n, b.mean, b.sd, b.n, level=1 - test.p)
    assert edge == pytest.approx(0.0, abs=1e-9)  # at level 1 - p, the interval just reaches 0
    assert welch_interval(3.0, 0.0, 5, 4.0, 0.0, 5) == (1.0, 1.0)


def test_proportion_difference_interval_wald():
    low, high = proportion_difference_interval(45, 100, 55, 100)
    half = 1.959963984540054 * math.sqrt(2 * 0.45 * 0.55 / 100)  # 0.1379
    assert (low, high) == (pytest.approx(0.10 - half), pytest.approx(0.10 + half))
    assert proportion_difference_interval(0, 10, 10, 10) == (1.0, 1.0)
    assert proportion_difference_interval(0, 20, 19, 20)[1] <= 1.0
    with pytest.raises(ValueError):
        proportion_difference_interval(3, 2, 1, 1)
