"""The words of a node: an action id as a player writes it, what a decision asks for,
and why an action is not legal now."""

from __future__ import annotations

from targui_dsl.games.targui.actions import AGAIN, COUNT_RADIX, GIVE_UP, PASS, SECTOR_BASE, digit_range
from targui_dsl.games.targui.flow import choice_ids, choice_text, defended, outcome_text
from targui_dsl.games.targui.phases import (
    ATTACK_CHOICE,
    BUY_CELL,
    BUY_COUNT,
    DEPOSIT,
    EFFECT_CHOICE,
    ENTER,
    IS_CHANCE,
    IS_COUNT,
    LABELS,
    MOVE,
    MOVE_COUNT,
    OVER,
    SECTOR,
    SETTLE,
)
from targui_dsl.games.targui.record import TarguiRecord

_COUNT_VERB = {DEPOSIT: "deposit", ENTER: "enter"}
_COUNT_ASKS = {DEPOSIT: "how much to deposit", MOVE_COUNT: "how many camels move",
               ENTER: "how many camels enter", BUY_COUNT: "how many camels to buy"}
_ASKS = {SECTOR: "pick a sector", SETTLE: "settle", MOVE: "move, attack or pass",
         ATTACK_CHOICE: "again or give up", BUY_CELL: "buy on a cell, or pass",
         EFFECT_CHOICE: "choose (an effect asks)", OVER: "nothing: the game is over"}


def count_verb(phase: int) -> str:
    """The verb a count is written with at ``phase``: ``deposit``, ``enter`` or ``count``."""
    return _COUNT_VERB.get(phase, "count")


def action_to_string(r: TarguiRecord, action: int) -> str:
    """The readable form of an action id at this node."""
    game = r.game
    space = game.actions
    pos = game.position_of_cell
    phase = r.phase
    if IS_CHANCE[phase]:
        return outcome_text(r, action)
    if phase == EFFECT_CHOICE:
        answer = choice_ids(r).get(action)
        return f"action {action}" if answer is None else f"choose {choice_text(r, answer)}"
    if action == PASS:
        return "pass"
    if action == AGAIN:
        return "again"
    if action == GIVE_UP:
        return "give up"
    if space.is_count(action):
        return f"{count_verb(phase)} {count_text(r, space.count_value(action))}"
    if SECTOR_BASE <= action < space.cell_base:
        return f"sector {game.sector_ids[space.sector_index(action)]}"
    if space.is_cell(action):
        verb = "settle" if phase == SETTLE else "buy on"
        return f"{verb} {pos[space.cell_of(action)]}"
    if space.is_pair(action):
        source, target = space.pair_of(action)
        verb = "attack" if phase == MOVE and defended(r, target) else "move"
        return f"{verb} {pos[source]} {pos[target]}"
    if space.is_seat(action):
        return f"choose {game.tribe_ids[space.seat_of(action)]}"
    return f"action {action}"


def count_text(r: TarguiRecord, digit: int) -> str:
    """A count step's value as text: the count itself, or the range a digit narrows to."""
    value = r.count_prefix * COUNT_RADIX + digit
    if r.count_digits <= 1:
        return str(value)
    scale = COUNT_RADIX ** (r.count_digits - 1)
    low = max(r.count_lo, value * scale)
    high = min(r.count_hi, value * scale + scale - 1)
    return f"{low}..{high}"


def expecting(r: TarguiRecord) -> str:
    """What the current decision asks for, in words."""
    phase = r.phase
    if IS_COUNT[phase]:
        low, high = digit_range(r.count_lo, r.count_hi, r.count_prefix, r.count_digits)
        return f"{_COUNT_ASKS[phase]}: {count_text(r, low)} to {count_text(r, high)}"
    return _ASKS.get(phase, f"a chance outcome ({LABELS[phase]})")


def why_illegal(r: TarguiRecord, action: int) -> str:
    """Why ``action`` is not legal at this node, in words a player can act on."""
    if r.phase == OVER:
        return "the game is over"
    if IS_CHANCE[r.phase]:
        return f"{action} is not an outcome of this chance node ({LABELS[r.phase]})"
    if not 0 <= action < r.game.num_distinct_actions():
        return f"no action {action} (ids are 0..{r.game.num_distinct_actions() - 1})"
    return f"`{action_to_string(r, action)}` is not legal now ({expecting(r)})"
