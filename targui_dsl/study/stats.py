"""The statistics that balance studies need, in plain Python (no scipy).

Everything here is a pure function of numbers:

- :func:`wilson_interval`: a confidence interval for a proportion (a win
  rate), good even for small counts and rates near 0 or 1;
- :func:`two_proportion_z_test`: are two rates (win rates, draw rates)
  different, or is the gap what chance gives?
- :func:`welch_t_test`: are two means (rounds, attacks per game) different,
  without assuming equal variances;
- :func:`chi_square_equal_shares`: do some seats win more often than
  others, or is the spread what chance gives?
- :func:`describe`: n, mean, sample standard deviation, min, max, total;
- :func:`holm`: p-values adjusted for the number of comparisons (Holm's step-down);
- :func:`proportion_difference_interval` (Wald) and :func:`welch_interval`: an interval for a
  difference of rates or of means.

The normal distribution comes from :func:`math.erfc`; Student's t from the
regularized incomplete beta function, computed by its continued fraction
(Lentz's method, as in Numerical Recipes 6.4); chi-square from the
regularized incomplete gamma function (its series or continued fraction,
Numerical Recipes 6.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

Z_95 = 1.959963984540054  # the 97.5% point of the standard normal


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    tiny, eps = 1e-300, 3e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 <= x <= 1."""
    if not (a > 0 and b > 0):
        raise ValueError("a and b must be positive")
    if not 0.0 <= x <= 1.0:
        raise ValueError("x must be in [0, 1]")
    if x == 0.0 or x == 1.0:
        return x
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` (> 0, not necessarily whole) degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if math.isinf(df):
        return normal_two_sided_p(t)
    return regularized_beta(df / 2.0, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = t_two_sided_p(t, df) / 2.0
    return 1.0 - tail if t >= 0 else tail


def t_quantile(q: float, df: float) -> float:
    """The t with P(T <= t) = q for Student's t with ``df`` degrees of freedom (bisection on :func:`t_cdf`)."""
    if not 0.0 < q < 1.0:
        raise ValueError("q must be in (0, 1)")
    if math.isinf(df):
        low, high = -40.0, 40.0
        cdf = normal_cdf
    else:
        low, high = -1e6, 1e6  # below 1e-12 or above 1 - 1e-12 for any df >= 1
        def cdf(x: float) -> float:
            return t_cdf(x, df)
    for _ in range(200):
        middle = (low + high) / 2.0
        if cdf(middle) < q:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, abs(middle)):
            break
    return (low + high) / 2.0


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default ``z``); ``successes`` may
    count halves (a tournament's drawn games, split between their winners).

    ``(0.0, 1.0)`` when there are no trials: nothing is known.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class Significance:
    """A test's statistic (z or t), its degrees of freedom (None for z) and two-sided p-value."""

    statistic: float
    p: float
    df: float | None = None

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p < alpha


def two_proportion_z_test(x1: int, n1: int, x2: int, n2: int) -> Significance:
    """Pooled two-proportion z-test of x1/n1 against x2/n2 (the sign of z is that of x2/n2 - x1/n1).

    When the pooled rate is 0 or 1 (nothing varies) the two rates are equal: z 0, p 1.
    """
    for x, n in ((x1, n1), (x2, n2)):
        if n <= 0 or not 0 <= x <= n:
            raise ValueError(f"need 0 <= x <= n and n > 0, got {x} of {n}")
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    if se == 0.0:
        return Significance(0.0, 1.0)
    z = (x2 / n2 - x1 / n1) / se
    return Significance(z, normal_two_sided_p(z))


def welch_t_test(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int) -> Significance:
    """Welch's unequal-variances t-test from summary figures (sample standard deviations).

    The sign of t is that of mean2 - mean1. Both samples need at least two
    values. If neither sample varies, equal means give p 1 and different
    means p 0 (the difference is certain, not chance).
    """
    if n1 < 2 or n2 < 2:
        raise ValueError("Welch's test needs at least two values in each sample")
    v1, v2 = sd1 * sd1 / n1, sd2 * sd2 / n2
    se2 = v1 + v2
    if se2 == 0.0:
        same = mean1 == mean2
        return Significance(0.0 if same else math.copysign(math.inf, mean2 - mean1), 1.0 if same else 0.0, None)
    t = (mean2 - mean1) / math.sqrt(se2)
    df = se2 * se2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    return Significance(t, t_two_sided_p(t, df), df)


def welch_interval(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int,
                   level: float = 0.95) -> tuple[float, float]:
    """Welch's confidence interval for mean2 - mean1 (Welch-Satterthwaite degrees of freedom, the t quantile).

    If neither sample varies, the interval is the difference itself.
    """
    if n1 < 2 or n2 < 2:
        raise ValueError("Welch's interval needs at least two values in each sample")
    v1, v2 = sd1 * sd1 / n1, sd2 * sd2 / n2
    difference = mean2 - mean1
    se2 = v1 + v2
    if se2 == 0.0:
        return (difference, difference)
    df = se2 * se2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    half = t_quantile(0.5 + level / 2.0, df) * math.sqrt(se2)
    return (difference - half, difference + half)


def proportion_difference_interval(x1: int, n1: int, x2: int, n2: int, z: float = Z_95) -> tuple[float, float]:
    """The Wald interval (unpooled standard error) for x2/n2 - x1/n1, clipped to [-1, 1]; 95% by default."""
    for x, n in ((x1, n1), (x2, n2)):
        if n <= 0 or not 0 <= x <= n:
            raise ValueError(f"need 0 <= x <= n and n > 0, got {x} of {n}")
    p1, p2 = x1 / n1, x2 / n2
    half = z * math.sqrt(p1 * (1.0 - p1) / n1 + p2 * (1.0 - p2) / n2)
    return (max(-1.0, p2 - p1 - half), min(1.0, p2 - p1 + half))


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of p-values for the number of comparisons (None: no test, not counted).

    The i-th smallest of m p-values is multiplied by m - i + 1 (i from 1), kept at
    least as large as the one before it and at most 1; a comparison is significant
    after Holm when its adjusted p-value is below alpha. This controls the chance of
    any false finding among the m at alpha, whatever their dependence.
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted


def welch_t_test_samples(a: Sequence[float], b: Sequence[float]) -> Significance:
    """Welch's t-test on two samples of raw values."""
    da, db = describe(a), describe(b)
    return welch_t_test(da.mean, da.sd, da.n, db.mean, db.sd, db.n)


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a), the upper regularized incomplete gamma function."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series for P(a, x) converges fast here
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 3e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # the continued fraction for Q(a, x) (modified Lentz)
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 3e-16:
            break
    return min(1.0, math.exp(log_front) * h)


def chi_square_equal_shares(counts: Sequence[int]) -> Significance:
    """Pearson's chi-square goodness-of-fit test that ``counts`` (wins per seat) come from equal shares:
    the statistic, k - 1 degrees of freedom and the p-value. p 1 with fewer than two counts or none counted."""
    total = sum(counts)
    if len(counts) < 2 or total == 0:
        return Significance(0.0, 1.0, float(max(0, len(counts) - 1)))
    expected = total / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    df = len(counts) - 1
    return Significance(statistic, regularized_gamma_q(df / 2, statistic / 2), float(df))


@dataclass(frozen=True)
class Description:
    n: int
    mean: float
    sd: float  # sample standard deviation (n - 1); 0 for fewer than two values
    min: float
    max: float
    total: float

    def as_dict(self) -> dict:
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.min, "max": self.max, "total": self.total}


def describe(values: Iterable[float]) -> Description:
    """n, mean, sample standard deviation, min, max and total of some numbers (all 0 for none)."""
    data = list(values)
    n = len(data)
    if n == 0:
        return Description(0, 0.0, 0.0, 0, 0, 0)
    total = sum(data)
    mean = total / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in data) / (n - 1)) if n > 1 else 0.0
    return Description(n, mean, sd, min(data), max(data), total)
