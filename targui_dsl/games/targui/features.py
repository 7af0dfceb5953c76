"""What a learned position score reads of a Targui position: a few numbers per seat.

:attr:`GamePackage.features <targui_dsl.engine.protocol.GamePackage>` is
:func:`features`; the search (:mod:`targui_dsl.agents.ismcts`) and the trainer
(:mod:`targui_dsl.agents.training`) know only that it gives one list of floats per
seat, named by :data:`FEATURE_NAMES`. A seat's chance to win is fitted as a
softmax over the seats still in the game of a weighted sum of these
(:mod:`targui_dsl.agents.learned`), so each number is the seat's own: what
matters is how it compares with the other seats', which the softmax sees.

The search calls it on a determinised state: another seat's hidden cash and
treasury are then the values that determinisation drew from the public record.
"""

from __future__ import annotations

from targui_dsl.games.targui.score import CAMEL_WEIGHT, Weights
from targui_dsl.games.targui.state import GameState

#: One name per number :func:`features` gives, in its order (the trained weights are keyed by them).
FEATURE_NAMES: tuple[str, ...] = (
    "score",  # the score formula now
    "score_late",  # the same, times the share of the game played
    "levies_to_come",  # the levy formula now, times the levies still to come
    "camels",  # camels on the board
    "camels_early",  # the same, times the share of the game still to play
    "cash",  # silver in hand
    "treasury",  # silver banked
    "cells",  # territories held
    "income",  # the economic worth of the territories held
    "strategic",  # their strategic worth
    "own_settlement",  # 1 while the seat holds its own settlement
    "own_settlement_late",  # the same, times the share of the game played
    "may_win",  # 1 while the ruleset lets the seat win
    "enemy_settlements",  # other seats' settlements the seat holds
)


def features(state: GameState, seat: int) -> list[float] | None:
    """The numbers of :data:`FEATURE_NAMES` for ``seat`` in ``state`` (any phase); None for a
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
    economic, strategic, kind = state.economic, state.strategic, state.kind
    settlement_kind, my_settlement = game.settlement_kind, state.settlement(seat)
    enemy = sum(1 for c in cells if kind(c) == settlement_kind and c != my_settlement)
    return [
        score, score * played, float(game.levy(state.runtime, seat) * levies_left), camels, camels * (1.0 - played),
        float(state.cash(seat)), float(state.treasury(seat)), float(len(cells)),
        float(sum(economic(c) for c in cells)), float(sum(strategic(c) for c in cells)), own, own * played,
        1.0 if state.may_win(seat) else 0.0, float(enemy),
    ]


def prior(state: GameState) -> list[float]:
    """Per feature, its weight in the hand-written score (score.py's ``seat_values``, less its
    shrinking of a seat without its settlement): the score, a camel or a silver in hand at
    ``CAMEL_WEIGHT``, a silver of levy to come at what the score makes of it. Training starts
    from these and moves away only where the games show them wrong."""
    money = Weights(state)
    weight = dict.fromkeys(FEATURE_NAMES, 0.0)
    weight["score"] = 1.0
    weight["levies_to_come"] = money.silver
    weight["camels"] = CAMEL_WEIGHT
    weight["cash"] = CAMEL_WEIGHT - money.cash_in_score
    return [weight[name] for name in FEATURE_NAMES]
