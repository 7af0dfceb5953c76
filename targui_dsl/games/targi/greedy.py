"""Targi's heuristic bot (`greedy`): where to place from what the card and its crossing are worth
(a tribe card it can pay for by its points, its step on the display and the row it would further),
and every other decision by looking one step ahead on a state dealt again from what it sees.

It never reads the true state's hidden parts: a decision other than placement is tried on a
determinisation (:meth:`TargiObservation.resample`), each follow-up of the same task played by
a plain default, and the position valued by :func:`value`.
"""

from __future__ import annotations

import random
from typing import Any

from targui_dsl.games.targi import rules
from targui_dsl.games.targi.actions import A_BORDER, A_CARD, A_GOOD, A_OPTION, A_STOP
from targui_dsl.games.targi.flow import STORED_GOLD, SUPPLY_GOLD
from targui_dsl.games.targi.state import TargiState

#: What one of each thing is worth, in points (a hand card: a display to come).
GOOD, GOLD, STORED, HAND = 0.3, 1.0, 0.8, 0.8
#: A displayed card beyond its points: a step towards a row bonus and towards the full display
#: that ends the game on its owner's terms.
DISPLAYED = 2.2


def row_promise(state: TargiState, row: list[int]) -> float:
    """What an unfinished display row is worth towards its bonus: the share of the row laid, of the
    bonus it can still reach (all one symbol, or all different)."""
    rs = state.rs
    if not row or len(row) >= rs.display_columns:
        return 0.0
    symbols = {rs.tribe_cards[c].symbol for c in row}
    share = len(row) / rs.display_columns
    reach = 0.0
    if len(symbols) == 1:
        reach = max(reach, rs.row_same)
    if len(symbols) == len(row):
        reach = max(reach, rs.row_different)
    return share * share * reach


def value(state: TargiState, seat: int) -> float:
    """The seat's position: its points now, its display's promise, its goods, gold and hand card,
    less the opponent's."""
    rs = state.rs

    def own(s: int) -> float:
        side = state.read_record.sides[s]
        goods = min(sum(side.goods), rs.limit_goods + 2)
        shown = sum(len(row) for row in side.display)
        return (rules.score(rs, state.read_record, s) + GOOD * goods + GOLD * min(side.gold, rs.limit_gold + 1)
                + STORED * side.stored_gold + (HAND if side.hand >= 0 else 0.0) + DISPLAYED * shown
                + sum(row_promise(state, row) for row in side.display))
    return own(seat) - own(1 - seat)


def centre_worth(state: TargiState, seat: int, space: int) -> float:
    """What the card on a centre space is worth to the seat (a face-down or empty space: nothing)."""
    record, rs = state.read_record, state.rs
    card = record.centre[space]
    if card < 0 or not record.centre_up[space]:
        return 0.0
    if record.centre_kind[space] == 0:
        g = rs.goods_cards[card]
        return GOOD * (sum(g.goods) + g.choice) + GOLD * g.gold + g.points
    tribe = rs.tribe_cards[card]
    off = rules.discount(rs, record, seat, card, False)
    room = not rules.display_full(rs, record, seat)
    if room and any(rules.affordable(rs, record, seat, c, off) for c in tribe.costs):
        cheapest = min(c.size for c in tribe.costs)
        fit = max(rules.row_points(rs, row + [card]) + row_promise(state, row + [card]) - row_promise(state, row)
                  for row in record.sides[seat].display if len(row) < rs.display_columns)
        return (tribe.points + DISPLAYED + 1.0 + fit - GOOD * cheapest
                + (0.8 if tribe.end or tribe.modifiers else 0.0))
    return HAND if record.sides[seat].hand < 0 else 0.0


