"""Deposits, attacks and their dice, entering a taken cell.

Handlers over a :class:`~targui_dsl.games.targui.record.TarguiRecord`; each
returns the phase the game goes on in (:mod:`.flow` sets it).
"""

from __future__ import annotations

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.games.targui.ownership import finish, set_owner
from targui_dsl.games.targui.phases import ATTACK_CHOICE, DEFEND_DIE, ENTER, MOVE, OVER
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.rules_round import begin_count, start_adding
from targui_dsl.games.targui.runtime import runtime_of
from targui_dsl.games.targui.told import ATTACK_END, FIGHT, TELLS_ATTACK_END, TELLS_FIGHT


def deposit(r: TarguiRecord, amount: int) -> int:
    if amount:
        seat = r.player
        cash, deposits = r.cash, r.deposits  # (items set from their own values, not `-=`: see flow.apply_step)
        cash[seat] = cash[seat] - amount
        treasury = r.treasury[seat] + amount  # clamp(), inlined: never negative
        r.treasury[seat] = treasury if treasury < MAX_VALUE else MAX_VALUE
        deposits[seat] = deposits[seat] + 1
    return MOVE


def attacker_throws(r: TarguiRecord, die: int) -> int:
    source, target = r.source, r.target
    have = r.camels[target]
    loss = r.game.defender_loses(runtime_of(r), die, source, target)
    if loss.__class__ is not int:  # (a bool, say; int() on an int is a call for nothing)
        loss = int(loss)
    loss = 0 if loss < 0 else loss if loss < have else have
    r.camels[target] = have - loss
    r.box += loss
    if r.tell_bits & TELLS_FIGHT:
        fight_event(r, "attacker", die, loss)
    if have == loss:
        return begin_count(r, ENTER, 1, r.camels[source], True)
    return DEFEND_DIE


def defender_throws(r: TarguiRecord, die: int) -> int:
    source, target = r.source, r.target
    have = r.camels[source]
    loss = r.game.attacker_loses(runtime_of(r), die, source, target)
    if loss.__class__ is not int:
        loss = int(loss)
    loss = 0 if loss < 0 else loss if loss < have else have
    r.camels[source] = have - loss
    r.box += loss
    if r.tell_bits & TELLS_FIGHT:
        fight_event(r, "defender", die, loss)
    if have == loss:
        return end_attack(r, "failed")
    return ATTACK_CHOICE


def fight_event(r: TarguiRecord, thrower: str, die: int, loss: int) -> None:
    pos = r.game.position_of_cell
    r.told((FIGHT[thrower], r.round, die, loss, pos[r.source], pos[r.target], r.camels[r.source], r.camels[r.target]))


def enter(r: TarguiRecord, count: int) -> int:
    source, target = r.source, r.target
    camels = r.camels  # (items set from their own values, not `-=`: see flow.apply_step)
    camels[source] = camels[source] - count
    camels[target] = camels[target] + count
    after = end_attack(r, "won")
    # after the attack's end: taking the last enemy territory ends the game, and `end` is the last event
    if set_owner(r, target, r.player):
        finish(r, runtime_of(r), "last_standing")
        return OVER
    return after


def end_attack(r: TarguiRecord, result: str) -> int:
    if r.tell_bits & TELLS_ATTACK_END:
        pos = r.game.position_of_cell
        r.told((ATTACK_END[result], r.round, pos[r.source], pos[r.target]))
    return start_adding(r) if r.phase != OVER else OVER
