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

from targui_dsl.games.targui.actions import AGAIN, GIVE_UP, PASS
from targui_dsl.games.targui.observation import Observation
from targui_dsl.games.targui.phases import Phase

OWN_SETTLEMENT_BONUS = 40.0
ENEMY_SETTLEMENT_BONUS = 15.0
ATTACK_MIN_WIN_CHANCE = 0.55
CONTINUE_MIN_WIN_CHANCE = 0.4
DP_CAP = 40  # camel counts above this are treated as this in the fight odds
# A fight that would take more throws than this (a house rule's millions of camels)
# is not started, nor gone on with: it would stall the game, whatever it wins.
MAX_FIGHT_THROWS = 200
#: Looking ahead at a card's or hook's question: a camel (or a silver in hand) in points of score.
CHOICE_CAMEL_WEIGHT = 0.15

# Fight odds depend only on the loss tables: shared by every greedy bot in the process.
_ODDS_CACHE: dict[tuple, "FightOdds"] = {}


class FightOdds:
    """P(attacker takes the target) and E(attacker camels left) for given loss tables."""

    def __init__(self, defender_losses: tuple[int, ...], attacker_losses: tuple[int, ...]):
        self.ld = defender_losses
        self.la = attacker_losses
        self.memo: dict[tuple[int, int], tuple[float, float]] = {}

    def throws_to_take(self, defenders: int) -> float:
        """About how many of the attacker's throws it takes to empty a cell of ``defenders``."""
        mean = sum(self.ld) / len(self.ld)
        return defenders / mean if mean > 0 else float("inf")

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
    """Decides from one seat's :class:`Observation`; plans a compound action (where, then how
    many) at its first step and plays the rest of it at the steps that follow."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._planned = 0  # the count planned for the next count step

    # Reading the board --------------------------------------------------
    def _rounds_left(self, obs: Observation) -> int:
        return max(1, obs.game.rounds - obs.round + 1)

    def value(self, obs: Observation, cell: int, me: int) -> float:
        """What owning ``cell`` is worth to ``me`` until the end, in silver-like units."""
        worth = float(obs.economic(cell) * (self._rounds_left(obs) + 1) + obs.strategic(cell))
        if obs.kind(cell) == obs.game.settlement_kind:
            if obs.settlement(me) == cell:
                worth += OWN_SETTLEMENT_BONUS
            elif any(obs.settlement(s) == cell for s in range(obs.game.players)):
                worth += ENEMY_SETTLEMENT_BONUS
        return worth

    def threat(self, obs: Observation, cell: int, me: int, ignore: int = -1) -> int:
        """The most enemy camels that could strike ``cell`` from one neighbour."""
        best = 0
        for n in obs.game.neighbours[cell]:
            holder = obs.owner(n)
            if holder >= 0 and holder != me and n != ignore:
                best = max(best, obs.camels(n))
        return best

    def odds(self, obs: Observation, source: int, target: int) -> FightOdds:
        game = obs.game
        rt = obs.runtime
        sides = range(1, game.die_sides + 1)
        ld = tuple(max(0, int(game.defender_loses(rt, d, source, target))) for d in sides)
        la = tuple(max(0, int(game.attacker_loses(rt, d, source, target))) for d in sides)
        key = (ld, la)
        odds = _ODDS_CACHE.get(key)
        if odds is None:
            odds = _ODDS_CACHE[key] = FightOdds(ld, la)
        return odds

    def keep_on(self, obs: Observation, cell: int, me: int, ignore: int = -1) -> int:
        """Camels to leave on ``cell`` so that it is not an easy target."""
        threat = self.threat(obs, cell, me, ignore)
        if not threat:
            return 0
        bonus = 2 if obs.settlement(me) == cell else 0
        return threat + 1 + bonus

    # Deciding -----------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: list[int]) -> int:
        obs = observation
        phase = obs.phase
        if phase == Phase.MOVE:
            return self._movement(obs, legal_actions)
        if phase in (Phase.MOVE_COUNT, Phase.BUY_COUNT):
            return obs.count_step(self._planned)
        if phase == Phase.DEPOSIT:
            me = obs.seat
            return obs.count_step((obs.cash(me) or 0) - self._buy_budget(obs, me))
        if phase == Phase.BUY_CELL:
            return self._adding(obs, legal_actions)
        if phase == Phase.ATTACK_CHOICE:
            source, target = obs.attack()  # type: ignore[misc]
            odds = self.odds(obs, source, target)
            win, _ = odds(obs.camels(source), obs.camels(target))
            if odds.throws_to_take(obs.camels(target)) > MAX_FIGHT_THROWS:
                return GIVE_UP
            return AGAIN if win >= CONTINUE_MIN_WIN_CHANCE else GIVE_UP
        if phase == Phase.ENTER:
            me = obs.seat
            source, _ = obs.attack()  # type: ignore[misc]
            have = obs.camels(source)
            keep = min(have - 1, self.keep_on(obs, source, me))
            return obs.count_step(max(1, have - keep))
        if phase == Phase.SETTLE:
            return self._settle(obs)
        if phase == Phase.SECTOR:
            return obs.game.actions.sector(self.rng.choice(obs.free_sectors()))
        if phase == Phase.EFFECT_CHOICE:
            return self._effect_choice(obs, legal_actions)
        return legal_actions[0]

    def _effect_choice(self, obs: Observation, legal_actions: list[int]) -> int:
        """A card's or a hook's question (yes/no, a territory, a player, a kind, a number): each
        answer is tried on a state this seat cannot tell from the true one, the effect run on to
        the next decision, and the answer that leaves the seat furthest ahead of the best other
        (score now, plus camels and cash in hand) is taken; the first of equals (the ruleset's order)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        me = obs.seat
        # a generator of its own: a question never shifts the draws of the bot's other decisions
        sample = obs.resample(random.Random(obs.round * 1_000_003 + me))
        best, best_value = legal_actions[0], float("-inf")
        for action in legal_actions:
            after = sample.clone()
            after.apply_action(action)
            scores = after.scores()
            values = [scores[s] + CHOICE_CAMEL_WEIGHT * (after.player_camels(s) + after.cash(s))
                      for s in range(obs.game.players)]
            others = [values[s] for s in range(obs.game.players) if s != me and after.in_game(s)]
            value = values[me] - max(others, default=0.0)
            if value > best_value:
                best, best_value = action, value
        return best

    def _settle(self, obs: Observation) -> int:
        game = obs.game
        settlements = [obs.settlement(s) for s in range(game.players)]

        def merit(cell: int) -> float:
            score = 0.0
            for n in game.neighbours[cell]:
                kind = obs.kind(n)
                if kind >= 0 and game.kind_passable[kind]:
                    score += game.base_economic[kind] * 2 + game.base_strategic[kind]
            # stay away from other settlements
            for other in settlements:
                if other >= 0 and other in game.neighbours[cell]:
                    score -= 20
            return score + self.rng.random() * 0.01

        return game.actions.cell(max(obs.settle_cells(), key=merit))

    def _buy_budget(self, obs: Observation, me: int) -> int:
        """Cash to keep in hand for buying camels this turn (the rest goes to the treasury)."""
        cash = obs.cash(me) or 0
        deficit = self._worst_deficit(obs, me)
        rounds = obs.game.rounds
        if obs.round >= rounds:
            return min(cash, deficit)  # the last round: only what defence needs
        progress = (obs.round - 1) / max(1, rounds)
        return min(cash, max(deficit, int(cash * (1 - progress))))

    def _worst_deficit(self, obs: Observation, me: int) -> int:
        worst = 0
        own = obs.settlement(me)
        for cell in obs.cells_of(me):
            need = self.keep_on(obs, cell, me) - obs.camels(cell)
            if own == cell:
                need *= 2
            worst = max(worst, need)
        return worst

    def _movement(self, obs: Observation, legal_actions: list[int]) -> int:
        me = obs.seat
        space = obs.game.actions
        best, best_score = PASS, 0.0
        for action in legal_actions:
            if not space.is_pair(action):
                continue
            source, target = space.pair_of(action)
            have = obs.camels(source)
            holder = obs.owner(target)
            if obs.defended(target):
                odds = self.odds(obs, source, target)
                win, kept = odds(have, obs.camels(target))
                if win < ATTACK_MIN_WIN_CHANCE or odds.throws_to_take(obs.camels(target)) > MAX_FIGHT_THROWS:
                    continue
                gain = self.value(obs, target, me)
                # leaving the source emptied is a risk only when someone can strike it
                risk = self.value(obs, source, me) * 0.5 if self.threat(obs, source, me, target) else 0.0
                score = win * gain - (have - kept) * 0.8 + obs.camels(target) * 0.3 - (1 - win) * risk
                if score > best_score:
                    best, best_score = action, score
                continue
            keep = self.keep_on(obs, source, me)
            movable = have - keep
            if holder == me:
                # reinforce: move spare camels to where the threat is unmet
                need = self.keep_on(obs, target, me) - obs.camels(target)
                if need <= 0 or movable <= 0:
                    continue
                count = min(movable, need + 1)
                score = 0.5 * self.value(obs, target, me) * min(1.0, count / need)
                if score > best_score:
                    best, best_score, self._planned = action, score, count
                continue
            if movable <= 0:
                continue
            # grab an unowned cell, or walk into an undefended enemy cell
            needed = self.keep_on(obs, target, me, ignore=-1)
            count = movable if needed > movable else max(needed, min(movable, max(1, movable // 2)))
            score = self.value(obs, target, me) * (1.0 if count >= needed else 0.4)
            if holder >= 0:
                score += ENEMY_SETTLEMENT_BONUS * 0.2
            if score > best_score:
                best, best_score, self._planned = action, score, count
        return best

    def _adding(self, obs: Observation, legal_actions: list[int]) -> int:
        me = obs.seat
        space = obs.game.actions
        cells = [space.cell_of(a) for a in legal_actions if space.is_cell(a)]
        limit = obs.buy_limit() or 0
        if not limit or not cells:
            return PASS
        if obs.round >= obs.game.rounds and obs.game.treasury:
            limit = min(limit, self._worst_deficit(obs, me))
            if limit <= 0:
                return PASS

        def need(cell: int) -> float:
            deficit = self.keep_on(obs, cell, me) - obs.camels(cell)
            urgency = max(0, deficit) * self.value(obs, cell, me)
            chance = max((self.value(obs, n, me) / (1 + obs.camels(n))
                          for n in obs.game.neighbours[cell]
                          if obs.owner(n) != me and obs.kind(n) >= 0 and obs.game.kind_passable[obs.kind(n)]),
                         default=0.0)
            return urgency + chance + self.rng.random() * 0.01

        self._planned = limit
        return space.cell(max(cells, key=need))
