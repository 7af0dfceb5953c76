"""Charts of simulation summaries and comparisons (optional: needs matplotlib, ``pip install '.[plot]'`` in a checkout).

    from targui_dsl.study.plots import plot_simulation, plot_comparison
    plot_simulation(run_games(...), "wins.png")          # .png, .svg or .pdf
    plot_comparison(compare_summaries(a, b), "ab.svg")

Figures are drawn with matplotlib's object API on the Agg canvas: no
pyplot, no window, no global backend switch.
"""

from __future__ import annotations

import os
from typing import Any

# targui is installed from a checkout, not from a package index: the extra is `.[plot]`.
INSTALL_HINT = "pip install '.[plot]' in a checkout of targui (or pip install matplotlib)"


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Raise :class:`PlotUnavailable` with the install command if matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailable(f"plotting needs matplotlib, which is not installed: {INSTALL_HINT}") from None


def _figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _rate_bars(summary: dict[str, Any]) -> tuple[list[str], list[float], list[list[float]]]:
    """Labels, rates and [below, above] error lengths of win rates per seat, per bot, and draws."""
    items = [(f"{r['seat']} {r['name']}", r) for r in summary["win_rates"].values()]
    if len(summary["win_rates_by_bot"]) > 1:
        items += [(f"bot {kind}", r) for kind, r in summary["win_rates_by_bot"].items()]
    items.append(("draws", summary["draw_rate"]))
    labels = [label for label, _ in items]
    rates = [100 * r["rate"] for _, r in items]
    errors = [[max(0.0, 100 * (r["rate"] - r["ci"][0])) for _, r in items],
              [max(0.0, 100 * (r["ci"][1] - r["rate"])) for _, r in items]]
    return labels, rates, errors


def _integer_axis(axes: Any, values: list[int]) -> None:
    from matplotlib.ticker import MaxNLocator

    if values:
        axes.set_xlim(min(values) - 1, max(values) + 1)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))


def _lengths(summary: dict[str, Any]) -> dict[int, float]:
    games = summary["games"] or 1
    return {int(r): 100 * n / games for r, n in summary["rounds"]["distribution"].items()}


def plot_simulation(summary: dict[str, Any], path: str | os.PathLike) -> None:
    """Win rates with 95% confidence intervals, and the distribution of game lengths."""
    figure = _figure(11, 4.5)

    wins, lengths = figure.subplots(1, 2, width_ratios=[3, 2])
    labels, rates, errors = _rate_bars(summary)
    x = range(len(labels))
    wins.bar(x, rates, yerr=errors, capsize=4, color="#c9803b", edgecolor="#6b3f14")
    wins.set_xticks(list(x), labels, rotation=30, ha="right")
    wins.set_ylabel("% of games (95% CI)")
    wins.set_title(f"Wins: {summary['ruleset']}, {summary['games']} games, {summary['players']} players")
    distribution = _lengths(summary)
    lengths.bar(list(distribution), list(distribution.values()), color="#3b7ac9", edgecolor="#14366b")
    lengths.set_xlabel("rounds")
    lengths.set_ylabel("% of games")
    _integer_axis(lengths, list(distribution))
    lengths.set_title(f"Game length (mean {summary['rounds']['mean']:.2f})")
    figure.savefig(os.fspath(path))


def plot_comparison(comparison: dict[str, Any], path: str | os.PathLike) -> None:
    """A and B side by side: win rates (with CIs), game lengths, and the per-game means."""
    a, b = comparison["summaries"]["a"], comparison["summaries"]["b"]
    label_a, label_b = comparison["labels"]
    figure = _figure(15, 4.8)

    wins, lengths, means = figure.subplots(1, 3, width_ratios=[3, 2, 3])
    labels, rates_a, errors_a = _rate_bars(a)
    _, rates_b, errors_b = _rate_bars(b)
    n = min(len(rates_a), len(rates_b))
    x = list(range(n))
    width = 0.4
    wins.bar([i - width / 2 for i in x], rates_a[:n], width, yerr=[e[:n] for e in errors_a], capsize=3,
             label=label_a, color="#c9803b")
    wins.bar([i + width / 2 for i in x], rates_b[:n], width, yerr=[e[:n] for e in errors_b], capsize=3,
             label=label_b, color="#3b7ac9")
    wins.set_xticks(x, labels[:n], rotation=30, ha="right")
    wins.set_ylabel("% of games (95% CI)")
    wins.set_title("Wins")
    wins.legend()

    da, db = _lengths(a), _lengths(b)
    rounds = sorted(set(da) | set(db))
    lengths.bar([r - width / 2 for r in rounds], [da.get(r, 0) for r in rounds], width, label=label_a, color="#c9803b")
    lengths.bar([r + width / 2 for r in rounds], [db.get(r, 0) for r in rounds], width, label=label_b, color="#3b7ac9")
    lengths.set_xlabel("rounds")
    lengths.set_ylabel("% of games")
    lengths.set_title("Game length")
    _integer_axis(lengths, rounds)
    lengths.legend()

    rows = [row for row in comparison["rows"] if row["test"] == "welch" and row["key"] != "metrics.decisions"]
    names = [row["metric"].replace(" a game", "") + (" *" if row["significant"] else "") for row in rows]
    # each mean relative to A's (A = 100), so that figures of any size share one axis
    # (no bar where A's mean is 0: the ratio means nothing; the values are written beside it anyway)
    relative_b = [100 * row["b"] / row["a"] if row["a"] else 0.0 for row in rows]
    y = list(range(len(rows)))
    means.barh(y, relative_b, color=["#3b7ac9" if row["significant"] else "#a9bfd9" for row in rows])
    for i, row in enumerate(rows):
        means.annotate(f"{row['a']:.2f} \u2192 {row['b']:.2f}", (max(relative_b[i], 100), i),
                       xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    means.set_xlim(0, max([130.0] + [v * 1.3 for v in relative_b]))
    means.axvline(100, color="#c9803b", linewidth=2, label=f"{label_a} = 100")
    means.set_yticks(y, names)
    means.invert_yaxis()
    means.set_xlabel(f"{label_b} per game, {label_a} = 100 (* significant)")
    means.set_title("Per-game means")
    means.legend(loc="lower right")
    figure.suptitle(f"{label_a} vs {label_b}: {comparison['games']} games each")
    figure.savefig(os.fspath(path))
