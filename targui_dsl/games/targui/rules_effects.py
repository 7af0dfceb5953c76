"""Running card effects and hooks, and pausing them for a player's choice or a die.

A running Python generator cannot be copied or saved, so a paused effect
keeps the record as it was when the effect began (``start``) and the answers
given so far: a copy replays them on a copy of ``start``, which reaches the
same request (effects are deterministic; their dice come from the answers).
What follows an effect's end is the caller's business (:mod:`.rules_round`).
"""

from __future__ import annotations

from typing import Any, Callable

from targui_dsl.effects.runtime import ChoiceRequest, RollRequest, check_choices
from targui_dsl.engine.chance import below_word
from targui_dsl.games.targui.phases import EFFECT_CHOICE, EFFECT_ROLL, OVER
from targui_dsl.games.targui.record import TarguiRecord
from targui_dsl.games.targui.runtime import runtime_of
from targui_dsl.games.targui.told import CHANCE_DIE, HOOK, TELLS_CHANCE, TELLS_HOOK


class PausedEffect:
    """A card effect or hook waiting for a player's choice (or an explicit die)."""

    __slots__ = ("where", "code", "args", "start", "answers", "choices", "gen", "request", "card_before",
                 "resume_phase")

    def __init__(self, where: tuple[Any, ...], code: Any, args: tuple[int, ...], start: TarguiRecord) -> None:
        self.where = where  # ("card", card index) or ("hook", moment, index)
        self.code = code
        self.args = args
        self.start = start
        self.answers: list[int] = []
        self.choices = 0  # choices asked so far (the answers hold the dice too)
        self.gen: Any = None
        self.request: Any = None
        self.card_before: Any = None
        self.resume_phase = 0  # the phase the effect ran in, to return to after the answer


def replay_paused(start: TarguiRecord, where: tuple[Any, ...], args: tuple[int, ...],
                  answers: list[int],
                  redraw: Callable[[ChoiceRequest, int], int] | None = None) -> TarguiRecord:
    """A copy of ``start`` with the paused effect at ``where`` run again on its ``answers``
    (every die and choice it met, in order): it stops at the same request, whatever the
    copy's generator (effects are deterministic)."""
    r = start.copy()
    game = r.game
    if where[0] == "card":
        code = game.card_effects[int(where[1])]
    else:
        code = game.hooks[str(where[1])][int(where[2])]
    if not code.pauses:
        raise ValueError("that effect never pauses")
    effect = PausedEffect(where, code, args, start)
    effect.gen = code.function(runtime_of(r), *args)
    effect.resume_phase = start.phase
    try:
        request = effect.gen.send(None)
        choices = 0 if isinstance(request, RollRequest) else 1
        sent: list[int] = []
        for answer in answers:
            if redraw is not None and isinstance(request, ChoiceRequest):
                answer = redraw(request, answer)  # (a redrawn answer leaves the pause where it was)
            sent.append(answer)
            request = effect.gen.send(answer)
            choices += not isinstance(request, RollRequest)
    except StopIteration:
        raise ValueError("the effect ended before its pause") from None
    effect.answers = sent
    effect.choices = choices
    effect.request = request
    r.effect = effect
    r.phase = EFFECT_ROLL if isinstance(request, RollRequest) else EFFECT_CHOICE
    r.legal = None
    return r


def copy_record(r: TarguiRecord) -> TarguiRecord:
    """An independent copy of ``r``, a paused effect included (replayed on a copy of its start)."""
    effect = r.effect
    if effect is None:
        return r.copy()
    other = replay_paused(effect.start, effect.where, effect.args, effect.answers)
    other.effect.card_before = effect.card_before
    other.rng_word = r.rng_word
    other.history = r.history[:]
    other.decisions, other.forced_decisions = r.decisions, r.forced_decisions
    other.forced_outcomes = r.forced_outcomes[:]
    return other


def run_hooks(r: TarguiRecord, moment: str, args: tuple[int, ...] = (), first: int = 0) -> bool:
    """Run the ruleset's effects for a moment of the game, in order, from hook ``first``.
    False when one paused for a player's choice (the rest runs after the answer)."""
    game = r.game
    hooks, calls = game.hooks[moment], game.hook_calls[moment]
    for index in range(first, len(hooks)):
        if r.phase == OVER:
            return True
        before = snapshot(r) if r.tell_bits & TELLS_HOOK else None
        if not run_effect(r, hooks[index], calls[index], ("hook", moment, index), args):
            return False
        if before is not None:
            hook_event(r, moment, index, before)
    return True


