"""The static types of the effect language.

The language itself knows numbers, true/false and players (and collections of them). Every other
type is a game's own element, declared in its vocabulary (``games/<game>/names.py``): Targui's
territories and kinds, Targi's goods and cards. A type says how messages name it, whether a
player may choose one (and how that choice is asked and answered), and what a collection of it is
called; the compiler asks the type, never which game it is compiling for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Type:
    """One static type: an element (``a territory``) or a collection of elements."""

    #: How messages name a value of this type: "a territory".
    described: str
    #: What a collection holds; None for a type that is not a collection.
    element: Type | None = None
    #: How messages name a collection of this element type; None: the language has no such collection.
    plural: str | None = None
    #: The kind of choice a player makes among values of this type ("territory", "number"), as a
    #: choice request names it; None: no player chooses one.
    choice: str | None = None
    #: How a prompt names one option of that choice ("a territory"); the description if empty.
    asked: str = ""
    #: Whether a choice among these is answered by its place in the list (not by the value's own id).
    by_place: bool = False

    # The language's own types (the games' are declared in their vocabularies).
    INT: ClassVar[Type]
    BOOL: ClassVar[Type]
    PLAYER: ClassVar[Type]
    NUMBERS: ClassVar[Type]
    BOOLS: ClassVar[Type]
    PLAYERS: ClassVar[Type]

    @property
    def collection(self) -> Type | None:
        """The type of a collection of this element type (a written list `[a, b]` ranged over)."""
        if self.plural is None:
            return None
        return Type(self.plural, element=self)

    @property
    def prompt(self) -> str:
        return self.asked or self.described


def collection_of(element: Type) -> Type:
    """The collection type of an element type that has one (a game's declared types all do)."""
    out = element.collection
    if out is None:
        raise ValueError(f"{element.described} has no collection type")
    return out


Type.INT = Type("a whole number", plural="a range of whole numbers", choice="number", asked="a number",
                by_place=True)
Type.BOOL = Type("true/false", plural="a list of true/false", choice="yes/no", asked="yes or no", by_place=True)
Type.PLAYER = Type("a player", plural="a collection of players", choice="player")
# `1..6` is a range of numbers; `[true, false]`, only a written list, is what a yes/no choice ranges over.
Type.NUMBERS = collection_of(Type.INT)
Type.BOOLS = collection_of(Type.BOOL)
Type.PLAYERS = collection_of(Type.PLAYER)

INT = Type.INT
BOOL = Type.BOOL
PLAYER = Type.PLAYER
NUMBERS = Type.NUMBERS
BOOLS = Type.BOOLS
PLAYERS = Type.PLAYERS
