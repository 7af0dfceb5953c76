"""The random bot: uniform over the legal actions of each decision step.

Every decision is one small choice (see :mod:`targui_dsl.games.targui.actions`), so
uniform over ``legal_actions`` is uniform over move pairs plus pass, then a
uniform count; uniform over buy cells plus pass, then a uniform count; an
attack continued with probability one half; a deposit uniform in 0..cash.
"""

from __future__ import annotations

import random

from targui_dsl.games.targui.observation import Observation


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal_actions: list[int]) -> int:
        # rng.choice(legal_actions) without its two inner calls (a tenth of a bot game):
        # choice() is legal[_randbelow(n)], rejection sampling on getrandbits(n.bit_length()),
        # so the same draws and the same picks from the same seed
        n = len(legal_actions)
        if not n:
            raise IndexError("no legal action to choose from")
        getrandbits = self.rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal_actions[r]
