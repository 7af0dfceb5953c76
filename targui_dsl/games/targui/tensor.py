"""One seat's observation tensor kept up to date in an array, for the adapters.

A learner reads the tensor at every step, and most of it does not change from one
step to the next: :class:`SeatTensor` keeps a copy of every record field the tensor
is made of, and at each :meth:`SeatTensor.update` compares them with the record
(whole lists at once, in C) and writes only the numbers whose fields changed, with
the same functions that build the tensor from scratch (:mod:`.observation`). Its
array therefore always holds exactly ``state.observation_tensor(seat)``, whichever
state it is given (another game, a clone, a reset): nothing is assumed about how
the state got there, only compared. The array is the caller's (a NumPy ``float32``
vector of the tensor's length: this package does not import NumPy).

A step of the engine costs a few microseconds, so each reading is kept to a few list
comparisons and a handful of numbers written: a cell's camels where they moved (the
pending cells are looked at first), one seat's cash, the phase's one-hot.
"""

from __future__ import annotations

from typing import Any, Sequence

from targui_dsl.engine.kept_tensor import KeptTensor, changed
from targui_dsl.games.targui.flow import current_player
from targui_dsl.games.targui.observation import (
    COUNT_NUMBERS,
    GLOBALS,
    NO_CELLS,
    NO_COUNT,
    PENDING,
    PENDING_PAIR,
    PER_SEAT,
    SEAT_CASH,
    SEAT_DEPOSITS,
    SEAT_IN_GAME,
    SEAT_LEVY,
    SEAT_OWN_SETTLEMENT,
    SEAT_SPENT,
    SEAT_STACK,
    SEAT_TO_MOVE,
    SEAT_TREASURY,
    cash_visible,
    count_of,
    fill_observation,
    global_values,
    memory_values,
    pending_of,
    seat_values,
    standing_values,
    treasury_visible,
    turned_values,
)
from targui_dsl.games.targui.phases import IS_COUNT, OVER, Phase
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.state import GameState
from targui_dsl.games.targui.tables import GameTables

__all__ = ["SeatTensor"]

