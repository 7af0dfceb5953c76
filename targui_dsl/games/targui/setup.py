"""Setting up a position by hand: for tests, puzzles and teaching, never for play.

    state = settled_state(...)                  # any state
    edit = PositionEditor(state)               # or state.edit()
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
from typing import TYPE_CHECKING, Sequence

from targui_dsl.effects.runtime import clamp

if TYPE_CHECKING:  # pragma: no cover
    from targui_dsl.games.targui.state import GameState


class PositionEditor:
    def __init__(self, state: "GameState") -> None:
        self._state = state

    def put(self, position: int, kind: str | None = None, owner: int | None = None, camels: int | None = None,
            unowned: bool = False) -> int:
        """Set the card, the owner (a seat, or ``unowned=True``) and the camels of the cell
        at ``position``; returns the cell index."""
        state = self._state
        game = state.game
        cell = game.cell_of_position[position]
        if kind is not None:
            state._kind[cell] = game.kind_by_id[kind]
            if state._round > 0:
                state._fix_board()
        if unowned or owner is not None:
            previous = state._owner[cell]
            if previous >= 0:
                state._cells_of[previous].remove(cell)
            state._owner[cell] = -1 if unowned else owner  # type: ignore[assignment]
            if not unowned:
                insort(state._cells_of[owner], cell)  # type: ignore[index]
        if camels is not None:
            state._box += state._camels[cell] - camels
            state._camels[cell] = camels
        state._rebuild_buy_ids()  # the kind or the owner may have changed
        state._legal = None
        return cell

    def set_cash(self, seat: int, amount: int) -> None:
        self._state._cash[seat] = clamp(amount)
        self._state._legal = None

    def set_treasury(self, seat: int, amount: int) -> None:
        self._state._treasury[seat] = clamp(amount)

    def set_round(self, round_number: int) -> None:
        """Pretend the game is in round ``round_number`` (from a round's start)."""
        self._state._round = round_number

    def set_deck(self, card_ids: Sequence[str]) -> None:
        """The cards left in the deck (ids; the order does not matter: it is drawn at random)."""
        game = self._state.game
        self._state._deck = sorted(game.card_index[card_id] for card_id in card_ids)
