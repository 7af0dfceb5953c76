"""One seat's observation tensor kept up to date in an array, for the adapters.

A learner reads the tensor at every step, and most of it does not change from one
step to the next: :class:`SeatTensor` keeps a copy of every record field the tensor
is made of, and at each :meth:`SeatTensor.update` compares them with the record
(whole lists at once, in C) and writes only the parts whose fields changed, with
the same functions that build the tensor from scratch (:mod:`.observation`). Its
array therefore always holds exactly ``state.observation_tensor(seat)``, whichever
state it is given (another game, a clone, a reset): nothing is assumed about how
the state got there, only compared. The array is the caller's (a NumPy ``float32``
vector of the tensor's length: this package does not import NumPy).
"""

from __future__ import annotations

from array import array
from typing import Any, Sequence

from targui_dsl.games.targui.flow import current_player
from targui_dsl.games.targui.observation import (
    COUNT_NUMBERS,
    GLOBALS,
    PER_SEAT,
    SEAT_TO_MOVE,
    count_values,
    fill_observation,
    global_values,
    memory_values,
    pending_cells,
    seat_values,
    turned_values,
)
from targui_dsl.games.targui.phases import OVER, Phase
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.state import GameState
from targui_dsl.games.targui.tables import GameTables

__all__ = ["SeatTensor"]



