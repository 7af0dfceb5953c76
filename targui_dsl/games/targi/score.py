"""Targi's evaluator for the search bot (`ismcts`): the root's favourite is `greedy`'s choice,
the rollout policy cheap rules of thumb, the position score a logistic of the value difference."""

from __future__ import annotations

import math
import random
from typing import Any

from targui_dsl.games.targi.actions import A_BORDER, A_DISCARD, A_HAND, A_OPTION, A_STOP
from targui_dsl.games.targi.greedy import GreedyAgent, value
from targui_dsl.games.targi.state import TargiObservation, TargiState

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
            return self.greedy.placement(state, seat, action - A_BORDER)
        return 0.0 if action == A_STOP else 1.0

    def choose(self, state: Any, seat: int, legal: list[int]) -> int:
        kind = state.record.stack[-1]["k"]
        if kind == "place":
            return max(legal, key=lambda a: (self.greedy.placement(state, seat, a - A_BORDER), self.rng.random()))
        if kind == "turn" and len(legal) > 1:
            return self.rng.choice([a for a in legal if a != A_STOP])
        if kind == "tribe":
            options = [a for a in legal if a >= A_OPTION]
            if options:
                return self.rng.choice(options)
            return A_HAND if A_HAND in legal else A_DISCARD
        if kind in ("merchant", "silversmith") and self.rng.random() < 0.5:
            return A_STOP if A_STOP in legal else legal[0]
        return self.rng.choice(legal)

    def evaluate(self, state: Any) -> list[float]:
        if state.is_terminal():
            winners = state.winners()
            return [1.0 if winners == [s] else 0.5 if s in winners else 0.0 for s in range(2)]
        ahead = value(state, 0) / SCALE
        first = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, ahead))))
        return [first, 1.0 - first]
