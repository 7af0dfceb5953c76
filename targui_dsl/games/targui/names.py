"""Targui's words in the effect language: its :class:`~targui_dsl.effects.vocabulary.Vocabulary`.

The one table of what a Targui snippet may name (globals, the fields of
territories, players and kinds, with the runtime methods of
:mod:`targui_dsl.games.targui.runtime` behind them), the moments a ruleset
may hook effects to, the rule formulas with their parameters, and the
examples the compiler's messages show. The parser, compiler, checker,
builder, schema and docs read it from here.
"""

from __future__ import annotations

from typing import Mapping

from targui_dsl.effects.cost import Sizes
from targui_dsl.effects.types import Type, collection_of
from targui_dsl.effects.vocabulary import (
    Environment,
    Examples,
    Field,
    Formula,
    Global,
    Memory,
    Params,
    Verbs,
    Vocabulary,
)

#: Targui's own types (the language itself knows numbers, true/false and players).
TERRITORY = Type("a territory", plural="a collection of territories", choice="territory")
KIND = Type("a territory kind", plural="a collection of territory kinds", choice="kind", asked="a kind",
            by_place=True)
TRIBE = Type("a tribe")
TERRITORIES = collection_of(TERRITORY)
KINDS = collection_of(KIND)

#: The global names. ``round`` is a reserved word, not a name, and not listed.
GLOBALS: Mapping[str, Global] = {
    "territories": Global(TERRITORIES, "all_territories", "every cell of the board, in board order",
                          index={"kind": "territories_of_kind"}),
    "players": Global(Type.PLAYERS, "all_players", "every player still in the game, in seat order"),
    "seats": Global(Type.PLAYERS, "all_seats", "every player at the table, out of the game or not, in seat order"),
    "kinds": Global(KINDS, "all_kinds", "every territory kind, in ruleset order"),
    "box": Global(Type.INT, "box", "camels left in the box"),
    "camel_price": Global(Type.INT, "camel_price", "silver per camel bought"),
    "round_die": Global(Type.INT, "round_die", "what this round's die showed (0 before the first die)"),
    "current_player": Global(
        Type.PLAYER, "current_player", "whose turn it is; nobody outside turns", nullable=True
    ),
    "cards_left": Global(Type.INT, "cards_left", "(mis)fortune cards still in the deck, this round's unrevealed"
                         " ones included"),
    "rounds_played": Global(Type.INT, "rounds_played", "rounds over before this one (`round - 1`)"),
    "rounds_left": Global(Type.INT, "rounds_left", "rounds still to come after this one, as the deck says"
                          " (0 in the last round)"),
}

#: The fields of each type, with the runtime methods reading (and writing) them.
FIELDS: Mapping[Type, Mapping[str, Field]] = {
    TERRITORY: {
        "kind": Field(KIND, "kind", "its territory kind", values="territory_kinds"),
        "camels": Field(Type.INT, "camels", "the camels on it", setter="set_camels", values="territory_camels"),
        "owner": Field(Type.PLAYER, "owner", "the player whose camels hold it; nobody when empty",
                       nullable=True, setter="set_owner"),
        "owned": Field(Type.BOOL, "owner", "whether a player holds it", owned=True),
        "strategic": Field(Type.INT, "strategic", "its strategic value this round (its kind's)"),
        "economic": Field(Type.INT, "economic", "its economic value this round (its kind's)"),
        "position": Field(Type.INT, "position", "its printed position number on the board"),
        "neighbours": Field(TERRITORIES, "neighbours", "the cells next to it, as the board's adjacency says"),
        "passable": Field(Type.BOOL, "passable", "whether camels may stand on it (false for an impassable kind)"),
    },
    Type.PLAYER: {
        "tribe": Field(TRIBE, "tribe", "the player's tribe"),
        "seat": Field(Type.INT, "seat", "the player's seat, 1 first"),
        "cash": Field(Type.INT, "cash", "silver in hand", setter="set_cash"),
        "treasury": Field(Type.INT, "treasury", "silver in the treasury", setter="set_treasury"),
        "camels": Field(Type.INT, "player_camels", "camels on the board"),
        "territories": Field(TERRITORIES, "territories_of", "the territories the player holds"),
        "settlement": Field(TERRITORY, "settlement", "the player's own settlement; nobody before it is placed",
                            nullable=True),
        "holds_own_settlement": Field(Type.BOOL, "holds_own_settlement", "whether the player holds its own settlement"),
    },
    KIND: {
        "strategic": Field(Type.INT, "kind_strategic", "the kind's strategic value this round",
                           setter="set_kind_value", round_field="strategic"),
        "economic": Field(Type.INT, "kind_economic", "the kind's economic value this round",
                          setter="set_kind_value", round_field="economic"),
    },
}

# The parameters of each place a snippet is written, in the order the
# compiled function takes them: ``function(rt, *params)``.
COMBAT_PARAMS: Params = {"die": Type.INT, "source": TERRITORY, "target": TERRITORY}
PLAYER_PARAMS: Params = {"player": Type.PLAYER}
SEAT_PARAMS: Params = {"seat": Type.INT}

#: The moments of the game a ruleset may hook effects to, in the order they
#: happen (docs/effect-language.md, "Hooks"), and the names each one adds.
#: The one home of their names: the schema's `hooks` keys are made from it.
HOOK_MOMENTS: Mapping[str, Params] = {
    "game_start": {},
    "round_start": {},
    "turn_start": PLAYER_PARAMS,
    "turn_end": PLAYER_PARAMS,
    "before_levy": {},
    "after_levy": {},
    "round_end": {},
}

