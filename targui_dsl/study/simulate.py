"""Many bot games of one ruleset, summed up: the Python front door to :mod:`targui_dsl.study`.

    from targui_dsl.study.simulate import run_games, compare_summaries
    a = run_games("swedish-12", games=100, players=4, bots=["greedy", "random"], seed=1)
    b = run_games("rulesets/examples/rich-oases.yaml", games=100, players=4, bots=["greedy", "random"],
                  seed=1, workers=2)
    compare_summaries(a, b)["rows"]

Game ``i`` is played with the seed ``derive_seed(seed, i)`` (and each bot
with a seed derived from that), so a study is reproducible and any single
game of it can be replayed alone. Games run in chunks that return exact,
mergeable partial summaries (:mod:`targui_dsl.study`), so the figures are
the same whatever the number of workers (only the timing fields differ).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from targui_dsl.agents import DEFAULT_BOTS, parse_bot, parse_bot_list
from targui_dsl.study import (
    RulesetSource,
    Study,
    StudyResult,
    check_seating,
    game_of,
    local_pool,
    play_game,
    run_study,
    seat_bots,
    seated_bots,
)
from targui_dsl.study.figures import compare_figures, summary_figures
from targui_dsl.study.source import remember_compiled

__all__ = ["TIMING_FIELDS", "compare_summaries", "play_game", "run_games", "seat_bots", "seated_bots",
           "study_figures", "without_timing"]

# Fields that depend on the machine, not on the games: left out when results are compared.
TIMING_FIELDS = ("seconds", "cpu_seconds", "games_per_second", "decisions_per_second", "workers", "games_played")


def timing(games_played: int, decisions_played: int, seconds: float, cpu_seconds: float,
           workers: int) -> dict[str, Any]:
    """The machine-dependent fields of a summary (see TIMING_FIELDS)."""
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_second": round(games_played / seconds, 2) if seconds > 0 else None,
        "decisions_per_second": round(decisions_played / seconds, 1) if seconds > 0 else None,
        "workers": workers,
        "games_played": games_played,
    }


def study_figures(result: StudyResult, ruleset: Any, players: int, bots: Sequence[str], seed: int, rotate: bool,
                  workers: int) -> dict[str, Any]:
    """A played study's figures with its timing: what `targui simulate --json` prints and
    :func:`run_games` returns."""
    figures = summary_figures(result.summary, ruleset, players, bots, seed, rotate)
    figures.update(timing(result.games_played, result.decisions_played, result.seconds, result.cpu_seconds,
                          workers))
    return figures


def run_games(
    ruleset: Any,
    games: int = 100,
    players: int = 4,
    bots: Sequence[str] | str = DEFAULT_BOTS,
    seed: int = 0,
    rotate: bool = False,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Play ``games`` games and return the summary's figures (plain JSON values).

    ``ruleset`` is a compiled ruleset or a reference (a built-in name or a
    path, loaded here; a bad one raises ``RulesetError``). ``bots``: one
    spelling per seat (a shorter list repeats its last bot), or one string
    of comma-separated spellings; by default ``DEFAULT_BOTS``, as the
    command line (a bad spelling raises ``BotSpecError``, a ValueError). ``workers`` > 1
    plays in that many processes and needs a reference. With ``rotate``
    game i shifts the bot list by i seats, so that no bot always sits
    first. ``progress``, if given, is called with the number of games
    finished so far after each chunk.
    """
    if not isinstance(ruleset, (str, os.PathLike)):  # a compiled ruleset
        if workers > 1:
            raise ValueError("games in worker processes need the ruleset's reference (a name or path), "
                             "not only the compiled ruleset")
        compiled = ruleset
        # played in this process only: the compiled ruleset stands for its source
        source = RulesetSource(f"<{compiled.id}>", builtins=((f"<compiled {id(compiled)}>", ""),))
        remember_compiled(source, compiled)
    else:
        from targui_dsl.frontend.build import load_ruleset

        compiled = load_ruleset(os.fspath(ruleset))
        source = RulesetSource.from_reference(os.fspath(ruleset))
        remember_compiled(source, compiled)
    # canonical spellings (agents.spec), as the command line writes them: one bot, one name in the figures
    game = game_of(compiled).name
    listed = parse_bot_list(bots, game) if isinstance(bots, str) else [parse_bot(b, game) for b in bots]
    kinds = seat_bots([spec.spelling() for spec in listed], players)
    check_seating(compiled, players, kinds)  # unknown bots and unseatable counts fail before any game
    study = Study(source, games, players, tuple(kinds), seed, rotate)
    if workers > 1:
        with local_pool(min(workers, study.chunk_count), source, compiled) as pool:
            result = run_study(study, pool, window=4 * workers, progress=progress)
    else:
        result = run_study(study, progress=progress)
    return study_figures(result, compiled, players, kinds, seed, rotate, workers)


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without the fields that depend on the machine (for comparing runs)."""
    return {k: v for k, v in summary.items() if k not in TIMING_FIELDS}


def compare_summaries(a: dict[str, Any], b: dict[str, Any], alpha: float = 0.05) -> dict[str, Any]:
    """Two summaries compared figure by figure (see :func:`targui_dsl.study.figures.compare_figures`)."""
    return compare_figures(a, b, alpha)
