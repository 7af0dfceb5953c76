"""Targi's words in the effect language: its :class:`~targui_dsl.effects.vocabulary.Vocabulary`.

The one table of what a Targi snippet may name: the players (``me``, the
card's owner, and ``opponent``), the goods, the cards of a display and their
fields, with the runtime methods of :mod:`targui_dsl.games.targi.effects`
behind them; where snippets are written on a tribe card (``end``, ``once``,
each modifier the rules consult and each hook moment) with their parameters.
"""

from __future__ import annotations

from typing import Mapping

from targui_dsl.effects.types import Type, collection_of
from targui_dsl.effects.vocabulary import (
    Environment,
    Examples,
    Field,
    Formula,
    Global,
    Params,
    Procedure,
    Verbs,
    Vocabulary,
)

#: Targi's own types (the language itself knows numbers, true/false and players).
GOOD = Type("a good", plural="a collection of goods", choice="good")
SYMBOL = Type("a symbol")
CARD = Type("a card", plural="a collection of cards", choice="card")
GOODS = collection_of(GOOD)
CARDS = collection_of(CARD)

GLOBALS: Mapping[str, Global] = {
    "me": Global(Type.PLAYER, "me", "the player who owns the card"),
    "opponent": Global(Type.PLAYER, "opponent", "the other player"),
    "goods": Global(GOODS, "all_goods", "every kind of good, in ruleset order"),
}

FIELDS: Mapping[Type, Mapping[str, Field]] = {
    Type.PLAYER: {
        "points": Field(Type.INT, "points", "victory point tokens", setter="set_points"),
        "gold": Field(Type.INT, "gold", "gold in the supply", setter="set_gold"),
        "goods": Field(Type.INT, "goods_total", "goods held, of every kind"),
        "stored_gold": Field(Type.INT, "stored_gold", "gold kept on a card apart from the supply; it pays only"
                             " the gold of a later card's cost", setter="set_stored_gold"),
        "display": Field(CARDS, "display", "the tribe cards displayed, row by row"),
        "displayed": Field(Type.INT, "displayed", "how many tribe cards are displayed"),
        "empty_spaces": Field(Type.INT, "empty_spaces", "spaces of the display still empty"),
        "different_rows": Field(Type.INT, "different_rows", "complete rows of all different symbols"),
        "goods_from_cards": Field(Type.INT, "goods_from_cards", "goods taken from goods cards this round"),
        "next_figures": Field(Type.INT, "next_figures", "Targi the player places next round (one round only)",
                              setter="set_next_figures"),
        "merchant_good_rate": Field(Type.INT, "merchant_good_rate", "what the player's displayed cards say they"
                                    " give the Merchant for one good of choice (their `merchant_good_rate`"
                                    " modifiers, added up); 0 when no card says"),
    },
    GOOD: {
        "held": Field(Type.INT, "held", "how many of this good the card's owner holds", setter="set_held"),
    },
    CARD: {
        "symbol": Field(SYMBOL, "symbol", "the card's symbol"),
        "points": Field(Type.INT, "card_points", "the points printed on the card"),
        "row": Field(Type.INT, "row", "its display row, 1 first; setting it moves the card to the end of that row",
                     setter="set_row"),
        "column": Field(Type.INT, "column", "its place in its row, 1 leftmost"),
        "row_complete": Field(Type.BOOL, "row_complete", "whether its row is full"),
    },
}

THIS: Params = {"card": CARD}
BUY: Params = {"card": CARD, "noble": Type.BOOL}
GOOD_PARAMS: Params = {"good": GOOD}