def hook_event(r: TarguiRecord, moment: str, index: int, before: Snapshot) -> None:
    """A hook that changed something is told, with its changes, as a card is (nothing
    changed: no event). ``hook`` counts the moment's hooks from 1, as a person reads the list."""
    if not r.tell_bits & TELLS_HOOK:
        return
    changes = changes_since(r, before)
    if changes["camels"] or changes["cash"] or changes["treasury"] or changes["kinds"]:
        r.told((HOOK, r.round, moment, index + 1, changes))


def run_effect(r: TarguiRecord, code: Any, call: Callable[..., Any] | None, where: tuple[Any, ...],
               args: tuple[int, ...] = ()) -> bool:
    """Run one compiled effect; False when it paused for a player's choice. A die thrown
    inside it comes from the game's generator (or a queued outcome). ``call``: the code's
    function when it never pauses, else None (the game's tables hold it: card_calls, hook_calls)."""
    # (``args`` a tuple, not ``*args``: compiled, a star parameter made every call of this and
    # of run_hooks a call through Python, a list and a tuple; a card's effect takes none)
    if call is not None:
        if args:
            call(runtime_of(r), *args)
        else:
            call(runtime_of(r))
        return True
    effect = PausedEffect(where, code, args, copy_record(r))
    effect.gen = code.function(runtime_of(r), *args)
    return drive_effect(r, effect, None)


def drive_effect(r: TarguiRecord, effect: PausedEffect, answer: int | None) -> bool:
    """Run ``effect`` on from ``answer`` to its next choice (False) or its end (True)."""
    while True:
        try:
            request = effect.gen.send(answer)
        except StopIteration:
            r.effect = None
            return True
        if isinstance(request, RollRequest):
            if r.forced_outcomes or r.game.explicit_chance:
                effect.request = request  # a chance node: the outcome comes from outside
                effect.resume_phase = r.phase
                r.effect = effect
                r.phase = EFFECT_ROLL
                return False
            r.rng_word, drawn = below_word(r.rng_word, max(1, request.sides))
            answer = drawn + 1
            effect.answers.append(answer)  # a copy replays the die, not the generator
            if r.tell_bits & TELLS_CHANCE:
                r.told((CHANCE_DIE[EFFECT_ROLL], r.round, answer))
            continue
        effect.choices += 1
        check_choices(effect.code, effect.choices)  # each choice a decision and a log line
        effect.request = request
        r.effect = effect
        effect.resume_phase = r.phase
        r.phase = EFFECT_CHOICE
        return False


Snapshot = tuple[list[int], list[int], list[int], int, list[int], list[int]]


def snapshot(r: TarguiRecord) -> Snapshot:
    return r.camels[:], r.cash[:], r.treasury[:], r.box, r.strategic_now[:], r.economic_now[:]


def changes_since(r: TarguiRecord, before: Snapshot) -> dict[str, Any]:
    game = r.game
    camels, cash, treasury, box, strategic, economic = before
    pos, ids, kinds = game.position_of_cell, game.tribe_ids, game.kind_ids
    # most cards change few things: a list compared whole (in C) skips its loop
    changes: dict[str, Any] = {
        "camels": {} if camels == r.camels else
        {str(pos[c]): [camels[c], r.camels[c]] for c in range(game.cells) if camels[c] != r.camels[c]},
        "cash": {} if cash == r.cash else
        {ids[s]: [cash[s], r.cash[s]] for s in range(game.players) if cash[s] != r.cash[s]},
        "treasury": {} if treasury == r.treasury else
        {ids[s]: [treasury[s], r.treasury[s]] for s in range(game.players) if treasury[s] != r.treasury[s]},
        "box": [box, r.box],
        "kinds": {},
    }
    if strategic == r.strategic_now and economic == r.economic_now:
        return changes
    for k in range(len(kinds)):
        entry = {}
        if strategic[k] != r.strategic_now[k]:
            entry["strategic"] = [strategic[k], r.strategic_now[k]]
        if economic[k] != r.economic_now[k]:
            entry["economic"] = [economic[k], r.economic_now[k]]
        if entry:
            changes["kinds"][kinds[k]] = entry
    return changes
