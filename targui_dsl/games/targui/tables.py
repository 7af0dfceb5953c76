"""The fixed facts of a game: one ruleset, a number of players and their tribes, a seed.

:class:`GameTables` turns the read-only :class:`CompiledRuleset` into the flat
tables the hot path reads (neighbour lists, per-kind values, the deal), once
per ruleset and seating. It never asks which variant it runs: every difference
between variants is in those tables and in the compiled formulas and effects.
The public :class:`~targui_dsl.games.targui.game.Game` is these tables plus
``new_initial_state()``.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Sequence

from targui_dsl.effects.runtime import MAX_ROLL_SIDES
from targui_dsl.engine.chance import draw_limit, seed_state
from targui_dsl.engine.native import compiled
from targui_dsl.games.targui.actions import ActionSpace, make_action_space
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.names import VOCABULARY

#: A memory slot's holder by its type ("player", "territory"), as a ruleset's `of:` names it.
_HOLDER_NAMES = {t: name for name, t in VOCABULARY.memory_holders.items() if t is not None}

#: Every table _build_tables sets: what a game shares with the first game of its ruleset
#: and seating (tests/test_engine_tables.py holds this list to _build_tables).
TABLES = (
    "ruleset", "players", "seating", "seat_tribes", "tribe_ids", "seat_of_tribe", "seat_of_tribe_id", "cells",
    "position_of_cell", "cell_of_position", "neighbours", "kind_ids", "kind_by_id", "kind_passable", "kind_buyable",
    "base_strategic", "base_economic", "settlement_kind", "fixed_cards", "deal_cells", "deal_pool", "sector_ids",
    "sector_cells", "sector_by_id", "picks_sectors", "cards", "card_ids", "card_index", "card_effects", "card_calls",
    "deck", "start_cash", "start_camels", "treasury", "die_sides", "camel_price", "rounds", "double_turn_from",
    "tribal_cards", "fortune_per_round", "actions", "pair_id", "cell_base", "pairs_from", "move_ids", "sources_into",
    "pair_source", "pair_target", "die_limit", "defender_loses", "attacker_loses", "levy", "score", "tie_breaks",
    "hooks", "hook_calls", "hooked", "turn_start_hooks", "turn_end_hooks", "effects_pause", "memory", "memory_base",
    "memory_holder", "memory_start", "end_reasons",
)
#: Whether this module runs compiled (setup.py's COMPILED).
COMPILED: Final = compiled(__file__)
#: Built tables by (ruleset identity, players, tribes): games of one study share them (the first
#: game, and its tables by name, set at once on a plain-Python game).
_TEMPLATES: dict[tuple[int, int, tuple[str | int, ...] | None], tuple["GameTables", dict[str, Any]]] = {}
_TEMPLATES_KEPT = 16


class GameTables:
    """The fixed facts of one game (``Game`` adds :meth:`~targui_dsl.games.targui.game.Game.new_initial_state`)."""

    def __init__(
        self,
        ruleset: CompiledRuleset,
        players: int = 4,
        seed: int = 0,
        tribes: Sequence[str | int] | None = None,
        explicit_chance: bool = False,
    ) -> None:
        key = (id(ruleset), players, None if tribes is None else tuple(tribes))
        kept = _TEMPLATES.get(key)
        if kept is not None and kept[0].ruleset is ruleset:
            # the tables of this ruleset and seating are built already: share them, by name
            # compiled (a class compiled by mypyc has no __dict__), else all at once
            template, shared = kept
            if COMPILED:
                self._share(template)
            else:
                self.__dict__.update(shared)
        else:
            self._build_tables(ruleset, players, tribes)
            if len(_TEMPLATES) >= _TEMPLATES_KEPT:
                del _TEMPLATES[next(iter(_TEMPLATES))]
            _TEMPLATES[key] = (self, {name: getattr(self, name) for name in TABLES})
        self.seed = seed
        self.explicit_chance = explicit_chance
        self.initial_rng = seed_state(seed)

    def _build_tables(self, ruleset: CompiledRuleset, players: int, tribes: Sequence[str | int] | None) -> None:
        """Every table the hot path reads, from the ruleset and the seating (not the seed)."""
        self.ruleset = ruleset
        self.players = players
        self.seating = ruleset.seating_for(players)  # ValueError for an unseatable count

        # Tribes: by default the first ones in the ruleset's order.
        if tribes is None:
            if players > len(ruleset.tribes):
                raise ValueError(f"ruleset {ruleset.id} has {len(ruleset.tribes)} tribes, not {players}")
            seat_tribes = [t.index for t in ruleset.tribes[:players]]
        else:
            seat_tribes = [t if isinstance(t, int) else _tribe_index(ruleset, t) for t in tribes]
            if len(seat_tribes) != players:
                raise ValueError(f"{players} players need {players} tribes, got {len(seat_tribes)}")
            if len(set(seat_tribes)) != players:
                raise ValueError("each player needs a different tribe")
            for t in seat_tribes:
                if not 0 <= t < len(ruleset.tribes):
                    raise ValueError(f"no tribe with index {t}")
        self.seat_tribes: tuple[int, ...] = tuple(seat_tribes)
        self.tribe_ids: tuple[str, ...] = tuple(ruleset.tribes[t].id for t in seat_tribes)
        self.seat_of_tribe: dict[int, int] = {t: s for s, t in enumerate(seat_tribes)}
        self.seat_of_tribe_id: dict[str, int] = {ruleset.tribes[t].id: s for s, t in enumerate(seat_tribes)}

        board = ruleset.board
        self.cells = board.cells
        self.position_of_cell: tuple[int, ...] = tuple(board.position_of_cell)
        self.cell_of_position: dict[int, int] = dict(board.cell_of_position)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(n) for n in board.neighbours)

        kinds = ruleset.kinds
        self.kind_ids: tuple[str, ...] = tuple(k.id for k in kinds)
        self.kind_by_id: dict[str, int] = {k.id: k.index for k in kinds}
        self.kind_passable: tuple[bool, ...] = tuple(k.passable for k in kinds)
        self.kind_buyable: tuple[bool, ...] = tuple(k.index not in ruleset.no_buying_on for k in kinds)
        self.base_strategic: tuple[int, ...] = tuple(k.strategic for k in kinds)
        self.base_economic: tuple[int, ...] = tuple(k.economic for k in kinds)
        settlement_kinds = [k.index for k in kinds if k.settlement]
        if not settlement_kinds:
            raise ValueError(f"ruleset {ruleset.id} has no settlement kind")
        self.settlement_kind = settlement_kinds[0]

        # The deal: one card of each fixed-position kind goes to its position;
        # settlements are set aside; every other card is dealt to the other
        # positions in increasing position number.
        fixed: dict[int, int] = {}
        pool = [0] * len(kinds)
        for k in kinds:
            if k.settlement:
                continue
            count = k.count
            if k.position is not None and count > 0:
                cell = self.cell_of_position[k.position]
                if cell in fixed:
                    raise ValueError(f"two kinds are fixed at position {k.position}")
                fixed[cell] = k.index
                count -= 1
            pool[k.index] = count
        self.fixed_cards: tuple[tuple[int, int], ...] = tuple(sorted(fixed.items()))
        self.deal_cells: tuple[int, ...] = tuple(
            sorted((c for c in range(self.cells) if c not in fixed), key=lambda c: self.position_of_cell[c])
        )
        if sum(pool) < len(self.deal_cells):
            raise ValueError(f"ruleset {ruleset.id} has {sum(pool)} cards to deal onto "
                             f"{len(self.deal_cells)} positions")
        self.deal_pool: tuple[int, ...] = tuple(pool)

        self.sector_ids: tuple[str, ...] = tuple(s.id for s in board.sectors)
        self.sector_cells: tuple[tuple[int, ...], ...] = tuple(tuple(s.cells) for s in board.sectors)
        self.sector_by_id: dict[str, int] = {s.id: i for i, s in enumerate(board.sectors)}
        self.picks_sectors = self.seating.mode == "sectors"
        if not self.picks_sectors and len(self.seating.choices) < players:
            raise ValueError(f"ruleset {ruleset.id} lists settling positions for {len(self.seating.choices)} seats, "
                             f"not {players}")
        if self.picks_sectors and len(self.sector_ids) < players:
            raise ValueError(f"ruleset {ruleset.id} has {len(self.sector_ids)} sectors for {players} players")

        self.cards = ruleset.cards
        self.card_ids: tuple[str, ...] = tuple(ruleset.cards)
        self.card_index: dict[str, int] = {card_id: i for i, card_id in enumerate(self.card_ids)}
        # each card's compiled effect by card index (run at every card: no look-up by id)
        self.card_effects: tuple[Any, ...] = tuple(ruleset.cards[card_id].effect for card_id in self.card_ids)
        # and its function when the effect never pauses (None when it may: it runs as a generator),
        # called straight: compiled, reading `pauses` and `function` off the code was a look-up by name
        self.card_calls: tuple[Callable[..., Any] | None, ...] = _calls(self.card_effects)
        self.deck: tuple[int, ...] = tuple(self.card_index[card_id] for card_id in ruleset.deck)

        self.start_cash: tuple[int, ...] = _per_seat(ruleset.start_cash, players)
        self.start_camels: tuple[int, ...] = _per_seat(ruleset.start_camels, players)
        self.treasury = ruleset.treasury
        self.die_sides = ruleset.die_sides
        self.camel_price = ruleset.camel_price
        self.rounds = ruleset.rounds
        # the round's numbers, read at every round's start (a compiled read here is a field's;
        # on the ruleset, a plain object, it was a look-up by name)
        self.double_turn_from = ruleset.double_turn_from
        self.tribal_cards = ruleset.tribal_cards
        self.fortune_per_round = ruleset.fortune_cards_per_round

        # Declared memory, kept flat in the record: slot i's values start at memory_base[i],
        # one per seat, per cell, or one for the game (memory_holder[i]: "player", "territory", "game").
        self.memory = ruleset.memory
        self.end_reasons = ruleset.end_reasons
        bases, holders, size = [], [], 0
        for slot in ruleset.memory:
            bases.append(size)
            holder = _HOLDER_NAMES.get(slot.holder, "game") if slot.holder is not None else "game"
            holders.append(holder)
            size += players if holder == "player" else self.cells if holder == "territory" else 1
        self.memory_base: tuple[int, ...] = tuple(bases)
        self.memory_holder: tuple[str, ...] = tuple(holders)
        self.memory_start: tuple[int, ...] = tuple(
            slot.start for slot, base, holder in zip(ruleset.memory, bases, holders, strict=True)
            for _ in range(players if holder == "player" else self.cells if holder == "territory" else 1))

        self.actions: ActionSpace
        self.actions, self.pair_id = make_action_space(self.cells, self.neighbours, len(self.sector_ids), players)
        self.cell_base = self.actions.cell_base  # a plain int for the hot path (a property there)
        # per source cell: (target, pair id) in target order, the move ids once kinds are dealt
        self.pairs_from: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(sorted(self.pair_id[c].items())) for c in range(self.cells))
        # per cell: every pair id from it, and the cells with a pair into it (_fix_board)
        self.move_ids: tuple[tuple[int, ...], ...] = tuple(
            tuple(pair for _, pair in targets) for targets in self.pairs_from)
        # one walk over the pairs (the ids of every pair, in order; a property per id was slow)
        into: list[list[int]] = [[] for _ in range(self.cells)]
        for source, target in self.actions.pairs:  # by source, then target: each `into` list in order
            into[target].append(source)
        self.sources_into: tuple[tuple[int, ...], ...] = tuple(tuple(sources) for sources in into)
        # hot-path tables by action id: the cells of a pair id (-1 for other ids)
        before, after = [-1] * self.actions.pair_base, [-1] * self.players
        self.pair_source: tuple[int, ...] = (*before, *(source for source, _ in self.actions.pairs), *after)
        self.pair_target: tuple[int, ...] = (*before, *(target for _, target in self.actions.pairs), *after)
        self.die_limit = draw_limit(self.die_sides)  # the die's draws, kept (see chance.below)

        # Hot-path handles on the compiled formulas.
        self.defender_loses = ruleset.defender_loses.function
        self.attacker_loses = ruleset.attacker_loses.function
        self.levy = ruleset.levy.function
        self.score = ruleset.score.function
        self.tie_breaks = tuple(code.function for code in ruleset.tie_breaks)
        self.hooks = ruleset.hooks
        self.hook_calls: dict[str, tuple[Callable[..., Any] | None, ...]] = {
            moment: _calls(codes) for moment, codes in ruleset.hooks.items()}
        # the moments with hooks: a moment without is passed by, not run (a call for nothing)
        self.hooked: frozenset[str] = frozenset(moment for moment, codes in ruleset.hooks.items() if codes)
        # whether a moment of every turn has hooks at all (read twice a turn)
        self.turn_start_hooks = bool(ruleset.hooks["turn_start"])
        self.turn_end_hooks = bool(ruleset.hooks["turn_end"])
        self.effects_pause = any(card.effect.pauses for card in ruleset.cards.values()) or any(
            code.pauses for codes in ruleset.hooks.values() for code in codes)

    def _share(self, template: GameTables) -> None:
        """The compiled build's share of ``template``'s tables (:data:`TABLES`, each set
        directly: compiled, a name given as a string was a look-up in the class's attributes
        at each of the sixty; tests/test_engine_tables.py holds this list to TABLES)."""
        self.ruleset = template.ruleset
        self.players = template.players
        self.seating = template.seating
        self.seat_tribes = template.seat_tribes
        self.tribe_ids = template.tribe_ids
        self.seat_of_tribe = template.seat_of_tribe
        self.seat_of_tribe_id = template.seat_of_tribe_id
        self.cells = template.cells
        self.position_of_cell = template.position_of_cell
        self.cell_of_position = template.cell_of_position
        self.neighbours = template.neighbours
        self.kind_ids = template.kind_ids
        self.kind_by_id = template.kind_by_id
        self.kind_passable = template.kind_passable
        self.kind_buyable = template.kind_buyable
        self.base_strategic = template.base_strategic
        self.base_economic = template.base_economic
        self.settlement_kind = template.settlement_kind
        self.fixed_cards = template.fixed_cards
        self.deal_cells = template.deal_cells
        self.deal_pool = template.deal_pool
        self.sector_ids = template.sector_ids
        self.sector_cells = template.sector_cells
        self.sector_by_id = template.sector_by_id
        self.picks_sectors = template.picks_sectors
        self.cards = template.cards
        self.card_ids = template.card_ids
        self.card_index = template.card_index
        self.card_effects = template.card_effects
        self.card_calls = template.card_calls
        self.deck = template.deck
        self.start_cash = template.start_cash
        self.start_camels = template.start_camels
        self.treasury = template.treasury
        self.die_sides = template.die_sides
        self.camel_price = template.camel_price
        self.rounds = template.rounds
        self.double_turn_from = template.double_turn_from
        self.tribal_cards = template.tribal_cards
        self.fortune_per_round = template.fortune_per_round
        self.actions = template.actions
        self.pair_id = template.pair_id
        self.cell_base = template.cell_base
        self.pairs_from = template.pairs_from
        self.move_ids = template.move_ids
        self.sources_into = template.sources_into
        self.pair_source = template.pair_source
        self.pair_target = template.pair_target
        self.die_limit = template.die_limit
        self.defender_loses = template.defender_loses
        self.attacker_loses = template.attacker_loses
        self.levy = template.levy
        self.score = template.score
        self.tie_breaks = template.tie_breaks
        self.hooks = template.hooks
        self.hook_calls = template.hook_calls
        self.hooked = template.hooked
        self.turn_start_hooks = template.turn_start_hooks
        self.turn_end_hooks = template.turn_end_hooks
        self.effects_pause = template.effects_pause
        self.memory = template.memory
        self.memory_base = template.memory_base
        self.memory_holder = template.memory_holder
        self.memory_start = template.memory_start
        self.end_reasons = template.end_reasons


    # OpenSpiel's questions ------------------------------------------------
    def num_distinct_actions(self) -> int:
        """Size of the decision id space (see :mod:`.actions`)."""
        return self.actions.size

    def max_chance_outcomes(self) -> int:
        """Size of the chance outcome id space."""
        effect_die = MAX_ROLL_SIDES if self.effects_pause else 0  # roll(n) inside effects: n up to 100
        return max(self.die_sides, len(self.kind_ids), self.players + len(self.card_ids), effect_die)

    def num_players(self) -> int:
        return self.players

    def tribe_name(self, seat: int) -> str:
        return self.ruleset.tribes[self.seat_tribes[seat]].name

    def __repr__(self) -> str:
        return f"Game({self.ruleset.id!r}, players={self.players}, seed={self.seed}, tribes={list(self.tribe_ids)})"


def _per_seat(value: int | Sequence[int], players: int) -> tuple[int, ...]:
    """A per-seat starting value: one number for everybody, or one per seat."""
    if isinstance(value, int):
        return (value,) * players
    return tuple(value[:players])


def _calls(codes: Sequence[Any]) -> tuple[Callable[..., Any] | None, ...]:
    """Each effect's function when it never pauses, else None (see run_effect)."""
    return tuple(None if code.pauses else code.function for code in codes)


def _tribe_index(ruleset: CompiledRuleset, tribe_id: str) -> int:
    try:
        return ruleset.tribe_index(tribe_id)
    except KeyError:
        known = ", ".join(t.id for t in ruleset.tribes)
        raise ValueError(f"unknown tribe `{tribe_id}` (tribes: {known})") from None