class SeatTensor:
    """``seat``'s observation tensor in ``out``, brought up to date by :meth:`update`."""

    __slots__ = ("seat", "out", "listed", "_mv", "_fresh", "_width", "_kinds", "_players", "_seats", "_globals",
                 "_phase_at", "_source_at", "_target_at", "_count_at", "_turned_at", "_memory_at",
                 "_kind", "_owner", "_camels", "_ledger", "_round0", "_over", "_turn", "_global_key", "_pending_key",
                 "_cells", "_count_key", "_count", "_turned", "_memory")

    def __init__(self, game: GameTables, seat: int, out: Any, listed: bool = False) -> None:
        self.seat, self.out = seat, out
        # with ``listed``, also kept as a list of floats (OpenSpiel's form: listing a whole array
        # costs a float object per number), written where the array is
        self.listed: list[float] | None = [] if listed else None
        self._mv = memoryview(out).cast("B").cast("f")  # one number written costs ~30 ns this way
        if len(self._mv) != len(out):
            raise ValueError("a SeatTensor writes into a float32 vector")
        cells, kinds, players = game.cells, len(game.kind_ids), game.players
        self._kinds, self._players = kinds, players
        self._width = kinds + 1 + players + 1 + 1  # a cell's numbers
        self._seats = cells * self._width
        self._globals = self._seats + players * PER_SEAT
        self._phase_at = self._globals + GLOBALS
        self._source_at = self._phase_at + len(Phase)
        self._target_at = self._source_at + cells
        self._count_at = self._target_at + cells
        self._turned_at = self._count_at + COUNT_NUMBERS
        self._memory_at = self._turned_at + len(game.card_ids)
        if self._memory_at + len(game.memory_start) != len(out):
            raise ValueError(f"the tensor has {self._memory_at + len(game.memory_start)} numbers, the array {len(out)}")
        self._fresh = True  # nothing written yet: the first update fills it all
        # what each part was last written from (copies: the record's lists change in place)
        self._kind: list[int] = []
        self._owner: list[int] = []
        self._camels: list[int] = []
        self._ledger: tuple[list[int], ...] = ()
        self._round0 = self._over = False
        self._turn = -1
        self._global_key: tuple[int | bool, ...] = ()
        self._pending_key: tuple[int, int, int] = (0, -1, -1)
        self._cells: tuple[int, int] = (-1, -1)
        self._count_key: tuple[int, ...] = ()
        self._count: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        self._turned: list[int] = []
        self._memory: list[int] = []

    def update(self, state: GameState) -> Any:
        """Make ``out`` hold ``state.observation_tensor(seat)``, and return it (the array
        itself: copy it to keep it past the next update)."""
        r = state.record
        if self._fresh:
            self._fill(state)
            return self.out
        seat = self.seat
        owner_changed = False
        if r.kind != self._kind:
            self._cells_changed(r.kind, self._kind, 0, self._kinds)
        if r.owner != self._owner:
            self._cells_changed(r.owner, self._owner, self._kinds + 1, self._players)
            owner_changed = True
        if r.camels != self._camels:
            width, kept = self._width, self._camels
            last = width - 1
            for cell, camels in enumerate(r.camels):
                if camels != kept[cell]:
                    self._set(cell * width + last, camels)
                    kept[cell] = camels
        over = r.phase == OVER
        turn = current_player(r)
        ledger = (r.cash, r.treasury, r.stack_turns, r.deposits, r.levy_total, r.spent, r.settlement)
        if owner_changed or ledger != self._ledger or (r.round == 0) != self._round0 or over != self._over:
            self._write(self._seats, seat_values(state, seat))
            self._keep_seats(r, over, turn)
        elif turn != self._turn:
            if self._turn >= 0:
                self._set(self._seats + self._turn * PER_SEAT + SEAT_TO_MOVE, 0.0)
            if turn >= 0:
                self._set(self._seats + turn * PER_SEAT + SEAT_TO_MOVE, 1.0)
            self._turn = turn
        # the globals, the phase and the pending cells follow from these record fields
        key = (r.round, r.round_die, r.double, r.box, r.stack_cards, len(r.deck))
        if key != self._global_key:
            self._write(self._globals, global_values(state))
            self._global_key = key
        pending = (r.phase, r.source, r.target)
        if pending != self._pending_key:
            if r.phase != self._pending_key[0]:
                self._set(self._phase_at + self._pending_key[0], 0.0)
                self._set(self._phase_at + r.phase, 1.0)
            cells = pending_cells(state)
            if cells != self._cells:
                self._pending(self._cells, 0.0)
                self._pending(cells, 1.0)
                self._cells = cells
            self._pending_key = pending
        # and the count as this seat sees it from these (its visibility: the phase, whose turn)
        count_key = (r.phase, turn, r.count_lo, r.count_hi, r.count_prefix, r.count_digits)
        if count_key != self._count_key:
            count = count_values(state, seat)
            if count != self._count:
                self._write(self._count_at, count)
                self._count = count
            self._count_key = count_key
        if r.turned != self._turned:
            self._write(self._turned_at, turned_values(state))
            self._turned = r.turned[:]
        if r.memory != self._memory:
            self._write(self._memory_at, memory_values(state, seat))
            self._memory = r.memory[:]
        return self.out

    # ------------------------------------------------------------------------------------
    def _fill(self, state: GameState) -> None:
        """Everything from scratch, and every field kept."""
        r = state.record
        fill_observation(state, self.seat, self.out)
        if self.listed is not None:
            self.listed = self.out.tolist()
        self._kind, self._owner, self._camels = r.kind[:], r.owner[:], r.camels[:]
        turn = current_player(r)
        self._keep_seats(r, r.phase == OVER, turn)
        self._global_key = (r.round, r.round_die, r.double, r.box, r.stack_cards, len(r.deck))
        self._pending_key = (r.phase, r.source, r.target)
        self._cells = pending_cells(state)
        self._count_key = (r.phase, turn, r.count_lo, r.count_hi, r.count_prefix, r.count_digits)
        self._count = count_values(state, self.seat)
        self._turned = r.turned[:]
        self._memory = r.memory[:]
        self._fresh = False

    def _keep_seats(self, r: TarguiRecord, over: bool, turn: int) -> None:
        self._ledger = (r.cash[:], r.treasury[:], r.stack_turns[:], r.deposits[:], r.levy_total[:], r.spent[:],
                        r.settlement[:])
        self._round0, self._over, self._turn = r.round == 0, over, turn

    def _cells_changed(self, now: list[int], kept: list[int], at: int, none: int) -> None:
        """A one-hot per cell (a kind, an owner; -1 is the slot ``none``) moved where it changed."""
        width, put = self._width, self._set
        for cell, value in enumerate(now):
            before = kept[cell]
            if value != before:
                base = cell * width + at
                put(base + (before if before >= 0 else none), 0.0)
                put(base + (value if value >= 0 else none), 1.0)
                kept[cell] = value

    def _pending(self, cells: tuple[int, int], value: float) -> None:
        source, target = cells
        if source >= 0:
            self._set(self._source_at + source, value)
        if target >= 0:
            self._set(self._target_at + target, value)

    def _set(self, at: int, value: float) -> None:
        mv = self._mv
        mv[at] = value
        listed = self.listed
        if listed is not None:
            listed[at] = mv[at]  # the float32 read back: the number the array holds

    def _write(self, at: int, values: Sequence[float]) -> None:
        if values:
            end = at + len(values)
            mv = self._mv
            mv[at:end] = array("f", values)
            if self.listed is not None:
                self.listed[at:end] = mv[at:end].tolist()
