"""The one home of Targi's action texts: what an action means, in words a player can read.

``Dates (2)``, ``centre 5: tribe card 213 (targia, 2 pts, cost 1 date 1 salt 2 pepper)``,
``pay 1 date 1 gold``, ``give 2 goods``, ``row 2 (3 cards)``, ``give salt``: the terminal's menu,
``replay``, the log and OpenSpiel's ``action_to_string`` all show :func:`action_text`.
:func:`old_text` is the short spelling (``border 2``, ``space 5``, ``good salt``), still read as
input; every log is written in :func:`action_text`'s words, however a decision was typed.
:func:`decision_prompt` says what a decision is about. Face-down cards are never described, and a
hand card only to the player whose decision it is.
"""

from __future__ import annotations

from typing import Any, Callable

from targui_dsl.engine.per_ruleset import per_ruleset
from targui_dsl.games.targi.actions import (
    A_BORDER,
    A_CARD,
    A_DISCARD,
    A_GOOD,
    A_HAND,
    A_HAND_DISPLAY,
    A_NUMBER,
    A_OPTION,
    A_ROW,
    A_SPACE,
    A_STOP,
)
from targui_dsl.games.targi.compiled import GOLD, GOODS, POINTS, Cost, TargiRuleset
from targui_dsl.games.targi.record import GOODS_DECK, TargiRecord

#: A stop, by the decision it ends.
STOPS = {"turn": "end my turn", "fata": "move no marker"}
#: What choosing a good does, by decision.
GOOD_VERBS = {"give": "give", "choose_good": "take", "discount": "leave out"}


def count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def amounts(rs: TargiRuleset, goods: tuple[int, ...] | list[int], gold: int = 0, points: int = 0) -> str:
    """`1 date 1 salt 2 pepper 1 gold`: what is held, paid or given (`nothing` for none)."""
    parts = [f"{n} {name}" for name, n in zip(rs.goods, goods, strict=True) if n]
    if gold:
        parts.append(f"{gold} gold")
    if points:
        parts.append(count(points, "point", "points"))
    return " ".join(parts) or "nothing"


def cost_text(rs: TargiRuleset, cost: Cost) -> str:
    return amounts(rs, cost.goods, cost.gold)


def tribe_text(rs: TargiRuleset, card: int) -> str:
    """`tribe card 213 (targia, 2 pts, cost 1 date 1 salt 2 pepper)`; a slash is `or`."""
    c = rs.tribe_cards[card]
    costs = " or ".join(cost_text(rs, cost) for cost in c.costs)
    return f"tribe card {c.id} ({rs.symbols[c.symbol]}, {count(c.points, 'pt', 'pts')}, cost {costs})"


def goods_card_text(rs: TargiRuleset, card: int) -> str:
    """`goods card 16 (2 pepper)`, `goods card 112 (1 good of choice)`: its gift."""
    g = rs.goods_cards[card]
    gift = amounts(rs, g.goods, g.gold, g.points)
    if g.choice:
        choice = count(g.choice, "good", "goods") + " of choice"
        gift = choice if gift == "nothing" else f"{gift} {choice}"
    return f"goods card {g.id} ({gift})"


def centre_text(rs: TargiRuleset, record: TargiRecord, space: int) -> str:
    """A centre space as everyone may see it: a face-down card is not revealed."""
    card = record.centre[space]
    if card < 0:
        what = "empty"
    elif not record.centre_up[space]:
        what = "a face-down card"
    elif record.centre_kind[space] == GOODS_DECK:
        what = goods_card_text(rs, card)
    else:
        what = tribe_text(rs, card)
    return f"centre {space + 1}: {what}"


def border_text(rs: TargiRuleset, ring: int) -> str:
    border = rs.ring[ring]
    return f"{border.name} ({border.number})"


def option_text(rs: TargiRuleset, frame: dict[str, Any], k: int) -> str:
    """A cost option, an exchange or a raid's option, as what changes hands."""
    kind = frame.get("k")
    if kind == "tribe":
        costs = rs.tribe_cards[frame["card"]].costs
        if k < len(costs):
            return f"pay {cost_text(rs, costs[k])}"
    elif kind == "raid_pay":
        options = rs.ring[frame["ring"]].raid
        if k < len(options):
            what, amount = options[k]
            if what == GOODS:
                return "give " + count(amount, "good", "goods")
            if what == GOLD:
                return f"give {amount} gold"
            if what == POINTS:
                return "give " + count(amount, "point", "points")
    elif kind == "gold_choice":
        return ("pay 1 gold stored on a card", "pay 1 gold from my supply")[k] if k < 2 else f"option {k + 1}"
    return f"option {k + 1}"


