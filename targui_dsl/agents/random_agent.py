"""The random bot: uniform over the legal actions of each decision step.

It plays any game: it reads nothing but the legal action ids of each step
(each game's own docs say what uniform over its decision steps amounts to).
"""

from __future__ import annotations

import random
from typing import Any


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Any, legal_actions: list[int]) -> int:
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
