"""The random bot: uniform over a decomposition of the choice, not over raw actions.

A movement phase can offer thousands of ``move S T n`` actions; uniform over
those would almost never pass or attack. Instead the bot picks the kind of
action first (deposit, move, attack, pass), then a source/target, then a
count, each uniformly.
"""

from __future__ import annotations

import random

from ..engine.actions import (
    AGAIN_ACTION,
    ATTACK,
    DEPOSIT,
    ENTER,
    GIVE_UP_ACTION,
    MOVE,
    PASS_ACTION,
    SECTOR,
    SETTLE,
    Action,
    buy,
)
from ..engine.flow import ADD_PHASE, ATTACK_CHOICE, ENTER_PHASE, MOVE_PHASE, SETUP_SECTOR, SETUP_SETTLE


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state, legal_actions=None) -> Action:
        rng = self.rng
        phase = state.phase
        pos = state.game.position_of_cell
        if phase == MOVE_PHASE:
            options = state.move_options()
            moves = [o for o in options if not o[3]]
            attacks = [o for o in options if o[3]]
            kinds = ["pass"]
            if moves:
                kinds.append("move")
            if attacks:
                kinds.append("attack")
            if state.can_deposit():
                kinds.append("deposit")
            kind = rng.choice(kinds)
            if kind == "move":
                source, target, have, _ = rng.choice(moves)
                return Action(MOVE, (pos[source], pos[target], rng.randint(1, have)))
            if kind == "attack":
                source, target, _, _ = rng.choice(attacks)
                return Action(ATTACK, (pos[source], pos[target]))
            if kind == "deposit":
                return Action(DEPOSIT, (rng.randint(1, state.player_cash[state.player]),))
            return PASS_ACTION
        if phase == ADD_PHASE:
            limit = state.buy_limit()
            cells = state.buy_cells()
            if limit and cells and rng.random() < 0.5:
                return buy(rng.randint(1, limit), pos[rng.choice(cells)])
            return PASS_ACTION
        if phase == ATTACK_CHOICE:
            return AGAIN_ACTION if rng.random() < 0.5 else GIVE_UP_ACTION
        if phase == ENTER_PHASE:
            return Action(ENTER, (rng.randint(1, state.cell_camels[state.attack_source]),))
        if phase == SETUP_SECTOR:
            return Action(SECTOR, (state.game.sector_ids[rng.choice(state.free_sectors())],))
        if phase == SETUP_SETTLE:
            return Action(SETTLE, (pos[rng.choice(state.settle_cells())],))
        # anything else (a future phase): uniform over the legal actions
        return rng.choice(legal_actions if legal_actions is not None else state.legal_actions())