#: How often each moment comes: once a game, once a round, or once a turn (a tribal
#: card revealed; a double turn is one turn).
HOOK_EVERY: Mapping[str, str] = {
    "game_start": "game",
    "round_start": "round",
    "turn_start": "turn",
    "turn_end": "turn",
    "before_levy": "round",
    "after_levy": "round",
    "round_end": "round",
}


def hook_runs(moment: str, rounds: int, players: int, turns: int) -> int:
    """The most times the hooks of ``moment`` run in a game of ``rounds`` rounds and
    ``players`` players of at most ``turns`` turns a round each."""
    every = HOOK_EVERY[moment]
    return 1 if every == "game" else rounds if every == "round" else rounds * players * turns


#: When each moment comes (the schema's `hooks` descriptions say the same; a test holds them together).
HOOK_MEANINGS: Mapping[str, str] = {
    "game_start": "After setup (every tribe settled), before the first round's die.",
    "round_start": "After the round's die is thrown (`round_die`), before the stack is revealed.",
    "turn_start": "When a tribal card is revealed, before the movement phase;"
    " `player` is the player whose turn it is.",
    "turn_end": "After the turn's last adding phase (both halves of a double turn);"
    " `player` is the player whose turn it was.",
    "before_levy": "When the round's stack is empty, before the levy is paid.",
    "after_levy": "Just after the levy is paid.",
    "round_end": "The last moment of a round, after the after_levy hooks, before the final score (last round)"
    " and before this round's `this round` changes expire.",
}

#: The rule formulas, in the order the builder compiles them; `end.tie_breaks`
#: is a list of formulas. (Their schema descriptions start with the meaning.)
FORMULAS: tuple[Formula, ...] = (
    Formula(("combat", "defender_loses"), COMBAT_PARAMS,
            "Camels the defender loses from the target when the attacker throws die."),
    Formula(("combat", "attacker_loses"), COMBAT_PARAMS,
            "Camels the attacker loses from the source when the defender throws die."),
    Formula(("levy",), PLAYER_PARAMS, "Silver a player receives at the end of each round."),
    Formula(("end", "score"), PLAYER_PARAMS, "The final score, counted after the last levy; highest wins."),
    Formula(("end", "tie_breaks"), PLAYER_PARAMS, "Formulas over player compared in order when scores are equal;"
            " highest wins.", many=True),
)

#: Where each place's parameters exist: (description, parameters). Card effects have none.
PLACES: Mapping[str, tuple[str, Params]] = {
    "combat": ("the combat formulas (`combat.defender_loses`, `combat.attacker_loses`)", COMBAT_PARAMS),
    "levy": ("the levy formula", PLAYER_PARAMS),
    "score": ("the score and tie-break formulas (`end.score`, `end.tie_breaks`)", PLAYER_PARAMS),
    "turn hooks": ("the turn hooks (`hooks.turn_start`, `hooks.turn_end`)", PLAYER_PARAMS),
    "setup": ("starting values written as a formula (`setup.cash`, `setup.camels`)", SEAT_PARAMS),
}

VOCABULARY = Vocabulary(
    game="Targui",
    globals=GLOBALS,
    fields=FIELDS,
    hook_moments=HOOK_MOMENTS,
    hook_meanings=HOOK_MEANINGS,
    formulas=FORMULAS,
    places=PLACES,
    verbs=Verbs(round="round_number", move="move_camels", add="add_kind_value", move_place=TERRITORY),
    types=(TERRITORY, KIND, TRIBE),
    id_sections=("territories", "tribes"),  # as environment() below names them: kinds, then tribes
    memory_holders={"player": Type.PLAYER, "territory": TERRITORY, "game": None},
    examples=Examples(
        aggregate="t.camels for t in territories",
        collections="`territories`, `players`, `kinds`, `p.territories`, `t.neighbours` or `1..6`",
        assignable="`t.camels`, `t.owner`, `p.cash`, `p.treasury`, `KIND.strategic`, `KIND.economic`"
        " and the ruleset's `memory:`",
        give="`t.{name} = p` or `t.{name} = nobody`",
        this_round="`erg.strategic = 3 this round`",
        round_fields="a territory kind's value",
        move_count="a number of camels",
        move_places="camels move between territories",
        thrown={"die": "a combat formula gets its thrown die as `die`"},
        syntax={
            "block": "for t in territories { ... }",
            "change": "t.camels = 3",
            "statement": "t.camels += 1",
            "list": "t.kind in [erg, reg]",
        },
        list_instead="choose a player of those tribes: `p chooses q in players where q.tribe in [kel_ress, kel_ajjer]`",
    ),
)


def environment(
    kinds: Mapping[str, int], tribes: Mapping[str, int], params: Params | None = None, only_params: bool = False,
    memory: Mapping[str, Memory] | None = None, sizes: Sizes | None = None,
) -> Environment:
    """What a Targui snippet may name: the vocabulary, a ruleset's kind and tribe ids
    (by their indices), the parameters of the place it is written in, and the ruleset's memory;
    with the ruleset's ``sizes``, how large each collection can be (``Environment.global_sizes``)."""
    ids = {tribe_id: (TRIBE, index) for tribe_id, index in tribes.items()}
    ids.update((kind_id, (KIND, index)) for kind_id, index in kinds.items())  # a kind shadows a tribe
    global_sizes: dict[str, int] = {}
    field_sizes: dict[str, int] = {}
    if sizes is not None:  # every seat is a player the ruleset can seat
        players = sizes.names["players"]
        global_sizes = {"territories": sizes.names["territories"], "players": players, "seats": players,
                        "kinds": sizes.names["kinds"]}
        field_sizes = {"territories": sizes.fields["territories"], "neighbours": sizes.fields["neighbours"]}
    return Environment(VOCABULARY, ids=ids, params=dict(params or {}), only_params=only_params,
                       memory=dict(memory or {}), global_sizes=global_sizes, field_sizes=field_sizes)
