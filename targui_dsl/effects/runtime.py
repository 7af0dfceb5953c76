"""The interface between compiled effect code and a game.

Code compiled from the effect language calls only the methods below, on an
object passed in as ``rt``.  The engine's game state implements them; tests
may implement them on a small fake.  Method names are chosen by the compiler
from a fixed table (``targui_dsl.effects.compiler``), never taken from
ruleset text.

Identities are small integers:

- a territory is a board cell index, ``row * columns + column``;
- a player is a seat index, 0-based; "nobody" is ``None``;
- a kind is its index in ``CompiledRuleset.kinds``;
- a tribe is its index in ``CompiledRuleset.tribes``.

Mutations are total: they clamp instead of failing, so an effect can never
put the game into an impossible state.
"""

from __future__ import annotations

from typing import Iterable, Protocol

#: The largest amount a game stores: cash, treasury, a kind's value, a levy.
#: Rulesets and effect literals have the same cap, so no house rule (say a
#: levy of ``player.cash * player.cash``) can grow numbers without bound.
MAX_VALUE = 10**9


def clamp(amount: int) -> int:
    """An amount as the game stores it: between 0 and MAX_VALUE."""
    return min(MAX_VALUE, max(0, int(amount)))


class EffectRuntime(Protocol):
    # Collections ---------------------------------------------------------
    def all_territories(self) -> Iterable[int]:
        """Every cell of the board, in cell order."""

    def all_players(self) -> Iterable[int]:
        """Seats still in the game (owning at least one territory), in seat order."""

    def territories_of(self, player: int | None) -> Iterable[int]:
        """Cells owned by ``player``, in cell order; nothing for nobody."""

    def neighbours(self, territory: int) -> Iterable[int]:
        """Cells adjacent to ``territory`` on the board."""

    # Territory fields ----------------------------------------------------
    def kind(self, territory: int) -> int: ...

    def camels(self, territory: int) -> int: ...

    def owner(self, territory: int) -> int | None: ...

    def strategic(self, territory: int) -> int:
        """Current strategic value, round modifiers included."""

    def economic(self, territory: int) -> int:
        """Current economic value, round modifiers included."""

    def position(self, territory: int) -> int:
        """The printed position number of the cell (1 = the centre)."""

    def set_camels(self, territory: int, count: int) -> None:
        """Set the camels on a cell.

        Below zero reads as zero. Camels removed go back to the box. Camels
        added come from the box and are limited by what it holds; none are
        added to a cell that nobody owns or that is impassable.
        """

    # Player fields -------------------------------------------------------
    def tribe(self, player: int) -> int: ...

    def seat(self, player: int) -> int:
        """1-based seat number, as players count."""

    def cash(self, player: int) -> int: ...

    def set_cash(self, player: int, amount: int) -> None:
        """Clamped between 0 and MAX_VALUE."""

    def treasury(self, player: int) -> int: ...

    def set_treasury(self, player: int, amount: int) -> None:
        """Clamped between 0 and MAX_VALUE."""

    def player_camels(self, player: int) -> int:
        """Camels on every cell the player owns."""

    def settlement(self, player: int) -> int | None:
        """The cell holding this player's own settlement card (whoever owns it now)."""

    def holds_own_settlement(self, player: int) -> bool: ...

    # Kinds ---------------------------------------------------------------
    def kind_strategic(self, kind: int) -> int: ...

    def kind_economic(self, kind: int) -> int: ...

    def set_kind_value(self, kind: int, field: str, value: int, this_round: bool) -> None:
        """Change a kind's ``"strategic"`` or ``"economic"`` value.

        With ``this_round`` the change lasts until the end of the current
        round (after its levy); otherwise for the rest of the game.
        """

    # Globals -------------------------------------------------------------
    def round_number(self) -> int:
        """The current round, counting from 1."""

    def box(self) -> int:
        """Camels left in the box."""
