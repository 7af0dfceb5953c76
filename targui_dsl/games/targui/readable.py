"""Readable actions -> the engine's steps: ``move 25 24 5`` is the move pair, then the
count; ``deposit 300`` the count's base-256 digits. Each step is checked before any is
applied, with a message a player can act on. Used by ``GameState.actions_from_text``
(the terminal, logs and ``apply_action(str)``); the engine's own steps never come here.
"""

from __future__ import annotations

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
from targui_dsl.games.targui.flow import buy_limit, defended, legal_actions, outcome_from_words, settle_cells
from targui_dsl.games.targui.phases import (
    ATTACK_CHOICE,
    BUY_CELL,
    DEPOSIT,
    EFFECT_CHOICE,
    IS_CHANCE,
    IS_COUNT,
    MOVE,
    OVER,
    SECTOR,
    SETTLE,
)
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.texts import action_to_string, count_verb, expecting, why_illegal

#: The verbs of readable decisions, as the terminal and logs write them.
DECISION_VERBS = ("again", "attack", "buy", "choose", "count", "deposit", "enter", "give up", "move", "pass", "sector",
                  "settle")



def steps_from_text(r: TarguiRecord, text: str) -> list[int]:
    """The steps a readable action stands for at this node, each checked before any
    is applied (``move 25 24 5`` -> the pair, then the count)."""
    w = words(text)
    if not w:
        raise IllegalAction("empty action")
    if IS_CHANCE[r.phase]:
        return [outcome_from_words(r, w, text)]
    if r.phase == OVER:
        raise IllegalAction("the game is over")
    steps: list[int] = []
    phase = r.phase
    verb = w[0]
    if verb == "give" and w[1:2] == ["up"]:
        verb, w = "give up", ["give up", *w[2:]]
    if phase == DEPOSIT and verb not in ("deposit", "count"):
        # moving or passing without a deposit deposits nothing
        steps.extend(_count_steps(0, r.count_lo, r.count_hi, r.count_prefix,
                                       r.count_digits, "finish the deposit first"))
        phase = MOVE
    space = r.game.actions
    args = w[1:]

    def legal_here(action: int, at: int) -> int:
        if at == r.phase and action not in legal_actions(r):
            raise IllegalAction(why_illegal(r, action))
        return action

    if verb == "pass" and not args and phase in (MOVE, BUY_CELL):
        steps.append(legal_here(PASS, phase))
    elif verb in ("again", "give up") and not args and phase == ATTACK_CHOICE:
        steps.append(AGAIN if verb == "again" else GIVE_UP)
    elif verb in ("move", "attack") and phase == MOVE and len(args) in (2, 3):
        source, target = _cell(r, args[0], text), _cell(r, args[1], text)
        pair = r.game.pair_id[source].get(target)
        if pair is None or r.owner[source] != r.player:
            raise IllegalAction(f"cannot move from {args[0]} to {args[1]}"
                                + (" (not yours)" if r.owner[source] != r.player else " (not adjacent)"))
        if pair not in r.move_ids[source]:
            raise IllegalAction(f"cannot move from {args[0]} to {args[1]} (impassable)")
        if not r.camels[source]:
            raise IllegalAction(f"no camels on {args[0]}")
        attack = defended(r, target)
        if attack and (verb == "move" or len(args) == 3):
            raise IllegalAction(f"{args[1]} is defended: attack it (attack {args[0]} {args[1]})")
        if not attack and verb == "attack":
            raise IllegalAction(f"{args[1]} holds no enemy camels: move there instead")
        steps.append(pair)
        if len(args) == 3:
            steps.extend(_count_steps(plain_number(args[2], text), 1, r.camels[source], 0, 0,
                                           f"can move 1..{r.camels[source]} camels from {args[0]}"))
    elif verb == "buy" and phase == BUY_CELL and len(args) in (2, 3):
        # buy 5 on 12 | buy 5 12 | buy on 12 (the cell only: the count comes next)
        count_word = None if args[0] == "on" else args[0]
        cell_words = [a for a in args[1:] if a != "on"] if count_word is not None else args[1:]
        if len(cell_words) != 1:
            raise IllegalAction("try `buy 5 on 12`")
        cell = _cell(r, cell_words[0], text)
        limit = buy_limit(r)
        if not limit:
            raise IllegalAction("cannot buy any camels now")
        if space.cell(cell) not in legal_actions(r):
            raise IllegalAction(f"cannot place camels on {cell_words[0]}")
        steps.append(space.cell(cell))
        if count_word is not None:
            steps.extend(_count_steps(plain_number(count_word, text), 1, limit, 0, 0,
                                           f"can buy 1..{limit} camels now"))
    elif verb in ("deposit", "count", "enter") and len(args) == 1 and IS_COUNT[phase]:
        expected = count_verb(phase)
        if verb not in ("count", expected):
            raise IllegalAction(f"`{text.strip()}` is not an action here: {expecting(r)}")
        steps.extend(_count_steps_here(r, args[0], text))
    elif verb == "sector" and len(args) == 1 and phase == SECTOR:
        index = r.game.sector_by_id.get(args[0])
        if index is None:
            raise IllegalAction(f"no sector `{args[0]}` (sectors: {', '.join(r.game.sector_ids)})")
        steps.append(legal_here(space.sector(index), phase))
    elif verb == "settle" and len(args) == 1 and phase == SETTLE:
        cell = _cell(r, args[0], text)
        if cell not in settle_cells(r):
            pos = r.game.position_of_cell
            allowed = " ".join(str(pos[c]) for c in sorted(settle_cells(r), key=pos.__getitem__))
            raise IllegalAction(f"cannot settle on {args[0]} (allowed: {allowed})")
        steps.append(space.cell(cell))
    elif verb == "choose" and len(args) == 1 and phase == EFFECT_CHOICE:
        # each option as words() reads a typed one (`choose -3` reads as `_3`), so the two compare
        wanted = {words(action_to_string(r, a))[1]: a for a in legal_actions(r)}
        if args[0] not in wanted:
            shown = ", ".join(action_to_string(r, a).split()[1] for a in legal_actions(r))
            raise IllegalAction(f"cannot choose {args[0]} (choices: {shown})")
        steps.append(wanted[args[0]])
    elif verb == "deposit" and not r.game.treasury:
        raise IllegalAction("this ruleset has no treasury")
    elif verb not in DECISION_VERBS:
        raise IllegalAction(f"unknown action `{w[0]}` (actions: {', '.join(DECISION_VERBS)})")
    else:
        raise IllegalAction(f"`{text.strip()}` is not an action here: {expecting(r)}")
    return steps

