"""What a learned position score reads of a Targui position: a few numbers per seat.

:attr:`GamePackage.features <targui_dsl.engine.protocol.GamePackage>` is
:func:`features`; the search (:mod:`targui_dsl.agents.ismcts`) and the trainer
(:mod:`targui_dsl.agents.training`) know only that it gives one list of floats per
seat, named by :func:`feature_names` (``GamePackage.ruleset_feature_names``). A seat's chance to win is fitted as a
softmax over the seats still in the game of a weighted sum of these
(:mod:`targui_dsl.agents.learned`), so each number is the seat's own: what
matters is how it compares with the other seats', which the softmax sees.

What a territory pays is not read from the ruleset (neither the levy formula nor a kind's
economic value): a seat's holding of each kind, now and times the levies to come, is a feature
of its own, so its weight is what the ruleset's games show that kind to be worth, and a house
rule that changes a kind's worth is judged as its own games teach, not as its base variant's
weights would make of the new number (docs/bots.md, "A house rule's own score").

The search calls it on a determinised state: another seat's hidden cash and
treasury are then the values that determinisation drew from the public record.
"""

from __future__ import annotations

from typing import Any, Callable

from targui_dsl.engine.per_ruleset import per_ruleset
from targui_dsl.games.targui.compiled import TerritoryKind
from targui_dsl.games.targui.score import CAMEL_WEIGHT, Weights
from targui_dsl.games.targui.state import GameState

#: One name per number :func:`features` gives, in its order (the trained weights are keyed by them),
#: before the ruleset's own (:func:`feature_names`).
FEATURE_NAMES: tuple[str, ...] = (
    "score",  # the score formula now
    "score_late",  # the same, times the share of the game played
    "camels",  # camels on the board
    "camels_early",  # the same, times the share of the game still to play
    "cash",  # silver in hand
    "treasury",  # silver banked
    "cells",  # territories held
    "strategic",  # their strategic worth
    "own_settlement",  # 1 while the seat holds its own settlement
    "own_settlement_late",  # the same, times the share of the game played
    "may_win",  # 1 while the ruleset lets the seat win
    "enemy_settlements",  # other seats' settlements the seat holds
)

#: Per territory kind a seat can hold (not the settlements, which have features of their own), in
#: the ruleset's order, a feature named ``held:KIND`` (territories of that kind held) and one named
#: ``to_come:KIND`` (the same, times the levies still to come). They read no value of the kind: their
#: weights are what the games of the ruleset show a kind is worth, so a house rule that changes a
#: kind's worth gets weights of its own for it (its base variant's weights keep the base worth).
PER_KIND: tuple[str, ...] = ("held", "to_come")


def _kinds(ruleset: Any) -> tuple[TerritoryKind, ...]:
    return tuple(k for k in ruleset.kinds if k.passable and not k.settlement)


def feature_names(ruleset: Any) -> tuple[str, ...]:
    """The names of the numbers :func:`features` gives for ``ruleset``: :data:`FEATURE_NAMES`,
    then :data:`PER_KIND` for each kind it lists (a kind's id is data from the ruleset: a name
    in a weights file, never an attribute)."""
    return FEATURE_NAMES + tuple(f"{what}:{kind.id}" for kind in _kinds(ruleset) for what in PER_KIND)


def _slots(ruleset: Any) -> tuple[int, ...]:
    """Per kind index, its slot among the per-kind features, or -1."""
    slot = [-1] * len(ruleset.kinds)
    for j, kind in enumerate(_kinds(ruleset)):
        slot[kind.index] = j
    return tuple(slot)


_slots_of: Callable[[Any], tuple[int, ...]] = per_ruleset(_slots)


def features(state: GameState, seat: int) -> list[float] | None:
    """The numbers of :func:`feature_names` for ``seat`` in ``state`` (any phase); None for a
    seat out of the game (it cannot win)."""
    if not state.in_game(seat):
        return None
    game = state.game
    rounds = max(1, game.rounds)
    played = min(1.0, max(0.0, (state.round - 1) / rounds))
    levies_left = max(0, game.rounds - state.round + 1)
    score = float(state.scores()[seat])
    camels = float(state.player_camels(seat))
    own = 1.0 if state.holds_own_settlement(seat) else 0.0
    cells = state.cells_of(seat)
    strategic, kind = state.strategic, state.kind
    settlement_kind, my_settlement = game.settlement_kind, state.settlement(seat)
    enemy = sum(1 for c in cells if kind(c) == settlement_kind and c != my_settlement)
    slots = _slots_of(game.ruleset)
    held = [0] * (max(slots) + 1)
    for c in cells:
        j = slots[kind(c)]
        if j >= 0:
            held[j] += 1
    per_kind = [float(n * m) for n in held for m in (1, levies_left)]
    return [
        score, score * played, camels, camels * (1.0 - played),
        float(state.cash(seat)), float(state.treasury(seat)), float(len(cells)),
        float(sum(strategic(c) for c in cells)), own, own * played,
        1.0 if state.may_win(seat) else 0.0, float(enemy), *per_kind,
    ]


def prior(state: GameState) -> list[float]:
    """Per feature, its weight in the hand-written score (score.py's ``seat_values``, less its
    shrinking of a seat without its settlement): the score, a camel or a silver in hand at
    ``CAMEL_WEIGHT``, a silver of levy to come at what the score makes of it (a territory held
    times the levies to come: its kind's economic value in the ruleset). Training starts from
    these and moves away only where the games show them wrong."""
    money = Weights(state)
    ruleset = state.game.ruleset
    names = feature_names(ruleset)
    weight = dict.fromkeys(names, 0.0)
    weight["score"] = 1.0
    for kind in _kinds(ruleset):  # a territory's levy to come, at its economic value in the ruleset
        weight[f"to_come:{kind.id}"] = money.silver * kind.economic
    weight["camels"] = CAMEL_WEIGHT
    weight["cash"] = CAMEL_WEIGHT - money.cash_in_score
    return [weight[name] for name in names]
