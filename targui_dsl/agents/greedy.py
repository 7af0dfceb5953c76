"""The greedy bot: a one-step heuristic that reads the ruleset's own numbers.

It values a territory by what it will pay until the end (economic value x
rounds left) plus its strategic value, with extra weight on settlements
(its own: the levy and the right to win depend on it; an enemy's: taking it
stops that player's levy). Every candidate move gets a score:

- grab an unowned or undefended cell: its value, if enough camels can go;
- attack: the chance to win (an exact dynamic programme over the dice, with
  the loss tables from the ruleset's compiled combat formulas) times the
  value, minus the camels it expects to lose, plus enemy camels destroyed;
- reinforce a threatened cell from a safer one;
- pass (0).

It buys camels where the threat (enemy camels next door) exceeds its own
defence, else at the front where the best target is. With a treasury it
banks the cash it will not spend, more of it as the game goes on, and all
of it in the last round.
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

OWN_SETTLEMENT_BONUS = 40.0
ENEMY_SETTLEMENT_BONUS = 15.0
ATTACK_MIN_WIN_CHANCE = 0.55
CONTINUE_MIN_WIN_CHANCE = 0.4
DP_CAP = 40  # camel counts above this are treated as this in the fight odds

# Fight odds depend only on the loss tables: shared by every greedy bot in the process.
_ODDS_CACHE: dict[tuple, "FightOdds"] = {}


class FightOdds:
    """P(attacker takes the target) and E(attacker camels left) for given loss tables."""

    def __init__(self, defender_losses: tuple[int, ...], attacker_losses: tuple[int, ...]):
        self.ld = defender_losses
        self.la = attacker_losses
        self.memo: dict[tuple[int, int], tuple[float, float]] = {}

    def __call__(self, attackers: int, defenders: int) -> tuple[float, float]:
        return self._solve(min(attackers, DP_CAP), min(defenders, DP_CAP))

    def _solve(self, a: int, d: int) -> tuple[float, float]:
        if d <= 0:
            return 1.0, float(a)
        if a <= 0:
            return 0.0, 0.0
        key = (a, d)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        sides = len(self.ld)
        p_each = 1.0 / sides
        win = kept = stay = 0.0
        for loss_d in self.ld:
            d2 = d - loss_d
            if d2 <= 0:
                win += p_each
                kept += p_each * a
                continue
            for loss_a in self.la:
                a2 = a - loss_a
                if a2 <= 0:
                    continue
                p = p_each * p_each
                if a2 == a and d2 == d:
                    stay += p  # nobody lost anything: the same fight again
                    continue
                w, k = self._solve(a2, d2)
                win += p * w
                kept += p * k
        result = (win / (1 - stay), kept / (1 - stay)) if stay < 1 else (0.0, float(a))
        self.memo[key] = result
        return result


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    # Reading the board --------------------------------------------------
    def _rounds_left(self, state) -> int:
        return max(1, state.game.ruleset.rounds - state.round + 1)

    def value(self, state, cell: int, me: int) -> float:
        """What owning ``cell`` is worth to ``me`` until the end, in silver-like units."""
        worth = state.economic(cell) * (self._rounds_left(state) + 1) + state.strategic(cell)
        if state.cell_kind[cell] == state.game.settlement_kind:
            if state.settlement_cell[me] == cell:
                worth += OWN_SETTLEMENT_BONUS
            elif cell in state.settlement_cell:
                worth += ENEMY_SETTLEMENT_BONUS
        return worth

    def threat(self, state, cell: int, me: int, ignore: int = -1) -> int:
        """The most enemy camels that could strike ``cell`` from one neighbour."""
        owner, camels = state.cell_owner, state.cell_camels
        return max((camels[n] for n in state.move_neighbours[cell]
                    if owner[n] >= 0 and owner[n] != me and n != ignore), default=0)

    def odds(self, state, source: int, target: int) -> FightOdds:
        game = state.game
        sides = range(1, game.ruleset.die_sides + 1)
        ld = tuple(max(0, int(game.defender_loses(state, d, source, target))) for d in sides)
        la = tuple(max(0, int(game.attacker_loses(state, d, source, target))) for d in sides)
        key = (ld, la)
        odds = _ODDS_CACHE.get(key)
        if odds is None:
            odds = _ODDS_CACHE[key] = FightOdds(ld, la)
        return odds

    def keep_on(self, state, cell: int, me: int, ignore: int = -1) -> int:
        """Camels to leave on ``cell`` so that it is not an easy target."""
        threat = self.threat(state, cell, me, ignore)
        if not threat:
            return 0
        bonus = 2 if state.settlement_cell[me] == cell else 0
        return threat + 1 + bonus

    # Deciding -----------------------------------------------------------
    def choose(self, state, legal_actions=None) -> Action:
        phase = state.phase
        if phase == MOVE_PHASE:
            return self._movement(state)
        if phase == ADD_PHASE:
            return self._adding(state)
        if phase == ATTACK_CHOICE:
            win, _ = self.odds(state, state.attack_source, state.attack_target)(
                state.cell_camels[state.attack_source], state.cell_camels[state.attack_target])
            return AGAIN_ACTION if win >= CONTINUE_MIN_WIN_CHANCE else GIVE_UP_ACTION
        if phase == ENTER_PHASE:
            me, source = state.player, state.attack_source
            have = state.cell_camels[source]
            keep = min(have - 1, self.keep_on(state, source, me))
            return Action(ENTER, (max(1, have - keep),))
        if phase == SETUP_SETTLE:
            return self._settle(state)
        if phase == SETUP_SECTOR:
            return Action(SECTOR, (state.game.sector_ids[self.rng.choice(state.free_sectors())],))
        return (legal_actions or state.legal_actions())[0]

    def _settle(self, state) -> Action:
        game = state.game
        seat = state.setup_seat

        def merit(cell: int) -> float:
            score = 0.0
            for n in game.neighbours[cell]:
                kind = state.cell_kind[n]
                if kind >= 0 and game.kind_passable[kind]:
                    score += game.base_economic[kind] * 2 + game.base_strategic[kind]
            # stay away from other settlements
            for other in state.settlement_cell:
                if other >= 0 and other in game.neighbours[cell]:
                    score -= 20
            return score + self.rng.random() * 0.01

        cell = max(state.settle_cells(seat), key=merit)
        return Action(SETTLE, (game.position_of_cell[cell],))

    def _buy_budget(self, state, me: int) -> int:
        """Cash to keep in hand for buying camels this turn (the rest goes to the treasury)."""
        cash = state.player_cash[me]
        deficit = self._worst_deficit(state, me)
        if state.round >= state.game.ruleset.rounds:
            return min(cash, deficit)  # the last round: only what defence needs
        progress = (state.round - 1) / max(1, state.game.ruleset.rounds)
        return min(cash, max(deficit, int(cash * (1 - progress))))

    def _worst_deficit(self, state, me: int) -> int:
        owner, camels = state.cell_owner, state.cell_camels
        worst = 0
        for cell in range(len(owner)):
            if owner[cell] == me:
                need = self.keep_on(state, cell, me) - camels[cell]
                if state.settlement_cell[me] == cell:
                    need *= 2
                worst = max(worst, need)
        return worst

    def _movement(self, state) -> Action:
        me = state.player
        pos = state.game.position_of_cell
        if state.can_deposit():
            amount = state.player_cash[me] - self._buy_budget(state, me)
            if amount > 0:
                return Action(DEPOSIT, (amount,))
        owner, camels = state.cell_owner, state.cell_camels
        best, best_score = PASS_ACTION, 0.0
        for source, target, have, is_attack in state.move_options():
            holder = owner[target]
            if is_attack:
                win, kept = self.odds(state, source, target)(have, camels[target])
                if win < ATTACK_MIN_WIN_CHANCE:
                    continue
                gain = self.value(state, target, me)
                # leaving the source emptied is a risk only when someone can strike it
                risk = self.value(state, source, me) * 0.5 if self.threat(state, source, me, target) else 0.0
                score = win * gain - (have - kept) * 0.8 + camels[target] * 0.3 - (1 - win) * risk
                if score > best_score:
                    best, best_score = Action(ATTACK, (pos[source], pos[target])), score
                continue
            keep = self.keep_on(state, source, me)
            movable = have - keep
            if holder == me:
                # reinforce: move spare camels to where the threat is unmet
                need = self.keep_on(state, target, me) - camels[target]
                if need <= 0 or movable <= 0:
                    continue
                count = min(movable, need + 1)
                score = 0.5 * self.value(state, target, me) * min(1.0, count / need)
                if score > best_score:
                    best, best_score = Action(MOVE, (pos[source], pos[target], count)), score
                continue
            if movable <= 0:
                continue
            # grab an unowned cell, or walk into an undefended enemy cell
            needed = self.keep_on(state, target, me, ignore=-1)
            count = movable if needed > movable else max(needed, min(movable, max(1, movable // 2)))
            score = self.value(state, target, me) * (1.0 if count >= needed else 0.4)
            if holder >= 0:
                score += ENEMY_SETTLEMENT_BONUS * 0.2
            if score > best_score:
                best, best_score = Action(MOVE, (pos[source], pos[target], count)), score
        return best

    def _adding(self, state) -> Action:
        me = state.player
        limit = state.buy_limit()
        cells = state.buy_cells()
        if not limit or not cells:
            return PASS_ACTION
        if state.round >= state.game.ruleset.rounds and state.game.ruleset.treasury:
            deficit = self._worst_deficit(state, me)
            limit = min(limit, deficit)
            if limit <= 0:
                return PASS_ACTION
        owner, camels = state.cell_owner, state.cell_camels

        def need(cell: int) -> float:
            deficit = self.keep_on(state, cell, me) - camels[cell]
            urgency = max(0, deficit) * self.value(state, cell, me)
            chance = max((self.value(state, n, me) / (1 + camels[n])
                          for n in state.move_neighbours[cell] if owner[n] != me), default=0.0)
            return urgency + chance + self.rng.random() * 0.01

        cell = max(cells, key=need)
        return buy(limit, state.game.position_of_cell[cell])
