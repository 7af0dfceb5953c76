"""A summary's figures as plain JSON values (rates with Wilson intervals, means and deviations),
and two summaries compared figure by figure with their tests.

Numbers and names of figures only: the sentences that say what a
difference means belong to the command line (``targui_cli.compare``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from targui_dsl.effects.parser import round_long_changes
from targui_dsl.engine.protocol import Figure, GamePackage, StudyMetrics
from targui_dsl.games import DEFAULT_GAME, game_of, game_package
from targui_dsl.study.stats import (
    chi_square_equal_shares,
    holm,
    proportion_difference_interval,
    two_proportion_z_test,
    welch_interval,
    welch_t_test,
    wilson_interval,
)
from targui_dsl.study.summary import Moments, StudySummary

__all__ = ["DECISIONS", "ROUNDS", "card_fields", "compare_figures", "compare_many", "end_figure", "mean_figure",
           "mean_figures", "mean_rows", "package_of", "seat_figures", "study_labels", "summary_figures",
           "table_figures"]

#: The per-game figures of every game: the first and the last of every table.
ROUNDS = Figure("rounds", "rounds a game", "rounds", "games last longer", "games are shorter", "rounds")
DECISIONS = Figure("decisions", "decisions a game", "decisions", "players make more decisions",
                   "players make fewer decisions", "decisions a game")


def mean_figures(package: GamePackage) -> tuple[Figure, ...]:
    """Per-game figures kept as moments and compared with Welch's test, in table order: rounds,
    the game's own (its ``StudyMetrics.per_game``), decisions."""
    own = package.metrics.per_game if package.metrics is not None else ()
    return (ROUNDS, *own, DECISIONS)


def seat_figures(package: GamePackage) -> tuple[Figure, ...]:
    """The game's figures per seat at a game's end, besides the score (``StudyMetrics.per_seat``)."""
    return package.metrics.per_seat if package.metrics is not None else ()


def mean_rows(package: GamePackage) -> tuple[tuple[str, str], ...]:
    """Per-game means compared with Welch's test: the figure's key and its name in a table."""
    return tuple((f.key, f.name) for f in mean_figures(package))


def mean_figure(package: GamePackage, key: str) -> Figure:
    """The per-game figure ``key`` of ``package``'s game: one of :func:`mean_figures`, else one its
    counter added for a ruleset (``StudyMetrics.figure_of``), else named by its key."""
    for figure in mean_figures(package):
        if figure.key == key:
            return figure
    figure_of = package.metrics.figure_of if package.metrics is not None else None
    found = figure_of(key) if figure_of is not None else None
    return found or Figure(key, f"{key} a game", key, f"{key} is higher", f"{key} is lower", "a game")


def _own_keys(package: GamePackage, keyed: Sequence[Any]) -> list[str]:
    """The per-game keys of these summaries' metrics (or a study's moments) beyond
    :func:`mean_figures`, in the order first seen: figures a ruleset added (a sixth symbol)."""
    known = {f.key for f in mean_figures(package)}
    return list(dict.fromkeys(k for metrics in keyed for k in metrics if k not in known))


def table_figures(package: GamePackage, metrics: Sequence[Mapping[str, Any]]) -> list[Figure]:
    """The per-game figures of studies whose `metrics` are ``metrics``, in table order:
    :func:`mean_figures`, with those a ruleset added (a sixth symbol) before the decisions."""
    figures = list(mean_figures(package))
    figures[-1:-1] = [mean_figure(package, key) for key in _own_keys(package, metrics)]
    return figures


def end_figure(package: GamePackage, reason: str) -> Figure:
    """The comparison row of games that ended for ``reason``: the game's own words
    (``StudyMetrics.endings``), or the reason itself (a house rule's `end game "reason"`)."""
    own = package.metrics.endings if package.metrics is not None else ()
    for figure in own:
        if figure.key == reason:
            return figure
    return Figure(reason, f"ended: {reason}", reason, f"more games end with \"{reason}\"",
                  f"fewer games end with \"{reason}\"", "%")


def _end_reasons(package: GamePackage, summaries: Sequence[dict[str, Any]]) -> list[str]:
    """The end reasons with a row in a comparison: the game's own, then every other one any of
    ``summaries`` saw but the usual end (its rate is the rest)."""
    metrics = package.metrics
    own = [f.key for f in metrics.endings] if metrics is not None else []
    usual = metrics.usual_end if metrics is not None else ""
    seen = sorted({reason for s in summaries for reason in s["end_reasons"]} - set(own) - {usual})
    return own + seen


