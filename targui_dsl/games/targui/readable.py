"""Readable actions -> the engine's steps: ``move 25 24 5`` is the move pair, then the
count; ``deposit 300`` the count's base-256 digits. Each step is checked before any is
applied, with a message a player can act on. Used by ``GameState.actions_from_text``
(the terminal, logs and ``apply_action(str)``); the engine's own steps never come here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from targui_dsl.games.targui.actions import (
    AGAIN,
    COUNT_BASE,
    COUNT_RADIX,
    GIVE_UP,
    PASS,
    IllegalAction,
    count_digits,
    digit_range,
    plain_number,
    words,
)
from targui_dsl.games.targui.phases import IS_CHANCE, IS_COUNT, Phase

if TYPE_CHECKING:  # pragma: no cover
    from targui_dsl.games.targui.state import GameState

#: The verbs of readable decisions, as the terminal and logs write them.
DECISION_VERBS = ("again", "attack", "buy", "choose", "count", "deposit", "enter", "give up", "move", "pass", "sector",
                  "settle")

_SECTOR, _SETTLE, _DEPOSIT, _MOVE = int(Phase.SECTOR), int(Phase.SETTLE), int(Phase.DEPOSIT), int(Phase.MOVE)
_ATTACK_CHOICE, _ENTER, _BUY_CELL = int(Phase.ATTACK_CHOICE), int(Phase.ENTER), int(Phase.BUY_CELL)
_OVER, _EFFECT_CHOICE = int(Phase.OVER), int(Phase.EFFECT_CHOICE)


def steps_from_text(state: "GameState", text: str) -> list[int]:
    """The steps a readable action stands for at this node, each checked before any
    is applied (``move 25 24 5`` -> the pair, then the count)."""
    w = words(text)
    if not w:
        raise IllegalAction("empty action")
    if IS_CHANCE[state._phase]:
        return [state._outcome_from_words(w, text)]
    if state._phase == _OVER:
        raise IllegalAction("the game is over")
    steps: list[int] = []
    phase = state._phase
    verb = w[0]
    if verb == "give" and w[1:2] == ["up"]:
        verb, w = "give up", ["give up", *w[2:]]
    if phase == _DEPOSIT and verb not in ("deposit", "count"):
        # moving or passing without a deposit deposits nothing
        steps.extend(_count_steps(0, state._count_lo, state._count_hi, state._count_prefix,
                                       state._count_digits, "finish the deposit first"))
        phase = _MOVE
    space = state._game.actions
    args = w[1:]

    def legal_here(action: int, at: int) -> int:
        if at == state._phase and action not in state.legal_actions():
            raise IllegalAction(state._why_illegal(action))
        return action

    if verb == "pass" and not args and phase in (_MOVE, _BUY_CELL):
        steps.append(legal_here(PASS, phase))
    elif verb in ("again", "give up") and not args and phase == _ATTACK_CHOICE:
        steps.append(AGAIN if verb == "again" else GIVE_UP)
    elif verb in ("move", "attack") and phase == _MOVE and len(args) in (2, 3):
        source, target = _cell(state, args[0], text), _cell(state, args[1], text)
        pair = state._game.pair_id[source].get(target)
        if pair is None or state._owner[source] != state._player:
            raise IllegalAction(f"cannot move from {args[0]} to {args[1]}"
                                + (" (not yours)" if state._owner[source] != state._player else " (not adjacent)"))
        if pair not in state._move_ids[source]:
            raise IllegalAction(f"cannot move from {args[0]} to {args[1]} (impassable)")
        if not state._camels[source]:
            raise IllegalAction(f"no camels on {args[0]}")
        attack = state.defended(target)
        if attack and (verb == "move" or len(args) == 3):
            raise IllegalAction(f"{args[1]} is defended: attack it (attack {args[0]} {args[1]})")
        if not attack and verb == "attack":
            raise IllegalAction(f"{args[1]} holds no enemy camels: move there instead")
        steps.append(pair)
        if len(args) == 3:
            steps.extend(_count_steps(plain_number(args[2], text), 1, state._camels[source], 0, 0,
                                           f"can move 1..{state._camels[source]} camels from {args[0]}"))
    elif verb == "buy" and phase == _BUY_CELL and len(args) in (2, 3):
        # buy 5 on 12 | buy 5 12 | buy on 12 (the cell only: the count comes next)
        count_word = None if args[0] == "on" else args[0]
        cell_words = [a for a in args[1:] if a != "on"] if count_word is not None else args[1:]
        if len(cell_words) != 1:
            raise IllegalAction("try `buy 5 on 12`")
        cell = _cell(state, cell_words[0], text)
        limit = state.buy_limit()
        if not limit:
            raise IllegalAction("cannot buy any camels now")
        if not state.may_buy_on(cell):
            raise IllegalAction(f"cannot place camels on {cell_words[0]}")
        steps.append(space.cell(cell))
        if count_word is not None:
            steps.extend(_count_steps(plain_number(count_word, text), 1, limit, 0, 0,
                                           f"can buy 1..{limit} camels now"))
    elif verb in ("deposit", "count", "enter") and len(args) == 1 and IS_COUNT[phase]:
        expected = {_DEPOSIT: "deposit", _ENTER: "enter"}.get(phase, "count")
        if verb not in ("count", expected):
            raise IllegalAction(f"`{text.strip()}` is not an action here: {state.expecting()}")
        steps.extend(_count_steps_here(state, args[0], text))
    elif verb == "sector" and len(args) == 1 and phase == _SECTOR:
        index = state._game.sector_by_id.get(args[0])
        if index is None:
            raise IllegalAction(f"no sector `{args[0]}` (sectors: {', '.join(state._game.sector_ids)})")
        steps.append(legal_here(space.sector(index), phase))
    elif verb == "settle" and len(args) == 1 and phase == _SETTLE:
        cell = _cell(state, args[0], text)
        if cell not in state.settle_cells():
            pos = state._game.position_of_cell
            allowed = " ".join(str(pos[c]) for c in sorted(state.settle_cells(), key=pos.__getitem__))
            raise IllegalAction(f"cannot settle on {args[0]} (allowed: {allowed})")
        steps.append(space.cell(cell))
    elif verb == "choose" and len(args) == 1 and phase == _EFFECT_CHOICE:
        wanted = {state.action_to_string(a).split()[1]: a for a in state.legal_actions()}
        if args[0] not in wanted:
            raise IllegalAction(f"cannot choose {args[0]} (choices: {', '.join(wanted)})")
        steps.append(wanted[args[0]])
    elif verb == "deposit" and not state._game.treasury:
        raise IllegalAction("this ruleset has no treasury")
    elif verb not in DECISION_VERBS:
        raise IllegalAction(f"unknown action `{w[0]}` (actions: {', '.join(DECISION_VERBS)})")
    else:
        raise IllegalAction(f"`{text.strip()}` is not an action here: {state.expecting()}")
    return steps

def _count_steps_here(state: "GameState", word: str, text: str) -> list[int]:
    """The rest of the count being chosen now: ``300`` (the count) or ``256..511`` (one digit)."""
    lo, hi, prefix, digits = state._count_lo, state._count_hi, state._count_prefix, state._count_digits
    if ".." in word and digits > 1:
        low_text = word.split("..")[0]
        value = plain_number(low_text, text)
        scale = COUNT_RADIX ** (digits - 1)
        digit = value // scale - prefix * COUNT_RADIX
        low, high = digit_range(lo, hi, prefix, digits)
        if not low <= digit <= high:
            raise IllegalAction(f"`{text.strip()}` is not legal now ({state.expecting()})")
        return [COUNT_BASE + digit]
    value = plain_number(word, text)
    return _count_steps(value, lo, hi, prefix, digits, state.expecting())

def _count_steps(value: int, lo: int, hi: int, prefix: int, digits: int, meaning: str) -> list[int]:
    """The digit steps choosing ``value`` from ``lo..hi`` (``digits`` 0: a count not begun).
    A step with a single possible digit is left out: the engine takes it by itstate."""
    if digits == 0:
        digits = count_digits(hi)
    if not lo <= value <= hi or value // COUNT_RADIX ** digits != prefix:
        raise IllegalAction(f"{meaning}, not {value}")
    steps = []
    for k in range(digits, 0, -1):
        low, high = digit_range(lo, hi, prefix, k)
        digit = (value // COUNT_RADIX ** (k - 1)) % COUNT_RADIX
        if low != high:
            steps.append(COUNT_BASE + digit)
        prefix = prefix * COUNT_RADIX + digit
    return steps

def _cell(state: "GameState", word: str, text: str) -> int:
    cell = state._game.cell_of_position.get(plain_number(word, text))
    if cell is None:
        raise IllegalAction(f"no position {word} on the board")
    return cell
