"""Bots: ``make_agent(spelling, seed)`` gives a :class:`~targui_dsl.engine.Player`:
``choose(observation, legal_actions) -> action id``.

A bot is spelled ``kind`` or ``kind:name=value:...`` (see :mod:`.spec`, the one
place that parses bot spellings). Shared kinds, which play any game: ``random``
(uniform over each decision step's legal actions) and ``ismcts``
(information-set Monte Carlo tree search, see :mod:`.ismcts`, with the game's
position score and rollout policy). Each game adds its own through its package
(Targui's ``greedy``: a one-step heuristic, :mod:`targui_dsl.games.targui.greedy`).
Bots decide only from their seat's observation; chance is the state's business.
Each bot's strategy is described in ``docs/bots.md``.
"""

from __future__ import annotations

from typing import Sequence

from targui_dsl.agents.borrowed import SearchWithWeights
from targui_dsl.agents.ismcts import (
    DEFAULT_ALPHA,
    DEFAULT_BIAS,
    DEFAULT_DEPTH,
    DEFAULT_EXPLORATION,
    DEFAULT_ITERATIONS,
    DEFAULT_WIDEN,
    DEFAULT_WIDTH,
    ISMCTSAgent,
)
from targui_dsl.agents.learned import OWN_WEIGHTS, weights_names
from targui_dsl.agents.random_agent import RandomAgent
from targui_dsl.agents.spec import (
    BOTS,
    DEFAULT_BOTS,
    BotSpec,
    bot_names,
    bots_of,
    describe_bots,
    make_agent,
    parse_bot,
    parse_bot_list,
    register,
)
from targui_dsl.engine.bots import BotKind, BotParam, BotSpecError
from targui_dsl.engine.chance import derive_seed
from targui_dsl.engine.loop import Player
from targui_dsl.games import DEFAULT_GAME, game_package

register(BotKind("random", RandomAgent, "uniform over each decision's legal actions"))
register(BotKind(
    "ismcts", SearchWithWeights,
    "information-set MCTS (Cowling et al. 2012) over its own observation, the game's rollouts and score",
    (
        # upper bounds: a spelling may come from a stranger's log header (`play --resume`); each
        # keeps one decision within about a minute (documented in docs/bots.md and `targui bots`)
        BotParam("iterations", int, DEFAULT_ITERATIONS, "search iterations per decision", minimum=1,
                 maximum=100_000),
        BotParam("seconds", float, 0.0, "CPU seconds per decision instead (0: use iterations; not reproducible)",
                 minimum=0, maximum=60),
        BotParam("exploration", float, DEFAULT_EXPLORATION, "UCB1 exploration constant", minimum=0, maximum=100),
        BotParam("depth", int, DEFAULT_DEPTH, "rollout steps before the position is scored", minimum=0,
                 maximum=1000),
        BotParam("width", int, DEFAULT_WIDTH, "actions tried at a wide choice, best first "
                 "by the rollout policy's scores, plus pass (0: every legal one)", minimum=0, maximum=1000),
        BotParam("bias", float, DEFAULT_BIAS, "progressive bias towards the game's heuristic choice (and the "
                 "rollout policy's below the root), fading as 1/(visits+1)", minimum=0, maximum=1000),
        BotParam("learned", int, 0, "1: score positions with the ruleset's learned score (`targui train`; "
                 "trained on first use); 0: with the game's hand-written score (measured stronger)",
                 minimum=0, maximum=1),
        BotParam("weights", str, OWN_WEIGHTS, "whose learned score: `own` (the ruleset's, with learned=1), or a "
                 "built-in ruleset's, used on the ruleset played (implies learned=1; a house rule played with "
                 "its base variant's judgement)", choices=lambda game: weights_names(game_package(game))),
        BotParam("widen", float, DEFAULT_WIDEN, "progressive widening: a node visited n times tries the "
                 "ceil(widen * n^alpha) best actions by the rollout policy's ranking (0: a fixed `width`)",
                 minimum=0, maximum=100),
        BotParam("alpha", float, DEFAULT_ALPHA, "the exponent of progressive widening (with widen > 0)",
                 minimum=0, maximum=1),
        BotParam("workers", int, 1, "processes sharing one decision's iterations, their root statistics "
                 "summed (root parallelism; forked when a game is played alone, else in turn: the same "
                 "choice either way)", minimum=1, maximum=64),
    ),
    takes_game=True,
))


def seat_agents(game_seed: int, spellings: Sequence[str], game: str = DEFAULT_GAME) -> list[Player]:
    """One bot per seat, each seeded from the game's seed and its seat: the same bot plays
    the same way in `targui play`, `simulate` and a study."""
    return [make_agent(spelling, derive_seed(game_seed, seat + 1), game) for seat, spelling in enumerate(spellings)]


__all__ = [
    "BOTS", "DEFAULT_BOTS", "BotKind", "BotParam", "BotSpec", "BotSpecError", "ISMCTSAgent", "RandomAgent",
    "bot_names", "bots_of", "describe_bots", "make_agent", "parse_bot", "parse_bot_list", "register",
    "seat_agents",
]
