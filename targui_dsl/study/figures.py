"""A summary's figures as plain JSON values (rates with Wilson intervals, means and deviations),
and two summaries compared figure by figure with their tests.

Numbers and names of figures only: the sentences that say what a
difference means belong to the command line (``targui_cli.compare``).
"""

from __future__ import annotations

from typing import Any, Sequence

from targui_dsl.effects.parser import round_long_changes
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.study.stats import chi_square_equal_shares, two_proportion_z_test, welch_t_test, wilson_interval
from targui_dsl.study.summary import CARD_FIELDS, PER_GAME_METRICS, Moments, StudySummary

__all__ = ["MEAN_ROWS", "compare_figures", "summary_figures"]

# Per-game means compared with Welch's test: the figure's key and its name in a table.
MEAN_ROWS: tuple[tuple[str, str], ...] = (
    ("rounds", "rounds a game"),
    ("attacks", "attacks a game"),
    ("attacks_won", "attacks won a game"),
    ("camels_bought", "camels bought a game"),
    ("eliminations", "eliminations a game"),
    ("decisions", "decisions a game"),
)


def _rate(count: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total)
    return {"rate": count / total if total else 0.0, "ci": [low, high]}


def _moments(m: Moments) -> dict[str, Any]:
    return {"n": m.n, "mean": m.mean, "sd": m.sd, "min": m.min if m.min is not None else 0,
            "max": m.max if m.max is not None else 0, "total": m.total}


def _seat_test(wins_by_seat: Sequence[int]) -> dict[str, Any]:
    """Pearson's chi-square test that every seat wins equally often (games won alone)."""
    test = chi_square_equal_shares(list(wins_by_seat))
    return {"test": "chi-square, equal shares", "statistic": test.statistic, "df": test.df, "p": test.p}


def summary_figures(summary: StudySummary, ruleset: CompiledRuleset, players: int, bots: Sequence[str],
                    seed: int, rotate: bool = False) -> dict[str, Any]:
    """The summary of a study as the JSON object `targui simulate --json` prints (docs/simulate.md)."""
    games = summary.games
    kinds = list(bots)
    names = {t.id: t.name for t in ruleset.tribes}
    tribes = list(summary.tribes)
    wins = {t.id: 0 for t in ruleset.tribes}
    for tribe, n in zip(tribes, summary.wins_by_seat):
        wins[tribe] = n
    wins_by_bot = {k: summary.wins_by_bot.get(k, 0) for k in sorted(set(kinds))}
    metrics = {name: _moments(getattr(summary, name)) for name in PER_GAME_METRICS}
    cards = {card: None for card in ruleset.deck}
    cards.update((card, None) for card in sorted(summary.cards))
    card_table = {}
    for card in cards:
        counts = summary.cards.get(card)
        drawn = counts.drawn if counts else 0
        figures = [getattr(counts, f) if counts else 0 for f in CARD_FIELDS]
        info = ruleset.cards.get(card)
        entry: dict[str, Any] = {"number": info.number if info else None, "title": info.title if info else card,
                                 "drawn": drawn, "draws_per_game": drawn / games if games else 0.0}
        entry.update(zip(CARD_FIELDS, figures))
        # A modifier (`erg.strategic = 3 this round`) moves no camel or silver when drawn: say what it changes.
        entry["this_round"] = list(round_long_changes(info.effect.source)) if info else []
        entry["per_draw"] = {f: (n / drawn if drawn else 0.0) for f, n in zip(CARD_FIELDS, figures)}
        card_table[card] = entry
    attack_count, attacks_won = summary.attacks.total, summary.attacks_won.total
    return {
        "ruleset": ruleset.id,
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
        "attacks": {
            "count": attack_count,
            "won": attacks_won,
            "failed": summary.attacks_failed,
            "given_up": summary.attacks_given_up,
            "per_game": metrics["attacks"]["mean"],
            "won_share": attacks_won / attack_count if attack_count else 0.0,
        },
        "camels_bought": {"total": summary.camels_bought.total, "per_game": metrics["camels_bought"]["mean"]},
        "eliminations": {
            "total": summary.eliminations.total,
            "per_game": metrics["eliminations"]["mean"],
            "games_with": summary.games_with_eliminations,
        },
        "mean_scores": {tribe: m.mean for tribe, m in zip(tribes, summary.scores)},
        "scores": {tribe: _moments(m) for tribe, m in zip(tribes, summary.scores)},
        "cards": card_table,
        "decisions": summary.decisions.total,
    }


