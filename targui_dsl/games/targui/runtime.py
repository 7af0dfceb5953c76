"""The engine's side of :class:`targui_dsl.effects.runtime.EffectRuntime`.

Compiled card effects and formulas receive an :class:`EffectAdapter` as
``rt``, never the game state itself: the adapter is the only way effects
read and change a game, and it keeps the rules' invariants. Identities are
ints (cells, seats, kind and tribe indices). Mutations clamp instead of
failing and keep the camel box exact: every camel removed goes back to the
box, every camel added comes out of it.

The adapter works on the game's record
(:class:`~targui_dsl.games.targui.record.TarguiRecord`, public fields) and
changes ownership through :func:`~targui_dsl.games.targui.ownership.set_owner`,
the rules' one way.
"""

from __future__ import annotations

from typing import Sequence

from targui_dsl.effects.runtime import clamp
from targui_dsl.effects.types import Type
from targui_dsl.games.targui.ownership import finish, seats_in_game, set_owner
from targui_dsl.games.targui.phases import OVER
from targui_dsl.games.targui.record import TarguiRecord, cells_of_kind
from targui_dsl.games.targui.told import MEMORY, MEMORY_POSITION, MEMORY_TRIBE, TELLS_MEMORY

STRATEGIC = "strategic"
ECONOMIC = "economic"