def border_worth(dealt: TargiState, seat: int, ring: int, rng: random.Random) -> float:
    """What using border card ``ring`` now is worth to the seat: its action (whatever its snippet
    says, a house rule's card too) played out on ``dealt``, a state dealt again from what the seat
    sees, each decision by a one-step look-ahead; the value it adds. A card that draws is played
    out twice, from two deals of the pile, and the two values averaged."""
    total, runs = 0.0, 0
    for _ in range(2):
        trial = dealt.clone()
        record = trial.record
        if record.over or not record.stack:
            return 0.0
        depth, before, piles = len(record.stack), value(trial, seat), [len(p) for p in record.piles]
        if runs:  # the second deal: another order of the piles
            for pile in record.piles:
                rng.shuffle(pile)
            record.rng = rng.getrandbits(64)
        trial.use_border(seat, ring)
        for _ in range(60):
            if record.over or len(record.stack) <= depth:
                break
            if trial.is_chance_node():
                trial.apply_action(rng.choice(trial.chance_outcomes())[0])
            elif trial.current_player() == seat:
                trial.apply_action(best_step(trial, seat, trial.legal_actions()))
            else:
                break
        total, runs = total + value(trial, seat) - before, runs + 1
        if [len(p) for p in record.piles] == piles:
            break  # nothing drawn: one run says it all
    return total / runs


def best_step(state: TargiState, seat: int, legal: list[int]) -> int:
    """The legal action whose task, finished by the plain default, leaves the seat best off (stopping
    a hair worse than an equal alternative)."""
    if len(legal) == 1:
        return legal[0]
    best, best_value = legal[0], float("-inf")
    for action in legal:
        trial = state.clone()
        trial.apply_action(action)
        finish_task(trial, seat)
        worth = value(trial, seat) - (0.01 if action == A_STOP else 0.0)
        if worth > best_value:
            best, best_value = action, worth
    return best


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        """``observation``: a :class:`TargiObservation`."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        state, seat = observation.state, observation.seat
        if state.read_record.stack and state.read_record.stack[-1]["k"] == "gold_choice":
            return gold_source(state, seat)
        dealt = observation.resample(self.rng)
        if state.read_record.stack and state.read_record.stack[-1]["k"] == "place":
            worth = {a: self.placement(state, seat, a - A_BORDER, border_worth(dealt, seat, a - A_BORDER, self.rng))
                     for a in legal_actions}
            return max(legal_actions, key=lambda a: (worth[a], -a))
        return best_step(dealt, seat, legal_actions)

    def placement(self, state: TargiState, seat: int, ring: int, worth: float) -> float:
        """A border card's worth (``worth``) plus what the markers it would bring are worth."""
        record = state.record  # a figure set for a moment: the flow must not keep its list
        before = set(rules.crossings(state.rs, record, seat))
        record.figures[ring] = seat
        try:
            after = set(rules.crossings(state.rs, record, seat)) - before
        finally:
            record.figures[ring] = -1
        return worth + sum(centre_worth(state, seat, s) for s in after)


def finish_task(state: TargiState, seat: int, steps: int = 30) -> None:
    """Play the seat's follow-up decisions of the task under way by a plain default: what a
    one-step look-ahead values is the task done, not half done."""
    for _ in range(steps):
        if state.is_terminal() or state.is_chance_node() or state.current_player() != seat:
            return
        frame = state.read_record.stack[-1]
        if frame["k"] in ("turn", "place"):
            return
        legal = state.legal_actions()
        state.apply_action(default_choice(state, seat, legal))


def gold_source(state: TargiState, seat: int) -> int:
    """Which gold pays a cost's gold when stored gold could: the supply's if the round-end limit
    would take it anyway, else the stored gold (it pays nothing but a cost)."""
    if state.read_record.sides[seat].gold > state.rs.limit_gold:
        return A_OPTION + SUPPLY_GOLD
    return A_OPTION + STORED_GOLD


def default_choice(state: TargiState, seat: int, legal: list[int]) -> Any:
    """The first legal action (in a snippet's choice of a number, its first: the border cards'
    "stop"), except a good: then the one the seat holds fewest of (to take) or most of (to give)."""
    frame = state.read_record.stack[-1]
    if frame["k"] == "gold_choice":
        return gold_source(state, seat)
    goods = state.read_record.sides[seat].goods
    if frame["k"] in ("choose_good", "effect") and all(A_GOOD <= a < A_CARD for a in legal):
        return min(legal, key=lambda a: goods[a - A_GOOD])
    if frame["k"] in ("give", "discount"):
        return max(legal, key=lambda a: goods[a - A_GOOD])
    return legal[0]