def _proportion_row(key: str, metric: str, xa: int, xb: int, n_a: int, n_b: int, alpha: float) -> dict[str, Any]:
    test = two_proportion_z_test(xa, n_a, xb, n_b)
    a, b = xa / n_a, xb / n_b
    return {"key": key, "metric": metric, "test": "z", "a": a, "b": b, "difference": b - a,
            "statistic": test.statistic, "df": None, "p": test.p, "significant": test.p < alpha}


def compare_figures(a: dict[str, Any], b: dict[str, Any], alpha: float = 0.05) -> dict[str, Any]:
    """Each figure of two summaries (as :func:`summary_figures` gives them) side by side, B - A, and its test.

    Rates (wins per seat, per bot, draws, games ended early) use a pooled
    two-proportion z-test; per-game means Welch's t-test. Each row has
    ``key``, ``metric`` (its name), ``test``, ``a``, ``b``, ``difference``,
    ``statistic``, ``df``, ``p`` and ``significant`` (p < alpha).
    """
    n_a, n_b = a["games"], b["games"]
    rows: list[dict[str, Any]] = []
    for seat, (tribe_a, tribe_b) in enumerate(zip(a["tribes"], b["tribes"])):
        ra, rb = a["win_rates"][tribe_a], b["win_rates"][tribe_b]
        name = ra["name"] if tribe_a == tribe_b else f"{ra['name']} / {rb['name']}"
        rows.append(_proportion_row(f"wins.seat{seat + 1}", f"wins seat {seat + 1} {name}",
                                    ra["wins"], rb["wins"], n_a, n_b, alpha))
    if len(set(a["bots"])) > 1 or set(a["bots"]) != set(b["bots"]):
        for kind in sorted(set(a["wins_by_bot"]) & set(b["wins_by_bot"])):
            rows.append(_proportion_row(f"wins_by_bot.{kind}", f"wins bot {kind}", a["wins_by_bot"][kind],
                                        b["wins_by_bot"][kind], n_a, n_b, alpha))
    rows.append(_proportion_row("draws", "draws", a["draws"], b["draws"], n_a, n_b, alpha))
    rows.append(_proportion_row("end_reasons.last_standing", "ended early (one player left)",
                                a["end_reasons"].get("last_standing", 0), b["end_reasons"].get("last_standing", 0),
                                n_a, n_b, alpha))
    for name, metric in MEAN_ROWS:
        ma, mb = a["metrics"][name], b["metrics"][name]
        test = None
        if ma["n"] >= 2 and mb["n"] >= 2:
            test = welch_t_test(ma["mean"], ma["sd"], ma["n"], mb["mean"], mb["sd"], mb["n"])
        rows.append({"key": f"metrics.{name}", "metric": metric, "test": "welch", "a": ma["mean"], "b": mb["mean"],
                     "difference": mb["mean"] - ma["mean"],
                     "statistic": test.statistic if test else None, "df": test.df if test else None,
                     "p": test.p if test else None, "significant": bool(test and test.p < alpha)})
    labels = [a["ruleset"], b["ruleset"]] if a["ruleset"] != b["ruleset"] else ["A", "B"]
    return {
        "a": a["ruleset"], "b": b["ruleset"], "labels": labels,
        "games": n_a, "players": a["players"], "bots": a["bots"], "seed": a["seed"], "rotate": a["rotate"],
        "alpha": alpha,
        "rows": rows,
        "summaries": {"a": a, "b": b},
    }
