"""Targi's evaluator for the search bot (`ismcts`): the root's favourite is `greedy`'s choice,
the rollout policy cheap rules of thumb, the position score a logistic of the value difference."""

from __future__ import annotations

import math
import random
from typing import Any

from targui_dsl.games.targi.actions import A_BORDER, A_DISCARD, A_HAND, A_OPTION, A_STOP
from targui_dsl.games.targi.greedy import GreedyAgent, border_worth, value
from targui_dsl.games.targi.state import Game, TargiObservation, TargiState

#: Points of value difference that make a position worth about 0.73 to the seat ahead.
SCALE = 4.0


class TargiEvaluator:
    def __init__(self, seed: int = 0) -> None:
        self._greedy = GreedyAgent(seed)

    def favourite(self, observation: TargiObservation, legal_actions: list[int], last_choice: int) -> int:
        return self._greedy.choose(observation, legal_actions)

    def policy(self, observation: TargiObservation, rng: random.Random) -> "TargiPolicy":
        return TargiPolicy(rng)


class TargiPolicy:
    """Rollouts: place by greedy's worth of a card and its crossing, use every card, display what
    can be paid, otherwise pick at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.greedy = GreedyAgent(rng.getrandbits(32))
        self._borders: list[float] | None = None

    def border_worth(self, state: TargiState, seat: int, ring: int) -> float:
        """A border card's worth for rollouts: greedy's, played out once on a new game of the
        ruleset (a rollout cannot afford a look-ahead per placement)."""
        if self._borders is None:
            start = Game(state.rs, seed=0).new_initial_state()
            rng = random.Random(0)
            self._borders = [0.0 if border.action is None else border_worth(start, start.current_player(), i, rng)
                             for i, border in enumerate(state.rs.ring)]
        return self._borders[ring]

    def placement(self, state: TargiState, seat: int, action: int) -> float:
        ring = action - A_BORDER
        return self.greedy.placement(state, seat, ring, self.border_worth(state, seat, ring))

    def reset(self) -> None:
        """Nothing planned ahead."""

    def forget(self, seat: int) -> None:
        """Nothing planned ahead."""

    def candidates(self, state: Any, seat: int, legal: list[int], width: int) -> list[int]:
        if width <= 0 or len(legal) <= width:
            return legal
        return sorted(legal, key=lambda a: -self._worth(state, seat, a))[:width]

    def _worth(self, state: TargiState, seat: int, action: int) -> float:
        frame = state.record.stack[-1]
        if frame["k"] == "place":
            return self.placement(state, seat, action)
        return 0.0 if action == A_STOP else 1.0

    def choose(self, state: Any, seat: int, legal: list[int]) -> int:
        kind = state.record.stack[-1]["k"]
        if kind == "place":
            return max(legal, key=lambda a: (self.placement(state, seat, a), self.rng.random()))
        if kind == "turn" and len(legal) > 1:
            return self.rng.choice([a for a in legal if a != A_STOP])
        if kind == "tribe":
            options = [a for a in legal if a >= A_OPTION]
            if options:
                return self.rng.choice(options)
            return A_HAND if A_HAND in legal else A_DISCARD
        if kind == "effect" and self.rng.random() < 0.5:
            return legal[0]  # a snippet's first option: at a border card, stop (exchanges end sooner)
        return self.rng.choice(legal)

    def evaluate(self, state: Any) -> list[float]:
        if state.is_terminal():
            winners = state.winners()
            return [1.0 if winners == [s] else 0.5 if s in winners else 0.0 for s in range(2)]
        ahead = value(state, 0) / SCALE
        first = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, ahead))))
        return [first, 1.0 - first]
