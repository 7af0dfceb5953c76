"""The game state's side of :class:`targui_dsl.effects.runtime.EffectRuntime`.

Compiled card effects and formulas receive the game state itself as ``rt``
and call these methods. Identities are ints: cells, seats, kind and tribe
indices. Mutations clamp instead of failing, and keep the camel box exact:
every camel removed goes back to the box, every camel added comes out of it.
"""

from __future__ import annotations

from ..effects.runtime import clamp

STRATEGIC = "strategic"
ECONOMIC = "economic"


class RuntimeMixin:
    """Needs the flat fields of :class:`targui_dsl.engine.state.GameState`."""

    __slots__ = ()

    # Collections ---------------------------------------------------------
    def all_territories(self):
        return range(self.game.cells)

    def all_players(self):
        owned = self.owned_count
        return [p for p in range(len(owned)) if owned[p] > 0]

    def all_seats(self):
        return range(len(self.owned_count))

    def territories_of(self, player):
        if player is None:
            return []
        owner = self.cell_owner
        return [c for c in range(len(owner)) if owner[c] == player]

    def neighbours(self, territory):
        return self.game.neighbours[territory]

    # Territory fields ----------------------------------------------------
    def kind(self, territory):
        return self.cell_kind[territory]

    def camels(self, territory):
        return self.cell_camels[territory]

    def owner(self, territory):
        owner = self.cell_owner[territory]
        return None if owner < 0 else owner

    def strategic(self, territory):
        kind = self.cell_kind[territory]
        return self.kind_strategic_now[kind] if kind >= 0 else 0

    def economic(self, territory):
        kind = self.cell_kind[territory]
        return self.kind_economic_now[kind] if kind >= 0 else 0

    def position(self, territory):
        return self.game.position_of_cell[territory]

    def set_camels(self, territory, count):
        count = max(0, int(count))
        have = self.cell_camels[territory]
        if count < have:
            self.cell_camels[territory] = count
            self.camels_in_box += have - count
        elif count > have:
            kind = self.cell_kind[territory]
            if self.cell_owner[territory] < 0 or kind < 0 or not self.game.kind_passable[kind]:
                return
            added = min(count - have, self.camels_in_box)
            self.cell_camels[territory] = have + added
            self.camels_in_box -= added

    # Player fields -------------------------------------------------------
    def tribe(self, player):
        return self.game.seat_tribes[player]

    def seat(self, player):
        return player + 1

    def cash(self, player):
        return 0 if player is None else self.player_cash[player]

    def set_cash(self, player, amount):
        if player is not None:
            self.player_cash[player] = clamp(amount)

    def treasury(self, player):
        return 0 if player is None else self.player_treasury[player]

    def set_treasury(self, player, amount):
        if player is not None:
            self.player_treasury[player] = clamp(amount)

    def player_camels(self, player):
        if player is None:
            return 0
        owner, camels = self.cell_owner, self.cell_camels
        return sum(camels[c] for c in range(len(owner)) if owner[c] == player)

    def settlement(self, player):
        if player is None:
            return None
        cell = self.settlement_cell[player]
        return None if cell < 0 else cell

    def holds_own_settlement(self, player):
        if player is None:
            return False
        cell = self.settlement_cell[player]
        return cell >= 0 and self.cell_owner[cell] == player

    # Kinds ---------------------------------------------------------------
    def kind_strategic(self, kind):
        return self.kind_strategic_now[kind]

    def kind_economic(self, kind):
        return self.kind_economic_now[kind]

    def set_kind_value(self, kind, field, value, this_round):
        if field == STRATEGIC:
            now, lasting = self.kind_strategic_now, self.kind_strategic_lasting
        elif field == ECONOMIC:
            now, lasting = self.kind_economic_now, self.kind_economic_lasting
        else:
            raise ValueError(f"a kind has no field {field!r}")
        value = clamp(value)
        now[kind] = value
        if not this_round:
            lasting[kind] = value

    # Globals -------------------------------------------------------------
    def round_number(self):
        return self.round

    def box(self):
        return self.camels_in_box
