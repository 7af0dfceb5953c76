"""Targui's build hooks: its snippets compiled and its CompiledRuleset assembled.

The shared pipeline (:mod:`targui_dsl.frontend.build`) calls
:func:`compile_snippets` on every ruleset whose ids can be read, then, on a
complete ruleset without errors, :func:`assemble`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping

from targui_dsl.effects import Environment, Type, compile_effect, compile_formula
from targui_dsl.effects.code import CompiledCode
from targui_dsl.effects.cost import Sizes, SnippetBudget, snippet_choices, snippet_cost
from targui_dsl.effects.memory import read_memory
from targui_dsl.effects.runtime import MAX_CHOICES
from targui_dsl.frontend.diagnostics import MAX_PER_SNIPPET, Diagnostic, Span, error, limit_diagnostics, warning
from targui_dsl.frontend.paths import value_at
from targui_dsl.frontend.resolve import Resolved
from targui_dsl.games import DEFAULT_GAME
from targui_dsl.games.targui.compiled import (
    Board,
    Card,
    CompiledRuleset,
    Seating,
    Sector,
    TerritoryKind,
    Tribe,
    frozen_deep,
    frozen_mapping,
)
from targui_dsl.games.targui.names import FORMULAS, HOOK_EVERY, HOOK_MOMENTS, VOCABULARY, environment, hook_runs
from targui_dsl.games.targui.perseat import PER_SEAT, compile_seat_formula, evaluate


def compile_snippets(resolved: Resolved, diagnostics: list[Diagnostic]) -> dict[tuple, CompiledCode]:
    """Every formula, card effect, hook and per-seat formula present, keyed by its path in the data.

    The effects need only the names of kinds and tribes, so a typo elsewhere
    does not hide an error in a card; nothing is compiled when those names
    cannot be read.
    """
    if not _names_usable(_merged(resolved)):
        return {}
    return _compile_snippets(resolved, diagnostics)


def assemble(
    resolved: Resolved, compiled: dict[tuple, CompiledCode], diagnostics: list[Diagnostic]
) -> CompiledRuleset | None:
    """The compiled ruleset of a complete, checked ruleset; None after an error (E0419) in a per-seat value."""
    seats = _per_seat(resolved, compiled, diagnostics)
    if any(d.is_error for d in diagnostics):
        return None
    return _assemble(resolved, compiled, seats)


# --- effects -----------------------------------------------------------------


#: The most neighbours a cell has (diagonal adjacency).
NEIGHBOURS = 8

#: Fields that are never below 0 (camels, money and values read as 0 at least).
NON_NEGATIVE_FIELDS = frozenset({"camels", "cash", "treasury", "strategic", "economic", "position", "seat"})


def sizes(cells: int, players: int, tribes: int, kinds: int) -> Sizes:
    """What the cost estimate knows of a Targui ruleset of this size."""
    return Sizes(
        names={"territories": cells, "players": players, "tribes": tribes, "kinds": kinds},
        fields={"territories": cells, "neighbours": min(NEIGHBOURS, cells)},
        non_negative=NON_NEGATIVE_FIELDS,
        described=f"{cells} cells, up to {players} players, {kinds} kinds, {tribes} tribes",
        narrow="narrow the collection (`p.territories`, `t.neighbours`) instead of looping over all territories"
        " inside another loop",
    )


def sizes_of(data: dict) -> Sizes:
    """The sizes of a (merged, possibly incomplete) ruleset; missing values count as small."""

    def whole(value: object, default: int) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default

    def mapping(value: object) -> dict:
        return value if isinstance(value, dict) else {}

    def listed(value: object) -> list:
        return value if isinstance(value, list) else []

    board = mapping(data.get("board"))
    cells = whole(board.get("rows"), 1) * whole(board.get("columns"), 1)
    tribes = mapping(data.get("tribes"))
    kinds = mapping(data.get("territories"))
    counts = [
        whole(count, 0)
        for entry in listed(data.get("seating"))
        if isinstance(entry, dict)
        for count in listed(entry.get("players"))
    ]
    # A seating rule may list more players than there are tribes; the game
    # cannot seat them, so the tribes bound the players too.
    players = min(max(counts, default=len(tribes) or 1), max(len(tribes), 1))
    found = sizes(cells=max(cells, 1), players=max(players, 1), tribes=max(len(tribes), 1), kinds=max(len(kinds), 1))
    memory = read_memory(data, VOCABULARY).values()
    return replace(found, non_negative_memory=frozenset(m.name for m in memory if m.low >= 0),
                   positive_memory=frozenset(m.name for m in memory if m.low >= 1))


def _merged(resolved: Resolved) -> dict:
    """The merged data: the pipeline calls a game's hooks only once its extends chain is merged."""
    assert resolved.data is not None
    return resolved.data


def _names_usable(data: dict) -> bool:
    return all(
        isinstance(data.get(key, {}), dict) and all(isinstance(k, str) for k in data.get(key, {}))
        for key in ("territories", "tribes", "cards")
    )