class EffectAdapter:
    """What compiled effects may see and do to one game state."""

    __slots__ = ("_s",)

    def __init__(self, record: TarguiRecord) -> None:
        self._s = record

    # Collections ---------------------------------------------------------
    def all_territories(self) -> range:
        return range(self._s.game.cells)

    def all_players(self) -> list[int]:
        return seats_in_game(self._s)

    def all_seats(self) -> range:
        return range(self._s.game.players)

    def all_kinds(self) -> range:
        return range(len(self._s.game.kind_ids))

    def territories_of(self, player: int | None) -> tuple[int, ...]:  # (a tuple: compiled, indexed, not iterated)
        if player is None:
            return ()
        return tuple(self._s.cells_of[player])

    def neighbours(self, territory: int) -> Sequence[int]:
        return self._s.game.neighbours[territory]

    def territories_of_kind(self, kind: int) -> tuple[int, ...]:
        return cells_of_kind(self._s, kind)

    # Territory fields ----------------------------------------------------
    def kind(self, territory: int) -> int:
        return self._s.kind[territory]

    def camels(self, territory: int) -> int:
        return self._s.camels[territory]

    # the record's own lists: compiled code indexes them (a card reads every territory)
    def territory_kinds(self) -> list[int]:
        return self._s.kind

    def territory_camels(self) -> list[int]:
        return self._s.camels

    def passable(self, territory: int) -> bool:
        """Whether camels may stand on the cell: its kind is passable (a cell not yet dealt is not)."""
        kind = self._s.kind[territory]
        return kind >= 0 and self._s.game.kind_passable[kind]

    def owner(self, territory: int) -> int | None:
        owner = self._s.owner[territory]
        return None if owner < 0 else owner

    # the state's reads inlined: formulas call these once per territory (levy, fights)
    def strategic(self, territory: int) -> int:
        state = self._s
        kind = state.kind[territory]
        return state.strategic_now[kind] if kind >= 0 else 0

    def economic(self, territory: int) -> int:
        state = self._s
        kind = state.kind[territory]
        return state.economic_now[kind] if kind >= 0 else 0

    def position(self, territory: int) -> int:
        return self._s.game.position_of_cell[territory]

    def set_camels(self, territory: int, count: int) -> None:
        state = self._s
        count = max(0, int(count))
        have = state.camels[territory]
        if count < have:
            state.camels[territory] = count
            state.box += have - count
        elif count > have:
            kind = state.kind[territory]
            if state.owner[territory] < 0 or kind < 0 or not state.game.kind_passable[kind]:
                return
            added = min(count - have, state.box)
            state.camels[territory] = have + added
            state.box -= added

    def set_owner(self, territory: int, player: int | None) -> None:
        """Land changing hands, the invariants kept: a chott is never owned; a cell left
        to nobody sends its camels to the box; camels change sides with the cell."""
        state = self._s
        kind = state.kind[territory]
        if kind < 0 or not state.game.kind_passable[kind]:
            return
        seat = -1 if player is None else player
        if seat < 0 and state.camels[territory]:
            state.box += state.camels[territory]
            state.camels[territory] = 0
        if set_owner(state, territory, seat):
            finish(state, self, "last_standing")

    def move_camels(self, source: int, target: int, count: int) -> int:
        """Move up to ``count`` camels between two cells without passing through the box."""
        state = self._s
        kind = state.kind[target]
        if count < 1 or source == target or kind < 0 or not state.game.kind_passable[kind]:
            return 0
        moved = min(int(count), state.camels[source])
        if moved <= 0:
            return 0
        state.camels[source] -= moved
        state.camels[target] += moved
        if state.owner[target] < 0:
            if set_owner(state, target, state.owner[source]):
                finish(state, self, "last_standing")
        return moved

    # Player fields -------------------------------------------------------
    def tribe(self, player: int) -> int:
        return self._s.game.seat_tribes[player]

    def seat(self, player: int) -> int:
        return player + 1

    def cash(self, player: int | None) -> int:
        return 0 if player is None else self._s.cash[player]

    def set_cash(self, player: int | None, amount: int) -> None:
        if player is not None:
            self._s.cash[player] = clamp(amount)

    def treasury(self, player: int | None) -> int:
        return 0 if player is None else self._s.treasury[player]

    def set_treasury(self, player: int | None, amount: int) -> None:
        if player is not None:
            self._s.treasury[player] = clamp(amount)

    def player_camels(self, player: int | None) -> int:
        if player is None:
            return 0
        state = self._s
        camels = state.camels
        return sum([camels[c] for c in state.cells_of[player]])

    def settlement(self, player: int | None) -> int | None:
        if player is None:
            return None
        cell = self._s.settlement[player]
        return None if cell < 0 else cell

    def holds_own_settlement(self, player: int | None) -> bool:
        if player is None:
            return False
        state = self._s
        cell = state.settlement[player]
        return cell >= 0 and state.owner[cell] == player

    # Kinds ---------------------------------------------------------------
    def kind_strategic(self, kind: int) -> int:
        return self._s.strategic_now[kind]

    def kind_economic(self, kind: int) -> int:
        return self._s.economic_now[kind]

    def _kind_values(self, field: str) -> tuple[list[int], list[int]]:
        """(this round's values, the lasting values) of a kind field, per kind."""
        state = self._s
        if field == STRATEGIC:
            return state.strategic_now, state.strategic_lasting
        if field == ECONOMIC:
            return state.economic_now, state.economic_lasting
        raise ValueError(f"a kind has no field {field!r}")

    def set_kind_value(self, kind: int, field: str, value: int, this_round: bool) -> None:
        now, lasting = self._kind_values(field)
        value = clamp(value)
        now[kind] = value
        if not this_round:
            lasting[kind] = value

    def add_kind_value(self, kind: int, field: str, delta: int, this_round: bool) -> None:
        """A change by ``delta``: this round's value only, or (lasting) both the lasting
        value and this round's, so a round-long change never leaks into the lasting one."""
        now, lasting = self._kind_values(field)
        now[kind] = clamp(now[kind] + delta)
        if not this_round:
            lasting[kind] = clamp(lasting[kind] + delta)

    # Globals -------------------------------------------------------------
    def round_number(self) -> int:
        return self._s.round

    def box(self) -> int:
        return self._s.box

    def camel_price(self) -> int:
        return self._s.game.camel_price

    def round_die(self) -> int:
        return self._s.round_die

    def current_player(self) -> int | None:
        player = self._s.player
        return None if player < 0 else player

    def cards_left(self) -> int:
        return len(self._s.deck)

    def rounds_played(self) -> int:
        return max(0, self._s.round - 1)

    def rounds_left(self) -> int:
        """Rounds still to come after this one, the deck drawn at the per-round rate: this
        round's (mis)fortune cards are its own, drawn already or waiting in its stack."""
        state = self._s
        per = state.game.fortune_per_round
        if per <= 0:
            return 0
        this_round = state.stack_cards if state.round_die else min(per, len(state.deck))
        return -(-(len(state.deck) - this_round) // per)

    # Declared memory ---------------------------------------------------
    def _memory_place(self, slot: int, holder: int | None) -> int:
        """Where ``slot``'s value for ``holder`` is kept; -1 through nobody."""
        game = self._s.game
        if game.memory_holder[slot] == "game":
            return game.memory_base[slot]
        return -1 if holder is None else game.memory_base[slot] + holder

    def memory(self, slot: int, holder: int | None) -> int | bool:
        place = self._memory_place(slot, holder)
        value = 0 if place < 0 else self._s.memory[place]
        return bool(value) if self._s.game.memory[slot].type == Type.BOOL else value

    def set_memory(self, slot: int, holder: int | None, value: int) -> None:
        """A declared value changed: clamped to its bounds, or the change refused past them
        (its ``past_bounds``); a change is told to the sink. Through nobody nothing changes."""
        state = self._s
        place = self._memory_place(slot, holder)
        if place < 0:
            return
        spec = state.game.memory[slot]
        value = int(value)
        if not spec.low <= value <= spec.high:
            if not spec.clamp:
                return
            value = max(spec.low, min(spec.high, value))
        old = state.memory[place]
        if old == value:
            return
        state.memory[place] = value
        if state.tell_bits & TELLS_MEMORY:
            holder_kind = state.game.memory_holder[slot]
            flag = spec.type == Type.BOOL
            change = [bool(old), bool(value)] if flag else [old, value]
            if holder_kind == "player" and holder is not None:
                state.told((MEMORY_TRIBE, state.round, spec.name, state.game.tribe_ids[holder], change))
            elif holder_kind == "territory" and holder is not None:
                state.told((MEMORY_POSITION, state.round, spec.name, state.game.position_of_cell[holder], change))
            else:
                state.told((MEMORY, state.round, spec.name, change))

    def end_game(self, reason: str) -> None:
        """`end game "..."`: the game ends now, scored as at the deck's end, with this reason."""
        if self._s.phase != OVER:
            finish(self._s, self, reason)


def runtime_of(record: TarguiRecord) -> EffectAdapter:
    """An effect adapter over ``record``: made at each use, not kept on the record (the two
    holding each other, a game's record was freed only by the cyclic garbage collector)."""
    return EffectAdapter(record)