def row_text(rows: list[list[int]], r: int) -> str:
    n = len(rows[r]) if r < len(rows) else 0
    return f"row {r + 1} ({count(n, 'card', 'cards') if n else 'empty'})"


def displayed_card(rs: TargiRuleset, record: TargiRecord, seat: int, i: int) -> str:
    """The i-th card of the seat's display: `card 223 (oasis, row 1)`."""
    for r, row in enumerate(record.sides[seat].display):
        if i < len(row):
            c = rs.tribe_cards[row[i]]
            return f"card {c.id} ({rs.symbols[c.symbol]}, row {r + 1})"
        i -= len(row)
    return f"card #{i + 1}"


class Texts:
    """A ruleset's action texts that depend only on it and a few numbers, each made once by the
    functions above and then the same string (a log writes a decision's text at every decision:
    half of them a border card's): the border cards' texts, the cards' numbers (``card_ids[deck]``,
    a chance outcome's), and the texts met so far that depend only on the decision's kind and the
    action (``plain``: a stop, keep, discard, a good), of centre spaces (by space, deck, card, face
    up), options of a card or a raid, rows (by their size) and an effect's numbers."""

    def __init__(self, rs: TargiRuleset) -> None:
        self.border = tuple(border_text(rs, ring) for ring in range(len(rs.ring)))
        # the cards' numbers by deck and card (a chance outcome reads `card 213`)
        self.card_ids = tuple(tuple(card.id for card in (rs.goods_cards if deck == GOODS_DECK else rs.tribe_cards))
                              for deck in range(2))
        # by the decision's kind and the action: the texts that depend on nothing else (a stop, keep,
        # discard, a good), met so far
        self.plain: dict[tuple[str, int], str] = {}
        self.centre: dict[tuple[int, int, int, bool], str] = {}
        self.options: dict[tuple[str, int, int], str] = {}
        self.rows: dict[tuple[int, int], str] = {}
        self.numbers: dict[int, str] = {}


#: The ruleset's :class:`Texts`, made on first use.
texts_of: Callable[[TargiRuleset], Texts] = per_ruleset(Texts)


def action_text(rs: TargiRuleset, record: TargiRecord, player: int, action: int) -> str:
    """A decision's action in words (the player to decide is ``player``); a text that depends only on
    the ruleset and a few numbers is made once (:class:`Texts`)."""
    texts = texts_of(rs)
    if A_BORDER <= action < A_SPACE:  # a border card, first: half of a game's decisions (placing, acting)
        border = texts.border
        return border[action - A_BORDER] if action - A_BORDER < len(border) else f"border {action + 1}"
    frame = record.stack[-1] if record.stack else {}
    kind = frame.get("k", "")
    if action == A_STOP:
        plain = texts.plain[kind, action] = STOPS.get(kind, "stop")
        return plain
    if action == A_HAND:
        plain = texts.plain[kind, action] = "keep in hand"
        return plain
    if action == A_DISCARD:
        plain = texts.plain[kind, action] = "discard"
        return plain
    if action == A_HAND_DISPLAY:
        hand = record.sides[player].hand if player >= 0 else -1
        return f"display my hand card {rs.tribe_cards[hand].id}" if hand >= 0 else "display my hand card"
    if A_SPACE <= action < A_STOP:
        space = action - A_SPACE
        if space >= len(record.centre):
            return f"space {space + 1}"
        key = (space, record.centre[space], record.centre_kind[space], bool(record.centre_up[space]))
        text = texts.centre.get(key)
        if text is None:
            text = texts.centre[key] = centre_text(rs, record, space)
        return text
    if A_OPTION <= action < A_ROW:
        k = action - A_OPTION
        if kind == "tribe" or kind == "raid_pay":  # what the option means: by the card, or by the raid
            option = (kind, frame["card"] if kind == "tribe" else frame["ring"], k)
            text = texts.options.get(option)
            if text is None:
                text = texts.options[option] = option_text(rs, frame, k)
            return text
        return option_text(rs, frame, k)
    if A_ROW <= action < A_GOOD:
        display = record.sides[player].display if player >= 0 else []
        r = action - A_ROW
        size = (r, len(display[r]) if r < len(display) else 0)
        text = texts.rows.get(size)
        if text is None:
            text = texts.rows[size] = row_text(display, r)
        return text
    if A_GOOD <= action < A_CARD:
        g = action - A_GOOD
        name = rs.goods[g] if g < len(rs.goods) else f"#{g + 1}"
        verb = GOOD_VERBS.get(kind)
        plain = texts.plain[kind, action] = f"{verb} {name}" if verb else f"good {name}"
        return plain
    if A_CARD <= action < A_NUMBER:
        return displayed_card(rs, record, player, action - A_CARD) if player >= 0 else f"card #{action - A_CARD + 1}"
    options = frame.get("options", [])
    i = action - A_NUMBER
    if kind == "effect" and i < len(options):
        number = options[i]
        if type(number) is not int:
            return f"choose {number}"
        text = texts.numbers.get(number)
        if text is None:
            text = texts.numbers[number] = f"choose {number}"
        return text
    return f"choose #{i + 1}"


