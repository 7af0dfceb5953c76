"""Targi's cards as plain data, deck by deck: what `targui cards targi` lists."""

from __future__ import annotations

from typing import Any

from targui_dsl.games.targi.compiled import Cost, TargiRuleset


def _cost(rs: TargiRuleset, cost: Cost) -> dict[str, int]:
    out = {g: n for g, n in zip(rs.goods, cost.goods, strict=True) if n}
    if cost.gold:
        out["gold"] = cost.gold
    return out


def card_list(rs: TargiRuleset) -> list[dict[str, Any]]:
    """Every card: `deck` (border, goods, tribe), `id`, then what the deck's cards have."""
    out: list[dict[str, Any]] = []
    for border in rs.ring:
        out.append({"deck": "border", "id": border.number, "name": border.name,
                    "action": " ".join(border.action.source.split()) if border.action else "raid",
                    "text": border.text,
                    "raid": [{what: amount} for what, amount in border.raid], "ends_game": border.ends_game})
    for card in rs.goods_cards:
        gives = {g: n for g, n in zip(rs.goods, card.goods, strict=True) if n}
        gives.update({k: v for k, v in (("choice", card.choice), ("gold", card.gold), ("points", card.points)) if v})
        out.append({"deck": "goods", "id": card.id, "gives": gives})
    for tribe in rs.tribe_cards:
        when = "END" if tribe.end else "ONCE" if tribe.once else "PERM" if tribe.modifiers or tribe.hooks else None
        snippets = {"end": tribe.end, "once": tribe.once, **tribe.modifiers, **tribe.hooks}
        ability = "\n".join(f"{name}: {' '.join(code.source.split())}" for name, code in snippets.items()
                             if code is not None)
        out.append({"deck": "tribe", "id": tribe.id, "symbol": rs.symbols[tribe.symbol],
                    "cost": [_cost(rs, cost) for cost in tribe.costs], "points": tribe.points, "when": when,
                    "text": tribe.text, "ability": ability or None})
    return out