def package_of(figures: dict[str, Any]) -> GamePackage:
    """The package of the game a study's figures are of (its ``game``; the default game for
    figures that name none, as every study's did before games had names)."""
    return game_package(figures.get("game", DEFAULT_GAME))


def card_fields(package: GamePackage) -> tuple[str, ...]:
    """What a study counts per card of ``package``'s game, after the times it was drawn."""
    return package.metrics.card_fields if package.metrics is not None else ()


def _rate(count: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total)
    return {"rate": count / total if total else 0.0, "ci": [low, high]}


def _moments(m: Moments) -> dict[str, Any]:
    return {"n": m.n, "mean": m.mean, "sd": m.sd, "min": m.min if m.min is not None else 0,
            "max": m.max if m.max is not None else 0, "total": m.total}


def _none(games: int) -> dict[str, Any]:
    """The moments of a figure a study's ruleset cannot count (a symbol it has not): 0 in every game."""
    return {"n": games, "mean": 0.0, "sd": 0.0, "min": 0, "max": 0, "total": 0}


def _seat_test(wins_by_seat: Sequence[int]) -> dict[str, Any]:
    """Pearson's chi-square test that every seat wins equally often (games won alone)."""
    test = chi_square_equal_shares(list(wins_by_seat))
    return {"test": "chi-square, equal shares", "statistic": test.statistic, "df": test.df, "p": test.p}


def summary_figures(summary: StudySummary, ruleset: Any, players: int, bots: Sequence[str],
                    seed: int, rotate: bool = False) -> dict[str, Any]:
    """The summary of a study as the JSON object `targui simulate --json` prints (docs/simulate.md)."""
    package = game_of(ruleset)
    own: StudyMetrics | None = package.metrics
    fields = card_fields(package)
    games = summary.games
    kinds = list(bots)
    names = {t.id: t.name for t in ruleset.tribes}
    tribes = list(summary.tribes)
    wins = {t.id: 0 for t in ruleset.tribes}
    for tribe, n in zip(tribes, summary.wins_by_seat, strict=False):
        wins[tribe] = n
    wins_by_bot = {k: summary.wins_by_bot.get(k, 0) for k in sorted(set(kinds))}
    metrics = {"rounds": _moments(summary.rounds)}
    metrics.update((f.key, _moments(summary.metrics.get(f.key, Moments()))) for f in mean_figures(package)[1:-1])
    # figures the game's counter added for this ruleset (its own symbols, say)
    metrics.update((key, _moments(summary.metrics[key])) for key in _own_keys(package, [summary.metrics]))
    metrics["decisions"] = _moments(summary.decisions)
    cards = {card: None for card in ruleset.deck}
    cards.update((card, None) for card in sorted(summary.cards))
    card_table = {}
    for card in cards:
        counts = summary.cards.get(card)
        drawn = counts[0] if counts else 0
        figures = list(counts[1:]) if counts else [0] * len(fields)
        info = ruleset.cards.get(card)
        entry: dict[str, Any] = {"number": info.number if info else None, "title": info.title if info else card,
                                 "drawn": drawn, "draws_per_game": drawn / games if games else 0.0}
        entry.update(zip(fields, figures, strict=False))
        # A modifier (a change for this round only) changes nothing when drawn: say what it changes.
        entry["this_round"] = list(round_long_changes(info.effect.source)) if info else []
        entry["per_draw"] = {f: (n / drawn if drawn else 0.0) for f, n in zip(fields, figures, strict=False)}
        card_table[card] = entry
    figures_of_game = own.figures(metrics, summary.totals) if own is not None and own.figures is not None else {}
    return {
        "ruleset": ruleset.id,
        "game": package.name,
        "title": ruleset.title,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": kinds,
        "rotate": rotate,
        "tribes": tribes,
        "wins": wins,
        "wins_by_bot": wins_by_bot,
        "draws": summary.draws,
        "win_rates": {
            tribe: {"seat": seat + 1, "name": names.get(tribe, tribe), "wins": wins[tribe], **_rate(wins[tribe], games)}
            for seat, tribe in enumerate(tribes)
        },
        "seat_test": _seat_test(summary.wins_by_seat),
        "win_rates_by_bot": {
            kind: {"seats": kinds.count(kind), "wins": n, **_rate(n, games), "parity": kinds.count(kind) / players}
            for kind, n in wins_by_bot.items()
        },
        "draw_rate": {"draws": summary.draws, **_rate(summary.draws, games)},
        "end_reasons": dict(sorted(summary.end_reasons.items())),
        "rounds": {
            "mean": metrics["rounds"]["mean"],
            "min": metrics["rounds"]["min"],
            "max": metrics["rounds"]["max"],
            "sd": metrics["rounds"]["sd"],
            "distribution": {str(r): n for r, n in sorted(summary.rounds_histogram.items())},
        },
        "metrics": metrics,
        **figures_of_game,
        "mean_scores": {tribe: m.mean for tribe, m in zip(tribes, summary.scores, strict=False)},
        "scores": {tribe: _moments(m) for tribe, m in zip(tribes, summary.scores, strict=False)},
        # the game's figures per seat at the end (its StudyMetrics.per_seat), by tribe
        "per_seat": {f.key: {tribe: _moments(m) for tribe, m in zip(tribes, summary._seats(f.key), strict=False)}
                     for f in seat_figures(package)},
        "cards": card_table,
        "decisions": summary.decisions.total,
    }


