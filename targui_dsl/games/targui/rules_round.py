"""Rounds and turns: the round's die and stack, a turn's cycles, the round's end, and
what follows a card or a hook that paused for a choice.

Handlers over a :class:`~targui_dsl.games.targui.record.TarguiRecord`; each
returns the phase the game goes on in, or the step of the round that comes
next (a ``STEP_*``: the movement phase, the next card of the stack, the
turn's end, a stage of the round's end), which :mod:`.flow` runs in turn: no
handler calls the one that follows it. Hooks run at the phase the game is in
when their moment comes (a pause resumes there), so a handler that runs hooks
returns the phase they left: a choice's, or the end's when an effect ended the
game; and what follows a paused hook's moment is a step like any other.
"""

from __future__ import annotations

from typing import Any, Final

from targui_dsl.effects.runtime import MAX_VALUE
from targui_dsl.games.targui.actions import COUNT_RADIX, count_digits
from targui_dsl.games.targui.ownership import finish
from targui_dsl.games.targui.phases import BUY_CELL, DEPOSIT, MOVE, OVER, REVEAL, ROUND_DIE
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.rules_effects import (
    PausedEffect,
    changes_since,
    drive_effect,
    hook_event,
    run_effect,
    run_hooks,
    snapshot,
)
from targui_dsl.games.targui.runtime import runtime_of
from targui_dsl.games.targui.told import CARD, ROUND, TELLS_CARD, TELLS_ROUND, TELLS_ROUND_END, TELLS_TURN

#: The steps a handler may return instead of a phase (above every phase; see flow.run_steps):
#: the movement phase begins; the stack's next card or the round's end; the turn's end;
#: the round's end from its stage 0..3 (see end_round).
STEP_MOVEMENT: Final = 64
STEP_STACK: Final = 65
STEP_TURN_OVER: Final = 66
STEP_ROUND_END: Final = (67, 68, 69, 70)
FIRST_STEP: Final = STEP_MOVEMENT
# What follows each hook moment once its hooks have run (after a pause: see effect_done).
_AFTER_MOMENT = {"game_start": ROUND_DIE, "round_start": STEP_STACK, "turn_start": STEP_MOVEMENT,
                 "turn_end": STEP_TURN_OVER, "before_levy": STEP_ROUND_END[1], "after_levy": STEP_ROUND_END[2],
                 "round_end": STEP_ROUND_END[3]}

def begin_count(r: TarguiRecord, phase: int, lo: int, hi: int, forced: bool) -> int:
    """A count decision (lo..hi) begins at ``phase``, one base-256 digit at a time above 255."""
    r.count_lo = lo
    r.count_hi = hi
    r.count_prefix = 0
    r.count_digits = 1 if hi < COUNT_RADIX else count_digits(hi)
    r.compound_forced = forced
    return phase


def start_round(r: TarguiRecord, die: int) -> int:
    game = r.game  # (the ruleset's numbers as the game's tables hold them: a field's read compiled)
    r.round_die = die
    r.double = die >= game.double_turn_from
    # (conditional expressions, not min(): a builtin's call costs more than the comparison)
    tribal = game.tribal_cards
    cards = 1 if r.double else die if die < tribal else tribal
    r.stack_turns = [cards if owned else 0 for owned in r.cells_of]
    fortune, deck = game.fortune_per_round, len(r.deck)
    r.stack_cards = fortune if fortune < deck else deck
    r.stack_left = sum(r.stack_turns) + r.stack_cards
    if r.tell_bits & TELLS_ROUND:
        r.told((ROUND[r.double], r.round, die, cards, r.stack_cards))
    if ("round_start" not in game.hooked or run_hooks(r, "round_start")) and r.phase != OVER:
        return STEP_STACK
    return r.phase


def next_from_stack(r: TarguiRecord) -> int:
    """The stack's next card, or the round's end when it is empty."""
    return REVEAL if r.stack_left else STEP_ROUND_END[0]


def start_turn(r: TarguiRecord, seat: int) -> int:
    r.player = seat
    r.cycles_left = 2 if r.double else 1
    if r.tell_bits & TELLS_TURN:
        r.told((r.seat_kinds.turn[r.double][seat], r.round))
    if r.game.turn_start_hooks and (not run_hooks(r, "turn_start", (seat,)) or r.phase == OVER):
        return r.phase
    return STEP_MOVEMENT


def start_movement(r: TarguiRecord) -> int:
    if r.game.treasury:
        cash = r.cash[r.player]
        if cash > 0:  # how much to deposit: begin_count(r, DEPOSIT, 0, cash, True), inlined
            r.count_lo, r.count_hi, r.count_prefix = 0, cash, 0
            r.count_digits = 1 if cash < COUNT_RADIX else count_digits(cash)
            r.compound_forced = True
            return DEPOSIT
    return MOVE


def start_adding(r: TarguiRecord) -> int:
    r.source = r.target = -1
    return BUY_CELL


