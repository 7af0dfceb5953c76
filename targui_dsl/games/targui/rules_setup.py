"""Setup: sectors, the deal, settling; and the board tables fixed once every card lies.

Handlers over a :class:`~targui_dsl.games.targui.record.TarguiRecord`; each
returns the phase the game goes on in (:mod:`.flow` sets it).
"""

from __future__ import annotations

from typing import Final

from targui_dsl.effects.runtime import clamp
from targui_dsl.engine.native import compiled
from targui_dsl.games.targui.ownership import finish, set_owner
from targui_dsl.games.targui.phases import DEAL, ROUND_DIE, SECTOR, SETTLE
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.rules_effects import run_hooks
from targui_dsl.games.targui.runtime import runtime_of

#: Whether this module runs compiled (setup.py's COMPILED): a search written out is then the faster.
COMPILED: Final = compiled(__file__)


def pick_sector(r: TarguiRecord, sector: int) -> int:
    r.sector[r.setup_seat] = sector
    r.setup_seat += 1
    if r.setup_seat < r.game.players:
        return SECTOR
    r.setup_seat = 0
    return DEAL


def deal(r: TarguiRecord, kind: int) -> int:
    """One card of ``kind`` onto the next position of the deal (flow.deal_all: every card at once)."""
    game = r.game
    r.kind[game.deal_cells[r.deal_next]] = kind
    r.deal_pool[kind] -= 1
    r.deal_next += 1
    if r.deal_next < len(game.deal_cells):
        return DEAL
    return dealt(r)


def dealt(r: TarguiRecord) -> int:
    """Every position has its card: cards left over (a house rule with more cards than
    positions) stay in the box, and the first seat settles."""
    r.deal_pool = [0] * len(r.deal_pool)
    r.setup_seat = 0
    return SETTLE


def settle(r: TarguiRecord, cell: int) -> int:
    game = r.game
    seat = r.setup_seat
    # the card on the cell leaves the game; the settlement takes its place
    r.kind[cell] = game.settlement_kind
    r.settlement[seat] = cell
    rt = runtime_of(r)
    if set_owner(r, cell, seat):  # never during setup (round 0); kept for the rule's sake
        finish(r, rt, "last_standing")
    rt.set_camels(cell, game.start_camels[seat])
    r.cash[seat] = clamp(game.start_cash[seat])
    r.setup_seat += 1
    if r.setup_seat < game.players:
        return SETTLE
    fix_board(r)
    r.round = 1
    r.phase = ROUND_DIE  # the game_start hooks run at the round's die: a pause there resumes at it
    run_hooks(r, "game_start")
    return r.phase


def rebuild_buy_ids(r: TarguiRecord) -> None:
    """Each seat's `buy on` ids from its cells and their kinds (after a load or an edit)."""
    game = r.game
    base, buyable, kind = game.cell_base, game.kind_buyable, r.kind
    r.buy_ids = [[base + cell for cell in cells if buyable[kind[cell]]] for cells in r.cells_of]


def fix_board(r: TarguiRecord) -> None:
    """The pair ids to passable neighbours, per cell: fixed once every card lies."""
    game = r.game
    passable = game.kind_passable
    closed = [cell for cell, kind in enumerate(r.kind) if kind < 0 or not passable[kind]]
    move_ids = list(game.move_ids)  # every pair; then the few ways into a closed cell go
    pair_id = game.pair_id
    for cell in closed:
        for source in game.sources_into[cell]:
            # the one pair from source into cell leaves, the others keep their order (two
            # slices joined in C: a game's ~30 such cuts were a twentieth of a short game)
            ids = move_ids[source]
            pair = pair_id[source][cell]
            at = index_of(ids, pair) if COMPILED else ids.index(pair)
            move_ids[source] = ids[:at] + ids[at + 1:]
    r.move_ids = tuple(move_ids)


def index_of(ids: tuple[int, ...], pair: int) -> int:
    """``ids.index(pair)`` written out, for the compiled build: compiled, the method was a call
    by name (a game's ~24 cuts cost 1.3% of a later compiled updated-treasury 2-player game)."""
    at = 0
    while ids[at] != pair:
        at += 1
    return at