def _proportion_row(key: str, metric: str, xa: int, xb: int, n_a: int, n_b: int, alpha: float) -> dict[str, Any]:
    test = two_proportion_z_test(xa, n_a, xb, n_b)
    a, b = xa / n_a, xb / n_b
    return {"key": key, "metric": metric, "test": "z", "a": a, "b": b, "difference": b - a,
            "ci": list(proportion_difference_interval(xa, n_a, xb, n_b)), "statistic": test.statistic, "df": None,
            "p": test.p, "significant": test.p < alpha}


def _mean_row(key: str, metric: str, ma: dict[str, Any], mb: dict[str, Any], alpha: float) -> dict[str, Any]:
    """A mean of two summaries (moments as :func:`_moments` gives them) and Welch's test."""
    test, ci = None, None
    if ma["n"] >= 2 and mb["n"] >= 2:
        test = welch_t_test(ma["mean"], ma["sd"], ma["n"], mb["mean"], mb["sd"], mb["n"])
        ci = list(welch_interval(ma["mean"], ma["sd"], ma["n"], mb["mean"], mb["sd"], mb["n"]))
    return {"key": key, "metric": metric, "test": "welch", "a": ma["mean"], "b": mb["mean"],
            "difference": mb["mean"] - ma["mean"], "ci": ci,
            "statistic": test.statistic if test else None, "df": test.df if test else None,
            "p": test.p if test else None, "significant": bool(test and test.p < alpha)}