def old_text(rs: TargiRuleset, record: TargiRecord, player: int, action: int) -> str:
    """The short spelling, from before the texts above (main at 55055c8): still read as input."""
    if action == A_STOP:
        return "stop"
    if action == A_HAND:
        return "hand"
    if action == A_DISCARD:
        return "discard"
    if action == A_HAND_DISPLAY:
        return "display hand"
    if A_BORDER <= action < A_SPACE:
        return f"border {action - A_BORDER + 1}"
    if A_SPACE <= action < A_STOP:
        return f"space {action - A_SPACE + 1}"
    if A_OPTION <= action < A_ROW:
        return f"option {action - A_OPTION + 1}"
    if A_ROW <= action < A_GOOD:
        return f"row {action - A_ROW + 1}"
    if A_GOOD <= action < A_CARD:
        g = action - A_GOOD
        return f"good {rs.goods[g]}" if g < len(rs.goods) else f"good {g + 1}"
    if A_CARD <= action < A_NUMBER:
        cards = record.sides[player].cards if player >= 0 else []
        i = action - A_CARD
        return f"card {rs.tribe_cards[cards[i]].id}" if i < len(cards) else f"card #{i + 1}"
    frame = record.stack[-1] if record.stack else {}
    options = frame.get("options", [])
    i = action - A_NUMBER
    return f"choose {options[i]}" if frame.get("k") == "effect" and i < len(options) else f"choose #{i + 1}"


def decision_prompt(rs: TargiRuleset, record: TargiRecord) -> str:
    """What the decision on top of the stack is about, for the player who makes it."""
    frame = record.stack[-1]
    kind = frame["k"]
    seat = frame.get("seat", -1)
    if kind == "place":
        left = frame["left"][seat]
        return f"place a Targi on a border card ({left} to place)"
    if kind == "turn":
        return "act with a Targi (its border card) or a tribe marker (its centre card), one at a time"
    if kind == "tribe":
        where = {"centre": "from the centre", "expansion": "drawn at the Tribal Expansion",
                 "noble": "from your hand, at the Noble", "hand": "from your hand"}.get(frame["src"], "")
        return f"{tribe_text(rs, frame['card'])} {where}: pay a cost to display it, or not"
    if kind == "discount":
        return (f"a discount on {tribe_text(rs, frame['card'])}: {count(frame['left'], 'good', 'goods')}"
                f" of the cost {amounts(rs, frame['cost'])} you need not pay")
    if kind == "row":
        return f"the display row for tribe card {rs.tribe_cards[frame['card']].id}"
    if kind == "give":
        # why: read from the frame the give was pushed over (the flow keeps no reason)
        below = record.stack[-2] if len(record.stack) > 1 else {}
        why = {"limit": f" back: you keep at most {rs.limit_goods} at the end of a round",
               "round": f" back: you keep at most {rs.limit_goods} at the end of a round",
               "raid_pay": " to the raid",
               "raid_end": " to the raid", "row": " more: the hand card displayed without the Noble"}
        return (f"give {count(frame['left'], 'good', 'goods')}{why.get(below.get('k', ''), '')}"
                f" (you hold {amounts(rs, record.sides[seat].goods)})")
    if kind == "choose_good":
        return f"take {count(frame['left'], 'good', 'goods')} of your choice"
    if kind == "raid_pay":
        border = rs.ring[frame["ring"]]
        return f"{border.name} ({border.number}): what you give"
    if kind == "fata":
        if frame["source"] < 0:
            return "Fata Morgana: the tribe marker to move"
        return f"Fata Morgana: where the marker on centre {frame['source'] + 1} goes"
    if kind == "gold_choice":
        side = record.sides[seat]
        return (f"the gold of tribe card {rs.tribe_cards[frame['card']].id}'s cost, {frame['left']} to pay:"
                f" the {side.stored_gold} gold stored on a card may pay it, or your supply ({side.gold} gold)")
    if kind == "effect":
        if frame.get("what") == "border":  # a border card's choice: its card says what each answer does
            border = rs.ring[frame["card"]]
            return f"{border.name} ({border.number}): {border.text}"
        card = rs.tribe_cards[frame["card"]]
        return f"tribe card {card.id}: {card.text}"
    return kind.replace("_", " ")
