"""Targi's state as a plain record: each player's side, the ring, the centre, the piles, and the
stack of frames the flow (:mod:`.flow`) is working through. Copy and strict JSON."""

from __future__ import annotations

from typing import Any, Final

#: The seats' ids (logs, studies).
SEATS = ("player1", "player2")

#: A centre space's deck.
GOODS_DECK: Final = 0
TRIBE_DECK: Final = 1


#: A side's fields, in the order its JSON has them.
SIDE_FIELDS = ("goods", "gold", "points", "stored_gold", "hand", "display", "next_figures", "got",
               "goods_from_cards", "bonus")
#: The record's fields, in the order its JSON has them.
RECORD_FIELDS = ("round", "amulet", "robber", "figures", "markers", "centre", "centre_kind", "centre_up",
                 "piles", "discards", "sides", "stack", "last_round", "over", "end_reason", "rng", "decisions")


class Side:
    """One player's things."""

    __slots__ = SIDE_FIELDS

    def __init__(self, goods: list[int], gold: int, points: int, rows: int) -> None:
        self.goods = goods  # per good
        self.gold = gold
        self.points = points  # victory point tokens
        self.stored_gold = 0  # gold on a card, apart from the supply
        self.hand = -1  # a tribe card index, or -1
        self.display: list[list[int]] = [[] for _ in range(rows)]  # tribe card indices, row by row
        self.next_figures = -1  # Targi to place next round (-1: the ruleset's)
        self.got = 0  # bitmask: goods taken from goods cards this round
        self.goods_from_cards = 0  # goods taken from goods cards this round
        self.bonus = 0  # bitmask: goods whose extra good was given this round

    def copy(self) -> "Side":
        # field by field (a snippet's run copies both sides), and through __init__ (a compiled
        # build's classes are made by their constructor)
        other = Side(self.goods[:], self.gold, self.points, 0)
        other.stored_gold = self.stored_gold
        other.hand = self.hand
        other.display = [row[:] for row in self.display]
        other.next_figures = self.next_figures
        other.got = self.got
        other.goods_from_cards = self.goods_from_cards
        other.bonus = self.bonus
        return other

    @property
    def cards(self) -> list[int]:
        return [card for row in self.display for card in row]

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SIDE_FIELDS}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Side":
        side = Side([], 0, 0, 0)
        if set(data) != set(SIDE_FIELDS):
            raise ValueError(f"a side needs exactly the fields {', '.join(SIDE_FIELDS)}")
        for name in SIDE_FIELDS:
            setattr(side, name, data[name])
        return side


class TargiRecord:
    """The whole state. Lists of plain ints, so that copying and JSON are exact."""

    __slots__ = RECORD_FIELDS

    def __init__(self, ring: int, spaces: int, sides: list[Side], rng: int) -> None:
        self.round = 0
        self.amulet = 0  # the starting player of this round
        self.robber = -1  # a ring index; -1 before round 1
        self.figures = [-1] * ring  # per border card: the seat whose Targi stands there
        self.markers = [-1] * spaces  # per centre space: the seat whose tribe marker is there
        self.centre = [-1] * spaces  # per space: a card index in its deck, -1 empty
        self.centre_kind = [GOODS_DECK] * spaces
        self.centre_up = [True] * spaces
        self.piles: list[list[int]] = [[], []]  # draw piles (goods, tribe): unordered, a draw picks at random
        self.discards: list[list[int]] = [[], []]
        self.sides = sides
        self.stack: list[dict[str, Any]] = []  # frames still to work through, the last on top
        self.last_round = False
        self.over = False
        self.end_reason = ""
        self.rng = rng
        self.decisions = 0

    def copy(self) -> "TargiRecord":
        other = TargiRecord(0, 0, [s.copy() for s in self.sides], self.rng)
        other.round = self.round
        other.amulet = self.amulet
        other.robber = self.robber
        other.figures = self.figures[:]
        other.markers = self.markers[:]
        other.centre = self.centre[:]
        other.centre_kind = self.centre_kind[:]
        other.centre_up = self.centre_up[:]
        other.piles = [p[:] for p in self.piles]
        other.discards = [p[:] for p in self.discards]
        other.stack = [_copy_frame(f) for f in self.stack]
        other.last_round = self.last_round
        other.over = self.over
        other.end_reason = self.end_reason
        other.decisions = self.decisions
        return other

    def to_json(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in RECORD_FIELDS}
        out["sides"] = [s.to_json() for s in self.sides]
        out["stack"] = [_copy_frame(f) for f in self.stack]
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> "TargiRecord":
        if set(data) != set(RECORD_FIELDS):
            raise ValueError(f"a Targi state needs exactly the fields {', '.join(RECORD_FIELDS)}")
        record = TargiRecord(0, 0, [], 0)
        for name in RECORD_FIELDS:
            setattr(record, name, data[name])
        record.sides = [Side.from_json(s) for s in data["sides"]]
        record.stack = [_copy_frame(f) for f in data["stack"]]
        return record


def _copy_frame(frame: dict[str, Any]) -> dict[str, Any]:
    return {k: (v[:] if isinstance(v, list) else v) for k, v in frame.items()}


def shown_robber(robber: int) -> int:
    """The robber as a seat's view (and its tensor) gives it: its ring index plus one, 0 before round 1."""
    return robber + 1
