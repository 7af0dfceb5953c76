"""Targi's build: its snippets compiled (tribe cards' `end`, `once`, modifiers and hooks) and
the compiled ruleset (:class:`~targui_dsl.games.targi.compiled.TargiRuleset`)."""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

from targui_dsl.effects import Type, compile_effect, compile_formula
from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.cost import Sizes, SnippetBudget, snippet_cost
from targui_dsl.frontend.diagnostics import MAX_PER_SNIPPET, Diagnostic, Span, limit_diagnostics
from targui_dsl.frontend.paths import value_at
from targui_dsl.frontend.resolve import Resolved
from targui_dsl.games.targi.compiled import Border, Cost, GoodsCard, TargiRuleset, TribeCard
from targui_dsl.games.targi.names import HOOK_MOMENTS, MODIFIERS, THIS, environment


def _names(data: dict, key: str) -> dict[str, int]:
    values = data.get(key)
    return {name: i for i, name in enumerate(values)} if isinstance(values, list) else {}


def _sizes(data: dict) -> Sizes:
    found = data.get("display")
    display: dict = found if isinstance(found, dict) else {}
    rows, columns = display.get("rows", 8), display.get("columns", 8)
    cards = rows * columns if isinstance(rows, int) and isinstance(columns, int) else 64
    return Sizes(
        names={"goods": len(data.get("goods") or [])},
        fields={"display": cards},
        non_negative=frozenset({"points", "gold", "goods", "stored_gold", "displayed", "empty_spaces", "held"}),
        described=f"a display of {cards} cards",
        narrow="loop over `me.display` or `goods`, not inside another loop",
    )


def compile_snippets(resolved: Resolved, diagnostics: list[Diagnostic]) -> dict[tuple, CompiledCode]:
    """Every snippet on a border or a tribe card, keyed by its path in the data."""
    data = resolved.data or {}
    goods, symbols = _names(data, "goods"), _names(data, "symbols")
    out: dict[tuple, CompiledCode] = {}
    sizes, budget = _sizes(data), SnippetBudget()

    def locator(path: tuple) -> Callable[[int], Span]:
        return lambda offset: resolved.locate(path, offset)

    def one(path: tuple, params: Mapping[str, Type], expected: Type | None) -> None:
        source = value_at(data, path)
        if not isinstance(source, str) or budget.refuses(source, locator(path), diagnostics):
            return
        env = environment(goods, symbols, params)
        if expected is None:
            code, problems = compile_effect(source, env, locator(path))
        else:
            code, problems = compile_formula(source, env, locator(path), expected)
        diagnostics.extend(limit_diagnostics(problems, MAX_PER_SNIPPET, "this snippet"))
        if code is not None:
            diagnostics.extend(snippet_cost(source, "effect" if expected is None else "formula", sizes, locator(path)))
            out[path] = code

    border = data.get("border")
    for i, card in enumerate(border if isinstance(border, list) else []):
        if isinstance(card, dict):
            one(("border", i, "action"), {}, None)
    cards = data.get("tribe_cards")
    for i, card in enumerate(cards if isinstance(cards, list) else []):
        if not isinstance(card, dict):
            continue
        one(("tribe_cards", i, "end"), THIS, Type.INT)
        one(("tribe_cards", i, "once"), {}, None)
        for name, (params, kind, _) in MODIFIERS.items():
            one(("tribe_cards", i, "modifiers", name), params, kind)
        for moment, params in HOOK_MOMENTS.items():
            one(("tribe_cards", i, "hooks", moment), params, None)
    return out


def assemble(resolved: Resolved, compiled: dict[tuple, CompiledCode], diagnostics: list[Diagnostic]) -> Any:
    """The compiled ruleset of a complete, checked Targi ruleset (None after an error)."""
    if any(d.is_error for d in diagnostics) or resolved.data is None:
        return None
    data = resolved.data
    goods = list(data["goods"])
    symbols = list(data["symbols"])

    def per_good(amounts: Mapping[str, int]) -> tuple[int, ...]:
        return tuple(int(amounts.get(g, 0)) for g in goods)

    ring = []
    for i, card in enumerate(data["border"]):
        raid = card.get("raid") or {}
        ring.append(Border(
            number=card["number"], name=card["name"], text=card.get("text", ""),
            action=compiled.get(("border", i, "action")),
            raid=tuple(next(iter(option.items())) for option in raid.get("options", [])),
            ends_game=bool(raid.get("ends_game", False)),
        ))
    goods_cards = tuple(
        GoodsCard(c["id"], per_good(c["gives"]), c["gives"].get("choice", 0), c["gives"].get("gold", 0),
                  c["gives"].get("points", 0))
        for c in data["goods_cards"]
    )
    tribe = []
    for i, c in enumerate(data["tribe_cards"]):
        tribe.append(TribeCard(
            id=c["id"], symbol=symbols.index(c["symbol"]),
            costs=tuple(Cost(per_good(option), option.get("gold", 0)) for option in c["cost"]),
            points=c["points"], text=c.get("text", ""),
            end=compiled.get(("tribe_cards", i, "end")),
            once=compiled.get(("tribe_cards", i, "once")),
            modifiers={name: compiled[("tribe_cards", i, "modifiers", name)]
                       for name in MODIFIERS if ("tribe_cards", i, "modifiers", name) in compiled},
            hooks={moment: compiled[("tribe_cards", i, "hooks", moment)]
                   for moment in HOOK_MOMENTS if ("tribe_cards", i, "hooks", moment) in compiled},
        ))
    supply, limits, display = data["supply"], data["limits"], data["display"]
    return TargiRuleset(
        id=data["id"], title=data["title"], description=data.get("description") or "",
        language=data.get("language"), players=data["players"],
        goods=tuple(goods), symbols=tuple(symbols),
        start_goods=per_good(supply), start_gold=supply.get("gold", 0), start_points=supply.get("points", 0),
        figures=data["figures"], markers=data["markers"],
        limit_goods=limits["goods"], limit_gold=limits["gold"], hand_limit=limits["hand"],
        display_rows=display["rows"], display_columns=display["columns"],
        row_same=data["row_bonus"]["same"], row_different=data["row_bonus"]["different"],
        end_display=data["end_display"], tie_breaks=tuple(data["tie_breaks"]),
        ring=tuple(ring), robber_start=data["robber_start"] - 1,
        columns=tuple((a - 1, b - 1) for a, b in data["columns"]),
        rows=tuple((a - 1, b - 1) for a, b in data["rows"]),
        centre=tuple(tuple(row) for row in data["centre"]),
        goods_cards=goods_cards, tribe_cards=tuple(tribe), files=tuple(resolved.files),
        paths=tuple(resolved.paths), file_bytes=resolved.file_bytes,
        resolved=copy.deepcopy(data),
    )
