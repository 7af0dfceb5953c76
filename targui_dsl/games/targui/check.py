"""Targui's meaning checks: does the ruleset make sense? (codes E04xx)

Runs on data that passed the schema (:mod:`targui_dsl.frontend.schema`), so every
value present has the right type; keys may still be missing in an abstract
base or a partial overlay, and every check simply skips what is not there.
All checks run and every problem is reported, each at the value that causes
it. Card effects and formulas are not looked at here: the effect compiler
checks them (E05xx).

The codes and what each means: :mod:`targui_dsl.games.targui.codes`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from targui_dsl.effects.memory import check_memory
from targui_dsl.frontend.diagnostics import Diagnostic, Span, did_you_mean, error, sort_key, warning
from targui_dsl.frontend.paths import value_at
from targui_dsl.frontend.schema import key_span, value_span
from targui_dsl.games.targui.names import VOCABULARY
from targui_dsl.games.targui.perseat import PER_SEAT, seat_values


def check_meaning(
    data: Any, spans: Mapping | None = None, key_spans: Mapping | None = None, complete: bool = True
) -> list[Diagnostic]:
    """Every meaning problem of a schema-valid ruleset, sorted by position.

    Takes the merged data with its spans (``spans``/``key_spans`` as made by
    :mod:`targui_dsl.frontend.resolve`). For convenience a ``Resolved`` may be passed
    as the only argument. ``complete`` says whether this is a playable ruleset
    (then a missing deck or settlement kind is an error, not a gap to fill).
    """
    if spans is None and hasattr(data, "data"):
        spans, key_spans, data = data.spans, data.key_spans, data.data
    checker = _Checker(data if isinstance(data, dict) else {}, spans or {}, key_spans or {}, complete)
    checker.run()
    return sorted(dict.fromkeys(checker.out), key=sort_key)


class _Checker:
    def __init__(self, data: dict, spans: Mapping, key_spans: Mapping, complete: bool):
        self.data = data
        self.spans = spans
        self.key_spans = key_spans
        self.complete = complete
        self.out: list[Diagnostic] = []

    # --- helpers ------------------------------------------------------------

    def get(self, *path: Any) -> Any:
        return value_at(self.data, path)

    def mapping(self, *path: Any) -> dict:
        value = self.get(*path)
        return value if isinstance(value, dict) else {}

    def integer(self, *path: Any) -> int | None:
        value = self.get(*path)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def at(self, *path: Any) -> Span | None:
        return value_span(tuple(path), self.spans, self.key_spans)

    def key_at(self, *path: Any) -> Span | None:
        return key_span(tuple(path), self.spans, self.key_spans)

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.out.append(error(code, message, span, hint))

    def warn(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.out.append(warning(code, message, span, hint))

    def primary_file(self) -> str | None:
        root = self.spans.get(())
        return root.file if root is not None else None

    def later(self, first: Span | None, second: Span | None) -> Span | None:
        """Of two clashing places, the one to blame: the second, unless only the first is in the file being checked."""
        primary = self.primary_file()
        if primary and second is not None and first is not None and second.file != primary and first.file == primary:
            return first
        return second

    def pick(self, candidates: Iterable[tuple | Span | None], fallback: Span | None) -> Span | None:
        """The first candidate (a path of a value, or a span) written in the file being checked, else ``fallback``.

        A problem made of several settings is blamed where the author of the
        file being checked wrote one of them, not in a parent they never touched.
        """
        primary = self.primary_file()
        for candidate in candidates:
            span = self.spans.get(tuple(candidate)) if isinstance(candidate, tuple) else candidate
            if span is not None and (primary is None or span.file == primary):
                return span
        return fallback

    # --- derived tables -------------------------------------------------------

    @property
    def kinds(self) -> dict:
        return {k: v for k, v in self.mapping("territories").items() if isinstance(v, dict)}

    @property
    def tribes(self) -> dict:
        return {k: v for k, v in self.mapping("tribes").items() if isinstance(v, dict)}

    def board_positions(self) -> set[int] | None:
        """The positions that exist: 1..rows*columns (E0407 checks the numbering says so)."""
        rows, columns = self.integer("board", "rows"), self.integer("board", "columns")
        if rows is None or columns is None:
            return None
        return set(range(1, rows * columns + 1))

    def max_players(self) -> int:
        counts = [n for entry in (self.get("seating") or []) if isinstance(entry, dict)
                  for n in (entry.get("players") or []) if isinstance(n, int)]
        return max(counts, default=0)

    # --- the checks -------------------------------------------------------------

    def run(self) -> None:
        self.check_names()
        self.check_kind_references()
        self.check_tribes()
        self.check_cards_and_deck()
        self.check_settlements()
        self.check_fixed_positions()
        self.check_tile_counts()
        self.check_numbering()
        self.check_sectors()
        self.check_seating()
        self.check_rounds()
        self.check_per_seat()
        self.check_camel_box()
        self.check_identity()
        self.check_memory()

    def check_memory(self) -> None:
        """The ruleset's `memory:` (the language's checks: E0540-E0542)."""
        ids = set(self.kinds) | set(self.tribes)
        self.out.extend(check_memory(self.data, VOCABULARY, ids, self.at, self.key_at))

    def check_names(self) -> None:
        kinds, tribes = self.kinds, self.tribes
        for section, ids in (("territories", kinds), ("tribes", tribes)):
            for name in ids:
                if name in VOCABULARY.reserved_names:
                    self.error(
                        "E0414",
                        f"`{name}` in `{section}` is a name of the effect language and cannot be an id",
                        self.key_at(section, name),
                        f"rename it, e.g. `{name}_{'kind' if section == 'territories' else 'tribe'}`",
                    )
        for name in tribes:
            if name in kinds:
                self.error(
                    "E0414",
                    f"`{name}` is both a territory kind and a tribe; card effects could not tell them apart",
                    self.key_at("tribes", name),
                    "give the tribe or the kind another id",
                )

    def check_kind_references(self) -> None:
        kinds = self.kinds
        if not kinds:
            return
        for i, name in enumerate(self.get("turn", "no_buying_on") or []):
            if isinstance(name, str) and name not in kinds:
                self.error("E0401", f"unknown territory kind `{name}` in `turn.no_buying_on`",
                           self.at("turn", "no_buying_on", i),
                           did_you_mean(name, kinds) or "known kinds: " + ", ".join(f"`{k}`" for k in kinds))

    def check_tribes(self) -> None:
        first: dict[str, str] = {}
        for tribe_id, spec in self.tribes.items():
            colour = spec.get("colour")
            if not isinstance(colour, str):
                continue
            if colour in first:
                self.error(
                    "E0402",
                    f"tribes `{first[colour]}` and `{tribe_id}` are both {colour}; players could not tell their "
                    "markers apart",
                    self.later(self.at("tribes", first[colour], "colour"), self.at("tribes", tribe_id, "colour")),
                    "give each tribe its own colour",
                )
            else:
                first[colour] = tribe_id

    def check_cards_and_deck(self) -> None:
        cards = {k: v for k, v in self.mapping("cards").items() if isinstance(v, dict)}
        by_number: dict[int, str] = {}
        for card_id, spec in cards.items():
            number = spec.get("number")
            if not isinstance(number, int) or isinstance(number, bool):
                continue
            if number in by_number:
                self.error(
                    "E0404",
                    f"cards `{by_number[number]}` and `{card_id}` both have number {number}",
                    self.later(self.at("cards", by_number[number], "number"), self.at("cards", card_id, "number")),
                    "every card needs its own number",
                )
            else:
                by_number[number] = card_id

        deck = self.get("deck")
        if not isinstance(deck, list):
            return
        if not deck and self.complete:
            self.error("E0403", "the deck is empty: the game would have no rounds", self.at("deck"),
                       "list the ids of the cards in play, e.g. `deck: [haussa_raid, sandstorm]`")
        seen: set[str] = set()
        for i, card_id in enumerate(deck):
            if not isinstance(card_id, str):
                continue
            if card_id not in cards:
                hint = did_you_mean(card_id, cards) or ("define it under `cards:` first" if cards else None)
                self.error(
                    "E0403",
                    f"the deck names card `{card_id}`, which is not defined under `cards`",
                    self.at("deck", i),
                    hint,
                )
            elif card_id in seen:
                self.error(
                    "E0403", f"the deck names card `{card_id}` twice; each card is played once", self.at("deck", i)
                )
            seen.add(card_id)
        if not self.complete:
            return
        primary = self.primary_file()
        for card_id in cards:
            # Only cards this file defines (writes the number of): a variant may
            # keep a parent's card out of its deck on purpose (swedish-12's gifts).
            number = self.spans.get(("cards", card_id, "number"))
            if card_id not in seen and number is not None and number.file == primary:
                self.warn(
                    "E0418",
                    f"card `{card_id}` is defined but not in the deck, so it is never played",
                    self.key_at("cards", card_id),
                    f"add it with `deck: {{add: [{card_id}]}}`, or remove the card if it is not meant to be played",
                )

    def check_settlements(self) -> None:
        kinds = self.kinds
        if not kinds:
            return
        settlement_kinds = [k for k, v in kinds.items() if v.get("settlement") is True]
        if not settlement_kinds:
            self.error("E0406", "no territory kind is marked `settlement: true`; the tribes need settlement cards",
                       self.key_at("territories"), "add `settlement: true` to the settlement kind")
            return
        for extra in settlement_kinds[1:]:
            self.error(
                "E0406",
                f"`{settlement_kinds[0]}` and `{extra}` are both settlement kinds; there can be only one",
                self.at("territories", extra, "settlement"),
                "remove `settlement: true` from one of them",
            )
        kind_id = settlement_kinds[0]
        spec = kinds[kind_id]
        if spec.get("passable") is False:
            self.error("E0406", f"settlement kind `{kind_id}` is impassable; a settlement must hold the tribe's camels",
                       self.at("territories", kind_id, "passable"), "remove `passable: false`")
        count, tribes = spec.get("count"), self.tribes
        if isinstance(count, int) and tribes and count != len(tribes):
            count_span = self.at("territories", kind_id, "count")
            self.error(
                "E0406",
                f"there are {len(tribes)} tribes but {count} settlement cards: one settlement per tribe",
                self.pick([count_span, self.key_at("tribes")], count_span),
                f"set `territories.{kind_id}.count: {len(tribes)}`, or give it one tribe per settlement",
            )

    def check_fixed_positions(self) -> None:
        owner: dict[int, str] = {}
        positions = self.board_positions()
        for kind_id, spec in self.kinds.items():
            position = spec.get("position")
            if not isinstance(position, int):
                continue
            if spec.get("settlement") is True:
                self.error(
                    "E0415",
                    f"settlement kind `{kind_id}` cannot have a fixed position: players choose where they settle",
                    self.at("territories", kind_id, "position"),
                    "remove `position`",
                )
                continue
            count = spec.get("count")
            if isinstance(count, int) and count != 1:
                self.error(
                    "E0415",
                    f"`{kind_id}` has a fixed position, so there is exactly one of it, not {count}",
                    self.at("territories", kind_id, "count"),
                    "set `count: 1`, or remove `position` to deal the cards",
                )
            if positions is not None and position not in positions:
                self.error(
                    "E0409",
                    f"`{kind_id}` is fixed to position {position}, which is not on the board (positions "
                    f"1-{len(positions)})",
                    self.at("territories", kind_id, "position"),
                )
            if position in owner:
                self.error(
                    "E0412",
                    f"`{owner[position]}` and `{kind_id}` are both fixed to position {position}",
                    self.later(
                        self.at("territories", owner[position], "position"), self.at("territories", kind_id, "position")
                    ),
                    "give each fixed kind its own position",
                )
            else:
                owner[position] = kind_id

    def check_tile_counts(self) -> None:
        kinds = self.kinds
        rows, columns = self.integer("board", "rows"), self.integer("board", "columns")
        if not kinds or rows is None or columns is None:
            return
        fixed = [k for k, v in kinds.items() if isinstance(v.get("position"), int) and v.get("settlement") is not True]
        dealt = [k for k, v in kinds.items() if k not in fixed and v.get("settlement") is not True]
        counts = {k: kinds[k].get("count") if isinstance(kinds[k].get("count"), int) else 0 for k in dealt}
        cells = rows * columns
        total = len(fixed) + sum(counts.values())
        if total == cells:
            return
        detail = ", ".join(f"{k} {n}" for k, n in counts.items())
        fixed_part = f"{len(fixed)} at fixed positions ({', '.join(fixed)}) and " if fixed else ""
        message = (f"the territory cards do not fill the board: {rows} x {columns} = {cells} cells, but there are "
                   f"{total} cards: {fixed_part}{sum(counts.values())} dealt ({detail})")
        difference = total - cells
        hint = (f"remove {difference} dealt card{'s' if difference != 1 else ''} or enlarge the board" if difference > 0
                else f"add {-difference} dealt card{'s' if difference != -1 else ''} or shrink the board")
        hint += "; settlements are not counted: each replaces a dealt card"
        candidates = [("territories", k, "count") for k in dealt] + [("board", "rows"), ("board", "columns")]
        self.error("E0405", message, self.pick(candidates, self.key_at("territories")), hint)

    def check_numbering(self) -> None:
        # The right shape, every number in 1..cells and none twice: a permutation.
        rows, columns = self.integer("board", "rows"), self.integer("board", "columns")
        numbering = self.get("board", "numbering")
        if rows is None or columns is None or not isinstance(numbering, list):
            return
        if len(numbering) != rows:
            self.error(
                "E0407",
                f"`board.numbering` has {len(numbering)} row{'s' if len(numbering) != 1 else ''}, but the board has "
                f"{rows}",
                self.at("board", "numbering"),
                "write one list of position numbers per row",
            )
        for r, row in enumerate(numbering):
            if isinstance(row, list) and len(row) != columns:
                self.error(
                    "E0407",
                    f"row {r + 1} of `board.numbering` has {len(row)} number{'s' if len(row) != 1 else ''}, but the "
                    f"board has {columns} columns",
                    self.at("board", "numbering", r),
                )
        cells = rows * columns
        seen: set[int] = set()
        for r, row in enumerate(numbering):
            for c, number in enumerate(row if isinstance(row, list) else []):
                if not isinstance(number, int):
                    continue
                if not 1 <= number <= cells:
                    self.error("E0407", f"position {number} in `board.numbering` is outside 1-{cells}",
                               self.at("board", "numbering", r, c), f"number the cells 1 to {cells}, each once")
                elif number in seen:
                    self.error("E0407", f"position {number} appears twice in `board.numbering`",
                               self.at("board", "numbering", r, c), f"number the cells 1 to {cells}, each once")
                seen.add(number)

    def check_sectors(self) -> None:
        positions = self.board_positions()
        owner: dict[int, str] = {}
        first_span: dict[int, Span | None] = {}
        for sector_id, cells in self.mapping("board", "sectors").items():
            if not isinstance(cells, list):
                continue
            here: set[int] = set()
            off_grid: list[tuple[int, Span | None]] = []
            for i, position in enumerate(cells):
                if not isinstance(position, int):
                    continue
                span = self.at("board", "sectors", sector_id, i)
                if positions is not None and position not in positions:
                    off_grid.append((position, span))
                    continue
                if position in here:
                    self.error("E0408", f"sector `{sector_id}` lists position {position} twice", span)
                elif position in owner:
                    self.error(
                        "E0408",
                        f"position {position} is in both sector `{owner[position]}` and sector `{sector_id}`",
                        self.later(first_span[position], span),
                        "sectors may not overlap: two players could claim the same cell",
                    )
                else:
                    owner[position] = sector_id
                    first_span[position] = span
                here.add(position)
            if off_grid and positions is not None:
                self.off_grid(f"sector `{sector_id}` names", off_grid, len(positions))

    def off_grid(self, what: str, found: list[tuple[int, Span | None]], cells: int) -> None:
        """One E0409 for a list naming positions off the board, blamed on a resize if this file made one."""
        numbers = ", ".join(str(p) for p, _ in found)
        plural = len(found) != 1
        first = found[0][1]
        span = self.pick([first, ("board", "rows"), ("board", "columns")], first)
        self.error(
            "E0409",
            f"{what} position{'s' if plural else ''} {numbers}, which {'are' if plural else 'is'} not on the board "
            f"(positions 1-{cells})",
            span,
            "a resized board needs its own positions here" if span is not first else None,
        )

    def check_seating(self) -> None:
        seating = self.get("seating")
        if not isinstance(seating, list):
            return
        tribes = self.tribes
        sectors = self.mapping("board", "sectors")
        positions_on_board = self.board_positions()
        rule_for: dict[int, int] = {}
        for s, entry in enumerate(seating):
            if not isinstance(entry, dict):
                continue
            players = [n for n in (entry.get("players") or []) if isinstance(n, int)]
            for i, n in enumerate(entry.get("players") or []):
                if not isinstance(n, int):
                    continue
                span = self.at("seating", s, "players", i)
                if n in rule_for:
                    self.error(
                        "E0411",
                        f"{n} players are seated by both `seating[{rule_for[n]}]` and `seating[{s}]`",
                        span,
                        "name each number of players in one seating rule only",
                    )
                else:
                    rule_for[n] = s
                if tribes and n > len(tribes):
                    self.error("E0411", f"{n} players need {n} tribes, but this ruleset has {len(tribes)}",
                               self.pick([span, self.key_at("tribes")], span),
                               "one tribe per player: add tribes or seat fewer players")
                if entry.get("settle_in") == "sectors" and "sectors" in (self.get("board") or {}) and len(sectors) < n:
                    self.error(
                        "E0411",
                        f"{n} players settle in sectors, but the board has only {len(sectors)} "
                        f"sector{'s' if len(sectors) != 1 else ''}",
                        span,
                        "add sectors under `board.sectors` or seat these players by positions",
                    )
                if entry.get("settle_in") == "sectors" and "sectors" not in (self.get("board") or {}) and self.complete:
                    self.error("E0411", f"{n} players settle in sectors, but the board has no `sectors`", span,
                               "add `sectors` under `board`")
            mode = entry.get("settle_in")
            choices = entry.get("positions")
            if mode == "sectors" and choices is not None:
                self.warn(
                    "E0411",
                    "`positions` is ignored when players settle in sectors",
                    self.key_at("seating", s, "positions"),
                    "remove it, or write `settle_in: positions`",
                )
            if mode != "positions" or not isinstance(choices, list):
                continue
            for n in players:
                if n != len(choices):
                    self.error(
                        "E0411",
                        f"{n} players settle by positions, but `seating[{s}].positions` gives {len(choices)} "
                        f"list{'s' if len(choices) != 1 else ''} (one per seat)",
                        self.at("seating", s, "positions"),
                        "give one list of allowed positions per seat",
                    )
            offered: dict[int, int] = {}
            for seat, allowed in enumerate(choices):
                if not isinstance(allowed, list):
                    continue
                off_grid: list[tuple[int, Span | None]] = []
                for i, position in enumerate(allowed):
                    if not isinstance(position, int):
                        continue
                    span = self.at("seating", s, "positions", seat, i)
                    if positions_on_board is not None and position not in positions_on_board:
                        off_grid.append((position, span))
                    elif position in offered and offered[position] != seat:
                        self.error(
                            "E0411",
                            f"position {position} is offered to both seat {offered[position] + 1} and seat {seat + 1}",
                            span,
                            "seats may not share a position: give each seat its own cells",
                        )
                    elif position in offered:
                        self.error("E0411", f"position {position} is offered to seat {seat + 1} twice", span,
                                   "list each position once")
                    else:
                        offered.setdefault(position, seat)
                if off_grid and positions_on_board is not None:
                    self.off_grid(f"seat {seat + 1} may settle on", off_grid, len(positions_on_board))

    def check_rounds(self) -> None:
        die = self.integer("rounds", "die")
        threshold = self.integer("rounds", "double_turn_from")
        cards = self.integer("setup", "tribal_cards")
        per_round = self.integer("rounds", "fortune_cards")
        if die is not None and threshold is not None:
            needed = min(die, threshold - 1)
            if cards is not None and needed > cards:
                self.error(
                    "E0410",
                    f"with double turns from {threshold}, a die of {needed} makes every player hand in {needed} "
                    "tribal cards, "
                    f"but each holds only {cards}",
                    self.pick(
                        [("rounds", "double_turn_from"), ("setup", "tribal_cards")],
                        self.at("rounds", "double_turn_from"),
                    ),
                    f"set `setup.tribal_cards` to at least {needed}, or `rounds.double_turn_from` to at most "
                    f"{cards + 1}",
                )
            if threshold > die + 1:
                self.warn(
                    "E0410",
                    f"double turns never happen: the die shows at most {die}",
                    self.at("rounds", "double_turn_from"),
                    f"write `double_turn_from: {die + 1}` to say there are no double turns",
                )
        if per_round is not None and per_round < 1:
            self.error(
                "E0413",
                f"`rounds.fortune_cards` is {per_round}: with no (mis)fortune card per round the deck never runs out "
                "and the game never ends",
                self.at("rounds", "fortune_cards"),
                "draw at least 1 card per round",
            )
        deck = self.get("deck")
        if per_round is not None and per_round >= 1 and isinstance(deck, list) and deck and per_round > len(deck):
            self.warn(
                "E0413",
                f"{per_round} (mis)fortune cards per round, but the deck holds only {len(deck)}: the game lasts one "
                "round",
                self.at("rounds", "fortune_cards"),
            )

    def check_per_seat(self) -> None:
        """A per-seat list needs a value for every tribe's seat. (Formulas are checked when built.)"""
        tribes = len(self.tribes)
        if not tribes:
            return
        for path in PER_SEAT:
            values = self.get(*path)
            if not isinstance(values, list) or not values:
                continue
            where = ".".join(path)
            if len(values) < tribes:
                self.error(
                    "E0419",
                    f"`{where}` gives {len(values)} value{'s' if len(values) != 1 else ''}, but there are {tribes} "
                    "tribes: one value per seat",
                    self.pick([path, self.key_at("tribes")], self.at(*path)),
                    f"add {tribes - len(values)} more, or write one number for every seat",
                )
            elif len(values) > tribes:
                self.warn(
                    "E0419",
                    f"`{where}` gives {len(values)} values, but at most {tribes} players sit down: the last "
                    f"{len(values) - tribes} are never used",
                    self.at(*path, tribes),
                    "remove them",
                )

    def check_camel_box(self) -> None:
        box = self.integer("camels", "box")
        players = self.max_players()
        if box is None or not players:
            return
        start = seat_values(self.get("setup", "camels"), players)
        if start is None:
            return
        needed = sum(start)
        if box < needed:
            each = f"{start[0]} each ({needed})" if len(set(start)) == 1 else f"{needed} between them"
            self.warn("E0416", f"the camel box holds {box} camels, but {players} players start with {each}",
                      self.pick([("camels", "box"), ("setup", "camels")], self.at("camels", "box")),
                      "the last players would start with fewer camels; enlarge the box")

    def check_identity(self) -> None:
        """A house rule that forgets `id:` would play, log and compare under its parent's name."""
        root, own = self.spans.get(()), self.spans.get(("id",))
        name = self.get("id")
        if not self.complete or root is None or own is None or own.file == root.file or not isinstance(name, str):
            return
        self.warn("E0417", f"this ruleset has no `id` of its own: it inherits `{name}` from `{own.file}`",
                  root, "add a line such as `id: my-house-rule`, so games and statistics are told apart")
