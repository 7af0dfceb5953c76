"""Many bot games of one ruleset, summed up: who wins, how long games last, what the cards do.

    from targui_dsl import load_ruleset
    from targui_dsl.simulate import run_games, compare_summaries
    a = run_games(load_ruleset("swedish-12"), games=100, players=4, bots=["greedy", "random"], seed=1)
    b = run_games("rulesets/examples/rich-oases.yaml", games=100, players=4, bots=["greedy", "random"],
                  seed=1, workers=2)
    compare_summaries(a, b)["verdicts"]

Game ``i`` is played with the seed ``derive_seed(seed, i)`` (and each bot
with a seed derived from that), so a batch is reproducible and any single
game of it can be replayed alone.

Each game is reduced to a small *record* (:func:`play_record`: winners,
rounds, attacks, camels bought, eliminations, what each card changed), read
off the game's event log as it is played. :func:`summarize` aggregates
records in game order; with ``workers`` the games are played in worker
processes and their records merged in game order first, so the summary is
the same whatever the number of workers (only the timing fields differ).
"""

from __future__ import annotations

import math
import os
import time
from contextlib import contextmanager
from typing import Any, Callable, Sequence

from .agents import make_agent
from .compiled import CompiledRuleset
from .engine.chance import derive_seed
from .engine.game import Game
from .engine.loop import play
from .stats import describe, two_proportion_z_test, welch_t_test, wilson_interval

# Per-game numbers summed up with mean, sd, min, max and total, and compared with Welch's t-test.
PER_GAME_METRICS = ("rounds", "attacks", "attacks_won", "camels_bought", "eliminations", "decisions")

# Fields that depend on the machine, not on the games: left out when results are compared.
TIMING_FIELDS = ("seconds", "games_per_second", "decisions_per_second", "workers")

# Per card: drawn, camels removed, camels added, silver taken, silver given.
_CARD_FIELDS = ("camels_removed", "camels_added", "cash_taken", "cash_given")


def seat_bots(bots: Sequence[str] | str, players: int) -> list[str]:
    """One bot kind per seat: a shorter list is padded with its last kind."""
    kinds = [bots] if isinstance(bots, str) else list(bots)
    if not kinds:
        raise ValueError("name at least one bot")
    if len(kinds) > players:
        raise ValueError(f"{len(kinds)} bots for {players} players")
    return kinds + [kinds[-1]] * (players - len(kinds))


def agents_for(game: Game, bots: Sequence[str]) -> list:
    """One agent per seat, each seeded from the game's seed and its seat."""
    return [make_agent(kind, derive_seed(game.seed, seat + 1)) for seat, kind in enumerate(bots)]


def play_game(game: Game, bots: Sequence[str], log=None):
    """Play one game to the end with the given bot kind per seat; returns the final state."""
    return play(game.new_initial_state(log=log), agents_for(game, bots))


def seated_bots(kinds: Sequence[str], index: int, rotate: bool) -> list[str]:
    """The bot per seat in game ``index``: with ``rotate`` the list shifts one seat per game."""
    kinds = list(kinds)
    shift = index % len(kinds) if rotate else 0
    return kinds[-shift:] + kinds[:-shift] if shift else kinds


