"""Ratings from multiplayer results: Bradley-Terry strengths on the Elo scale, with bootstrap intervals.

A game of *n* players is counted as its n(n-1)/2 pairwise results: of two
players, the better placed scores 1 and the other 0; equally placed, each
scores one half. The Bradley-Terry model says that player *i* beats *j*
with probability g_i / (g_i + g_j); its maximum-likelihood strengths are
found with the MM algorithm of Hunter (2004), "MM algorithms for generalized
Bradley-Terry models", The Annals of Statistics 32(1), 384-406, in which
half-points count as half a win for each side.

A strength is shown on the Elo scale, 400 * log10(g), shifted so that the
ratings average 1500: a difference of 200 points means the stronger wins a
pairwise meeting about 76% of the time (1 / (1 + 10^(-200/400))).

Every pair of players gets a prior of one drawn meeting (half a point
each): a player that beat every other in every game would otherwise have
an infinite rating. With hundreds of games it moves the ratings by a few
points; with a handful it keeps them finite.

The 95% interval is the wider, on each side, of two intervals:

- a bootstrap over games (Efron and Tibshirani, "An Introduction to the
  Bootstrap", 1993, chapter 13): the games are resampled with replacement,
  the ratings fitted again, and the 2.5th and 97.5th percentiles of each
  rating kept. It counts the pairwise results of one game as what they
  are, not independent of one another. The resampling is seeded, so the
  same results give the same intervals.
- the model's own (Wald) interval, the rating +- 1.96 standard errors from
  the curvature of the likelihood with its prior. When a bot won every
  meeting, every resample agrees and the bootstrap interval shrinks to a
  point; this one still says how little such a run of wins pins down.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from targui_dsl.study.stats import Z_95

__all__ = ["ELO_MEAN", "Outcome", "RatingFit", "bradley_terry", "elo_ratings", "expected_score", "fit_ratings",
           "pairwise_points", "standard_errors"]

ELO_MEAN = 1500.0
ELO_PER_NATURAL = 400.0 / math.log(10.0)  # Elo points per unit of natural-log strength
PRIOR_DRAWS = 1.0  # drawn meetings added to every pair (see the module's docstring)


@dataclass(frozen=True)
class Outcome:
    """Games that ended the same way: the player in each seat, each seat's place (0 first, shared
    places equal), and how many games."""

    players: tuple[int, ...]
    places: tuple[int, ...]
    count: int


@dataclass(frozen=True)
class RatingFit:
    """Elo-scale ratings per player with their 95% bootstrap intervals."""

    ratings: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    resamples: int


def pairwise_points(outcomes: Iterable[tuple[Outcome, float]], players: int) -> tuple[list[list[float]],
                                                                                    list[list[float]]]:
    """(points, meetings): points[i][j] is what i scored against j (1 a win, 1/2 a draw), meetings[i][j]
    how often they met; each outcome weighted by the given factor (its count, or a resampled count)."""
    points = [[0.0] * players for _ in range(players)]
    meetings = [[0.0] * players for _ in range(players)]
    for outcome, weight in outcomes:
        if not weight:
            continue
        seats = range(len(outcome.players))
        for a in seats:
            for b in seats:
                if a >= b:
                    continue
                i, j = outcome.players[a], outcome.players[b]
                pa, pb = outcome.places[a], outcome.places[b]
                meetings[i][j] += weight
                meetings[j][i] += weight
                if pa < pb:
                    points[i][j] += weight
                elif pb < pa:
                    points[j][i] += weight
                else:
                    points[i][j] += weight / 2
                    points[j][i] += weight / 2
    return points, meetings


def bradley_terry(points: Sequence[Sequence[float]], meetings: Sequence[Sequence[float]],
                  prior_draws: float = PRIOR_DRAWS, tolerance: float = 1e-10,
                  max_iterations: int = 100_000) -> list[float]:
    """The maximum-likelihood log-strengths (natural log, mean 0) by Hunter's MM iteration."""
    n = len(points)
    wins = [sum(points[i][j] for j in range(n) if j != i) + prior_draws * (n - 1) / 2 for i in range(n)]
    met = [[meetings[i][j] + (prior_draws if i != j else 0.0) for j in range(n)] for i in range(n)]
    gamma = [1.0] * n
    for _ in range(max_iterations):
        new = [wins[i] / sum(met[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i) for i in range(n)]
        # keep the geometric mean at 1: strengths are defined up to a common factor
        shift = math.exp(-sum(math.log(g) for g in new) / n)
        new = [g * shift for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=False))
        gamma = new
        if change < tolerance:
            break
    return [math.log(g) for g in gamma]


