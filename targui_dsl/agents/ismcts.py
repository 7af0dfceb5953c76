"""The ``ismcts`` bot: single-observer information-set Monte Carlo tree search.

Algorithm: SO-ISMCTS from P. I. Cowling, E. J. Powley and D. Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE Transactions on Computational
Intelligence and AI in Games 4(2), 2012, pp. 120-143 (Algorithm 3). One tree
is grown for the deciding seat's information set; every iteration

1. **determinises**: draws a full state the seat cannot tell from the true
   one with ``observation.resample(rng)`` (a new generator, hence every
   hidden order and every future die, and whatever the seat does not see
   drawn from the public record). The bot reads nothing else: never the
   true state;
2. **selects** down the tree over the engine's integer decision steps,
   among the actions legal *in this determinisation* that the game's policy
   finds worth a node, by UCB1 where a child's exploration term counts the
   iterations in which it was available (the paper's subset-armed bandit),
   plus a progressive bias ``bias / (visits + 1)`` towards one favourite per
   node: at the root the game's heuristic bot's choice, below it the rollout
   policy's;
3. **expands** one untried action (the favourite first);
4. **rolls out** ``depth`` decision steps with the game's rollout policy in
   every seat, then scores the position with the game's position score;
5. **backs up**: each edge is credited with the reward of the seat that took it.

The most visited action at the root is played.

The bot knows no game: the game's package gives it an evaluator
(:attr:`GamePackage.evaluator <targui_dsl.engine.protocol.GamePackage>`, Targui's
is :mod:`targui_dsl.games.targui.score`) with the root's favourite, the
candidate actions of a node, the rollout policy and the position score.

Chance (dice, cards) is drawn inside the determinisation by its own
generator (or sampled from ``chance_outcomes()`` in an explicit-chance game)
and is not a tree node: a child of an action stands for every outcome that
followed it (an open-loop tree), and the seat to move below it is part of the
child's key, since the game decides who moves next.

**Budget and determinism.** ``iterations`` or ``seconds`` (CPU time per
decision, 0 = use iterations). With an iteration budget a seed gives the
same choices every time; a time budget depends on the machine and is not
reproducible. A decision with one legal action is taken at once.

Parameters, figures and spellings: ``docs/bots.md``.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from targui_dsl.engine.protocol import Evaluator, GamePackage, SearchPolicy, State
from targui_dsl.games import game_package

DEFAULT_ITERATIONS = 150
DEFAULT_EXPLORATION = 0.3
DEFAULT_DEPTH = 2
DEFAULT_WIDTH = 6
DEFAULT_BIAS = 1.0


class _Edge:
    """An edge of the tree and the node below it: the edge's statistics (for the seat that
    took it), the node's children keyed by (seat to move, action), and per seat the
    action the rollout policy favours there (its progressive bias)."""

    __slots__ = ("visits", "reward", "avail", "child", "favourite")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.child: dict[tuple[int, int], _Edge] = {}
        self.favourite: dict[int, int] = {}


class ISMCTSAgent:
    """Decides from one seat's observation by SO-ISMCTS over determinisations, with the
    knowledge of the game in ``game`` (a :class:`GamePackage`; the default game when None)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = DEFAULT_ITERATIONS, seconds: float = 0.0,
                 exploration: float = DEFAULT_EXPLORATION, depth: int = DEFAULT_DEPTH,
                 width: int = DEFAULT_WIDTH, bias: float = DEFAULT_BIAS, game: GamePackage | None = None) -> None:
        package = game if game is not None else game_package()
        if package.evaluator is None:
            raise ValueError(f"the search bot needs a position score: {package.title} gives none")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.depth = depth
        self.width = width
        self.bias = bias
        self.evaluator: Evaluator = package.evaluator(seed)
        self._last_choice = -1
        self.iterations_done = 0  # in all, for benchmarks
        self.decisions_searched = 0
        #: the last search's root: visits per legal action of this seat (for tests and analysis)
        self.last_visits: dict[int, int] = {}

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        me = observation.seat
        rng = self.rng
        root = _Edge()
        root.favourite[me] = self.evaluator.favourite(observation, legal_actions, self._last_choice)
        policy = self.evaluator.policy(observation, rng)
        if self.seconds > 0:
            deadline = time.process_time() + self.seconds
            done = 0
            while done == 0 or time.process_time() < deadline:
                self._iterate(root, observation.resample(rng), policy, rng)
                done += 1
        else:
            done = self.iterations
            for _ in range(done):
                self._iterate(root, observation.resample(rng), policy, rng)
        self.iterations_done += done
        self.decisions_searched += 1
        allowed = set(legal_actions)
        self.last_visits = {action: edge.visits for (seat, action), edge in root.child.items()
                            if seat == me and action in allowed}
        best, best_visits = -1, -1
        for action, visits in sorted(self.last_visits.items()):
            if visits > best_visits:
                best, best_visits = action, visits
        if best < 0:  # no iteration reached a choice (cannot happen with one legal step or more)
            best = root.favourite[me]
        self._last_choice = best
        return best

    def _iterate(self, root: _Edge, state: State, policy: SearchPolicy, rng: random.Random) -> None:
        path: list[tuple[_Edge, int]] = []  # (edge, seat that took it)
        node = root
        c = self.exploration
        bias = self.bias
        width = self.width
        candidates, choose, forget = policy.candidates, policy.choose, policy.forget  # bound once: the hot loop
        expanded = False
        policy.reset()
        while not expanded:
            _settle_chance(state, rng)
            if state.is_terminal():
                break
            seat = state.current_player()
            every = state.legal_actions()
            legal = candidates(state, seat, every, width)
            favourite = node.favourite.get(seat)
            if favourite is None:
                favourite = node.favourite[seat] = choose(state, seat, every)
            else:
                forget(seat)  # the policy's plan is only known on its first visit here
            if favourite not in legal:
                if favourite in every:  # (another determinisation may not allow it)
                    legal = sorted({favourite, *legal})
            children = node.child
            untried = [a for a in legal if (seat, a) not in children]
            if untried:
                action = favourite if favourite in untried else untried[rng.randrange(len(untried))]
                edge = children[(seat, action)] = _Edge()
                for a in legal:
                    other = children.get((seat, a))
                    if other is not None:
                        other.avail += 1
                expanded = True
            else:
                best_score = -1.0
                action = legal[0]
                edge = children[(seat, action)]
                for a in legal:
                    e = children[(seat, a)]
                    e.avail += 1
                for a in legal:
                    e = children[(seat, a)]
                    score = e.reward / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
                    if a == favourite:
                        score += bias / (e.visits + 1)
                    if score > best_score:
                        best_score, action, edge = score, a, e
            if action != favourite:
                forget(seat)  # a count below this was not planned by the rollout policy
            path.append((edge, seat))
            state.apply_action(action)
            node = edge
        rewards = self._rollout_value(state, policy, rng)
        for edge, seat in path:
            edge.visits += 1
            edge.reward += rewards[seat]

    def _rollout_value(self, state: State, policy: SearchPolicy, rng: random.Random) -> list[float]:
        for _ in range(self.depth):
            _settle_chance(state, rng)
            if state.is_terminal():
                break
            seat = state.current_player()
            state.apply_action(policy.choose(state, seat, state.legal_actions()))
        _settle_chance(state, rng)
        return policy.evaluate(state)


def _settle_chance(state: State, rng: random.Random) -> None:
    """Sample explicit chance nodes (an implicit-chance game draws them by itself)."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        pick = rng.random()
        chosen = outcomes[-1][0]  # what rounding leaves over goes to the last outcome
        for outcome, p in outcomes:
            pick -= p
            if pick <= 0:
                chosen = outcome
                break
        state.apply_action(chosen)