class GameObserver:
    """Counts what happens in one game from its events (it stands in for an ``EventLog``)."""

    __slots__ = ("attacks", "attacks_won", "attacks_failed", "attacks_given_up", "camels_bought",
                 "eliminations", "cards")

    def __init__(self) -> None:
        self.attacks = self.attacks_won = self.attacks_failed = self.attacks_given_up = 0
        self.camels_bought = self.eliminations = 0
        self.cards: dict[str, list[int]] = {}

    def emit(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "decision":
            action = event["action"]
            if action.startswith("buy "):
                self.camels_bought += int(action.split()[1])
        elif kind == "attack_end":
            self.attacks += 1
            result = event["result"]
            if result == "won":
                self.attacks_won += 1
            elif result == "failed":
                self.attacks_failed += 1
            else:
                self.attacks_given_up += 1
        elif kind == "eliminated":
            self.eliminations += 1
        elif kind == "card":
            self._card(event["card"], event["changes"])

    def _card(self, card: str, changes: dict) -> None:
        figures = self.cards.setdefault(card, [0, 0, 0, 0, 0])
        figures[0] += 1
        for before, after in changes["camels"].values():
            if after < before:
                figures[1] += before - after
            else:
                figures[2] += after - before
        for field in ("cash", "treasury"):
            for before, after in changes[field].values():
                if after < before:
                    figures[3] += before - after
                else:
                    figures[4] += after - before


def play_record(ruleset: CompiledRuleset, players: int, kinds: Sequence[str], seed: int, index: int,
                rotate: bool = False) -> dict[str, Any]:
    """Play game ``index`` of a batch and return its record (plain, picklable, JSON values)."""
    seated = seated_bots(kinds, index, rotate)
    game = Game(ruleset, players=players, seed=derive_seed(seed, index))
    observer = GameObserver()
    state = play_game(game, seated, log=observer)
    return {
        "index": index,
        "bots": seated,
        "tribes": list(game.tribe_ids),
        "winners": state.winners(),
        "scores": state.scores(),
        "rounds": state.round,
        "end_reason": state.end_reason,
        "decisions": state.decisions,
        "attacks": observer.attacks,
        "attacks_won": observer.attacks_won,
        "attacks_failed": observer.attacks_failed,
        "attacks_given_up": observer.attacks_given_up,
        "camels_bought": observer.camels_bought,
        "eliminations": observer.eliminations,
        "cards": observer.cards,
    }


# Worker processes ---------------------------------------------------------------

_worker_rulesets: dict[str, CompiledRuleset] = {}


def _play_chunk(reference: str, players: int, kinds: list[str], seed: int, rotate: bool,
                start: int, stop: int) -> list[dict[str, Any]]:
    """Run in a worker process: load the ruleset by its reference (once) and play games start..stop-1."""
    ruleset = _worker_rulesets.get(reference)
    if ruleset is None:
        from .build import load_ruleset

        ruleset = _worker_rulesets[reference] = load_ruleset(reference)
    return [play_record(ruleset, players, kinds, seed, i, rotate) for i in range(start, stop)]


def _worker_init() -> None:
    # Ctrl-C reaches the whole process group: the parent handles it and stops the workers
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held():
    """Start worker processes that never see a Ctrl-C, not even while Python starts in them.

    ``_worker_init`` ignores SIGINT only once a worker has imported everything;
    a Ctrl-C before that printed a traceback per worker. Processes started
    while SIGINT is ignored inherit that through exec, and Python then leaves
    it ignored. (A Ctrl-C in these few milliseconds is lost; the next one
    works.)
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _play_task(task: tuple) -> tuple[int, list[dict[str, Any]]]:
    n, *args = task
    return n, _play_chunk(*args)


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(25, math.ceil(games / (workers * 8))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def play_records(ruleset: CompiledRuleset, games: int, players: int, kinds: Sequence[str], seed: int,
                 rotate: bool = False, workers: int = 1, reference: str | None = None,
                 progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The records of games 0..games-1, in game order, played in ``workers`` processes.

    Worker processes (started with 'spawn') load the ruleset by ``reference``
    (a built-in name or a path): compiled rulesets hold generated code and
    are not sent between processes.
    """
    kinds = list(kinds)
    if workers <= 1 or games <= 1:
        records = []
        for i in range(games):
            records.append(play_record(ruleset, players, kinds, seed, i, rotate))
            if progress is not None:
                progress(i)
        return records
    if reference is None:
        raise ValueError("games in worker processes need the ruleset's reference (a name or path), "
                         "not only the compiled ruleset")
    import multiprocessing

    chunks = _chunks(games, workers)
    done: dict[int, list[dict[str, Any]]] = {}
    context = multiprocessing.get_context("spawn")
    tasks = [(n, reference, players, kinds, seed, rotate, start, stop) for n, (start, stop) in enumerate(chunks)]
    pool = None
    try:
        with _sigint_held():
            pool = context.Pool(min(workers, len(chunks)), initializer=_worker_init)
        for n, records in pool.imap_unordered(_play_task, tasks):
            done[n] = records
            if progress is not None:
                for record in records:
                    progress(record["index"])
        pool.close()
    except BaseException:
        if pool is not None:
            pool.terminate()  # Ctrl-C or an error: stop the workers now, not after the queued games
        raise
    finally:
        if pool is not None:
            pool.join()
    return [record for n in range(len(chunks)) for record in done[n]]


# Summaries ----------------------------------------------------------------------

def _rate(count: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total)
    return {"rate": count / total if total else 0.0, "ci": [low, high]}


def summarize(ruleset: CompiledRuleset, records: Sequence[dict[str, Any]], players: int,
              bots: Sequence[str], seed: int, rotate: bool = False) -> dict[str, Any]:
    """Aggregate game records (in game order) into the summary (plain JSON values)."""
    games = len(records)
    kinds = list(bots)
    names = {t.id: t.name for t in ruleset.tribes}
    wins = {t.id: 0 for t in ruleset.tribes}
    wins_by_bot = {k: 0 for k in sorted(set(kinds))}
    draws = 0
    reasons: dict[str, int] = {}
    lengths: dict[int, int] = {}
    score_totals: dict[str, int] = {}
    cards: dict[str, list[int]] = {card: [0, 0, 0, 0, 0] for card in ruleset.deck}
    seat_tribes = records[0]["tribes"] if records else []
    for record in records:
        winners = record["winners"]
        if len(winners) == 1:
            wins[record["tribes"][winners[0]]] += 1
            wins_by_bot[record["bots"][winners[0]]] += 1
        else:
            draws += 1
        reasons[record["end_reason"]] = reasons.get(record["end_reason"], 0) + 1
        lengths[record["rounds"]] = lengths.get(record["rounds"], 0) + 1
        for tribe, score in zip(record["tribes"], record["scores"]):
            score_totals[tribe] = score_totals.get(tribe, 0) + score
        for card, figures in record["cards"].items():
            into = cards.setdefault(card, [0, 0, 0, 0, 0])
            for k, n in enumerate(figures):
                into[k] += n
    metrics = {name: describe(r[name] for r in records).as_dict() for name in PER_GAME_METRICS}
    attack_count = metrics["attacks"]["total"]
    attacks_won = metrics["attacks_won"]["total"]
    card_table = {}
    for card, (drawn, *figures) in cards.items():
        info = ruleset.cards.get(card)
        entry: dict[str, Any] = {"number": info.number if info else None, "title": info.title if info else card,
                                 "drawn": drawn, "draws_per_game": drawn / games if games else 0.0}
        entry.update(zip(_CARD_FIELDS, figures))
        entry["per_draw"] = {field: (n / drawn if drawn else 0.0) for field, n in zip(_CARD_FIELDS, figures)}
        card_table[card] = entry
    return {
        "ruleset": ruleset.id,
        "title": ruleset.title,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": kinds,
        "rotate": rotate,
        "tribes": list(seat_tribes),
        "wins": wins,
        "wins_by_bot": wins_by_bot,
        "draws": draws,
        "win_rates": {
            tribe: {"seat": seat + 1, "name": names.get(tribe, tribe), "wins": wins[tribe], **_rate(wins[tribe], games)}
            for seat, tribe in enumerate(seat_tribes)
        },
        "win_rates_by_bot": {
            kind: {"seats": kinds.count(kind), "wins": n, **_rate(n, games)} for kind, n in wins_by_bot.items()
        },
        "draw_rate": {"draws": draws, **_rate(draws, games)},
        "end_reasons": dict(sorted(reasons.items())),
        "rounds": {
            "mean": metrics["rounds"]["mean"],
            "min": metrics["rounds"]["min"],
            "max": metrics["rounds"]["max"],
            "sd": metrics["rounds"]["sd"],
            "distribution": {str(r): n for r, n in sorted(lengths.items())},
        },
        "metrics": metrics,
        "attacks": {
            "count": attack_count,
            "won": attacks_won,
            "failed": sum(r["attacks_failed"] for r in records),
            "given_up": sum(r["attacks_given_up"] for r in records),
            "per_game": metrics["attacks"]["mean"],
            "won_share": attacks_won / attack_count if attack_count else 0.0,
        },
        "camels_bought": {"total": metrics["camels_bought"]["total"], "per_game": metrics["camels_bought"]["mean"]},
        "eliminations": {
            "total": metrics["eliminations"]["total"],
            "per_game": metrics["eliminations"]["mean"],
            "games_with": sum(1 for r in records if r["eliminations"]),
        },
        "mean_scores": {tribe: score_totals.get(tribe, 0) / games if games else 0.0 for tribe in seat_tribes},
        "cards": card_table,
        "decisions": metrics["decisions"]["total"],
    }


def _resolve(ruleset: CompiledRuleset | str | os.PathLike) -> tuple[CompiledRuleset, str | None]:
    if isinstance(ruleset, CompiledRuleset):
        return ruleset, None
    from .build import load_ruleset

    reference = os.fspath(ruleset)
    return load_ruleset(reference), reference


def run_games(
    ruleset: CompiledRuleset | str | os.PathLike,
    games: int = 100,
    players: int = 4,
    bots: Sequence[str] | str = ("random",),
    seed: int = 0,
    rotate: bool = False,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Play ``games`` games and return the summary (plain JSON values).

    ``ruleset`` is a compiled ruleset or a reference (a built-in name or a
    path, loaded here; a bad one raises ``RulesetError``). ``workers`` > 1
    plays in that many processes and needs a reference. With ``rotate``
    game i shifts the bot list by i seats, so that no bot always sits
    first. ``progress``, if given, is called with each game's index after
    it ends (with workers, a chunk at a time and not in order).
    """
    compiled, reference = _resolve(ruleset)
    kinds = seat_bots(bots, players)
    for kind in set(kinds):
        make_agent(kind, 0)  # unknown kinds fail before any game runs
    Game(compiled, players=players, seed=seed)  # so does a player count the ruleset cannot seat
    started = time.perf_counter()
    records = play_records(compiled, games, players, kinds, seed, rotate, workers, reference, progress)
    seconds = time.perf_counter() - started
    summary = summarize(compiled, records, players, kinds, seed, rotate)
    decisions = summary["decisions"]
    summary.update({
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds > 0 else None,
        "workers": workers,
    })
    return summary


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without the fields that depend on the machine (for comparing runs)."""
    return {k: v for k, v in summary.items() if k not in TIMING_FIELDS}


# Comparing two rulesets ---------------------------------------------------------

# name, what is measured, words for B above / below A, unit
_MEAN_ROWS = (
    ("rounds", "rounds a game", "games last longer", "games are shorter", "rounds"),
    ("attacks", "attacks a game", "there are more attacks", "there are fewer attacks", "attacks a game"),
    ("attacks_won", "attacks won a game", "more attacks succeed", "fewer attacks succeed", "won attacks a game"),
    ("camels_bought", "camels bought a game", "more camels are bought", "fewer camels are bought", "camels a game"),
    ("eliminations", "eliminations a game", "more players are eliminated", "fewer players are eliminated",
     "eliminations a game"),
    ("decisions", "decisions a game", "players make more decisions", "players make fewer decisions",
     "decisions a game"),
)


def _proportion_row(key: str, metric: str, more: str, fewer: str, xa: int, xb: int, n_a: int, n_b: int,
                    alpha: float) -> dict[str, Any]:
    test = two_proportion_z_test(xa, n_a, xb, n_b)
    a, b = xa / n_a, xb / n_b
    return {"key": key, "metric": metric, "test": "z", "a": a, "b": b, "difference": b - a,
            "statistic": test.statistic, "df": None, "p": test.p, "significant": test.p < alpha,
            "more": more, "fewer": fewer, "unit": "%"}


def compare_summaries(a: dict[str, Any], b: dict[str, Any], alpha: float = 0.05) -> dict[str, Any]:
    """Each figure of two summaries side by side, its difference (B - A) and whether it is significant.

    Rates (wins per seat, per bot, draws, games ended early) use a pooled
    two-proportion z-test; per-game means (rounds, attacks, camels bought,
    eliminations, decisions) Welch's t-test. ``verdicts`` has one sentence
    per significant difference.
    """
    n_a, n_b = a["games"], b["games"]
    rows: list[dict[str, Any]] = []
    for seat, (tribe_a, tribe_b) in enumerate(zip(a["tribes"], b["tribes"])):
        ra, rb = a["win_rates"][tribe_a], b["win_rates"][tribe_b]
        name = ra["name"] if tribe_a == tribe_b else f"{ra['name']} / {rb['name']}"
        rows.append(_proportion_row(f"wins.seat{seat + 1}", f"wins seat {seat + 1} {name}",
                                    f"{name} (seat {seat + 1}) wins more often",
                                    f"{name} (seat {seat + 1}) wins less often",
                                    ra["wins"], rb["wins"], n_a, n_b, alpha))
    if len(set(a["bots"])) > 1 or set(a["bots"]) != set(b["bots"]):
        for kind in sorted(set(a["wins_by_bot"]) & set(b["wins_by_bot"])):
            rows.append(_proportion_row(f"wins_by_bot.{kind}", f"wins bot {kind}", f"the {kind} bot wins more often",
                                        f"the {kind} bot wins less often", a["wins_by_bot"][kind],
                                        b["wins_by_bot"][kind], n_a, n_b, alpha))
    rows.append(_proportion_row("draws", "draws", "more games are drawn", "fewer games are drawn",
                                a["draws"], b["draws"], n_a, n_b, alpha))
    rows.append(_proportion_row("end_reasons.last_standing", "ended early (one player left)",
                                "more games end early with one player left", "fewer games end early",
                                a["end_reasons"].get("last_standing", 0), b["end_reasons"].get("last_standing", 0),
                                n_a, n_b, alpha))
    for name, metric, more, fewer, unit in _MEAN_ROWS:
        ma, mb = a["metrics"][name], b["metrics"][name]
        if ma["n"] < 2 or mb["n"] < 2:
            test = None
        else:
            test = welch_t_test(ma["mean"], ma["sd"], ma["n"], mb["mean"], mb["sd"], mb["n"])
        rows.append({"key": f"metrics.{name}", "metric": metric, "test": "welch", "a": ma["mean"], "b": mb["mean"],
                     "difference": mb["mean"] - ma["mean"],
                     "statistic": test.statistic if test else None, "df": test.df if test else None,
                     "p": test.p if test else None, "significant": bool(test and test.p < alpha),
                     "more": more, "fewer": fewer, "unit": unit})
    label_a, label_b = (a["ruleset"], b["ruleset"]) if a["ruleset"] != b["ruleset"] else ("A", "B")
    verdicts = [verdict(row, label_a, label_b) for row in rows if row["significant"]]
    for row in rows:
        del row["more"], row["fewer"], row["unit"]
    return {
        "a": a["ruleset"], "b": b["ruleset"], "labels": [label_a, label_b],
        "games": n_a, "players": a["players"], "bots": a["bots"], "seed": a["seed"], "rotate": a["rotate"],
        "alpha": alpha,
        "rows": rows,
        "verdicts": verdicts,
        "summaries": {"a": a, "b": b},
    }


def format_p(p: float | None) -> str:
    if p is None:
        return "n/a"
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def format_value(value: float, unit: str) -> str:
    return f"{100 * value:.1f}%" if unit == "%" else f"{value:.2f}"


def verdict(row: dict[str, Any], label_a: str = "A", label_b: str = "B") -> str:
    """One sentence for a difference, e.g. "Under B, games last longer: 17.00 rounds against 16.00 under A (p < 0.001)"."""
    words = row["more"] if row["difference"] > 0 else row["fewer"]
    unit = row["unit"]
    a, b = format_value(row["a"], unit), format_value(row["b"], unit)
    unit_text = "" if unit == "%" else f" {unit}"
    p = format_p(row["p"])
    return (f"Under {label_b}, {words}: {b}{unit_text} against {a} under {label_a}"
            f" (p {p if p.startswith('<') else '= ' + p}).")
