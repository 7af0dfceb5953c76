"""Targi's meaning checks (E042x) on schema-valid data: each problem a positioned diagnostic with a hint."""

from __future__ import annotations

from typing import Any, Mapping

from targui_dsl.frontend.diagnostics import Diagnostic, Span, did_you_mean, error
from targui_dsl.games.targi.names import VOCABULARY

#: What an amount may be in besides a good.
CURRENCIES = ("gold", "points")


def check_meaning(
    data: dict, spans: Mapping[tuple, Span], key_spans: Mapping[tuple, Span], complete: bool = True
) -> list[Diagnostic]:
    """Every meaning problem of a (merged, schema-valid) Targi ruleset."""
    out: list[Diagnostic] = []
    goods = [g for g in data.get("goods") or [] if isinstance(g, str)]
    symbols = [s for s in data.get("symbols") or [] if isinstance(s, str)]
    _names(data, goods, symbols, spans, out)
    for i, card in enumerate(data.get("tribe_cards") or []):
        symbol = card.get("symbol")
        if symbols and symbol not in symbols:
            out.append(error("E0420", f"tribe card {card.get('id')} has the symbol `{symbol}`, which is not one of"
                             " `symbols`", spans.get(("tribe_cards", i, "symbol")),
                             did_you_mean(str(symbol), symbols) or f"the symbols are {', '.join(symbols)}"))
        for j, option in enumerate(card.get("cost") or []):
            _amounts(option, ("tribe_cards", i, "cost", j), goods, ("gold",), "a cost", key_spans, out)
    for i, card in enumerate(data.get("goods_cards") or []):
        _amounts(card.get("gives") or {}, ("goods_cards", i, "gives"), goods, ("gold", "points", "choice"),
                 "a goods card", key_spans, out)
    _ids(data, spans, out)
    _ring(data, spans, out)
    _display(data, spans, out)
    _centre(data, spans, out)
    return out


def _names(data: dict, goods: list[str], symbols: list[str], spans: Mapping, out: list[Diagnostic]) -> None:
    reserved = VOCABULARY.reserved_names | {"gold", "points", "choice", "goods"}
    seen: dict[str, str] = {}
    for key, names in (("goods", goods), ("symbols", symbols)):
        for i, name in enumerate(names):
            if name in reserved:
                out.append(error("E0426", f"`{name}` in `{key}` is a word of the effect language or of the rules",
                                 spans.get((key, i)), "rename it, say `" + name + "_1`"))
            elif name in seen:
                out.append(error("E0426", f"`{name}` is both a good and a symbol", spans.get((key, i)),
                                 "give goods and symbols different ids"))
            seen.setdefault(name, key)


def _amounts(amounts: Any, path: tuple, goods: list[str], extra: tuple[str, ...], what: str,
             key_spans: Mapping, out: list[Diagnostic]) -> None:
    if not isinstance(amounts, dict):
        return
    allowed = [*goods, *extra]
    for key in amounts:
        if key not in allowed:
            out.append(error("E0421", f"{what} names `{key}`, which is not a good"
                             + (f" nor {' nor '.join(extra)}" if extra else ""),
                             key_spans.get((*path, key)),
                             did_you_mean(str(key), allowed) or f"it may name {', '.join(allowed)}"))


def _ids(data: dict, spans: Mapping, out: list[Diagnostic]) -> None:
    seen: set[Any] = set()
    for deck in ("goods_cards", "tribe_cards"):
        for i, card in enumerate(data.get(deck) or []):
            card_id = card.get("id")
            if card_id in seen:
                out.append(error("E0425", f"two cards have the id {card_id}", spans.get((deck, i, "id")),
                                 "give every goods and tribe card its own id"))
            seen.add(card_id)


def _ring(data: dict, spans: Mapping, out: list[Diagnostic]) -> None:
    border = data.get("border")
    if not isinstance(border, list) or not border:
        return
    numbers = [card.get("number") for card in border]
    size = len(border)
    for i, number in enumerate(numbers):
        if number != i + 1:
            out.append(error("E0422", f"border card {i + 1} has the number {number}",
                             spans.get(("border", i, "number")), f"number the ring 1..{size} clockwise, in order"))
            return
    raids = {card["number"] for card in border if "raid" in card}
    for i, card in enumerate(border):
        if ("raid" in card) == ("action" in card):
            out.append(error("E0422", f"border card {card['number']} needs exactly one of `action` and `raid`",
                             spans.get(("border", i)), "a card either acts or raids"))
    for key in ("columns", "rows"):
        for i, pair in enumerate(data.get(key) or []):
            for j, number in enumerate(pair):
                if not 1 <= number <= size or number in raids:
                    out.append(error("E0422", f"`{key}` names card {number}, which is not a card a Targi may"
                                     " stand on", spans.get((key, i, j)), f"name cards 1..{size} that are no raid"))
    start = data.get("robber_start")
    if isinstance(start, int) and not 1 <= start <= size:
        out.append(error("E0422", f"`robber_start` is {start}, but the ring has {size} cards",
                         spans.get(("robber_start",)), f"a number 1..{size}"))


def _display(data: dict, spans: Mapping, out: list[Diagnostic]) -> None:
    display, bonus = data.get("display"), data.get("row_bonus")
    if not isinstance(display, dict):
        return
    columns, rows = display.get("columns"), display.get("rows")
    if isinstance(bonus, dict) and isinstance(columns, int) and bonus.get("length", columns) != columns:
        out.append(error("E0423", f"the row bonus is for rows of {bonus['length']} cards, but the display is"
                         f" {columns} wide", spans.get(("row_bonus", "length")),
                         f"set `row_bonus.length` to {columns}, or `display.columns` to {bonus['length']}"))
    end = data.get("end_display")
    if isinstance(columns, int) and isinstance(rows, int) and isinstance(end, int) and end > rows * columns:
        out.append(error("E0427", f"`end_display` is {end}, but a display holds {rows * columns} cards",
                         spans.get(("end_display",)), f"at most {rows * columns}"))


def _centre(data: dict, spans: Mapping, out: list[Diagnostic]) -> None:
    centre = data.get("centre")
    if not isinstance(centre, list):
        return
    if len({len(row) for row in centre}) > 1:
        out.append(error("E0424", "the centre's rows have different lengths", spans.get(("centre",)),
                         "give every row as many spaces"))
    for deck, kind in (("goods_cards", "goods"), ("tribe_cards", "tribe")):
        cards = data.get(deck)
        if not isinstance(cards, list):
            continue
        needed = sum(row.count(kind) for row in centre)
        if len(cards) < max(needed, 1):
            out.append(error("E0424", f"the centre needs {needed} {kind} cards at setup, but `{deck}` holds"
                             f" {len(cards)}", spans.get((deck,)) or spans.get(("centre",)),
                             f"add {kind} cards or deal fewer from that deck in `centre`"))
