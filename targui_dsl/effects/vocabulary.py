"""What a game gives the effect language to name: its vocabulary.

The language itself (keywords, functions, types, statements) knows no game.
A game package fills one :class:`Vocabulary`: the global names and the
fields of each type with the runtime methods that read and write them, the
moments effects may be hooked to, the rule formulas and their parameters,
the runtime methods behind the language's verbs (``move``, ``round``), and
the examples its messages show. The compiler checks every name against it
and calls only the methods it lists (:attr:`Vocabulary.runtime_methods`);
nothing written in a ruleset becomes an attribute name unchecked.
"""

from __future__ import annotations

from typing import Mapping

from targui_dsl.effects.names import FUNCTIONS, KEYWORDS
from targui_dsl.effects.records import Record, field
from targui_dsl.effects.types import Type
from targui_dsl.frontend.paths import dotted

#: A place's parameters, in the order its compiled function takes them: ``function(rt, *params)``.
Params = Mapping[str, Type]


class Global(Record):
    """A name every effect and formula may use: its type and the runtime method giving it."""

    type: Type
    method: str
    meaning: str
    nullable: bool = False  # may be nobody
    #: For a collection: by a field of its elements, the runtime method giving the elements whose
    #: field equals a value (``method(value)``), in the collection's order. A loop written
    #: ``for t in territories where t.kind == erg ...`` then visits those, not every element.
    index: Mapping[str, str] = field(default_factory=dict)


class Field(Record):
    """A field of a value of some type (``t.owner``): read by ``getter``, changed by ``setter``."""

    type: Type
    getter: str  # runtime method reading the field
    meaning: str
    nullable: bool = False  # may be nobody (None)
    setter: str | None = None  # runtime method writing it; None: not assignable
    # A field kept per round and for good (`x.f = 3 this round`): the setter and
    # ``Verbs.add`` take the field's name, its value and whether it lasts only
    # this round. None: a plain field, ``setter(element, value)``.
    round_field: str | None = None
    owned: bool = False  # a yes/no read through ``getter``: is the value there (not nobody)?
    # A runtime method giving the field of every element at once, a list indexed by the element
    # and kept up to date as the game changes (never written through): generated code reads
    # ``values[t]``, not a call per element, wherever ``getter(t)`` would give the same (the
    # element is never nobody). None: the field is read through ``getter`` alone.
    values: str | None = None


class Formula(Record):
    """A rule formula: where the ruleset writes it, and its parameters."""

    path: tuple[str, ...]
    params: Params
    meaning: str
    many: bool = False  # the path holds a list of formulas, each with these parameters


class Procedure(Record):
    """One of a game's procedures (``draw_goods_card()``): rules machinery a snippet sets going.

    ``method`` is the runtime method called, with the arguments in the order of ``params``
    (each written by name in the snippet). What it does, and when, is the game's: a game
    whose effects run on copies may schedule the procedure for when the effect is done.
    """

    method: str
    meaning: str
    params: Params = field(default_factory=dict)


class Verbs(Record):
    """The runtime methods behind the language's own words."""

    round: str  # `round`: the round number
    move: str  # `move n from a to b`: (a, b, n)
    add: str  # `x.f += n` on a round field: (element, field name, delta, this round only)
    # Declared memory (docs/effect-language.md, "Memory"): read (slot, holder or None) and
    # write (slot, holder or None, value); the game clamps or refuses at the slot's bounds.
    memory: str = "memory"
    set_memory: str = "set_memory"
    # `end game "reason"`: (reason); the game ends at once, scored as at its ordinary end.
    end_game: str = "end_game"
    # What `move` moves between (its source and target); None: the game has nothing to move.
    move_place: Type | None = None


class Examples(Record):
    """What the compiler's messages show, in the game's own words (``{name}``: the field at hand)."""

    aggregate: str  # an aggregate's element and binder: "t.value for t in territories"
    collections: str  # what a loop may range over
    assignable: str  # what can be changed
    give: str  # how to give a field that holds no number, with ``{name}``
    this_round: str  # a change lasting one round
    round_fields: str  # what `this round` applies to
    move_count: str  # what `move` moves, for "`move` needs {move_count}"
    move_places: str  # where it moves between, for "{move_places}, but this is ..."
    #: A formula parameter that is a die already thrown -> the hint when its formula calls `roll`.
    thrown: Mapping[str, str]
    #: The examples syntax hints show (the keys of ``parser.SYNTAX_EXAMPLES``): a block,
    #: a change, a statement, a list after `in`.
    syntax: Mapping[str, str]
    #: The hint for a written list of values that cannot be ranged over (tribes).
    list_instead: str = "range over a collection the game names"


