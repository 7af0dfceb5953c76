"""Targui's knowledge for a tree search: its position score and its rollout policy.

The search bot (:mod:`targui_dsl.agents.ismcts`) knows no game: it reaches this
module through :attr:`GamePackage.evaluator <targui_dsl.engine.protocol.GamePackage>`,
which builds a :class:`TarguiEvaluator` per bot. For each decision the evaluator
gives the root's favourite (what ``greedy`` would do) and a :class:`RolloutPolicy`
for the search: the actions worth a tree node, the rollout moves, and the
position score.

**The position score.** A seat's value is its current score (the ruleset's
score formula) plus its levy (the ruleset's levy formula) for each levy still
to come, valued per silver as :class:`Weights` says, plus ``CAMEL_WEIGHT`` per
camel and per silver in hand, scaled down when the seat does not hold its own
settlement (it cannot win then). The reward of a seat is a logistic of its lead
over the best other seat in play; a finished game pays its returns.

**Width.** Counts are wide (up to 255 ids), so at a count node the search only
tries a few values (one, all, all but one, half, nothing, what ``greedy`` or a
safe default would pick). At a move or a buy it tries pass and the ``width``
best actions by the rollout policy's scores (attacks of any odds).
"""

from __future__ import annotations

import math
import random
from typing import Callable

from targui_dsl.games.targui.actions import AGAIN, GIVE_UP, PASS
from targui_dsl.games.targui.game import Game
from targui_dsl.games.targui.greedy import (
    ATTACK_MIN_WIN_CHANCE,
    CONTINUE_MIN_WIN_CHANCE,
    ENEMY_SETTLEMENT_BONUS,
    MAX_FIGHT_THROWS,
    OWN_SETTLEMENT_BONUS,
    FightOdds,
    GreedyAgent,
)
from targui_dsl.games.targui.observation import Observation
from targui_dsl.games.targui.phases import Phase
from targui_dsl.games.targui.state import GameState

__all__ = ["CAMEL_WEIGHT", "SEARCH_DEFAULTS", "RolloutPolicy", "TarguiEvaluator", "Weights", "evaluate",
           "seat_values"]

#: What a plain `ismcts` means in Targui: rollouts of 20 decision steps (about a round of a
#: two-player game), so that camels are bought and take ground before the score looks (the
#: score alone values a camel at 0.15 and a treasury silver at 1), at 100 iterations to stay
#: within about 70 ms of CPU a decision. docs/bots.md ("How strong they are") has the figures.
SEARCH_DEFAULTS = {"iterations": 100, "depth": 20}

CAMEL_WEIGHT = 0.15  # a camel (or a silver in hand, which buys one) in points of score
BANKED = 0.7  # the share of a levy still to come that ends up in a treasury the score counts
PROBE = 1000
WITHOUT_SETTLEMENT = 0.4  # a seat without its own settlement cannot win: its value shrinks
REWARD_SCALE = 0.12  # the logistic's width, as a share of the leader's value (at least 2 points)

_COUNT_PHASES = (Phase.DEPOSIT, Phase.MOVE_COUNT, Phase.ENTER, Phase.BUY_COUNT)


class TarguiEvaluator:
    """What one search bot asks of Targui: per decision, the root's favourite (``greedy``'s
    choice) and a rollout policy (with the ruleset's money weights, probed once per game)."""

    def __init__(self, seed: int = 0) -> None:
        self._greedy = GreedyAgent(seed)
        self._greedy_pick = -1
        self._weights: tuple[Game, Weights] | None = None

    def searches(self, observation: Observation, legal_actions: list[int]) -> bool:
        """Every Targui decision with a choice is searched."""
        return True

    def favourite(self, observation: Observation, legal_actions: list[int], last_choice: int) -> int:
        """What ``greedy`` would do here: its count only when the pair or buy cell before it
        (``last_choice``, what the bot played last) was greedy's too, else a safe default count."""
        phase = observation.phase
        if phase in (Phase.MOVE_COUNT, Phase.BUY_COUNT) and last_choice != self._greedy_pick:
            return observation.count_step(_default_count(self._greedy, observation))
        pick = self._greedy.choose(observation, legal_actions)
        self._greedy_pick = pick
        return pick

    def policy(self, observation: Observation, rng: random.Random) -> RolloutPolicy:
        """The rollout policy of one search (its random draws from ``rng``)."""
        if self._weights is None or self._weights[0] is not observation.game:
            self._weights = (observation.game, Weights(observation.resample(rng)))
        return RolloutPolicy(observation.game.players, rng, self._weights[1])


