"""A bot kind that takes a parameter, for tests of how spellings travel (as `ismcts:iterations=100` will)."""

from __future__ import annotations

from typing import Iterator

from targui_dsl.agents import BotKind, BotParam, RandomAgent, register
from targui_dsl.agents.spec import unregister


def dice_bot() -> Iterator[str]:
    """Register `dice` (uniform moves, its generator salted by `salt`) for a test module; remove it after.
    Forked workers inherit it."""
    register(BotKind("dice", lambda seed, salt=0: RandomAgent(seed * 1009 + salt), "random, salted",
                     (BotParam("salt", int, 0, "added to the seed"),)))
    yield "dice"
    unregister("dice")
