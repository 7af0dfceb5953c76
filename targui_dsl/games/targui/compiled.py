"""The compiled ruleset: everything the engine needs, read-only.

Built once by :mod:`targui_dsl.frontend.build` from a checked, resolved ruleset. The
engine reads tables and calls compiled effects; it never re-parses text and
never asks which variant it is running. Its classes are frozen records
(:mod:`targui_dsl.effects.records`: frozen dataclasses made without generating code, which was a
fifteenth of `targui validate`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.records import Record
from targui_dsl.effects.vocabulary import Memory

#: The language of targui's own screens. A card's text is shown in it where
#: the card has one; the rulebook's own language on request (``cards --lang``).
UI_LANGUAGE = "en"


class TerritoryKind(Record):
    id: str
    index: int
    name: str
    economic: int
    strategic: int
    count: int
    passable: bool  # False: no camels, never owned (chott)
    settlement: bool  # True: the tribes' settlement cards
    position: int | None  # a fixed board position (the salt mine), else dealt


class Tribe(Record):
    id: str
    index: int
    name: str
    colour: str


class Sector(Record):
    id: str
    cells: tuple[int, ...]


class Board(Record):
    rows: int
    columns: int
    position_of_cell: tuple[int, ...]  # cell index -> printed position number
    cell_of_position: Mapping[int, int]  # printed position -> cell index
    neighbours: tuple[tuple[int, ...], ...]  # cell index -> adjacent cells
    sectors: tuple[Sector, ...]

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.columns)

    def __repr__(self) -> str:
        return f"<Board {self.rows}x{self.columns}, {len(self.sectors)} sectors>"


class Seating(Record):
    """How a number of players settle.

    ``mode == "sectors"``: each player in seat order picks a free sector, then
    a cell in it. ``mode == "positions"``: seat i picks one of ``choices[i]``.
    Choices, like sector cells, are cell indices (not printed positions).
    """

    players: tuple[int, ...]
    mode: str
    choices: tuple[tuple[int, ...], ...] = ()


class Card(Record):
    id: str
    number: int
    title: str
    texts: Mapping[str, str]  # language code -> rulebook text
    effect: CompiledCode

    def text_in(self, *languages: str | None) -> tuple[str | None, str | None]:
        """The card's text in the first of ``languages`` it has, else in English, else in
        the first language in alphabetical order: ``(code, text)``, or ``(None, None)``
        for a card without text. The one place that picks a card's text for a screen."""
        texts = {code: text for code, text in self.texts.items() if isinstance(text, str) and text.strip()}
        for code in (*languages, UI_LANGUAGE):
            if code and code in texts:
                return code, texts[code]
        code = min(texts, default=None)
        return (code, texts[code]) if code is not None else (None, None)

    def __repr__(self) -> str:
        return f"<Card {self.number} {self.id}: {self.title!r}>"


class CompiledRuleset(Record):
    game: str  # the game it is for (a ruleset's `game:`): targui
    id: str
    title: str
    description: str
    files: tuple[str, ...]  # the extends chain, the ruleset's own file first
    paths: tuple[str, ...]  # the same files' absolute paths
    file_bytes: tuple[bytes | None, ...]  # each file's bytes as read (what is played: a header hashes them)

    kinds: tuple[TerritoryKind, ...]
    tribes: tuple[Tribe, ...]
    board: Board
    seating: tuple[Seating, ...]

    camel_box: int
    camel_price: int
    start_camels: tuple[int, ...]  # by 0-based seat, one per tribe
    start_cash: tuple[int, ...]  # by 0-based seat, one per tribe
    tribal_cards: int

    die_sides: int
    double_turn_from: int
    fortune_cards_per_round: int
    treasury: bool
    no_buying_on: frozenset[int]  # kind indices where bought camels may not go

    defender_loses: CompiledCode  # params (die, source, target)
    attacker_loses: CompiledCode  # params (die, source, target)
    levy: CompiledCode  # params (player,)
    score: CompiledCode  # params (player,)
    tie_breaks: tuple[CompiledCode, ...]  # params (player,), compared in order
    own_settlement_required_to_win: bool

    cards: Mapping[str, Card]
    deck: tuple[str, ...]  # card ids, in rulebook order

    resolved: Mapping[str, Any]  # the merged ruleset data, for display: read-only all the way down (frozen_deep)

    #: Effects run at moments of the game (games.targui.names.HOOK_MOMENTS, in the
    #: order they happen): every moment is a key, with () when it has none.
    #: Each is called as ``function(rt)``, the turn hooks as
    #: ``function(rt, player)``; run them in tuple order.
    hooks: Mapping[str, tuple[CompiledCode, ...]]

    #: The values the ruleset keeps (`memory:`), in slot order (``Memory.index``).
    memory: tuple[Memory, ...] = ()

    @property
    def end_reasons(self) -> frozenset[str]:
        """Every reason an `end game` of its cards and hooks can give."""
        codes = [card.effect for card in self.cards.values()] + [c for hooks in self.hooks.values() for c in hooks]
        return frozenset(reason for code in codes for reason in code.end_reasons)

    @property
    def language(self) -> str | None:
        """The language of the rulebook the ruleset quotes (its `language` key)."""
        value = self.resolved.get("language")
        return value if isinstance(value, str) else None

    def card_text(self, card_id: str, language: str | None = None) -> tuple[str | None, str | None]:
        """``(code, text)`` of a card for a screen: in ``language`` (default English, the
        language of targui's screens), else the rulebook's own, else any it has."""
        card = self.cards.get(card_id)
        if card is None:
            return None, None
        return card.text_in(language or UI_LANGUAGE, UI_LANGUAGE, self.language)

    def __repr__(self) -> str:  # print(ruleset) in a REPL: one line, not every table
        return (f"<CompiledRuleset {self.id!r} ({self.title}): {len(self.tribes)} tribes, "
                f"{self.board.rows}x{self.board.columns} board, {len(self.cards)} cards, {len(self.deck)} in the deck, "
                f"{self.rounds} rounds>")

    def kind_index(self, kind_id: str) -> int:
        for kind in self.kinds:
            if kind.id == kind_id:
                return kind.index
        raise KeyError(kind_id)

    def tribe_index(self, tribe_id: str) -> int:
        for tribe in self.tribes:
            if tribe.id == tribe_id:
                return tribe.index
        raise KeyError(tribe_id)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({n for s in self.seating for n in s.players}))

    def seating_for(self, players: int) -> Seating:
        for seating in self.seating:
            if players in seating.players:
                return seating
        raise ValueError(f"ruleset {self.id} seats {', '.join(map(str, self.player_counts))} players, not {players}")

    @property
    def rounds(self) -> int:
        """Rounds in a full game: the deck drawn out at the per-round rate."""
        per = self.fortune_cards_per_round
        return -(-len(self.deck) // per) if per > 0 else 0


def frozen_mapping(items: Mapping) -> Mapping:
    return MappingProxyType(dict(items))


def frozen_deep(value: Any) -> Any:
    """``value`` with every mapping made a read-only proxy and every list a tuple, all the way
    down: data a compiled ruleset shows can no longer be changed behind the engine's back."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen_deep(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen_deep(item) for item in value)
    return value