def elo_ratings(log_strengths: Sequence[float]) -> list[float]:
    """Log-strengths on the Elo scale, averaging 1500."""
    mean = sum(log_strengths) / len(log_strengths)
    return [ELO_MEAN + ELO_PER_NATURAL * (s - mean) for s in log_strengths]


def expected_score(rating_a: float, rating_b: float) -> float:
    """What a player rated ``rating_a`` is expected to score against one rated ``rating_b``."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


def _solve_inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small symmetric positive-definite matrix (Gauss-Jordan)."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        scale = a[col][col]
        a[col] = [v / scale for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col], strict=False)]
    return [row[n:] for row in a]


def standard_errors(log_strengths: Sequence[float], meetings: Sequence[Sequence[float]],
                    prior_draws: float = PRIOR_DRAWS) -> list[float]:
    """Standard errors of the ratings (Elo points, each about the ratings' mean) from the observed
    information of the Bradley-Terry likelihood with its prior, as if every meeting were independent."""
    n = len(log_strengths)
    if n < 2:
        return [0.0] * n
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                p = 1.0 / (1.0 + math.exp(log_strengths[j] - log_strengths[i]))
                w = (meetings[i][j] + prior_draws) * p * (1.0 - p)
                info[i][j] -= w
                info[i][i] += w
    # strengths are defined up to a constant: fix the first at 0, invert, then centre on the mean
    reduced = _solve_inverse([row[1:] for row in info[1:]])
    cov = [[0.0] * n for _ in range(n)]
    for i in range(1, n):
        for j in range(1, n):
            cov[i][j] = reduced[i - 1][j - 1]
    row_means = [sum(cov[i]) / n for i in range(n)]
    grand = sum(row_means) / n
    return [ELO_PER_NATURAL * math.sqrt(max(0.0, cov[i][i] - 2 * row_means[i] + grand)) for i in range(n)]


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile by linear interpolation between the closest ranks."""
    if len(sorted_values) == 1:
        return sorted_values[0]
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def fit_ratings(outcomes: Sequence[Outcome], players: int, resamples: int = 1000, seed: int = 0) -> RatingFit:
    """Ratings of ``players`` players from ``outcomes``, with 95% percentile intervals from
    ``resamples`` bootstrap resamples of the games (seeded with ``seed``; 0 resamples: no interval)."""
    points, meetings = pairwise_points(((o, o.count) for o in outcomes), players)
    strengths = bradley_terry(points, meetings)
    point = elo_ratings(strengths)
    wald = [(r - Z_95 * se, r + Z_95 * se) for r, se in zip(point, standard_errors(strengths, meetings), strict=False)]
    if resamples <= 0 or not outcomes:
        return RatingFit(tuple(point), tuple(wald), 0)
    rng = random.Random(seed)
    games = sum(o.count for o in outcomes)
    cumulative: list[int] = []
    total = 0
    for o in outcomes:
        total += o.count
        cumulative.append(total)
    drawn: list[list[float]] = [[] for _ in range(players)]
    indices = range(len(outcomes))
    for _ in range(resamples):
        drawn_counts = Counter(rng.choices(indices, cum_weights=cumulative, k=games))
        counts = [drawn_counts[i] for i in indices]
        fitted = elo_ratings(bradley_terry(*pairwise_points(zip(outcomes, counts, strict=False), players)))
        for player, rating in enumerate(fitted):
            drawn[player].append(rating)
    intervals = []
    for values, (low, high) in zip(drawn, wald, strict=False):
        values.sort()
        intervals.append((min(low, _percentile(values, 0.025)), max(high, _percentile(values, 0.975))))
    return RatingFit(tuple(point), tuple(intervals), resamples)
