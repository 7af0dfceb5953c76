"""Targi's compiled ruleset: plain frozen values the engine reads, made by build.py. Its parts are
frozen records (:mod:`targui_dsl.effects.records`: frozen dataclasses made without generating code,
which was a twentieth of `targui validate`)."""

from __future__ import annotations

from dataclasses import field
from typing import Any, Mapping

from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.records import Record

#: What a raid option takes, besides goods.
GOLD, POINTS, GOODS = "gold", "points", "goods"


class Border(Record):
    """One card of the ring: its action (an effect of the player who uses it) or its raid."""

    number: int
    name: str
    text: str
    action: CompiledCode | None  # None for a raid
    raid: tuple[tuple[str, int], ...] = ()  # the options: (goods|gold|points, amount)
    ends_game: bool = False

    @property
    def is_raid(self) -> bool:
        return bool(self.raid)


class GoodsCard(Record):
    id: int
    goods: tuple[int, ...]  # per good
    choice: int = 0  # goods of the taker's choice
    gold: int = 0
    points: int = 0


class Cost(Record):
    goods: tuple[int, ...]  # per good
    gold: int = 0

    @property
    def size(self) -> int:
        return sum(self.goods) + self.gold


class TribeCard(Record):
    id: int
    symbol: int
    costs: tuple[Cost, ...]  # options: pay one in full
    points: int
    text: str
    end: CompiledCode | None = None
    once: CompiledCode | None = None
    modifiers: Mapping[str, CompiledCode] = field(default_factory=dict)
    hooks: Mapping[str, CompiledCode] = field(default_factory=dict)


class Seat(Record):
    id: str
    name: str


class Snippet(Record):
    source: str


class CardInfo(Record):
    """A tribe card as a study's card table names it."""

    number: int
    title: str
    effect: Snippet


class TargiRuleset(Record):
    """A checked, complete Targi ruleset."""

    id: str
    title: str
    description: str
    language: str | None
    players: int
    goods: tuple[str, ...]
    symbols: tuple[str, ...]
    start_goods: tuple[int, ...]
    start_gold: int
    start_points: int
    figures: int
    markers: int
    limit_goods: int
    limit_gold: int
    hand_limit: int
    display_rows: int
    display_columns: int
    row_same: int
    row_different: int
    end_display: int
    tie_breaks: tuple[str, ...]
    ring: tuple[Border, ...]  # in ring order, card number i + 1 at index i
    robber_start: int  # an index into ring
    columns: tuple[tuple[int, int], ...]  # ring indices of opposite pairs setting a centre column
    rows: tuple[tuple[int, int], ...]
    centre: tuple[tuple[str, ...], ...]  # "goods" or "tribe" per space, row by row
    goods_cards: tuple[GoodsCard, ...]
    tribe_cards: tuple[TribeCard, ...]
    files: tuple[str, ...] = ()  # the extends chain, the ruleset's own file first
    paths: tuple[str, ...] = ()  # the same files' absolute paths
    file_bytes: tuple[bytes | None, ...] = ()  # each file's bytes as read (what is played: a header hashes them)
    resolved: Mapping[str, Any] = field(default_factory=dict)  # the merged data, for display
    game: str = "targi"
    # Worked out once from the ring and the cards (the rules ask them at every decision): the border
    # cards a Targi may stand on (not the raids), in ring order; each of them with the card opposite
    # it (itself where none is: placement reads the figure there, a free card's); per modifier, the
    # tribe cards that have it, and per hook moment; the cards a display holds.
    standing: tuple[int, ...] = field(init=False, repr=False, compare=False)
    facing: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    with_modifier: Mapping[str, frozenset[int]] = field(init=False, repr=False, compare=False)
    with_hook: Mapping[str, frozenset[int]] = field(init=False, repr=False, compare=False)
    display_size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        across = list(range(len(self.ring)))
        for a, b in (*self.columns, *self.rows):
            across[a], across[b] = b, a
        having: dict[str, set[int]] = {}
        hooked: dict[str, set[int]] = {}
        for index, card in enumerate(self.tribe_cards):
            for name in card.modifiers:
                having.setdefault(name, set()).add(index)
            for name in card.hooks:
                hooked.setdefault(name, set()).add(index)
        standing = tuple(i for i, border in enumerate(self.ring) if not border.is_raid)
        object.__setattr__(self, "standing", standing)
        object.__setattr__(self, "facing", tuple((i, across[i]) for i in standing))
        object.__setattr__(self, "with_modifier", {name: frozenset(cards) for name, cards in having.items()})
        object.__setattr__(self, "with_hook", {name: frozenset(cards) for name, cards in hooked.items()})
        object.__setattr__(self, "display_size", self.display_rows * self.display_columns)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return (self.players,)

    @property
    def tribes(self) -> tuple[Seat, ...]:
        """The seats, as a study's tables name them."""
        return (Seat("player1", "Player 1"), Seat("player2", "Player 2"))

    @property
    def deck(self) -> tuple[str, ...]:
        """The tribe cards by id: a study's card table counts how often each is displayed."""
        return tuple(str(card.id) for card in self.tribe_cards)

    @property
    def cards(self) -> dict[str, CardInfo]:
        return {str(c.id): CardInfo(c.id, f"{self.symbols[c.symbol]}, {c.points} pts", Snippet(""))
                for c in self.tribe_cards}

    @property
    def centre_spaces(self) -> int:
        return sum(len(row) for row in self.centre)
