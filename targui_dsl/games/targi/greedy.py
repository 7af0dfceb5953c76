"""Targi's heuristic bot (`greedy`): where to place from what the card and its crossing are worth
(a tribe card it can pay for by its points, its step on the display and the row it would further),
and every other decision by looking one step ahead on a state dealt again from what it sees.

Two things a one-step look-ahead cannot see are rules of thumb: the Noble is worth a visit only
for a hand card the seat can pay for, and in a turn the tribe cards are acted on after the cards
that bring goods (which may pay for them); placement counts those goods when it asks whether a
tribe card at a crossing can be paid for.

It never reads the true state's hidden parts: a decision other than placement is tried on a
determinisation (:meth:`TargiObservation.resample`), each follow-up of the same task played by
a plain default, and the position valued by :func:`value`.
"""

from __future__ import annotations

import random
from typing import Any

from targui_dsl.games.targi import rules
from targui_dsl.games.targi.actions import A_BORDER, A_CARD, A_GOOD, A_SPACE, A_STOP
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
        side = state.record.sides[s]
        goods = min(sum(side.goods), rs.limit_goods + 2)
        shown = sum(len(row) for row in side.display)
        return (rules.score(rs, state.record, s) + GOOD * goods + GOLD * min(side.gold, rs.limit_gold + 1)
                + STORED * side.stored_gold + (HAND if side.hand >= 0 else 0.0) + DISPLAYED * shown
                + sum(row_promise(state, row) for row in side.display))
    return own(seat) - own(1 - seat)


def centre_worth(state: TargiState, seat: int, space: int) -> float:
    """What the card on a centre space is worth to the seat (a face-down or empty space: nothing)."""
    record, rs = state.record, state.rs
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


def turn_gains(state: TargiState, seat: int, ring: int, spaces: set[int]) -> list[int]:
    """The goods (per kind) and, last, the gold the seat is sure to take this turn: from the
    border cards its figures stand on (``ring`` among them) and the face-up goods cards at its
    crossings."""
    record, rs = state.record, state.rs
    gained = [0] * (len(rs.goods) + 1)
    for i, card in enumerate(rs.ring):
        if (i == ring or record.figures[i] == seat) and card.action == "take":
            for g, n in enumerate(card.take):
                gained[g] += n
    for space in spaces:
        if record.centre[space] >= 0 and record.centre_up[space] and record.centre_kind[space] == 0:
            g_card = rs.goods_cards[record.centre[space]]
            for g, n in enumerate(g_card.goods):
                gained[g] += n
            gained[-1] += g_card.gold
    return gained


def hand_worth(state: TargiState, seat: int) -> float:
    """What displaying the hand card (by the Noble) is worth: its points and a display step if it
    can be paid for, else little."""
    record, rs = state.record, state.rs
    card = record.sides[seat].hand
    tribe = rs.tribe_cards[card]
    off = rules.discount(rs, record, seat, card, True)
    if rules.display_full(rs, record, seat) or not any(rules.affordable(rs, record, seat, c, off)
                                                        for c in tribe.costs):
        return 0.2
    return tribe.points + DISPLAYED - GOOD * min(c.size for c in tribe.costs)


def border_worth(state: TargiState, seat: int, ring: int) -> float:
    rs, side = state.rs, state.record.sides[seat]
    kind = rs.ring[ring].action
    goods = sum(side.goods)
    if kind == "take":
        return GOOD * sum(rs.ring[ring].take)
    if kind == "merchant":
        return 0.6 if goods >= 3 else 0.0
    if kind == "silversmith":
        return 1.2 if goods >= 2 or side.gold >= 1 else 0.0
    if kind == "noble":  # worth its card's display when the card can be paid for
        return hand_worth(state, seat) if side.hand >= 0 else 0.0
    if kind == "caravan":
        return 0.9
    if kind == "expansion":
        return 1.3
    return 0.3


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        """``observation``: a :class:`TargiObservation`."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        state, seat = observation.state, observation.seat
        if state.record.stack and state.record.stack[-1]["k"] == "place":
            return max(legal_actions, key=lambda a: (self.placement(state, seat, a - A_BORDER), -a))
        if state.record.stack and state.record.stack[-1]["k"] == "turn":
            legal_actions = goods_first(state, legal_actions)
        dealt = observation.resample(self.rng)
        best, best_value = legal_actions[0], float("-inf")
        for action in legal_actions:
            trial = dealt.clone()
            trial.apply_action(action)
            finish_task(trial, seat)
            worth = value(trial, seat) - (0.01 if action == A_STOP else 0.0)
            if worth > best_value:
                best, best_value = action, worth
        return best

    def placement(self, state: TargiState, seat: int, ring: int) -> float:
        """A border card's worth plus what the markers it would bring are worth, a tribe card's
        with the goods and gold this turn brings besides (the owner acts in the order it likes:
        take first, then pay)."""
        record = state.record
        before = set(rules.crossings(state.rs, record, seat))
        record.figures[ring] = seat
        try:
            after = set(rules.crossings(state.rs, record, seat)) - before
        finally:
            record.figures[ring] = -1
        side = record.sides[seat]
        goods, gold = list(side.goods), side.gold
        gained = turn_gains(state, seat, ring, before | after)
        try:
            for g, n in enumerate(gained[:-1]):
                side.goods[g] += n
            side.gold += gained[-1]
            cards = sum(centre_worth(state, seat, s) for s in after)
        finally:
            side.goods[:], side.gold = goods, gold
        return border_worth(state, seat, ring) + cards


def goods_first(state: TargiState, legal: list[int]) -> list[int]:
    """The cards to act on next, tribe cards (face up on a centre space) left for after the
    others: what the others bring may pay for them, which a one-step look-ahead cannot see."""
    record = state.record
    tribe = [a for a in legal if A_SPACE <= a < A_STOP and record.centre_kind[a - A_SPACE] == 1
             and record.centre_up[a - A_SPACE]]
    others = [a for a in legal if a not in tribe and a != A_STOP]
    return others if others and tribe else legal


def finish_task(state: TargiState, seat: int, steps: int = 30) -> None:
    """Play the seat's follow-up decisions of the task under way by a plain default: what a
    one-step look-ahead values is the task done, not half done."""
    for _ in range(steps):
        if state.is_terminal() or state.is_chance_node() or state.current_player() != seat:
            return
        frame = state.record.stack[-1]
        if frame["k"] in ("turn", "place", "merchant"):
            return
        legal = state.legal_actions()
        state.apply_action(default_choice(state, seat, legal))


def default_choice(state: TargiState, seat: int, legal: list[int]) -> Any:
    """The first legal action, except a good: then the one the seat holds fewest of (to take) or
    most of (to give)."""
    frame = state.record.stack[-1]
    goods = state.record.sides[seat].goods
    if frame["k"] in ("choose_good", "effect") and all(A_GOOD <= a < A_CARD for a in legal):
        return min(legal, key=lambda a: goods[a - A_GOOD])
    if frame["k"] in ("give", "discount"):
        return max(legal, key=lambda a: goods[a - A_GOOD])
    return legal[0]
