"""Targi's observation tensor: a seat's view (:meth:`TargiState.view`) as a flat list of numbers."""

from __future__ import annotations

from typing import Any


def tensor(state: Any, seat: int) -> list[float]:
    """Fixed length for a ruleset: figures and markers one-hot by seat, the centre's cards, both
    sides' supplies, display symbol counts and hand, the round, the robber, the piles."""
    rs, view = state.rs, state.view(seat)
    out: list[float] = []
    for owner in view["figures"]:
        out += [float(owner == seat), float(owner == 1 - seat)]
    for owner in view["markers"]:
        out += [float(owner == seat), float(owner == 1 - seat)]
    goods_ids = {c.id: i for i, c in enumerate(rs.goods_cards)}
    tribe_ids = {c.id: i for i, c in enumerate(rs.tribe_cards)}
    for space in view["centre"]:
        cell = [0.0] * (3 + len(rs.goods_cards) + len(rs.tribe_cards))
        if space is not None:
            cell[0] = float(space["deck"] == "goods")
            cell[1] = float(space["deck"] == "tribe")
            if space["card"] is None:
                cell[2] = 1.0
            elif space["deck"] == "goods":
                cell[3 + goods_ids[space["card"]]] = 1.0
            else:
                cell[3 + len(rs.goods_cards) + tribe_ids[space["card"]]] = 1.0
        out += cell
    for s in (seat, 1 - seat):
        side = view["sides"][s]
        out += [float(n) for n in side["goods"]] + [float(side["gold"]), float(side["points"]),
                                                      float(side["stored_gold"])]
        symbols = [0.0] * len(rs.symbols)
        for row in side["display"]:
            for card in row:
                symbols[rs.tribe_cards[tribe_ids[card]].symbol] += 1.0
        out += symbols + [float(len(row)) for row in side["display"]]
        hand: Any = side["hand"]
        out.append(float(hand is not None and hand is not False))
    out += [float(view["round"]), float(view["robber"]), float(view["amulet"] == seat)]
    out += [float(n) for n in view["piles"]]
    return out
