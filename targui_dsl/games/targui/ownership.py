"""Who owns what, who is still in the game, and the game's end.

Handlers over a :class:`~targui_dsl.games.targui.record.TarguiRecord`.
:func:`set_owner` is the one way land changes hands (the rules, the effect
adapter); it reports when only one seat is left standing, and the caller
then ends the game with :func:`finish`.
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Final

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.engine.native import compiled
from targui_dsl.games.targui.phases import OVER
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.told import END, TELLS_ELIMINATED, TELLS_END

#: Whether this module runs compiled (setup.py's COMPILED): the sorted lists' insertions and
#: removals are then written out (insort and list.remove compared ints as objects, by a call each).
COMPILED: Final = compiled(__file__)


def cap_score(value: int) -> int:
    """A score or tie-break value as the game stores it: within -MAX_VALUE..MAX_VALUE."""
    return max(-MAX_VALUE, min(MAX_VALUE, int(value)))


def seats_in_game(r: TarguiRecord) -> list[int]:
    return [s for s in range(r.game.players) if r.cells_of[s]]


def in_game(r: TarguiRecord, seat: int) -> bool:
    """Whether the seat still owns territory (always true during setup)."""
    return r.round == 0 or bool(r.cells_of[seat])


def holds_own_settlement(r: TarguiRecord, seat: int) -> bool:
    cell = r.settlement[seat]
    return cell >= 0 and r.owner[cell] == seat


def may_win(r: TarguiRecord, seat: int) -> bool:
    """Whether the seat may win on score: in the game, and holding its own settlement
    where the ruleset requires it (the one home of that rule: the end and its screen)."""
    return in_game(r, seat) and (holds_own_settlement(r, seat) or not r.game.ruleset.own_settlement_required_to_win)


def set_owner(r: TarguiRecord, cell: int, seat: int) -> bool:
    """``cell`` now belongs to ``seat`` (-1 nobody), each seat's cell and `buy on` lists kept.
    True when this left a single seat standing after setup: the caller ends the game."""
    previous = r.owner[cell]
    if previous == seat:
        return False
    r.owner[cell] = seat
    game = r.game
    buyable = game.kind_buyable[r.kind[cell]]
    if seat >= 0:
        if COMPILED:
            insert_sorted(r.cells_of[seat], cell)
            if buyable:
                insert_sorted(r.buy_ids[seat], game.cell_base + cell)
        else:
            insort(r.cells_of[seat], cell)
            if buyable:
                insort(r.buy_ids[seat], game.cell_base + cell)
    if previous < 0:
        return False
    left = r.cells_of[previous]
    if COMPILED:
        remove_value(left, cell)
        if buyable:
            remove_value(r.buy_ids[previous], game.cell_base + cell)
    else:
        left.remove(cell)
        if buyable:
            r.buy_ids[previous].remove(game.cell_base + cell)
    if left:
        return False
    r.stack_left -= r.stack_turns[previous]
    r.stack_turns[previous] = 0  # an eliminated player's tribal cards are void
    if r.tell_bits & TELLS_ELIMINATED:
        r.told((r.seat_kinds.eliminated[previous], r.round))
    return r.round > 0 and sum(1 for cells in r.cells_of if cells) == 1


def insert_sorted(values: list[int], value: int) -> None:
    """``insort(values, value)`` written out, for the compiled build (a seat's list is short:
    searched from its end)."""
    at = len(values)
    while at and values[at - 1] > value:
        at -= 1
    values.insert(at, value)


def remove_value(values: list[int], value: int) -> None:
    """``values.remove(value)`` written out, for the compiled build (``value`` is in the list)."""
    at = 0
    while values[at] != value:
        at += 1
    del values[at]


def how_it_ended(reason: str) -> str:
    """An end's reason in words: the end screen's and the story's (an `end game` gives its own)."""
    return {"last_standing": "only one player owns territory", "deck": "the deck ran out"}.get(reason, reason)


def finish(r: TarguiRecord, rt: Any, reason: str) -> None:
    """The game ends (``"deck"``, ``"last_standing"``, or the reason of an effect's `end game`,
    scored like the deck's end): final scores, tie-breaks, winners."""
    game = r.game
    seats = range(game.players)
    scores = [cap_score(game.score(rt, s)) for s in seats]
    tie_breaks = [[cap_score(tb(rt, s)) for tb in game.tie_breaks] for s in seats]
    standing = seats_in_game(r)
    if reason == "last_standing":
        winners = list(standing)
    else:
        eligible = [s for s in standing if may_win(r, s)]
        if eligible:
            key = {s: (scores[s], *tie_breaks[s]) for s in eligible}
            best = max(key.values())
            winners = [s for s in eligible if key[s] == best]
        else:
            winners = list(standing)  # nobody may win: a draw among those still playing
    r.final_scores, r.final_tie_breaks, r.winners = scores, tie_breaks, winners
    r.end_reason = reason
    r.phase = OVER
    if r.tell_bits & TELLS_END:
        ids = game.tribe_ids
        r.told_last((END, reason, r.round, {ids[s]: scores[s] for s in seats}, {ids[s]: tie_breaks[s] for s in seats},
                [ids[s] for s in winners], len(winners) != 1))
