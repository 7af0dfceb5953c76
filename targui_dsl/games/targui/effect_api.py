"""Targui's side of the effect language at run time: the methods its vocabulary names.

Code compiled from a Targui snippet calls only these methods
(:data:`targui_dsl.games.targui.names.VOCABULARY`, ``runtime_methods``), on
an object passed in as ``rt``. The engine's game state implements them
(:mod:`targui_dsl.games.targui.runtime`); tests implement them on a small
fake.

Identities are small integers:

- a territory is a board cell index, ``row * columns + column``;
- a player is a seat index, 0-based; "nobody" is ``None``;
- a kind is its index in ``CompiledRuleset.kinds``;
- a tribe is its index in ``CompiledRuleset.tribes``.

Mutations are total: they clamp instead of failing, so an effect can never
put the game into an impossible state.
"""

from __future__ import annotations

from typing import Iterable, Protocol, Sequence


class EffectRuntime(Protocol):
    # Collections ---------------------------------------------------------
    def all_territories(self) -> Iterable[int]:
        """Every cell of the board, in cell order."""

    def all_players(self) -> Iterable[int]:
        """Seats still in the game (owning at least one territory), in seat order."""

    def all_seats(self) -> Iterable[int]:
        """Every seat at the table, out of the game or not, in seat order (``seats``)."""

    def territories_of(self, player: int | None) -> Iterable[int]:
        """Cells owned by ``player``, in cell order; nothing for nobody."""

    def neighbours(self, territory: int) -> Iterable[int]:
        """Cells adjacent to ``territory`` on the board."""

    def all_kinds(self) -> Iterable[int]:
        """Every territory kind, in ruleset order (``for k in kinds``)."""

    def territories_of_kind(self, kind: int) -> Sequence[int]:
        """The cells of ``kind``, in cell order (``for t in territories where t.kind == erg``)."""

    # Territory fields ----------------------------------------------------
    def kind(self, territory: int) -> int: ...

    def camels(self, territory: int) -> int: ...

    def passable(self, territory: int) -> bool:
        """Whether camels may stand on the cell (its kind is passable)."""

    def territory_kinds(self) -> Sequence[int]:
        """``kind`` of every cell, indexed by cell, kept up to date as the game changes: compiled
        code fetches it once per run and reads ``kinds[t]`` (it never writes through it)."""

    def territory_camels(self) -> Sequence[int]:
        """``camels`` of every cell, as ``territory_kinds``."""

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

    def set_owner(self, territory: int, player: int | None) -> None:
        """Give a cell to ``player``, or to nobody (``t.owner = ...``).

        The rules' invariants hold afterwards: an impassable cell (a chott)
        is never owned, so giving one away does nothing; a cell with camels
        always has an owner, so making such a cell ownerless sends its
        camels back to the box. Camels on a cell that changes owner change
        sides with it. A settlement card given away is captured, as in an
        attack (its tribe no longer holds its own settlement). A player
        left owning nothing is out of the game, as after an attack; a player
        out of the game who is given a cell owns territory again, so
        ``all_players`` lists them again.
        """

    def move_camels(self, source: int, target: int, count: int) -> int:
        """Move ``min(count, camels on source)`` camels from ``source`` to ``target``.

        Returns how many moved. Nothing moves when ``count`` is below 1,
        source and target are the same cell, or the target is impassable.
        The camels do not pass through the box (a low box does not matter).
        An unowned target becomes the source owner's; an owned target keeps
        its owner (the camels join that player). The source keeps its owner
        even when emptied.
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
        """Set a kind's ``"strategic"`` or ``"economic"`` value (``=``).

        A kind has a lasting value and a round value (what the game reads;
        it starts every round equal to the lasting one). With ``this_round``
        only the round value becomes ``value``, until the round-long changes
        expire at the end of the round. Without, both become ``value``.
        ``value`` is never negative (the compiler makes sure).
        """

    def add_kind_value(self, kind: int, field: str, delta: int, this_round: bool) -> None:
        """Add ``delta`` (may be negative) to a kind's value (``+=``, ``-=``).

        With ``this_round`` only the round value changes. Without, the delta
        is added to the lasting value *and* to the round value, each kept at
        0 or above: a round-long change never leaks into the lasting value
        (``reg.economic += 1 this round`` then ``reg.economic -= 1`` leaves
        reg at 1 for the rest of the game and at 2 until the round ends).
        """

    # Globals -------------------------------------------------------------
    def round_number(self) -> int:
        """The current round, counting from 1."""

    def box(self) -> int:
        """Camels left in the box."""

    def camel_price(self) -> int:
        """Silver per camel bought in the adding phase (``camel_price``)."""

    def round_die(self) -> int:
        """What the round's die showed (``round_die``); 0 before round 1's die."""

    def current_player(self) -> int | None:
        """Whose turn it is (``current_player``); None outside turns.

        During a turn: from its turn_start hooks to its turn_end hooks.
        (Mis)fortune cards are revealed between turns: None for them.
        """

    def cards_left(self) -> int:
        """(Mis)fortune cards still in the deck (``cards_left``), this round's unrevealed ones included."""

    def rounds_played(self) -> int:
        """Rounds over before the current one (``rounds_played``)."""

    def rounds_left(self) -> int:
        """Rounds still to come after the current one, the deck drawn at its rate (``rounds_left``)."""

    # Declared memory (a ruleset's `memory:`) ----------------------------------
    def memory(self, slot: int, holder: int | None) -> int | bool:
        """Slot ``slot``'s value for a seat or a cell (``holder``; None for memory of the game):
        a number, or a flag as a bool; 0 or false through nobody."""

    def set_memory(self, slot: int, holder: int | None, value: int) -> None:
        """Set it: clamped to its bounds or the change refused (the slot says); nothing through nobody."""

    # The end -------------------------------------------------------------
    def end_game(self, reason: str) -> None:
        """``end game "reason"``: the game ends now, scored as at the deck's end, with ``reason``."""
