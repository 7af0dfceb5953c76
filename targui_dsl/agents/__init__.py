"""Bots: ``make_agent(spelling, seed)`` gives a :class:`~targui_dsl.engine.Player`:
``choose(observation, legal_actions) -> action id``.

A bot is spelled ``kind`` or ``kind:name=value:...`` (see :mod:`.spec`, the one
place that knows the bots by name). Kinds: ``random`` (uniform over each
decision step's legal actions), ``greedy`` (a one-step heuristic, see
:mod:`.greedy`) and ``ismcts`` (information-set Monte Carlo tree search, see
:mod:`.ismcts`). Bots decide only from their seat's observation; chance is the
state's business. Each bot's strategy is described in ``docs/bots.md``.
"""

from __future__ import annotations

from typing import Sequence

from targui_dsl.agents.ismcts import (
    DEFAULT_BIAS,
    DEFAULT_DEPTH,
    DEFAULT_EXPLORATION,
    DEFAULT_ITERATIONS,
    DEFAULT_WIDTH,
    ISMCTSAgent,
)
from targui_dsl.agents.random_agent import RandomAgent
from targui_dsl.agents.spec import (
    BOTS,
    DEFAULT_BOTS,
    BotKind,
    BotParam,
    BotSpec,
    BotSpecError,
    bot_names,
    describe_bots,
    make_agent,
    parse_bot,
    parse_bot_list,
    register,
)
from targui_dsl.engine.chance import derive_seed
from targui_dsl.engine.loop import Player
from targui_dsl.games.targui.greedy import GreedyAgent

register(BotKind("random", RandomAgent, "uniform over each decision's legal actions"))
register(BotKind("greedy", GreedyAgent, "one-step heuristic: fight odds, territory value, threat"))
register(BotKind(
    "ismcts", ISMCTSAgent,
    "information-set MCTS (Cowling et al. 2012) over its own observation, greedy rollouts",
    (
        # upper bounds: a spelling may come from a stranger's log header (`play --resume`); each
        # keeps one decision within about a minute (documented in docs/bots.md and `targui bots`)
        BotParam("iterations", int, DEFAULT_ITERATIONS, "search iterations per decision", minimum=1,
                 maximum=100_000),
        BotParam("seconds", float, 0.0, "CPU seconds per decision instead (0: use iterations; not reproducible)",
                 minimum=0, maximum=60),
        BotParam("exploration", float, DEFAULT_EXPLORATION, "UCB1 exploration constant", minimum=0, maximum=100),
        BotParam("depth", int, DEFAULT_DEPTH, "greedy rollout steps before the position is scored", minimum=0,
                 maximum=1000),
        BotParam("width", int, DEFAULT_WIDTH, "moves and buy cells tried per node, best first by the rollout "
                 "policy's scores, plus pass (0: every legal one)", minimum=0, maximum=1000),
        BotParam("bias", float, DEFAULT_BIAS, "progressive bias towards greedy's choice (and the rollout "
                 "policy's below the root), fading as 1/(visits+1)", minimum=0, maximum=1000),
    ),
))


def agent_kinds() -> list[str]:
    """The bots' names (kept for callers that list them)."""
    return bot_names()


def seat_agents(game_seed: int, spellings: Sequence[str]) -> list[Player]:
    """One bot per seat, each seeded from the game's seed and its seat: the same bot plays
    the same way in `targui play`, `simulate` and a study."""
    return [make_agent(spelling, derive_seed(game_seed, seat + 1)) for seat, spelling in enumerate(spellings)]


__all__ = [
    "BOTS", "DEFAULT_BOTS", "BotKind", "BotParam", "BotSpec", "BotSpecError", "GreedyAgent", "ISMCTSAgent",
    "RandomAgent",
    "agent_kinds", "bot_names", "describe_bots", "make_agent", "parse_bot", "parse_bot_list", "register",
    "seat_agents",
]
