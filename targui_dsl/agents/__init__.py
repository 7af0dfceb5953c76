"""Bots: ``make_agent(kind, seed)`` gives a :class:`~targui_dsl.engine.Player`:
``choose(observation, legal_actions) -> action id``.

Kinds: ``random`` (uniform over each decision step's legal actions) and
``greedy`` (a one-step heuristic, see :mod:`.greedy`). Bots decide only from
their seat's observation; chance is the state's business.
"""

from __future__ import annotations

from typing import Callable

from ..engine.loop import Player
from .greedy import GreedyAgent
from .random_agent import RandomAgent

AGENTS: dict[str, Callable[[int], Player]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
}


def agent_kinds() -> list[str]:
    return sorted(AGENTS)


def make_agent(kind: str, seed: int = 0) -> Player:
    try:
        factory = AGENTS[kind]
    except KeyError:
        raise ValueError(f"unknown bot `{kind}` (bots: {', '.join(agent_kinds())})") from None
    return factory(seed)


__all__ = ["AGENTS", "GreedyAgent", "RandomAgent", "agent_kinds", "make_agent"]
