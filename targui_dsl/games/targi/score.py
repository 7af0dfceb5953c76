"""Targi's evaluator for the search bot (`ismcts`).

Where the search pays is placement: where a Targi stands decides what the seat does this round,
what its crossings bring, and what it denies the opponent. So the search is spent there
(:meth:`TargiEvaluator.searches`); every other decision is `greedy`'s one-step look-ahead (a
search whose rollouts leave tasks half done judged them worse: docs/bots.md, "Targi's bots").

A placement is judged by playing the round out as `greedy` would: the remaining placements by
greedy's worth of a card and its crossing (each border card's worth worked out once per decision,
greedy's way: its action played out on a determinisation), which action next and every choice
of a task by greedy's one step ahead (a tribe card displayed when it can be paid, in the row it
fits best), then greedy's value of the position at the round's end.
"""

from __future__ import annotations

import math
import random
from typing import Any

from targui_dsl.games.targi.actions import A_BORDER, A_DISCARD, A_HAND, A_OPTION, A_ROW, A_STOP
from targui_dsl.games.targi.greedy import GreedyAgent, best_step, border_worth, default_choice, row_promise, value
from targui_dsl.games.targi.rules import row_points
from targui_dsl.games.targi.state import TargiObservation, TargiState

#: Points of value difference that make a position worth about 0.73 to the seat ahead.
SCALE = 4.0
#: Steps a position is played on before it is valued (the rest of a round takes about 40).
ROUND_STEPS = 300


#: What a plain `ismcts` means in Targi: an iteration plays a round out (about 4 ms), so a searched
#: decision takes 40 of them (docs/bots.md, "Targi's bots").
SEARCH_DEFAULTS = {"iterations": 40}
#: Targi's own `hard` (the shared table's 600 iterations would be 15 times `normal`, about 3 s a
#: placement): four times the default's budget, about 0.7 s a placement (docs/bots.md, "Targi's bots").
LEVELS = {"hard": "ismcts:iterations=160"}


class TargiEvaluator:
    def __init__(self, seed: int = 0) -> None:
        self._greedy = GreedyAgent(seed)

    def favourite(self, observation: TargiObservation, legal_actions: list[int], last_choice: int) -> int:
        return self._greedy.choose(observation, legal_actions)

    def searches(self, observation: TargiObservation, legal_actions: list[int]) -> bool:
        """Only a placement is searched; any other decision is the favourite, greedy's."""
        record = observation.state.read_record
        return bool(record.stack) and record.stack[-1]["k"] == "place"

    def policy(self, observation: TargiObservation, rng: random.Random) -> "TargiPolicy":
        return TargiPolicy(rng, border_worths(observation, random.Random(rng.getrandbits(64))))


def border_worths(observation: TargiObservation, rng: random.Random) -> list[list[float]]:
    """Per seat, per border card: greedy's worth of using it now, on one determinisation of what
    the observing seat sees (a raid corner, or a card with no action: 0)."""
    state = observation.state
    dealt = observation.resample(rng)
    return [[0.0 if border.action is None or border.is_raid else border_worth(dealt, seat, ring, rng)
             for ring, border in enumerate(state.rs.ring)] for seat in range(2)]


class TargiPolicy:
    """Rollouts: place by greedy's worth of a card and its crossing (the worths given, one list per
    seat), act by greedy's one step ahead; a position is valued when its round is played out."""

    def __init__(self, rng: random.Random, worths: list[list[float]]) -> None:
        self.rng = rng
        self.worths = worths
        self.greedy = GreedyAgent(0)  # its placement arithmetic only: no generator drawn

    def placement(self, state: TargiState, seat: int, action: int) -> float:
        ring = action - A_BORDER
        return self.greedy.placement(state, seat, ring, self.worths[seat][ring])

    def reset(self) -> None:
        """Nothing planned ahead."""

    def forget(self, seat: int) -> None:
        """Nothing planned ahead."""

    def candidates(self, state: Any, seat: int, legal: list[int], width: int) -> list[int]:
        if width <= 0 or len(legal) <= width:
            return legal
        return sorted(legal, key=lambda a: -self._worth(state, seat, a))[:width]

    def _worth(self, state: TargiState, seat: int, action: int) -> float:
        if state.read_record.stack[-1]["k"] == "place":
            return self.placement(state, seat, action)
        return 0.0 if action == A_STOP else 1.0

    def choose(self, state: Any, seat: int, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        frame = state.read_record.stack[-1]
        kind = frame["k"]
        if kind == "place":
            return max(legal, key=lambda a: (self.placement(state, seat, a), self.rng.random()))
        if kind == "tribe":
            options = [a for a in legal if a >= A_OPTION]
            if options:
                return options[0]
            return A_HAND if A_HAND in legal else A_DISCARD
        if kind == "row":
            return max(legal, key=lambda a: (_row_fit(state, seat, frame["card"], a - A_ROW), -a))
        if kind == "gold_choice":
            return int(default_choice(state, seat, legal))
        return best_step(state, seat, legal)  # which action next, and a task's choices: greedy's

    def evaluate(self, state: Any) -> list[float]:
        """The round played out from a copy of ``state`` by :meth:`choose`, then the returns of a
        finished game or a logistic of greedy's value of seat 1's position."""
        state = state.clone()
        record = state.read_record
        start = record.round
        for _ in range(ROUND_STEPS):
            if record.over or record.round != start:
                break
            if state.is_chance_node():
                state.apply_action(self.rng.choice(state.chance_outcomes())[0])
                continue
            state.apply_action(self.choose(state, state.current_player(), state.legal_actions()))
        if state.is_terminal():
            winners = state.winners()
            return [1.0 if winners == [s] else 0.5 if s in winners else 0.0 for s in range(2)]
        ahead = value(state, 0) / SCALE
        first = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, ahead))))
        return [first, 1.0 - first]


def _row_fit(state: TargiState, seat: int, card: int, row: int) -> float:
    """What laying ``card`` at the end of display row ``row`` adds: the row's points and promise."""
    cards = state.read_record.sides[seat].display[row]
    return row_points(state.rs, cards + [card]) + row_promise(state, cards + [card]) - row_promise(state, cards)
