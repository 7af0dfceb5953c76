"""What a learned position score reads of a Targi position: a few numbers per seat.

:attr:`GamePackage.features <targui_dsl.engine.protocol.GamePackage>` is :func:`features`; the
search (:mod:`targui_dsl.agents.ismcts`) and the trainer (:mod:`targui_dsl.agents.training`) know
only that it gives one list of floats per seat, named by :data:`FEATURE_NAMES`. A seat's chance to
win is fitted as a softmax over both seats of a weighted sum of these, so each number is the
seat's own and what matters is how it compares with the opponent's.

The search calls it on a determinised state: the opponent's hand card is then the one that
determinisation dealt.
"""

from __future__ import annotations

from targui_dsl.games.targi import rules
from targui_dsl.games.targi.greedy import DISPLAYED, GOLD, GOOD, HAND, STORED, row_promise
from targui_dsl.games.targi.state import TargiState

#: One name per number :func:`features` gives, in its order (the trained weights are keyed by them).
FEATURE_NAMES: tuple[str, ...] = (
    "score",  # the points the seat would score now (tokens, printed, END abilities, rows)
    "score_late",  # the same, times the share of the game played
    "goods",  # goods held (up to the round-end limit and two more: the rest is returned)
    "goods_late",  # the same, times the share of the game played (goods left at the end score nothing)
    "gold",  # gold held (up to the limit and one more)
    "stored_gold",  # gold kept on a card for a later cost
    "hand",  # 1 while a tribe card waits in the hand
    "displayed",  # tribe cards displayed
    "displayed_early",  # the same, times the share of the game still to play (a card shown early pays longer)
    "row_promise",  # what the unfinished rows promise towards their bonuses
)


def _played(state: TargiState) -> float:
    """The share of the game played: rounds over, of the rounds the ring allows (one per border
    card the robber stops on; raids are passed on the way)."""
    rounds = max(1, sum(1 for border in state.rs.ring if not border.is_raid))
    return min(1.0, max(0.0, (state.read_record.round - 1) / rounds))


def features(state: TargiState, seat: int) -> list[float] | None:
    """The numbers of :data:`FEATURE_NAMES` for ``seat`` in ``state`` (any phase)."""
    rs, record = state.rs, state.read_record
    side = record.sides[seat]
    played = _played(state)
    score = float(rules.score(rs, record, seat))
    goods = float(min(sum(side.goods), rs.limit_goods + 2))
    shown = float(sum(len(row) for row in side.display))
    return [
        score, score * played, goods, goods * played, float(min(side.gold, rs.limit_gold + 1)),
        float(side.stored_gold), 1.0 if side.hand >= 0 else 0.0, shown, shown * (1.0 - played),
        sum(row_promise(state, row) for row in side.display),
    ]


def prior(state: TargiState) -> list[float]:
    """Per feature, its weight in greedy's hand-written position value (:func:`.greedy.value`):
    training starts from these and moves away only where the games show them wrong."""
    weight = dict.fromkeys(FEATURE_NAMES, 0.0)
    weight.update(score=1.0, goods=GOOD, gold=GOLD, stored_gold=STORED, hand=HAND, displayed=DISPLAYED,
                  row_promise=1.0)
    return [weight[name] for name in FEATURE_NAMES]