class SeatTensor(KeptTensor):
    """``seat``'s observation tensor in ``out``, brought up to date by :meth:`update`."""

    __slots__ = ("_game", "_width", "_kinds", "_players", "_seats",
                 "_globals", "_phase_at", "_source_at", "_target_at", "_count_at", "_turned_at", "_memory_at",
                 "_kind", "_owner", "_camels", "_cash", "_treasury", "_stack", "_deposits", "_levy", "_spent",
                 "_settlement", "_ledger", "_standing", "_cash_seen", "_treasury_seen", "_round0", "_over", "_turn",
                 "_global_key", "_global_values", "_phase", "_cells", "_count",
                 "_turned", "_memory")

    def __init__(self, game: GameTables, seat: int, out: Any, listed: bool = False) -> None:
        super().__init__(seat, out, listed)
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
        # the tables of the game last read (its seats' visibility is kept); none yet: the first update
        # fills it all
        self._game: GameTables | None = None
        # what each part was last written from (copies: the record's lists change in place)
        self._kind: list[int] = []
        self._owner: list[int] = []
        self._camels: list[int] = []
        self._cash: list[int] = []
        self._treasury: list[int] = []
        self._stack: list[int] = []
        self._deposits: list[int] = []
        self._levy: list[int] = []
        self._spent: list[int] = []
        self._settlement: list[int] = []
        self._ledger: tuple[list[int], ...] = ()
        self._standing: list[tuple[float, float]] = []  # per seat: its SEAT_IN_GAME and SEAT_OWN_SETTLEMENT
        self._cash_seen: list[bool] = []  # per seat: whether this seat sees its cash (and treasury)
        self._treasury_seen: list[bool] = []
        self._round0 = self._over = False
        self._turn = -1
        self._global_key: tuple[int | bool, ...] = ()
        self._global_values: Sequence[float] = ()
        self._phase = 0
        self._cells: tuple[int, int] = NO_CELLS
        self._count: tuple[float, float, float, float] = NO_COUNT
        self._turned: list[int] = []
        self._memory: list[int] = []

    def update(self, state: GameState) -> Any:
        """Make ``out`` (with ``listed``: the list) hold ``state.observation_tensor(seat)``, and
        return it (the array itself, or the list: copy it to keep it past the next update)."""
        r = state.record
        if r.game is not self._game:  # the first reading, or another game (what a game decides is kept)
            self._fill(state)
            return self.kept
        put = self._put
        # the cells: only those whose numbers changed (found in C: a move changes two of 49)
        camels = r.camels
        if camels != self._camels:
            kept, width = self._camels, self._width
            # where camels move: the pending cells of the last reading and of now (a move's pair, a
            # purchase's cell); every cell compared only when that was not all
            for cell in (*self._cells, r.source, r.target):
                if cell >= 0 and camels[cell] != kept[cell]:
                    value = kept[cell] = camels[cell]
                    put(cell * width + width - 1, value)
            if camels != kept:
                for cell in changed(camels, kept):
                    value = kept[cell] = camels[cell]
                    put(cell * width + width - 1, value)
        # the seats whose cells changed hands (their standing alone may change with them)
        moved = (self._cells_changed(r.owner, self._owner, self._kinds + 1, self._players)
                 if r.owner != self._owner else None)
        if r.kind != self._kind:
            self._cells_changed(r.kind, self._kind, 0, self._kinds)
        # the seats: a column written where its field changed, for the seats this one sees
        phase = r.phase
        turn = current_player(r)
        if (phase == OVER) is not self._over or (r.round == 0) is not self._round0:  # what is seen, and in game
            self._write(self._seats, seat_values(state, self.seat))
            self._keep_seats(state, turn)
        else:
            if r.settlement != self._settlement:  # (rarely: every seat's standing looked at)
                self._standing_changed(r, range(self._players))
            elif moved:
                self._standing_changed(r, moved)
            if (r.cash, r.treasury, r.stack_turns, r.deposits, r.levy_total, r.spent) != self._ledger:
                self._ledger_changed(r)
            if turn != self._turn:
                if self._turn >= 0:
                    put(self._seats + self._turn * PER_SEAT + SEAT_TO_MOVE, 0.0)
                if turn >= 0:
                    put(self._seats + turn * PER_SEAT + SEAT_TO_MOVE, 1.0)
                self._turn = turn
        # the globals follow from these record fields (compared first: cheaper than the numbers)
        key = (r.round, r.round_die, r.double, r.box, r.stack_cards, len(r.deck))
        if key != self._global_key:
            values, shown = global_values(state), self._global_values
            for index, number in enumerate(values):
                if number != shown[index]:
                    put(self._globals + index, number)
            self._global_key, self._global_values = key, values
        if phase != self._phase:
            put(self._phase_at + self._phase, 0.0)
            put(self._phase_at + phase, 1.0)
            self._phase = phase
        pending = PENDING[phase]
        if pending or self._cells is not NO_CELLS:  # (most phases have none, as the last reading did)
            cells = (r.source, r.target) if pending == PENDING_PAIR else (-1, r.target) if pending else NO_CELLS
            if cells != self._cells:
                self._cells_moved(cells)
        # the count as this seat sees it: only at a count, or when one was shown
        if IS_COUNT[phase] or self._count is not NO_COUNT:
            count, seen = count_of(r, self.seat), self._count
            if count != seen:
                for index, number in enumerate(count):
                    if number != seen[index]:
                        put(self._count_at + index, number)
                self._count = count
        if r.turned != self._turned:
            self._write(self._turned_at, turned_values(state))
            self._turned = r.turned[:]
        if r.memory != self._memory:
            self._write(self._memory_at, memory_values(state, self.seat))
            self._memory = r.memory[:]
        return self.kept

    def _standing_changed(self, r: TarguiRecord, seats: Sequence[int] | set[int]) -> None:
        """``seats``' standing (in game, own settlement), where the cells' owners or a settlement moved:
        a seat's standing follows from the cells it owns and the owner of its settlement, so only the
        seats that gained or lost a cell, or every seat when a settlement moved."""
        was = self._standing
        for seat in seats:
            pair = standing_values(r, seat)
            if pair != was[seat]:
                at = self._seats + seat * PER_SEAT
                self._put(at + SEAT_IN_GAME, pair[0])
                self._put(at + SEAT_OWN_SETTLEMENT, pair[1])
                was[seat] = pair
        self._settlement = r.settlement[:]

    def _ledger_changed(self, r: TarguiRecord) -> None:
        """The seats' money and cards: the columns that changed."""
        if r.cash != self._cash:
            self._column(r.cash, self._cash, SEAT_CASH, self._cash_seen)
        if r.treasury != self._treasury:
            self._column(r.treasury, self._treasury, SEAT_TREASURY, self._treasury_seen)
        if r.stack_turns != self._stack:
            self._column(r.stack_turns, self._stack, SEAT_STACK, None)
        if r.deposits != self._deposits:
            self._column(r.deposits, self._deposits, SEAT_DEPOSITS, None)
        if r.levy_total != self._levy:
            self._column(r.levy_total, self._levy, SEAT_LEVY, None)
        if r.spent != self._spent:
            self._column(r.spent, self._spent, SEAT_SPENT, None)

    def _cells_moved(self, cells: tuple[int, int]) -> None:
        """The pending source and target one-hots moved to ``cells``."""
        (source, target), (was_source, was_target) = cells, self._cells
        if source != was_source:
            if was_source >= 0:
                self._put(self._source_at + was_source, 0.0)
            if source >= 0:
                self._put(self._source_at + source, 1.0)
        if target != was_target:
            if was_target >= 0:
                self._put(self._target_at + was_target, 0.0)
            if target >= 0:
                self._put(self._target_at + target, 1.0)
        self._cells = cells

    # ------------------------------------------------------------------------------------
    def _fill(self, state: GameState) -> None:
        """Everything from scratch, and every field kept."""
        r = state.record
        self._game = r.game
        fill_observation(state, self.seat, self.out)  # (with ``listed``, ``out`` is only a scratch)
        if self.listed is not None:
            self.listed[:] = self.out.tolist()
        self._kind, self._owner, self._camels = r.kind[:], r.owner[:], r.camels[:]
        self._keep_seats(state, current_player(r))
        self._global_key = (r.round, r.round_die, r.double, r.box, r.stack_cards, len(r.deck))
        self._global_values = global_values(state)
        self._phase = r.phase
        self._cells = pending_of(r)
        self._count = count_of(r, self.seat)
        self._turned = r.turned[:]
        self._memory = r.memory[:]

    def _keep_seats(self, state: GameState, turn: int) -> None:
        """The seats' fields as the seat block was written from them whole, and what this seat sees."""
        r: TarguiRecord = state.record
        self._cash, self._treasury, self._stack = r.cash[:], r.treasury[:], r.stack_turns[:]
        self._deposits, self._levy, self._spent, self._settlement = (r.deposits[:], r.levy_total[:], r.spent[:],
                                                                     r.settlement[:])
        # the same lists (kept up to date in place, column by column): compared at once first
        self._ledger = (self._cash, self._treasury, self._stack, self._deposits, self._levy, self._spent)
        seats = range(self._players)
        self._standing = [standing_values(r, seat) for seat in seats]
        self._cash_seen = [cash_visible(state, self.seat, seat) for seat in seats]
        self._treasury_seen = [treasury_visible(state, self.seat, seat) for seat in seats]
        self._round0, self._over, self._turn = r.round == 0, r.phase == OVER, turn

    def _column(self, now: list[int], kept: list[int], column: int, seen: list[bool] | None) -> None:
        """One of the seats' numbers, where it changed (left 0 for a seat whose value is hidden)."""
        at = self._seats + column
        for seat, value in enumerate(now):
            if value != kept[seat]:
                kept[seat] = value
                if seen is None or seen[seat]:
                    self._put(at + seat * PER_SEAT, value)

    def _cells_changed(self, now: list[int], kept: list[int], at: int, none: int) -> set[int]:
        """A one-hot per cell (a kind, an owner; -1 is the slot ``none``) moved where it changed; the
        values it moved from and to (for the owners: the seats that gained or lost a cell), -1 left out."""
        width, put = self._width, self._put
        values: set[int] = set()
        for cell in changed(now, kept):
            before, value = kept[cell], now[cell]
            base = cell * width + at
            put(base + (before if before >= 0 else none), 0.0)
            put(base + (value if value >= 0 else none), 1.0)
            kept[cell] = value
            values.add(before)
            values.add(value)
        values.discard(-1)
        return values