def compare_figures(a: dict[str, Any], b: dict[str, Any], alpha: float = 0.05,
                    among: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Each figure of two summaries (as :func:`summary_figures` gives them) side by side, B - A, and its test.

    Rates (wins per seat, per bot, draws, games ended early) use a pooled
    two-proportion z-test and a Wald interval for the difference; per-game
    means Welch's t-test and interval. Each row has ``key``, ``metric`` (its
    name), ``test``, ``a``, ``b``, ``difference``, ``ci`` (95%, None without a
    test), ``statistic``, ``df``, ``p`` and ``significant`` (p < alpha).

    Every end reason and every per-game figure seen in ``among`` (default: A and B) gets a row,
    so that comparisons of one A with several B's have the same rows.
    """
    n_a, n_b = a["games"], b["games"]
    package = package_of(a)
    among = among or (a, b)
    rows: list[dict[str, Any]] = []
    for seat, (tribe_a, tribe_b) in enumerate(zip(a["tribes"], b["tribes"], strict=False)):
        ra, rb = a["win_rates"][tribe_a], b["win_rates"][tribe_b]
        name = ra["name"] if tribe_a == tribe_b else f"{ra['name']} / {rb['name']}"
        rows.append(_proportion_row(f"wins.seat{seat + 1}", f"wins seat {seat + 1} {name}",
                                    ra["wins"], rb["wins"], n_a, n_b, alpha))
    if len(set(a["bots"])) > 1 or set(a["bots"]) != set(b["bots"]):
        for kind in sorted(set(a["wins_by_bot"]) & set(b["wins_by_bot"])):
            rows.append(_proportion_row(f"wins_by_bot.{kind}", f"wins bot {kind}", a["wins_by_bot"][kind],
                                        b["wins_by_bot"][kind], n_a, n_b, alpha))
    rows.append(_proportion_row("draws", "draws", a["draws"], b["draws"], n_a, n_b, alpha))
    for reason in _end_reasons(package, among):
        rows.append(_proportion_row(f"end_reasons.{reason}", end_figure(package, reason).name,
                                    a["end_reasons"].get(reason, 0), b["end_reasons"].get(reason, 0), n_a, n_b, alpha))
    # a figure one summary lacks (a symbol its ruleset has not): 0 in every game
    for figure in table_figures(package, [s["metrics"] for s in among]):
        rows.append(_mean_row(f"metrics.{figure.key}", figure.name, a["metrics"].get(figure.key, _none(n_a)),
                              b["metrics"].get(figure.key, _none(n_b)), alpha))
    # per seat at the end: the score, then the game's own figures (a row per seat each)
    per_seat = [("scores", "score at the end", a["scores"], b["scores"])]
    known = a.get("per_seat", {}).keys() & b.get("per_seat", {}).keys()
    per_seat += [(f"per_seat.{f.key}", f.name, a["per_seat"][f.key], b["per_seat"][f.key])
                 for f in seat_figures(package) if f.key in known]
    for key, name, seats_a, seats_b in per_seat:
        for seat, (tribe_a, tribe_b) in enumerate(zip(a["tribes"], b["tribes"], strict=False)):
            ra, rb = a["win_rates"][tribe_a], b["win_rates"][tribe_b]
            who = ra["name"] if tribe_a == tribe_b else f"{ra['name']} / {rb['name']}"
            rows.append(_mean_row(f"{key}.seat{seat + 1}", f"{name} seat {seat + 1} {who}", seats_a[tribe_a],
                                  seats_b[tribe_b], alpha))
    labels = [a["ruleset"], b["ruleset"]] if a["ruleset"] != b["ruleset"] else ["A", "B"]
    return {
        "a": a["ruleset"], "b": b["ruleset"], "labels": labels,
        "games": n_a, "players": a["players"], "bots": a["bots"], "seed": a["seed"], "rotate": a["rotate"],
        "alpha": alpha,
        "rows": rows,
        "summaries": {"a": a, "b": b},
    }


def study_labels(ids: Sequence[str]) -> list[str]:
    """What tables call the rulesets of a comparison: their ids, or A, B, C... when an id repeats."""
    if len(set(ids)) == len(ids):
        return list(ids)
    return [chr(ord("A") + i) if i < 26 else f"R{i + 1}" for i in range(len(ids))]


def compare_many(summaries: Sequence[dict[str, Any]], alpha: float = 0.05) -> dict[str, Any]:
    """Every ruleset after the first compared with the first, figure by figure, the p-values of
    each figure adjusted for the number of comparisons by Holm's step-down.

    ``rows`` has one entry per figure: ``key``, ``metric``, ``test``, ``values`` (one per
    ruleset) and ``differences`` (one per ruleset after the first: ``ruleset`` (its label),
    ``difference``, ``ci``, ``statistic``, ``df``, ``p``, ``p_holm`` and ``significant``,
    p_holm < alpha). ``comparisons`` holds each pair as :func:`compare_figures` gives it.
    """
    if len(summaries) < 2:
        raise ValueError("a comparison needs two rulesets or more")
    first, others = summaries[0], summaries[1:]
    labels = study_labels([s["ruleset"] for s in summaries])
    pairs = [compare_figures(first, other, alpha, among=summaries) for other in others]
    rows: list[dict[str, Any]] = []
    for n, row in enumerate(pairs[0]["rows"]):
        same = [pair["rows"][n] for pair in pairs]
        adjusted = holm([r["p"] for r in same])
        metric = row["metric"]
        if row["key"].startswith("wins.seat"):
            seat = int(row["key"][len("wins.seat"):])
            names = list(dict.fromkeys(s["win_rates"][s["tribes"][seat - 1]]["name"] for s in summaries))
            metric = f"wins seat {seat} {' / '.join(names)}"
        rows.append({
            "key": row["key"], "metric": metric, "test": row["test"],
            "values": [row["a"], *(r["b"] for r in same)],
            "differences": [
                {"ruleset": label, "difference": r["difference"], "ci": r["ci"], "statistic": r["statistic"],
                 "df": r["df"], "p": r["p"], "p_holm": p_holm, "significant": p_holm is not None and p_holm < alpha}
                for label, r, p_holm in zip(labels[1:], same, adjusted, strict=True)],
        })
    return {
        "rulesets": [s["ruleset"] for s in summaries], "labels": labels,
        "games": first["games"], "players": first["players"], "bots": first["bots"], "seed": first["seed"],
        "rotate": first["rotate"], "alpha": alpha, "correction": "holm",
        "rows": rows,
        "comparisons": [{k: v for k, v in pair.items() if k != "summaries"} for pair in pairs],
        "summaries": dict(zip(labels, summaries, strict=True)),
    }
