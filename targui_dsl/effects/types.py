"""The static types of the effect language."""

from __future__ import annotations

from enum import Enum


class Type(Enum):
    INT = "a whole number"
    BOOL = "true/false"
    TERRITORY = "a territory"
    PLAYER = "a player"
    KIND = "a territory kind"
    TRIBE = "a tribe"
    TERRITORIES = "a collection of territories"
    PLAYERS = "a collection of players"
    KINDS = "a collection of territory kinds"
    NUMBERS = "a range of whole numbers"
    # only a written list `[true, false]`: what a yes/no choice ranges over
    BOOLS = "a list of true/false"
    # Targi's elements (games/targi/names.py): a kind of good, a tribe card's symbol, a card.
    GOOD = "a good"
    SYMBOL = "a symbol"
    CARD = "a card"
    GOODS = "a collection of goods"
    CARDS = "a collection of cards"

    @property
    def described(self) -> str:
        """How messages name a value of this type: "a territory"."""
        return self.value

    @property
    def element(self) -> "Type | None":
        """What a collection holds; None for a type that is not a collection."""
        return _ELEMENT.get(self)


_ELEMENT = {
    Type.TERRITORIES: Type.TERRITORY,
    Type.PLAYERS: Type.PLAYER,
    Type.KINDS: Type.KIND,
    Type.NUMBERS: Type.INT,
    Type.BOOLS: Type.BOOL,
    Type.GOODS: Type.GOOD,
    Type.CARDS: Type.CARD,
}

#: A written list `[a, b, ...]` ranged over (after `in` in a loop, choice or aggregate):
#: the collection type of its elements' type.
LIST_OF = {element: collection for collection, element in _ELEMENT.items()}

INT = Type.INT
BOOL = Type.BOOL
TERRITORY = Type.TERRITORY
PLAYER = Type.PLAYER
KIND = Type.KIND
TRIBE = Type.TRIBE
TERRITORIES = Type.TERRITORIES
PLAYERS = Type.PLAYERS
KINDS = Type.KINDS
NUMBERS = Type.NUMBERS
BOOLS = Type.BOOLS
GOOD = Type.GOOD
SYMBOL = Type.SYMBOL
CARD = Type.CARD
GOODS = Type.GOODS
CARDS = Type.CARDS
