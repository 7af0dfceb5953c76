"""Targi's rules that several frames share, each written once: what a seat may place on, what a
card costs it, what it can afford, its modifiers, the extra goods, the markers, scoring."""

from __future__ import annotations

from typing import Any

from targui_dsl.games.targi.compiled import Cost, TargiRuleset
from targui_dsl.games.targi.effects import formula
from targui_dsl.games.targi.record import TargiRecord


def modifier_sum(rs: TargiRuleset, record: TargiRecord, seat: int, name: str, *params: Any) -> int:
    """The sum of modifier ``name`` over the seat's displayed cards."""
    having = rs.with_modifier.get(name)
    total = 0
    if having:
        for row in record.sides[seat].display:
            for card in row:
                if card in having:
                    total += int(formula(rs, record, seat, rs.tribe_cards[card].modifiers[name], *params))
    return total


def modifier_any(rs: TargiRuleset, record: TargiRecord, seat: int, name: str) -> bool:
    """Whether one of the seat's displayed cards says yes to modifier ``name``."""
    having = rs.with_modifier.get(name)
    if having:
        for row in record.sides[seat].display:
            for card in row:
                if card in having and formula(rs, record, seat, rs.tribe_cards[card].modifiers[name]):
                    return True
    return False


def modifier_present(rs: TargiRuleset, record: TargiRecord, seat: int, name: str) -> bool:
    having = rs.with_modifier.get(name)
    return having is not None and any(card in having for row in record.sides[seat].display for card in row)


def placeable(rs: TargiRuleset, record: TargiRecord, seat: int) -> list[int]:
    """The border cards the seat may place a Targi on: the four bans."""
    figures, other = record.figures, 1 - seat
    robber = -1 if modifier_any(rs, record, seat, "place_on_robber") else record.robber
    # (a card with none opposite faces itself: free, so not the other's)
    return [i for i, j in rs.facing if figures[i] == -1 and i != robber and figures[j] != other]


def crossings(rs: TargiRuleset, record: TargiRecord, seat: int) -> list[int]:
    """The centre spaces where the seat's column and row Targi cross, in space order."""
    width, figures = len(rs.centre[0]), record.figures
    columns = [c for c, (a, b) in enumerate(rs.columns) if figures[a] == seat or figures[b] == seat]
    return sorted(r * width + c for r, (a, b) in enumerate(rs.rows) if figures[a] == seat or figures[b] == seat
                  for c in columns)


def shortfall(cost: list[int], held: list[int]) -> int:
    return sum(max(0, c - h) for c, h in zip(cost, held, strict=True))


def discount(rs: TargiRuleset, record: TargiRecord, seat: int, card: int, noble: bool) -> int:
    return max(0, modifier_sum(rs, record, seat, "discount", card, noble))


def affordable(rs: TargiRuleset, record: TargiRecord, seat: int, cost: Cost, off: int, extra: int = 0) -> bool:
    """Whether the seat can pay ``cost`` less ``off`` goods of its choice, and ``extra`` goods more."""
    side = record.sides[seat]
    if cost.gold > side.gold + side.stored_gold:
        return False
    goods = list(cost.goods)
    if shortfall(goods, side.goods) > off:
        return False
    paid = max(0, sum(goods) - off)
    return sum(side.goods) - paid >= extra


def display_full(rs: TargiRuleset, record: TargiRecord, seat: int) -> bool:
    return sum(map(len, record.sides[seat].display)) >= rs.display_size


def grant_extra_goods(rs: TargiRuleset, record: TargiRecord, seat: int) -> None:
    """The extra goods of a round (modifier ``extra_good``): once per good a round, for a good the
    seat has taken from a goods card this round (earlier in the round counts too)."""
    side = record.sides[seat]
    if not side.got & ~side.bonus:  # no good taken this round whose extra is not given yet
        return
    for g in range(len(rs.goods)):
        bit = 1 << g
        if side.got & bit and not side.bonus & bit:
            extra = modifier_sum(rs, record, seat, "extra_good", g)
            if extra > 0:
                side.goods[g] += extra
                side.bonus |= bit


def row_points(rs: TargiRuleset, row: list[int]) -> int:
    if len(row) != rs.display_columns:
        return 0
    symbols = {rs.tribe_cards[c].symbol for c in row}
    if len(symbols) == 1:
        return rs.row_same
    if len(symbols) == len(row):
        return rs.row_different
    return 0


def score_parts(rs: TargiRuleset, record: TargiRecord, seat: int) -> dict[str, int]:
    """A seat's points by source: tokens, printed, END abilities, rows."""
    side = record.sides[seat]
    cards = side.cards
    end = 0
    for card in cards:
        code = rs.tribe_cards[card].end
        if code is not None:
            end += int(formula(rs, record, seat, code, card))
    return {
        "tokens": side.points,
        "printed": sum(rs.tribe_cards[c].points for c in cards),
        "end": end,
        "rows": sum(row_points(rs, row) for row in side.display),
    }


def score(rs: TargiRuleset, record: TargiRecord, seat: int) -> int:
    return sum(score_parts(rs, record, seat).values())


def tie_key(rs: TargiRuleset, record: TargiRecord, seat: int) -> tuple[int, ...]:
    side = record.sides[seat]
    values = {"gold": side.gold, "goods": sum(side.goods)}
    return (score(rs, record, seat), *(values[name] for name in rs.tie_breaks))


def winners(rs: TargiRuleset, record: TargiRecord) -> list[int]:
    """The seats with the most points, then the tie-breaks; both for a draw."""
    keys = [tie_key(rs, record, seat) for seat in range(2)]
    return [seat for seat in range(2) if keys[seat] == max(keys)]
