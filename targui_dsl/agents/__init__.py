"""Bots: ``make_agent(kind, seed)`` gives a :class:`~targui_dsl.engine.Player`:
``choose(observation, legal_actions) -> action id``.

Kinds: ``random`` (uniform over each decision step's legal actions) and
``greedy`` (a one-step heuristic, see :mod:`.greedy`). Bots decide only from
their seat's observation; chance is the state's business.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..engine.chance import derive_seed
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


def seat_agents(game_seed: int, kinds: Sequence[str]) -> list[Player]:
    """One bot per seat, each seeded from the game's seed and its seat: the same bot plays
    the same way in `targui play`, `simulate` and a study."""
    return [make_agent(kind, derive_seed(game_seed, seat + 1)) for seat, kind in enumerate(kinds)]


__all__ = ["AGENTS", "GreedyAgent", "RandomAgent", "agent_kinds", "make_agent", "seat_agents"]