def _count_steps_here(r: TarguiRecord, word: str, text: str) -> list[int]:
    """The rest of the count being chosen now: ``300`` (the count) or ``256..511`` (one digit)."""
    lo, hi, prefix, digits = r.count_lo, r.count_hi, r.count_prefix, r.count_digits
    if ".." in word and digits > 1:
        low_text = word.split("..")[0]
        value = plain_number(low_text, text)
        scale = COUNT_RADIX ** (digits - 1)
        digit = value // scale - prefix * COUNT_RADIX
        low, high = digit_range(lo, hi, prefix, digits)
        if not low <= digit <= high:
            raise IllegalAction(f"`{text.strip()}` is not legal now ({expecting(r)})")
        return [COUNT_BASE + digit]
    value = plain_number(word, text)
    return _count_steps(value, lo, hi, prefix, digits, expecting(r))

def _count_steps(value: int, lo: int, hi: int, prefix: int, digits: int, meaning: str) -> list[int]:
    """The digit steps choosing ``value`` from ``lo..hi`` (``digits`` 0: a count not begun).
    A step with a single possible digit is left out: the engine takes it by itself."""
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

def _cell(r: TarguiRecord, word: str, text: str) -> int:
    cell = r.game.cell_of_position.get(plain_number(word, text))
    if cell is None:
        raise IllegalAction(f"no position {word} on the board")
    return cell
