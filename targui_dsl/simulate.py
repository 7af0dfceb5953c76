"""Many bot games of one ruleset, summed up: who wins, how long games last, how fast.

    from targui_dsl import load_ruleset
    from targui_dsl.simulate import run_games
    run_games(load_ruleset("swedish-12"), games=100, players=4, bots=["greedy", "random"], seed=1)

Game ``i`` is played with the seed ``derive_seed(seed, i)`` (and each bot
with a seed derived from that), so a batch is reproducible and any single
game of it can be replayed alone.
"""

from __future__ import annotations

import time
from typing import Sequence

from .agents import make_agent
from .compiled import CompiledRuleset
from .engine.chance import derive_seed
from .engine.game import Game


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
    agents = agents_for(game, bots)
    state = game.new_initial_state(log=log)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
    return state


def run_games(
    ruleset: CompiledRuleset,
    games: int = 100,
    players: int = 4,
    bots: Sequence[str] | str = ("random",),
    seed: int = 0,
    rotate: bool = False,
    progress=None,
) -> dict:
    """Play ``games`` games and return the summary (plain JSON values).

    With ``rotate`` game i shifts the bot list by i seats, so that no bot
    always sits first. ``progress``, if given, is called with each game's
    index after it ends.
    """
    kinds = seat_bots(bots, players)
    for kind in set(kinds):
        make_agent(kind, 0)  # unknown kinds fail before any game runs
    started = time.perf_counter()
    tribes = [t.id for t in ruleset.tribes]
    wins = {t: 0 for t in tribes}
    wins_by_bot = {k: 0 for k in sorted(set(kinds))}
    draws = 0
    rounds: list[int] = []
    decisions = 0
    reasons: dict[str, int] = {}
    for i in range(games):
        shift = i % players if rotate else 0
        seated = kinds[-shift:] + kinds[:-shift] if shift else kinds
        game = Game(ruleset, players=players, seed=derive_seed(seed, i))
        state = play_game(game, seated)
        winners = state.winners()
        if len(winners) == 1:
            wins[game.tribe_ids[winners[0]]] += 1
            wins_by_bot[seated[winners[0]]] += 1
        else:
            draws += 1
        rounds.append(state.round)
        decisions += state.decisions
        reasons[state.end_reason] = reasons.get(state.end_reason, 0) + 1
        if progress is not None:
            progress(i)
    seconds = time.perf_counter() - started
    return {
        "ruleset": ruleset.id,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": kinds,
        "rotate": rotate,
        "wins": wins,
        "wins_by_bot": wins_by_bot,
        "draws": draws,
        "end_reasons": reasons,
        "rounds": {
            "mean": (sum(rounds) / len(rounds)) if rounds else 0,
            "min": min(rounds, default=0),
            "max": max(rounds, default=0),
        },
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds > 0 else None,
    }
