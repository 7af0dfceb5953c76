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

**A game's own say** (its evaluator's ``searches(observation, legal_actions)``):
False leaves that decision to the favourite, unsearched. A game's own defaults for these
settings (a plain ``ismcts``) are its package's ``search_defaults``.

**Progressive widening** (``widen`` > 0): a node visited n times has tree
nodes for the ceil(widen * n^alpha) best actions by the policy's ranking
(``SearchPolicy.candidates``) instead of a fixed ``width``.

**Root parallelism** (``workers`` > 1): the iterations are split over that
many trees, each with a generator derived from one draw of the bot's and the
tree's index, their root statistics summed; forked processes when this
process may fork (:func:`can_fork`), else the trees in turn, the same choice.

Parameters, figures and spellings: ``docs/bots.md``.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import signal
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from targui_dsl.agents.learned import LearnedScore
from targui_dsl.agents.training import score_for
from targui_dsl.engine.chance import derive_seed
from targui_dsl.engine.protocol import Evaluator, GamePackage, SearchPolicy, SeatObservation, State
from targui_dsl.games import game_package

DEFAULT_ITERATIONS = 150
DEFAULT_EXPLORATION = 1.0
DEFAULT_DEPTH = 2
DEFAULT_WIDTH = 6
DEFAULT_BIAS = 1.0
DEFAULT_WIDEN = 0.0  # 0: a fixed ``width`` of candidates per node
DEFAULT_ALPHA = 0.5


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
                 width: int = DEFAULT_WIDTH, bias: float = DEFAULT_BIAS, learned: int = 0,
                 widen: float = DEFAULT_WIDEN, alpha: float = DEFAULT_ALPHA, workers: int = 1,
                 game: GamePackage | None = None) -> None:
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
        self.widen = widen
        self.alpha = alpha
        self.workers = workers
        self.evaluator: Evaluator = package.evaluator(seed)
        self.package = package
        self.learned = learned
        self._score: tuple[Any, LearnedScore | None] | None = None  # (game, its learned score)
        self._last_choice = -1
        self.iterations_done = 0  # in all, for benchmarks
        self.decisions_searched = 0
        #: the last search's root: visits and mean reward per legal action of this seat (for tests and analysis)
        self.last_visits: dict[int, int] = {}
        self.last_values: dict[int, float] = {}

    def choose(self, observation: SeatObservation, legal_actions: list[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        favourite = self.evaluator.favourite(observation, legal_actions, self._last_choice)
        if not self.evaluator.searches(observation, legal_actions):
            self.last_visits, self.last_values = {}, {}
            self._last_choice = favourite
            return favourite
        if self.workers > 1:
            stats, done = self._search_in_parts(observation, legal_actions, favourite)
        else:
            stats, done = self._search(observation, legal_actions, favourite, self.rng, self.iterations)
        self.iterations_done += done
        self.decisions_searched += 1
        self.last_visits = {action: visits for action, (visits, _) in stats.items()}
        self.last_values = {action: reward / visits for action, (visits, reward) in stats.items() if visits}
        best, best_visits = -1, -1
        for action, visits in sorted(self.last_visits.items()):
            if visits > best_visits:
                best, best_visits = action, visits
        if best < 0:  # no iteration reached a choice (cannot happen with one legal step or more)
            best = favourite
        self._last_choice = best
        return best

    def _search(self, observation: SeatObservation, legal_actions: list[int], favourite: int,
                rng: random.Random, iterations: int) -> tuple[dict[int, tuple[int, float]], int]:
        """One tree's search: per legal action of the seat at the root (visits, summed reward),
        and the iterations done."""
        me = observation.seat
        root = _Edge()
        root.favourite[me] = favourite
        policy = self.evaluator.policy(observation, rng)
        score = self._learned(observation)
        # Paired determinisations: the j-th visit of every root option plays out on the j-th
        # draw of the pool (the same hidden values, the same future dice), so the options are
        # compared on the same luck and the dice's noise cancels from their difference.
        pool: list[int] = []

        def determinised(j: int) -> State:
            while len(pool) <= j:
                pool.append(rng.getrandbits(64))
            return observation.resample(random.Random(pool[j]))

        # the root's options for k candidates, computed once per k (progressive widening asks
        # for more as the root is visited; a fixed width always asks for `width`)
        first_state = determinised(0)
        options_for: dict[int, list[int]] = {}

        def root_options(k: int) -> list[int]:
            options = options_for.get(k)
            if options is None:
                options = policy.candidates(first_state, me, legal_actions, k)
                if favourite not in options and favourite in legal_actions:
                    options = sorted({favourite, *options})
                options_for[k] = options
            return options

        if self.seconds > 0:
            deadline = time.process_time() + self.seconds
            done = 0
            while done == 0 or time.process_time() < deadline:
                self._iterate(root, me, root_options, determinised, policy, score, rng)
                done += 1
        else:
            done = iterations
            for _ in range(done):
                self._iterate(root, me, root_options, determinised, policy, score, rng)
        allowed = set(legal_actions)
        return {action: (edge.visits, edge.reward) for (seat, action), edge in root.child.items()
                if seat == me and action in allowed}, done

    def _search_in_parts(self, observation: SeatObservation, legal_actions: list[int],
                         favourite: int) -> tuple[dict[int, tuple[int, float]], int]:
        """Root parallelism: the budget split over ``workers`` trees, each with its own
        generator (from one draw of the bot's and the part's index), their root statistics
        summed. Forked processes where this process may fork; else the parts one after
        another in this process, with the same result."""
        base = self.rng.getrandbits(64)
        # the learned score (trained on first use) and the evaluator's per-game caches are
        # filled here first, so that every part starts from the same bot, forked or not
        self._learned(observation)
        self.evaluator.policy(observation, random.Random(derive_seed(base, 0)))
        n = self.workers
        shares = [self.iterations // n + (1 if i < self.iterations % n else 0) for i in range(n)]
        parts = [(random.Random(derive_seed(base, i + 1)), share) for i, share in enumerate(shares) if share]
        results: list[tuple[dict[int, tuple[int, float]], int]] = []
        if can_fork() and len(parts) > 1:
            results = self._forked(observation, legal_actions, favourite, parts)
        else:
            for part_rng, share in parts:
                results.append(self._search(observation, legal_actions, favourite, part_rng, share))
        stats: dict[int, tuple[int, float]] = {}
        for part_stats, _ in results:
            for action, (visits, reward) in part_stats.items():
                old_visits, old_reward = stats.get(action, (0, 0.0))
                stats[action] = (old_visits + visits, old_reward + reward)
        return stats, sum(done for _, done in results)

    def _forked(self, observation: SeatObservation, legal_actions: list[int], favourite: int,
                parts: list[tuple[random.Random, int]]) -> list[tuple[dict[int, tuple[int, float]], int]]:
        """Every part but the first in a forked child (its statistics sent back through a pipe),
        the first in this process meanwhile."""
        context = multiprocessing.get_context("fork")
        sys.stdout.flush()  # a child must not write out what this process had not yet written
        sys.stderr.flush()
        children = []
        try:
            for part_rng, share in parts[1:]:
                receiver, sender = context.Pipe(duplex=False)
                child = context.Process(target=self._part, daemon=True,
                                        args=(observation, legal_actions, favourite, part_rng, share, sender))
                child.start()
                sender.close()
                children.append((child, receiver))
            results = [self._search(observation, legal_actions, favourite, *parts[0])]
            for _, receiver in children:
                try:
                    outcome = receiver.recv()
                except EOFError:
                    raise RuntimeError("a search process ended without its result") from None
                if isinstance(outcome, str):
                    raise RuntimeError(f"a search process failed: {outcome}")
                results.append(outcome)
            return results
        finally:
            for child, receiver in children:
                receiver.close()
                if child.is_alive():
                    child.join(5)
                if child.is_alive():
                    child.terminate()
                    child.join()

    def _part(self, observation: SeatObservation, legal_actions: list[int], favourite: int,
              rng: random.Random, iterations: int, sender: Connection) -> None:
        """A forked child's part: search, send the root's statistics (or what went wrong)."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            sender.send(self._search(observation, legal_actions, favourite, rng, iterations))
        except Exception as error:  # noqa: BLE001 -- reported by the parent, which raises
            sender.send(f"{type(error).__name__}: {error}")
        finally:
            sender.close()

    def _learned(self, observation: SeatObservation) -> LearnedScore | None:
        """The learned score of the observed game's ruleset (None: none, or the bot is told not to
        use one; a game with no features is never asked for its `game`)."""
        if not self.learned or self.package.features is None:
            return None
        game = observation.game
        if self._score is None or self._score[0] is not game:
            self._score = (game, score_for(game.ruleset, self.package, _note))
        return self._score[1]

    def _width(self, visits: int) -> int:
        """Candidates at a node visited ``visits`` times: the fixed ``width``, or with progressive
        widening ceil(widen * visits^alpha), at least 1 (0 would mean every legal action)."""
        if self.widen <= 0:
            return self.width
        return max(1, math.ceil(self.widen * visits ** self.alpha))

    def _iterate(self, root: _Edge, me: int, root_options: Any, determinised: Any, policy: SearchPolicy,
                 score: LearnedScore | None, rng: random.Random) -> None:
        c = self.exploration
        bias = self.bias
        width_at = self._width
        options = root_options(width_at(root.visits))
        candidates, choose, forget = policy.candidates, policy.choose, policy.forget  # bound once: the hot loop
        policy.reset()
        # the root: the seat's own options, the same in every determinisation
        first = root.favourite[me]
        children = root.child
        untried = [a for a in options if (me, a) not in children]
        expanded = bool(untried)
        if untried:
            action = first if first in untried else untried[rng.randrange(len(untried))]
            edge = children[(me, action)] = _Edge()
        else:
            action, edge = self._ucb(children, me, options, first, c, bias)
        for a in options:
            other = children.get((me, a))
            if other is not None:
                other.avail += 1
        state = determinised(edge.visits)
        if action != first:
            forget(me)
        path: list[tuple[_Edge, int]] = [(edge, me)]  # (edge, seat that took it)
        state.apply_action(action)
        node = edge
        while not expanded:
            _settle_chance(state, rng)
            if state.is_terminal():
                break
            seat = state.current_player()
            every = state.legal_actions()
            legal = candidates(state, seat, every, width_at(node.visits))
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
                for a in legal:
                    children[(seat, a)].avail += 1
                action, edge = self._ucb(children, seat, legal, favourite, c, bias)
            if action != favourite:
                forget(seat)  # a count below this was not planned by the rollout policy
            path.append((edge, seat))
            state.apply_action(action)
            node = edge
        rewards = self._rollout_value(state, policy, score, rng)
        root.visits += 1  # the root's own count: how wide it has grown
        for edge, seat in path:
            edge.visits += 1
            edge.reward += rewards[seat]

    @staticmethod
    def _ucb(children: dict[tuple[int, int], _Edge], seat: int, legal: list[int], favourite: int | None,
             c: float, bias: float) -> tuple[int, _Edge]:
        """UCB1 over ``legal`` (every one with an edge), with the favourite's fading bias. The
        children's mean rewards are rescaled to 0..1 among themselves first, so that exploration
        and bias weigh the same whether the score's rewards differ by a lot or (a learned
        chance to win among four) by a few hundredths."""
        edges = [children[(seat, a)] for a in legal]
        means = [e.reward / e.visits for e in edges]
        low, high = min(means), max(means)
        spread = high - low if high > low else 1.0
        best_score = -math.inf
        action, edge = legal[0], edges[0]
        for a, e, mean in zip(legal, edges, means, strict=True):
            value = (mean - low) / spread + c * math.sqrt(math.log(e.avail) / e.visits)
            if a == favourite:
                value += bias / (e.visits + 1)
            if value > best_score:
                best_score, action, edge = value, a, e
        return action, edge

    def _rollout_value(self, state: State, policy: SearchPolicy, score: LearnedScore | None,
                       rng: random.Random) -> list[float]:
        for _ in range(self.depth):
            _settle_chance(state, rng)
            if state.is_terminal():
                break
            seat = state.current_player()
            state.apply_action(policy.choose(state, seat, state.legal_actions()))
        _settle_chance(state, rng)
        if score is None or state.is_terminal():
            return policy.evaluate(state)
        features = self.package.features
        assert features is not None  # a learned score is only found for a game that gives features
        return score.win_chances(state, features, len(state.returns()))


def can_fork() -> bool:
    """Whether a search may fork its parts: where fork exists (Linux, macOS) and this process is
    not itself a worker (of a study's pool, say): a study's game stays in its one process."""
    return "fork" in multiprocessing.get_all_start_methods() and multiprocessing.parent_process() is None


def _note(line: str) -> None:
    """Training a ruleset's score on first use takes seconds: say so on stderr."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


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