def end_adding(r: TarguiRecord) -> int:
    r.cycles_left -= 1
    if r.cycles_left > 0:
        return STEP_MOVEMENT
    if r.game.turn_end_hooks and not run_hooks(r, "turn_end", (r.player,)):
        return r.phase
    # end_turn(r), inlined: every turn ends here
    r.player = -1
    if r.phase == OVER:
        return OVER
    return REVEAL if r.stack_left else STEP_ROUND_END[0]


def end_turn(r: TarguiRecord) -> int:
    """The turn is over (its hooks run): nobody's turn; the stack's next card or the round's end."""
    r.player = -1
    if r.phase == OVER:
        return OVER
    return REVEAL if r.stack_left else STEP_ROUND_END[0]  # next_from_stack(), inlined


def end_round(r: TarguiRecord, stage: int = 0) -> int:
    """The round's end, in stages so that a hook may pause for a choice and the rest
    run after the answer: 0 before_levy hooks, 1 the levy and after_levy hooks,
    2 the round_end event and hooks, 3 the final scores or the next round."""
    game = r.game
    if stage == 0:
        r.round_cash = r.cash[:]  # what the round's end takes from hands is told
        if ("before_levy" in game.hooked and not run_hooks(r, "before_levy")) or r.phase == OVER:
            return r.phase  # a choice's, or the end (an effect ended the game: no levy follows)
        stage = 1
    if stage == 1:
        # now: cash lost (what the hooks added is no loss), seat by seat before its levy (`range`
        # in the loop itself: compiled, a range kept in a variable was an object made and iterated)
        before, cash = r.round_cash, r.cash
        lost = r.round_cash = [0] * game.players
        levy = r.round_levy = [0] * game.players
        rt = runtime_of(r)
        levy_formula, levy_total, cells_of = game.levy, r.levy_total, r.cells_of
        for seat in range(game.players):
            if before[seat] > cash[seat]:
                lost[seat] = before[seat] - cash[seat]
            if cells_of[seat]:  # clamp() inlined: cash and the ledger are never negative
                value = levy_formula(rt, seat)
                if value.__class__ is not int:  # (a bool, say; int() on an int is a call for nothing)
                    value = int(value)
                value = levy[seat] = 0 if value < 0 else value if value < MAX_VALUE else MAX_VALUE
                value = cash[seat] + value
                cash[seat] = value if value < MAX_VALUE else MAX_VALUE
                value = levy_total[seat] + levy[seat]
                levy_total[seat] = value if value < MAX_VALUE else MAX_VALUE
        if ("after_levy" in game.hooked and not run_hooks(r, "after_levy")) or r.phase == OVER:
            return r.phase
        stage = 2
    if stage == 2:
        if r.tell_bits & TELLS_ROUND_END:
            # each a dict by tribe, its keys in the kind: the values by seat
            r.told((r.seat_kinds.round_end, r.round, *r.round_cash, *r.round_levy, *r.cash, *r.treasury))
        if "round_end" in game.hooked and not run_hooks(r, "round_end"):
            return r.phase
    if not r.deck and r.phase != OVER:
        # final scores see this round's modifiers (RULES 7: "modifiers of the last round included")
        finish(r, runtime_of(r), "deck")
    r.strategic_now = r.strategic_lasting[:]
    r.economic_now = r.economic_lasting[:]
    if r.phase == OVER:
        return OVER
    r.round += 1
    return ROUND_DIE


def answer_effect(r: TarguiRecord, answer: int) -> int:
    """The chooser answered: run the effect on, then what its caller had left to do."""
    effect = r.effect
    assert effect is not None
    effect.answers.append(answer)
    r.phase = effect.resume_phase  # the effect runs on at the phase it began in
    if not drive_effect(r, effect, answer):
        return r.phase
    return effect_done(r, effect)


def effect_done(r: TarguiRecord, effect: PausedEffect) -> int:
    """What follows a paused effect's end: the card's event, then the stack; or the
    moment's remaining hooks, then the step that follows the moment."""
    if effect.where[0] == "card":
        card_event(r, effect.where[1], effect.card_before)
        return STEP_STACK if r.phase != OVER else OVER
    _, moment, index = effect.where
    hook_event(r, moment, index, snapshot(effect.start))  # the hook began where its effect did
    if not run_hooks(r, moment, effect.args, index + 1) or r.phase == OVER:
        return r.phase
    return _AFTER_MOMENT[moment]


def run_card(r: TarguiRecord, card: int) -> bool:
    """Run a (mis)fortune card's effect; False when it paused for a player's choice."""
    before = snapshot(r) if r.tell_bits & TELLS_CARD else None
    game = r.game
    if not run_effect(r, game.card_effects[card], game.card_calls[card], ("card", card)):
        r.effect.card_before = before
        return False
    card_event(r, card, before)
    return True


def card_event(r: TarguiRecord, card: int, before: Any) -> None:
    if r.tell_bits & TELLS_CARD:
        kind = r.ruleset_kinds.card[card]
        if kind is not None:  # its id, number and title written in its kind
            r.told((kind, r.round, changes_since(r, before)))
            return
        game = r.game
        card_id = game.card_ids[card]
        r.told((CARD, r.round, card_id, game.cards[card_id].number, game.cards[card_id].title,
                changes_since(r, before)))