def _environment(data: dict, params: Mapping[str, Type], sizes: Sizes) -> Environment:
    kinds = {kind_id: i for i, kind_id in enumerate(data.get("territories") or {})}
    tribes = {tribe_id: i for i, tribe_id in enumerate(data.get("tribes") or {})}
    return environment(kinds, tribes, params, memory=read_memory(data, VOCABULARY), sizes=sizes)


def _locator(resolved: Resolved, path: tuple) -> Callable[[int], Span]:
    return lambda offset: resolved.locate(path, offset)


def _compile_snippets(resolved: Resolved, diagnostics: list[Diagnostic]) -> dict[tuple, CompiledCode]:
    data = _merged(resolved)
    out: dict[tuple, CompiledCode] = {}
    sizes, budget = sizes_of(data), SnippetBudget()

    def formula(path: tuple, params: Mapping[str, Type], expected: Type = Type.INT) -> None:
        source = value_at(data, path)
        if not isinstance(source, str) or budget.refuses(source, _locator(resolved, path), diagnostics):
            return
        code, problems = compile_formula(source, _environment(data, params, sizes), _locator(resolved, path), expected)
        diagnostics.extend(limit_diagnostics(problems, MAX_PER_SNIPPET, "this formula"))
        if code is not None:
            diagnostics.extend(snippet_cost(source, "formula", sizes, _locator(resolved, path)))
            out[path] = code

    for spec in FORMULAS:
        if not spec.many:
            formula(spec.path, spec.params)
            continue
        listed = value_at(data, spec.path)
        for i, _ in enumerate(listed if isinstance(listed, list) else []):  # else a schema error
            formula((*spec.path, i), spec.params)

    def effect(path: tuple, env: Environment) -> None:
        source = value_at(data, path)
        if not isinstance(source, str) or budget.refuses(source, _locator(resolved, path), diagnostics):
            return
        code, problems = compile_effect(source, env, _locator(resolved, path))
        diagnostics.extend(limit_diagnostics(problems, MAX_PER_SNIPPET, "this effect"))
        if code is not None:
            diagnostics.extend(snippet_cost(source, "effect", sizes, _locator(resolved, path)))
            out[path] = code

    effect_env = _environment(data, {}, sizes)
    for card_id in data.get("cards") or {}:
        effect(("cards", card_id, "effect"), effect_env)
    hooks = data.get("hooks")
    for moment, params in HOOK_MOMENTS.items():
        snippets = hooks.get(moment) if isinstance(hooks, dict) else None
        env = _environment(data, params, sizes)
        for i, _ in enumerate(snippets if isinstance(snippets, list) else []):  # else a schema error
            effect(("hooks", moment, i), env)
            if ("hooks", moment, i) in out:
                diagnostics.extend(_choices_a_game(resolved, data, sizes, moment, i))

    for path in PER_SEAT:
        source = value_at(data, path)
        if isinstance(source, str):
            code, problems = compile_seat_formula(source, _locator(resolved, path))
            diagnostics.extend(problems)
            if code is not None:
                out[path] = code
    return out


#: A hook that can ask more choices than this in one game gets warning E0428: each is
#: a decision to make and a line of the log (a whole game of Targui is some 1,500).
GAME_CHOICES = 10_000


