"""Setting up a position by hand: for tests, puzzles and teaching, never for play.

    state = settled_state(...)                  # any state
    edit = state.edit()                        # a PositionEditor over state.record
    edit.put(45, kind="guelta", owner=0, camels=20)
    edit.put(46, owner=1, camels=2)
    edit.set_cash(0, 30)

Each call keeps the invariants the engine relies on: camels come from and go
back to the box, each seat's list of cells follows the owners, the neighbour
tables follow the kinds. Nothing is logged and nobody is eliminated by an
edit: it arranges a position, it does not play it.
"""

from __future__ import annotations

from bisect import insort
from typing import Sequence

from targui_dsl.effects.runtime import clamp
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.rules_setup import fix_board, rebuild_buy_ids


class PositionEditor:
    """Arranges the position of one game's record (``state.edit()``)."""

    def __init__(self, record: TarguiRecord) -> None:
        self._record = record

    def put(self, position: int, kind: str | None = None, owner: int | None = None, camels: int | None = None,
            unowned: bool = False) -> int:
        """Set the card, the owner (a seat, or ``unowned=True``) and the camels of the cell
        at ``position``; returns the cell index."""
        state = self._record
        game = state.game
        cell = game.cell_of_position[position]
        if kind is not None:
            state.kind[cell] = game.kind_by_id[kind]
            if state.round > 0:
                fix_board(state)
        if unowned or owner is not None:
            previous = state.owner[cell]
            if previous >= 0:
                state.cells_of[previous].remove(cell)
            state.owner[cell] = -1 if unowned else owner  # type: ignore[assignment]
            if not unowned:
                insort(state.cells_of[owner], cell)  # type: ignore[index]
        if camels is not None:
            state.box += state.camels[cell] - camels
            state.camels[cell] = camels
        rebuild_buy_ids(state)  # the kind or the owner may have changed
        state.legal = None
        return cell

    def set_cash(self, seat: int, amount: int) -> None:
        self._record.cash[seat] = clamp(amount)
        self._record.legal = None

    def set_treasury(self, seat: int, amount: int) -> None:
        self._record.treasury[seat] = clamp(amount)

    def set_round(self, round_number: int) -> None:
        """Pretend the game is in round ``round_number`` (from a round's start)."""
        self._record.round = round_number

    def set_deck(self, card_ids: Sequence[str]) -> None:
        """The cards left in the deck (ids; the order does not matter: it is drawn at random)."""
        game = self._record.game
        self._record.deck = sorted(game.card_index[card_id] for card_id in card_ids)