class Vocabulary(Record):
    """Everything a game lets a snippet name, with meanings (for docs and hover)."""

    globals: Mapping[str, Global]
    fields: Mapping[Type, Mapping[str, Field]]
    #: The moments of the game effects may be hooked to, in the order they happen, and the names each adds.
    hook_moments: Mapping[str, Params]
    #: When each moment comes, for people (docs, hover, the schema's descriptions).
    hook_meanings: Mapping[str, str]
    formulas: tuple[Formula, ...]
    #: Every place a snippet is written: name -> (description, parameters).
    places: Mapping[str, tuple[str, Params]]
    verbs: Verbs
    examples: Examples
    #: The ruleset's sections whose ids a snippet may name (each id a constant), for editors'
    #: completion (``targui lsp``); empty: ids are not offered.
    id_sections: tuple[str, ...] = ()
    #: What may hold declared memory (a ruleset's `memory:`, `of:`): a holder's name -> the type
    #: of the value holding it, None for the one value of the whole game. Empty: no memory.
    memory_holders: Mapping[str, Type | None] = field(default_factory=dict)
    #: The game's procedures, by the name a snippet calls them with; empty: none.
    procedures: Mapping[str, Procedure] = field(default_factory=dict)
    #: The game's name, as messages give it ("Targui declares no procedures").
    game: str = "this game"
    #: The game's own element types (the language knows numbers, true/false and players).
    types: tuple[Type, ...] = ()

    @property
    def choosable(self) -> str:
        """What a player may choose in this game, for messages: "a territory, ..., or yes/no"."""
        kinds = [t.prompt for t in self.types if t.choice is not None] + [Type.PLAYER.prompt, Type.INT.prompt]
        return ", ".join(kinds) + " or yes/no (`[true, false]`)"

    def parameter_hint(self, name: str) -> str | None:
        """Where a formula parameter (`die`, `player`, ...) may be used, for an
        "unknown name" hint; None for a name that is no formula's parameter."""
        homes = [f"`{dotted(f.path)}`" for f in self.formulas if not f.many and name in f.params]
        homes += [f"`{dotted(f.path)}`" for f in self.formulas if f.many and name in f.params]
        if not homes:
            return None
        where = homes[0] if len(homes) == 1 else ", ".join(homes[:-1]) + " and " + homes[-1]
        return f"`{name}` exists only in the formula{'s' if len(homes) > 1 else ''} {where}"

    @property
    def parameter_names(self) -> frozenset[str]:
        return frozenset(name for _, params in self.places.values() for name in params)

    @property
    def reserved_names(self) -> frozenset[str]:
        """What a ruleset id may not be (E0414): a keyword, or a name the language gives a
        meaning of its own (globals, functions, parameters); a snippet could not tell them apart."""
        return (KEYWORDS | frozenset(self.globals) | frozenset(FUNCTIONS) | self.parameter_names
                | frozenset(self.procedures))

    @property
    def runtime_methods(self) -> frozenset[str]:
        """Every runtime method compiled code may call (tests check generated code against it)."""
        specs = [spec for fields in self.fields.values() for spec in fields.values()]
        return frozenset(
            {spec.getter for spec in specs}
            | {spec.setter for spec in specs if spec.setter}
            | {spec.values for spec in specs if spec.values}
            | {spec.method for spec in self.globals.values()}
            | {method for spec in self.globals.values() for method in spec.index.values()}
            | {self.verbs.round, self.verbs.move, self.verbs.add}
            | ({self.verbs.memory, self.verbs.set_memory} if self.memory_holders else set())
            | {self.verbs.end_game}
            | {proc.method for proc in self.procedures.values()}
        )


class Memory(Record):
    """A value a ruleset declares under `memory:` (one per holder, or one for the game).

    ``holder``: the type holding one value each (``p.bid``), None for a name of the whole
    game (``auction_round``). ``type``: INT or BOOL (a flag, stored as 0/1). ``index``:
    the slot's number, what compiled code passes to the game (never the name).
    """

    name: str
    holder: Type | None
    type: Type
    index: int
    start: int
    low: int
    high: int
    visible: str  # "public", "owner" (a player's own), "hidden"
    clamp: bool = True  # past a bound: clamped (True) or the change refused (False)
    meaning: str = ""


class Environment(Record):
    """What a snippet may name besides loop variables.

    ``vocabulary`` is the game's (its globals, fields, verbs). ``ids`` are
    the ruleset's ids a snippet may name, each a constant of a type (a
    territory kind, a tribe: its index). ``params`` are a place's
    parameters in call order (a dict keeps it): the compiled function is
    ``function(rt, *params)``.
    """

    vocabulary: Vocabulary
    ids: Mapping[str, tuple[Type, int]] = field(default_factory=dict)
    params: Mapping[str, Type] = field(default_factory=dict)
    #: True for a value computed when the ruleset is built (a per-seat
    #: starting value): only the parameters, no game state, no ids.
    only_params: bool = False
    #: The ruleset's declared memory, by name (``Memory``); readable, and assignable, in
    #: effects and formulas alike.
    memory: Mapping[str, Memory] = field(default_factory=dict)
    #: The most elements each collection the game names can hold in this ruleset, by a global's
    #: name (``territories``) and by a collection field's name (``neighbours``). A snippet whose
    #: loops, choices and tests all range over collections so bounded, at most STEP_BUDGET
    #: elements in all, can never run past its budget: it is compiled without counting its
    #: steps. Empty (not known): every run counts them.
    global_sizes: Mapping[str, int] = field(default_factory=dict)
    field_sizes: Mapping[str, int] = field(default_factory=dict)

    def memory_of(self, name: str, holder: Type | None) -> Memory | None:
        """The declared memory ``name`` held by a value of ``holder`` (None: the game's)."""
        slot = self.memory.get(name)
        return slot if slot is not None and slot.holder is holder else None
