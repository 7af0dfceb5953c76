"""Every name the effect language gives a meaning, and where each exists.

One table for the parser (keywords), the compiler (what a name compiles
to), the builder (which formula takes which parameters), the checker (ids
that may not clash with a name: :data:`RESERVED_NAMES`), the docs and
messages (where a name may be used: "`die` exists only in the combat
formulas").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from targui_dsl.effects.types import Type
from targui_dsl.frontend.paths import dotted

#: Words that can never be names (loop variables, kinds, tribes, fields): the
#: grammar's keywords (grammar.lark; a test holds the two together).
KEYWORDS = frozenset(
    "for in where if else and or not true false nobody this round sum min max count any all"
    " let chooses move from to".split()
)


@dataclass(frozen=True)
class Global:
    """A name every effect and formula may use: its type and the runtime method giving it."""

    type: Type
    method: str
    meaning: str
    nullable: bool = False  # may be nobody


#: The global names. ``round`` is a reserved word, not a name, and not listed.
GLOBALS: Mapping[str, Global] = {
    "territories": Global(Type.TERRITORIES, "all_territories", "every cell of the board, in board order"),
    "players": Global(Type.PLAYERS, "all_players", "every player still in the game, in seat order"),
    "seats": Global(Type.PLAYERS, "all_seats", "every player at the table, out of the game or not, in seat order"),
    "kinds": Global(Type.KINDS, "all_kinds", "every territory kind, in ruleset order"),
    "box": Global(Type.INT, "box", "camels left in the box"),
    "camel_price": Global(Type.INT, "camel_price", "silver per camel bought"),
    "round_die": Global(Type.INT, "round_die", "what this round's die showed (0 before the first die)"),
    "current_player": Global(
        Type.PLAYER, "current_player", "whose turn it is; nobody outside turns", nullable=True
    ),
}

#: Functions: name -> what it does. ``roll`` may pause the snippet (effects only).
FUNCTIONS: Mapping[str, str] = {
    "sum": "adds up a number for each element of a collection",
    "min": "the smallest of values, or over a collection",
    "max": "the largest of values, or over a collection",
    "count": "how many elements of a collection satisfy a condition",
    "any": "whether some element satisfies a condition",
    "all": "whether every element satisfies a condition",
    "roll": "throws an n-sided die: 1 to n (effects and hooks only)",
}

# The parameters of each place a snippet is written, in the order the
# compiled function takes them: ``function(rt, *params)``.
COMBAT_PARAMS: Mapping[str, Type] = {"die": Type.INT, "source": Type.TERRITORY, "target": Type.TERRITORY}
PLAYER_PARAMS: Mapping[str, Type] = {"player": Type.PLAYER}
SEAT_PARAMS: Mapping[str, Type] = {"seat": Type.INT}

#: The moments of the game a ruleset may hook effects to, in the order they
#: happen (docs/effect-language.md, "Hooks"), and the names each one adds.
HOOK_MOMENTS: Mapping[str, Mapping[str, Type]] = {
    "game_start": {},
    "round_start": {},
    "turn_start": PLAYER_PARAMS,
    "turn_end": PLAYER_PARAMS,
    "before_levy": {},
    "after_levy": {},
    "round_end": {},
}

#: Where each place's parameters exist: (description, parameters). Card
#: effects have none.
PLACES: Mapping[str, tuple[str, Mapping[str, Type]]] = {
    "combat": ("the combat formulas (`combat.defender_loses`, `combat.attacker_loses`)", COMBAT_PARAMS),
    "levy": ("the levy formula", PLAYER_PARAMS),
    "score": ("the score and tie-break formulas (`end.score`, `end.tie_breaks`)", PLAYER_PARAMS),
    "turn hooks": ("the turn hooks (`hooks.turn_start`, `hooks.turn_end`)", PLAYER_PARAMS),
    "setup": ("starting values written as a formula (`setup.cash`, `setup.camels`)", SEAT_PARAMS),
}


#: The rule formulas: where each is written and its parameters, in the order
#: the compiled function takes them. `end.tie_breaks` is a list of formulas
#: with :data:`TIE_BREAK_PARAMS`.
FORMULAS: tuple[tuple[tuple[str, ...], Mapping[str, Type]], ...] = (
    (("combat", "defender_loses"), COMBAT_PARAMS),
    (("combat", "attacker_loses"), COMBAT_PARAMS),
    (("levy",), PLAYER_PARAMS),
    (("end", "score"), PLAYER_PARAMS),
)
TIE_BREAK_PARAMS: Mapping[str, Type] = PLAYER_PARAMS


def parameter_hint(name: str) -> str | None:
    """Where a formula parameter (`die`, `source`, `player`, ...) may be used, for an
    "unknown name" hint; None for a name that is no formula's parameter."""
    homes = [f"`{dotted(path)}`" for path, params in FORMULAS if name in params]
    if name in TIE_BREAK_PARAMS:
        homes.append("`end.tie_breaks`")
    if not homes:
        return None
    where = homes[0] if len(homes) == 1 else ", ".join(homes[:-1]) + " and " + homes[-1]
    return f"`{name}` exists only in the formula{'s' if len(homes) > 1 else ''} {where}"


#: Every name with a meaning of its own: a kind or tribe id may not be one.
PARAMETER_NAMES = frozenset(name for _, params in PLACES.values() for name in params)
LANGUAGE_NAMES = frozenset(GLOBALS) | frozenset(FUNCTIONS) | PARAMETER_NAMES

#: What a kind or tribe id may not be (E0414): a keyword, or a name the
#: language gives a meaning of its own (globals, functions, parameters); a
#: card effect could not tell the id apart from it.
RESERVED_NAMES = KEYWORDS | LANGUAGE_NAMES
