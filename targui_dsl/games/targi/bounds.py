"""What the framework adapters ask of Targi beyond its state verbs: a bound on a game's
decisions, and that it is a game of imperfect information."""

from __future__ import annotations

from typing import Any

from targui_dsl.effects.runtime import MAX_CHOICES
from targui_dsl.engine.protocol import AdapterHooks
from targui_dsl.games.targi.tensor import SeatTensor

#: Decisions one action of a player can take at most, a generous bound: its snippet's choices (a
#: run asking more than MAX_CHOICES is stopped), a display with its discounts, row and effect.
PER_ACTION = MAX_CHOICES + 60


def max_game_length(ruleset: Any, players: int, again_limit: int = 0) -> int:
    """At most one round per border card (the game ends when the robber would go round again),
    each with its placements, both players' actions, a raid and the limits."""
    actions = ruleset.figures + ruleset.markers + 2  # the cards, the hand card, stop
    per_round = 2 * ruleset.figures + players * (actions * PER_ACTION + 2 * ruleset.limit_goods + 60)
    return (len(ruleset.ring) + 1) * per_round


ADAPTER = AdapterHooks(max_game_length=max_game_length, perfect_information=lambda ruleset: False, tensor=SeatTensor)