#: The modifiers the rules consult, each a formula on a displayed card, with its parameters and type.
MODIFIERS: Mapping[str, tuple[Params, Type, str]] = {
    "discount": (BUY, Type.INT, "goods off the cost of a card the owner displays after this one"
                 " (`noble`: through the Noble)"),
    "raid_exempt": ({}, Type.BOOL, "the owner gives nothing at raids"),
    "place_on_robber": ({}, Type.BOOL, "the owner may place a Targi on the robber's card"),
    "extra_good": (GOOD_PARAMS, Type.INT, "more of `good` in a round where the owner takes it from a goods card"),
    "hand_without_noble": ({}, Type.INT, "the owner may display the hand card without the Noble,"
                           " paying this many goods more"),
    "merchant_good_rate": ({}, Type.INT, "goods the owner gives the Merchant for one good of choice"),
}

HOOK_MOMENTS: Mapping[str, Params] = {"after_raid": {}, "actions_end": {}}
HOOK_MEANINGS: Mapping[str, str] = {
    "after_raid": "After each raid is paid, for the owner of the card.",
    "actions_end": "When the owner has finished their actions of the round.",
}

FORMULAS: tuple[Formula, ...] = (
    Formula(("tribe_cards", "end"), THIS, "Points at scoring; `card` is the card itself.", many=True),
)

#: Rules machinery a snippet sets going (a border card's action): each schedules its frame, which
#: runs once the snippet has finished, in the order written (effects.py, flow.py).
PROCEDURES: Mapping[str, Procedure] = {
    "draw_goods_card": Procedure("draw_goods_card", "turn up the top goods card and take what it shows; it is"
                                 " discarded (the Caravan)"),
    "draw_tribe_card": Procedure("draw_tribe_card", "draw the top tribe card: display it paying its cost, keep"
                                 " it in hand or discard it (Tribal Expansion)"),
    "offer_hand_card": Procedure("offer_hand_card", "the card in hand, if any: display it paying its cost, or"
                                 " discard it; `noble`: cards' discounts through the Noble apply (the Noble)",
                                 {"noble": Type.BOOL}),
    "move_tribe_marker": Procedure("move_tribe_marker", "the player may move one of their unused tribe markers"
                                   " to a free face-up centre card (Fata Morgana)"),
}

PLACES: Mapping[str, tuple[str, Params]] = {
    "action": ("a border card's action (`border[].action`)", {}),
    "end": ("the scoring formula of a tribe card (`end`)", THIS),
    "discount": ("the `discount` modifier", BUY),
    "extra_good": ("the `extra_good` modifier", GOOD_PARAMS),
}

VOCABULARY = Vocabulary(
    game="Targi",
    procedures=PROCEDURES,
    globals=GLOBALS,
    fields=FIELDS,
    hook_moments=HOOK_MOMENTS,
    hook_meanings=HOOK_MEANINGS,
    formulas=FORMULAS,
    places=PLACES,
    verbs=Verbs(round="round_number", move="move_nothing", add="add_nothing"),
    types=(GOOD, SYMBOL, CARD),
    examples=Examples(
        aggregate="c.points for c in me.display",
        collections="`goods`, `me.display` or `1..3`",
        assignable="`me.points`, `me.gold`, `me.stored_gold`, `me.next_figures`, `g.held`, `c.row`",
        give="`me.{name} = 1`",
        this_round="(Targi has no changes for one round)",
        round_fields="nothing in Targi",
        move_count="a number",
        move_places="Targi has nothing to `move`",
        thrown={},
        syntax={
            "block": "for c in me.display { ... }",
            "change": "me.points = 3",
            "statement": "me.points += 1",
            "list": "c.symbol in [well, oasis]",
        },
    ),
)


def environment(goods: Mapping[str, int], symbols: Mapping[str, int], params: Params | None = None) -> Environment:
    """What a Targi snippet may name: the vocabulary, the ruleset's goods and symbols (by
    index) and the parameters of the place it is written in."""
    ids = {symbol: (SYMBOL, index) for symbol, index in symbols.items()}
    ids.update((good, (GOOD, index)) for good, index in goods.items())
    return Environment(VOCABULARY, ids=ids, params=dict(params or {}))