def _choices_a_game(resolved: Resolved, data: dict, sizes: Sizes, moment: str, i: int) -> list[Diagnostic]:
    """E0428 when the hook ``hooks.<moment>[i]`` can ask more than GAME_CHOICES choices in a
    game: its most a run (at most MAX_CHOICES, where a run is stopped) times its runs."""
    path = ("hooks", moment, i)
    each = min(snippet_choices(value_at(data, path), "effect", sizes), MAX_CHOICES)
    setup, rules = data.get("setup"), data.get("rounds")
    turns = setup.get("tribal_cards") if isinstance(setup, dict) else None
    per = rules.get("fortune_cards") if isinstance(rules, dict) else None
    deck = data.get("deck")
    if not (isinstance(turns, int) and isinstance(per, int) and per > 0 and isinstance(deck, list)):
        return []  # the checker reports what is missing
    players = sizes.names["players"]
    runs = hook_runs(moment, -(-len(deck) // per), players, max(turns, 1))
    if each * runs <= GAME_CHOICES:
        return []
    every = HOOK_EVERY[moment]
    return [warning(
        "E0428",
        f"this hook runs once a {every}, {runs:,} times in a game of {players} players, and can ask up to {each} "
        f"choice{'s' if each != 1 else ''} each time: up to {each * runs:,} choices a game "
        f"(each a decision to make and a line of the log; more than {GAME_CHOICES:,} is a very long game)",
        resolved.locate(path, 0), "ask fewer times: outside the loop, or in a hook that runs less often")]


def _per_seat(
    resolved: Resolved, compiled: dict[tuple, CompiledCode], diagnostics: list[Diagnostic]
) -> dict[tuple, tuple[int, ...]]:
    """Every per-seat setting as one number per tribe's seat; E0419 for a formula out of range."""
    data = _merged(resolved)
    seats = len(data["tribes"])
    out: dict[tuple, tuple[int, ...]] = {}
    for path in PER_SEAT:
        value = value_at(data, path)
        if isinstance(value, int):
            out[path] = (value,) * seats
        elif isinstance(value, list):
            out[path] = tuple(value[:seats])  # the checker made sure there are enough
        else:
            values, why = evaluate(compiled[path], seats)
            if values is None:
                diagnostics.append(error("E0419", f"`{'.'.join(path)}` cannot be a starting value: {why}",
                                         resolved.spans.get(path), "a formula of `seat` such as `10 + 2 * (seat - 1)`"))
            else:
                out[path] = values
    return out


# --- assembly ----------------------------------------------------------------


def _assemble(
    resolved: Resolved, compiled: dict[tuple, CompiledCode], seats: dict[tuple, tuple[int, ...]]
) -> CompiledRuleset:
    """Tables from checked data. Everything here was validated; no error paths remain."""
    data = _merged(resolved)
    kinds = tuple(
        TerritoryKind(
            id=kind_id,
            index=i,
            name=spec["name"],
            economic=spec["economic"],
            strategic=spec["strategic"],
            count=spec["count"],
            passable=spec.get("passable", True),
            settlement=spec.get("settlement", False),
            position=spec.get("position"),
        )
        for i, (kind_id, spec) in enumerate(data["territories"].items())
    )
    kind_index = {kind.id: kind.index for kind in kinds}
    tribes = tuple(
        Tribe(id=tribe_id, index=i, name=spec["name"], colour=spec["colour"])
        for i, (tribe_id, spec) in enumerate(data["tribes"].items())
    )
    board = _board(data["board"])
    seating = tuple(_seating(entry, board) for entry in data["seating"])
    cards = {
        card_id: Card(
            id=card_id,
            number=spec["number"],
            title=spec["title"],
            texts=frozen_mapping(spec.get("text") or {}),
            effect=compiled[("cards", card_id, "effect")],
        )
        for card_id, spec in data["cards"].items()
    }
    end = data["end"]
    hooks = data.get("hooks") or {}
    return CompiledRuleset(
        game=data.get("game", DEFAULT_GAME),
        id=data["id"],
        title=data["title"],
        description=data.get("description", ""),
        files=tuple(resolved.files),
        paths=tuple(resolved.paths),
        file_bytes=resolved.file_bytes,
        kinds=kinds,
        tribes=tribes,
        board=board,
        seating=seating,
        camel_box=data["camels"]["box"],
        camel_price=data["camels"]["price"],
        start_camels=seats[("setup", "camels")],
        start_cash=seats[("setup", "cash")],
        tribal_cards=data["setup"]["tribal_cards"],
        die_sides=data["rounds"]["die"],
        double_turn_from=data["rounds"]["double_turn_from"],
        fortune_cards_per_round=data["rounds"]["fortune_cards"],
        treasury=data["turn"]["treasury"],
        no_buying_on=frozenset(kind_index[k] for k in data["turn"].get("no_buying_on") or ()),
        defender_loses=compiled[("combat", "defender_loses")],
        attacker_loses=compiled[("combat", "attacker_loses")],
        levy=compiled[("levy",)],
        score=compiled[("end", "score")],
        tie_breaks=tuple(compiled[("end", "tie_breaks", i)] for i in range(len(end.get("tie_breaks") or ()))),
        own_settlement_required_to_win=end["own_settlement_required_to_win"],
        cards=frozen_mapping(cards),
        deck=tuple(data["deck"]),
        hooks=frozen_mapping(
            {
                moment: tuple(compiled[("hooks", moment, i)] for i in range(len(hooks.get(moment) or ())))
                for moment in HOOK_MOMENTS
            }
        ),
        resolved=frozen_deep(data),
        memory=tuple(read_memory(data, VOCABULARY).values()),
    )


_DIRECTIONS = {
    "diagonal": [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)],
    "orthogonal": [(-1, 0), (1, 0), (0, -1), (0, 1)],
}


def _board(spec: dict) -> Board:
    rows, columns = spec["rows"], spec["columns"]
    position_of_cell = tuple(position for row in spec["numbering"] for position in row)
    cell_of_position = {position: cell for cell, position in enumerate(position_of_cell)}
    steps = _DIRECTIONS[spec.get("adjacency", "diagonal")]
    neighbours = []
    for cell in range(rows * columns):
        r, c = divmod(cell, columns)
        neighbours.append(
            tuple((r + dr) * columns + (c + dc) for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < columns)
        )
    sectors = tuple(
        Sector(id=sector_id, cells=tuple(cell_of_position[p] for p in positions))
        for sector_id, positions in (spec.get("sectors") or {}).items()
    )
    return Board(
        rows=rows,
        columns=columns,
        position_of_cell=position_of_cell,
        cell_of_position=frozen_mapping(cell_of_position),
        neighbours=tuple(neighbours),
        sectors=sectors,
    )


def _seating(entry: dict, board: Board) -> Seating:
    choices = tuple(
        tuple(board.cell_of_position[p] for p in seat_positions) for seat_positions in entry.get("positions") or ()
    )
    return Seating(players=tuple(entry["players"]), mode=entry["settle_in"], choices=choices)
