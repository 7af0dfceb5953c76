"""Playing one game for a study: the only module of the study package that talks to the engine.

Everything else in :mod:`targui_dsl.study` sees games only as
:class:`GameRecord` values, so an engine rewrite has to adapt
:func:`play_game` (and :func:`check_seating`) and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from targui_dsl.agents import make_agent, seat_agents
from targui_dsl.engine.chance import derive_seed
from targui_dsl.engine.loop import play
from targui_dsl.gamelog.events import EventLog
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.game import Game

__all__ = ["CardCounts", "GameRecord", "check_seating", "derive_seed", "game_seed", "play_game"]


@dataclass
class CardCounts:
    """What one card did: times drawn, camels removed and added, silver (cash and treasury) taken and given."""

    drawn: int = 0
    camels_removed: int = 0
    camels_added: int = 0
    cash_taken: int = 0
    cash_given: int = 0


@dataclass
class GameRecord:
    """One finished game, as a study counts it (seat lists are in seat order)."""

    index: int
    seed: int
    bots: tuple[str, ...]
    tribes: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int
    end_reason: str
    decisions: int
    attacks: int = 0
    attacks_won: int = 0
    attacks_failed: int = 0
    attacks_given_up: int = 0
    camels_bought: int = 0
    eliminations: int = 0
    cards: dict[str, CardCounts] = field(default_factory=dict)


class _Counter:
    """An event-log listener counting what a study needs (the `targui-log/1` events, docs/engine.md)."""

    def __init__(self) -> None:
        self.attacks = self.attacks_won = self.attacks_failed = self.attacks_given_up = 0
        self.camels_bought = self.eliminations = 0
        self.cards: dict[str, CardCounts] = {}

    def __call__(self, event: dict[str, Any]) -> None:
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
            counts = self.cards.get(event["card"])
            if counts is None:
                counts = self.cards[event["card"]] = CardCounts()
            counts.drawn += 1
            changes = event["changes"]
            for before, after in changes["camels"].values():
                if after < before:
                    counts.camels_removed += before - after
                else:
                    counts.camels_added += after - before
            for where in ("cash", "treasury"):
                for before, after in changes[where].values():
                    if after < before:
                        counts.cash_taken += before - after
                    else:
                        counts.cash_given += after - before


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a study with seed ``seed``."""
    return derive_seed(seed, index)


def play_game(ruleset: CompiledRuleset, players: int, seed: int, bots: Sequence[str], index: int = 0) -> GameRecord:
    """Play one bot game to its end with seed ``seed`` (each bot seeded from it and its seat)."""
    game = Game(ruleset, players=players, seed=seed)
    agents = seat_agents(seed, bots)
    counter = _Counter()
    log = EventLog(keep=False)
    log.listeners.append(counter)
    state = play(game.new_initial_state(log=log), agents)
    return GameRecord(
        index=index, seed=seed, bots=tuple(bots), tribes=tuple(game.tribe_ids), winners=tuple(state.winners()),
        scores=tuple(state.scores()), rounds=state.round, end_reason=state.end_reason, decisions=state.decisions,
        attacks=counter.attacks, attacks_won=counter.attacks_won, attacks_failed=counter.attacks_failed,
        attacks_given_up=counter.attacks_given_up, camels_bought=counter.camels_bought,
        eliminations=counter.eliminations, cards=counter.cards,
    )


def check_seating(ruleset: CompiledRuleset, players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """The tribe per seat; raises ValueError for a player count the ruleset cannot seat or an unknown bot."""
    for kind in set(bots):
        make_agent(kind, 0)
    return tuple(Game(ruleset, players=players, seed=0).tribe_ids)