class RolloutPolicy:
    """The rollout policy: ``greedy``'s rules of thumb, made cheap enough to run a few
    hundred times a decision. It reads the determinised state through the public read
    API (the board, and the cash this determinisation drew), looks at each cell's
    threat once a decision, and caches fight odds per (source, target) and their
    strategic values for the whole search (a combat formula that reads anything else is
    approximated in rollouts only). Setup decisions and card choices go to ``greedy``.
    """

    def __init__(self, players: int, rng: random.Random, weights: Weights) -> None:
        self.weights = weights
        self.rng = rng
        self.bots = [GreedyAgent(rng.getrandbits(32)) for _ in range(players)]
        self.planned = [-1] * players  # the count this seat planned with its last pair or buy cell (-1: none)
        self.odds_cache: dict[tuple[int, int, int, int], FightOdds] = {}

    def reset(self) -> None:
        """A new iteration: no seat has a plan."""
        self.planned = [-1] * len(self.planned)

    def forget(self, seat: int) -> None:
        """The search took ``seat`` off the policy's plan: its next count is not planned."""
        self.planned[seat] = -1

    def evaluate(self, state: GameState) -> list[float]:
        """Per seat, a reward in 0..1 (see the module text)."""
        return evaluate(state, self.weights)

    def odds(self, state: GameState, seat: int, source: int, target: int) -> FightOdds:
        key = (source, target, state.strategic(source), state.strategic(target))
        odds = self.odds_cache.get(key)
        if odds is None:
            odds = self.odds_cache[key] = self.bots[seat].odds(state.observation(seat), source, target)
        return odds

    def choose(self, state: GameState, seat: int, legal: list[int]) -> int:
        phase = state.phase
        if phase == Phase.MOVE:
            return self._move(state, seat, legal)
        if phase == Phase.MOVE_COUNT or phase == Phase.BUY_COUNT:
            planned = self.planned[seat]
            if planned < 0:
                planned = _default_count(self.bots[seat], state.observation(seat))
            return state.count_step(planned)
        if phase == Phase.BUY_CELL:
            return self._buy(state, seat, legal)
        if phase == Phase.ATTACK_CHOICE:
            source, target = state.attack()  # type: ignore[misc]
            win, _ = self.odds(state, seat, source, target)(state.camels(source), state.camels(target))
            return AGAIN if win >= CONTINUE_MIN_WIN_CHANCE else GIVE_UP
        if phase == Phase.EFFECT_CHOICE:
            # a card's or hook's question in a rollout: any answer (greedy's look-ahead is too dear
            # here); at a tree node every answer is tried and its consequence evaluated
            return self.rng.choice(legal)
        action = self.bots[seat].choose(state.observation(seat), legal)  # deposit, enter, setup
        return action

    def _threats(self, state: GameState, seat: int) -> Callable[[int], int]:
        """Per cell (asked lazily): the most camels another seat has on one neighbour."""
        game = state.game
        camels = state.camels
        enemy: dict[int, int] = {}
        for other in range(game.players):
            if other != seat:
                for cell in state.cells_of(other):
                    if n := camels(cell):
                        enemy[cell] = n
        neighbours, get = game.neighbours, enemy.get
        memo: dict[int, int] = {}

        def threat(cell: int) -> int:
            hit = memo.get(cell)
            if hit is None:
                hit = memo[cell] = max([get(n, 0) for n in neighbours[cell]], default=0)
            return hit
        return threat

    def _move(self, state: GameState, seat: int, legal: list[int]) -> int:
        best, best_score, planned = PASS, 0.0, -1
        for score, action, count in self.move_scores(state, seat, legal, False):
            if score > best_score:
                best, best_score, planned = action, score, count
        self.planned[seat] = planned
        return best

    def move_scores(self, state: GameState, seat: int, legal: list[int],
                    every_attack: bool) -> list[tuple[float, int, int]]:
        """(score, pair id, planned count or -1) for each move worth considering; attacks with
        poor odds only when ``every_attack``. A source's spare camels and a target's value are
        worked out once per call (a cell is the source or target of many pairs)."""
        game = state.game
        sources, targets = game.pair_source, game.pair_target
        threat = self._threats(state, seat)
        rounds_left = max(1, game.rounds - state.round + 1)
        own = state.settlement(seat)
        owner, camels, economic, strategic = state.owner, state.camels, state.economic, state.strategic
        kind = state.kind
        home = game.settlement_kind
        values: dict[int, float] = {}
        spare: dict[int, int] = {}

        def value(cell: int) -> float:  # what holding the cell is worth to the seat (greedy's measure)
            worth = values.get(cell)
            if worth is None:
                worth = float(economic(cell) * (rounds_left + 1) + strategic(cell))
                if kind(cell) == home:
                    worth += OWN_SETTLEMENT_BONUS if own == cell else ENEMY_SETTLEMENT_BONUS
                values[cell] = worth
            return worth

        scored: list[tuple[float, int, int]] = []
        for action in legal:
            source = sources[action]
            if source < 0:
                continue
            target = targets[action]
            holder = owner(target)
            if holder >= 0 and holder != seat and (defenders := camels(target)) > 0:
                odds = self.odds(state, seat, source, target)
                if odds.throws_to_take(defenders) > MAX_FIGHT_THROWS:
                    continue
                have = camels(source)
                win, kept = odds(have, defenders)
                if win < ATTACK_MIN_WIN_CHANCE and not every_attack:
                    continue
                scored.append((win * value(target) - (have - kept) * 0.8 + defenders * 0.3, action, -1))
                continue
            movable = spare.get(source)
            if movable is None:
                danger = threat(source)
                keep = danger + 1 + (2 if own == source else 0) if danger else 0
                movable = spare[source] = camels(source) - keep
            if movable <= 0:
                continue
            if holder == seat:
                danger = threat(target)
                need = (danger + 1 if danger else 0) - camels(target)
                if need <= 0:
                    continue
                count = min(movable, need + 1)
                score = 0.5 * value(target) * min(1.0, count / need)
            else:
                danger = threat(target)
                needed = danger + 1 if danger else 0
                count = movable if needed > movable else max(needed, min(movable, max(1, movable // 2)))
                score = value(target) * (1.0 if count >= needed else 0.4)
            scored.append((score, action, count))
        return scored

    def _buy(self, state: GameState, seat: int, legal: list[int]) -> int:
        limit = state.buy_limit()
        scored = self.buy_scores(state, seat, legal)
        if not limit or not scored:
            return PASS
        self.planned[seat] = limit
        return max(scored)[1]

    def buy_scores(self, state: GameState, seat: int, legal: list[int]) -> list[tuple[float, int]]:
        """(need, buy cell id) for each cell camels may be bought on."""
        game = state.game
        base = game.cell_base
        threat = self._threats(state, seat)
        own = state.settlement(seat)
        scored = []
        for action in legal:
            if action == PASS:
                continue
            cell = action - base
            deficit = (threat(cell) + 1 + (2 if cell == own else 0) if threat(cell) else 0) - state.camels(cell)
            need = max(0, deficit) * (3.0 if cell == own else 1.0) + 0.1 * len(game.neighbours[cell]) \
                + (0.5 if threat(cell) else 0.0)
            scored.append((need, action))
        return scored

    def candidates(self, state: GameState, seat: int, legal: list[int], width: int) -> list[int]:
        """The actions worth a tree node: a few counts at a count step; at a move or a buy
        (``width`` > 0) pass and the ``width`` best by the rollout policy's own scores; every
        legal action elsewhere."""
        phase = state.phase
        if phase in _COUNT_PHASES:
            return _count_candidates(state, legal, self.bots[seat])
        if not width:
            return legal
        if phase == Phase.MOVE:
            ranked = sorted(self.move_scores(state, seat, legal, True), reverse=True)
        elif phase == Phase.BUY_CELL:
            ranked = sorted(self.buy_scores(state, seat, legal), reverse=True)  # type: ignore[arg-type]
        else:
            return legal
        if len(ranked) <= width:
            return legal if len(ranked) + 1 >= len(legal) else sorted({PASS, *(r[1] for r in ranked)})
        return sorted({PASS, *(r[1] for r in ranked[:width])})


def _default_count(bot: GreedyAgent, obs: Observation) -> int:
    """A count for a pair or a buy cell the policy did not plan: all it can buy; the camels
    the source can spare (half, when it cannot spare any)."""
    if obs.phase == Phase.BUY_COUNT:
        return obs.buy_limit() or 0
    pair = obs.pending_move()
    if pair is None:
        return 1
    source, _ = pair
    have = obs.camels(source)
    spare = have - bot.keep_on(obs, source, obs.seat)
    return spare if spare > 0 else max(1, have // 2)


def _count_candidates(state: GameState, legal: list[int], bot: GreedyAgent) -> list[int]:
    """The few count steps worth a tree node: the ids of one, all, all but one, half, and
    what greedy or the safe default would choose, plus nothing for a deposit."""
    step = state.count_step
    seat = state.current_player()
    obs = state.observation(seat)
    low, high = legal[0], legal[-1]
    if high - low <= 3:
        return legal
    whole = state.count_range()
    top = whole[1] if whole is not None else high
    values = {0, 1, top, top - 1, top // 2}
    if state.phase == Phase.DEPOSIT:
        values.add((state.cash(seat) or 0) - bot._buy_budget(obs, seat))
    elif state.phase == Phase.ENTER:
        source, _ = state.attack()  # type: ignore[misc]
        values.add(top - min(top - 1, bot.keep_on(obs, source, seat)))
    else:
        values.add(_default_count(bot, obs))
    return sorted({step(v) for v in values} & set(legal))


class Weights:
    """How the ruleset's score formula counts money, found by probing it on a copy of a
    determinisation (so no variant is named): the score's change per silver of cash in
    hand and per silver of treasury. Cash in hand is then valued at what it buys (a camel
    each), whatever the score says of it, and a silver of levy still to come at
    ``BANKED`` x the treasury's weight when the score counts the treasury, else at a camel."""

    __slots__ = ("cash_in_score", "silver")

    def __init__(self, state: GameState) -> None:
        probe = state.clone()
        seat = 0
        before = probe.scores()[seat]
        edit = probe.edit()
        edit.set_cash(seat, probe.cash(seat) + PROBE)
        after_cash = probe.scores()[seat]
        edit.set_treasury(seat, probe.treasury(seat) + PROBE)
        after_treasury = probe.scores()[seat]
        self.cash_in_score = (after_cash - before) / PROBE
        self.silver = max(CAMEL_WEIGHT, BANKED * (after_treasury - after_cash) / PROBE)


def seat_values(state: GameState, weights: Weights) -> list[float | None]:
    """Each seat's heuristic value (None for a seat out of the game); see the module text."""
    game = state.game
    rt = state.runtime
    levies_left = max(0, game.rounds - state.round + 1)
    scores = state.scores()
    in_score, silver = weights.cash_in_score, weights.silver
    values: list[float | None] = []
    for seat in range(game.players):
        if not state.in_game(seat):
            values.append(None)
            continue
        cash = state.cash(seat)
        value = (scores[seat] - in_score * cash + silver * game.levy(rt, seat) * levies_left
                 + CAMEL_WEIGHT * (state.player_camels(seat) + cash))
        if not state.holds_own_settlement(seat):
            value *= WITHOUT_SETTLEMENT
        values.append(float(value))
    return values


def evaluate(state: GameState, weights: Weights) -> list[float]:
    """Per seat, a reward in 0..1: the returns at the end, else a logistic of the seat's
    heuristic lead over the best other seat still in the game."""
    if state.is_terminal():
        return state.returns()
    values = seat_values(state, weights)
    present = [v for v in values if v is not None]
    if not present:
        return [0.0] * len(values)
    top = max(present)
    scale = max(2.0, REWARD_SCALE * abs(top))
    rewards = []
    for seat, value in enumerate(values):
        if value is None:
            rewards.append(0.0)
            continue
        rival = max((v for s, v in enumerate(values) if s != seat and v is not None), default=value - 10 * scale)
        z = (value - rival) / scale
        rewards.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))))
    return rewards

