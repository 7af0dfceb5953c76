"""Bots: ``make_agent(kind, seed)`` gives an object with ``choose(state, legal_actions=None) -> Action``.

Kinds: ``random`` (uniform over a decomposition: kind of action, then
where, then how many) and ``greedy`` (a one-step heuristic, see
:mod:`.greedy`). Agents decide only at decision nodes; chance is the
state's business.
"""

from __future__ import annotations

from typing import Callable

from .greedy import GreedyAgent
from .random_agent import RandomAgent

AGENTS: dict[str, Callable[[int], object]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
}


def agent_kinds() -> list[str]:
    return sorted(AGENTS)


def make_agent(kind: str, seed: int = 0):
    try:
        factory = AGENTS[kind]
    except KeyError:
        raise ValueError(f"unknown bot `{kind}` (bots: {', '.join(agent_kinds())})") from None
    return factory(seed)


__all__ = ["AGENTS", "GreedyAgent", "RandomAgent", "agent_kinds", "make_agent"]
