"""Targui as a PettingZoo AEC environment: ``env(ruleset, players)``.

Install the extra: ``pip install '.[pettingzoo]'`` (pettingzoo, gymnasium, numpy).

* Agents: one per seat, named by the seat's tribe id and its 0-based seat
  (``kel_ahaggar_0``, ...), in seat order (``possible_agents[seat]``).
* Actions: ``Discrete(num_distinct_actions)``, the engine's integer ids; the
  observation's ``action_mask`` (``np.int8``) has a 1 for each legal id of
  the agent to move and is all zeros for the others.
* Observations: ``{"observation": np.float32 array, "action_mask": np.int8
  array}``, the engine's observation tensor of that seat (what that seat may
  see: docs/rules/targui.md section 8).
* Chance: the engine's own seeded generator throws every die and draws every
  card (implicit chance): ``reset(seed)`` starts the engine's game of that
  seed, so the same seed and the same actions give the same game, the one
  ``new_game(ruleset, players=players, seed=seed)`` plays with those actions.
  ``reset()`` without a seed draws one from a generator seeded by the last
  seed given (from the system's entropy before any).
* Rewards: at the end only, the engine's returns (``1/len(winners)`` to each
  winner, 0 to the others); every agent is then terminated. A seat that is
  knocked out stays in ``agents`` without turns until the end (reward 0).
  Nothing is truncated: every game ends (rounds are the deck's cards).
* ``render()`` with ``render_mode="ansi"``: the observation string of the
  agent to move (at the end, of seat 1: everything is revealed then).
* ``env.game_state`` is the engine's :class:`GameState` (read it, for a targui
  bot: ``make_agent(spelling, seed).choose(env.game_state.observation(seat), ...)``).
"""

from __future__ import annotations

import os
from typing import Any, Iterator

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from targui_dsl.adapters._load import ruleset as _ruleset
from targui_dsl.adapters._tensor import seat_tensors
from targui_dsl.games import game_of
from targui_dsl.games.targui.actions import IllegalAction
from targui_dsl.games.targui.compiled import CompiledRuleset
from targui_dsl.games.targui.state import GameState

__all__ = ["TarguiEnv", "env"]

RENDER_MODES = ("ansi",)
_INT8 = np.dtype(np.int8)  # (a dtype object: np.frombuffer looks a type up at every call)
_frombuffer = np.frombuffer


class TarguiEnv(AECEnv):
    """One ruleset and number of players; ``reset(seed)`` starts a game."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "targui_v0", "is_parallelizable": False}
    agent_selection: str

    def __init__(self, ruleset: str | os.PathLike[str] | CompiledRuleset = "original-dutch", players: int = 4,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: targui renders 'ansi' text only")
        compiled = ruleset if isinstance(ruleset, CompiledRuleset) else _ruleset(ruleset)
        self.render_mode = render_mode
        self._ruleset, self._players, self._new_game = compiled, players, game_of(compiled).new_game
        # ValueError: a player count the ruleset cannot seat
        self.game = self._new_game(compiled, players=players)
        self.possible_agents: list[str] = [f"{tribe}_{seat}" for seat, tribe in enumerate(self.game.tribe_ids)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = self._actions = self.game.num_distinct_actions()
        width = self._width = self.game.observation_tensor_shape()[0]
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (width,), np.float32),  # amounts, counts and 0/1 flags
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._tensors = seat_tensors(self.game, width)
        self.game_state: GameState = self.game.new_initial_state()
        self._seeds = np.random.default_rng()  # a game's seed for reset() without one
        self.agents: list[str] = []
        # the engine's current player after the env's last reset or step (the state changes only through
        # them: env.game_state is for reading), so that an observation need not ask the engine again
        self._mover = -4

    # gymnasium spaces ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # the game --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(self._seeds.integers(2**63))
        else:
            self._seeds = np.random.default_rng(seed & (2**64 - 1))  # (NumPy takes no negative seed)
        # the engine's game of this seed: its own generator resolves every chance node (a table
        # shared by every seed, so a new game costs a few microseconds)
        self.game_state = self._new_game(self._ruleset, players=self._players, seed=seed).new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to move, until every agent is done (or ``max_iter`` agents): AECEnv's
        ``agent_iter`` as a generator (its iterator's Python ``__next__`` costs more)."""
        return self._agents_to_move(max_iter)

    def _agents_to_move(self, max_iter: int) -> Iterator[str]:
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action.__class__ is not int:
            # a whole number only: int(262.9) would play 262, int(None) is a TypeError
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                raise IllegalAction(f"an action is a whole number (an index into the action mask), "
                                    f"not {type(action).__name__} {action!r:.60}")
            action = int(action)
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        state.apply_action(action)  # IllegalAction (a ValueError) says why; chance drawn in it
        seat = self._mover = state.current_player()
        if seat >= 0:  # (the common case of _select)
            self.agent_selection = self.possible_agents[seat]
            return
        if state.is_terminal():
            returns = state.returns()
            for agent_name, seat in self._seat.items():
                self.rewards[agent_name] = float(returns[seat])
                self.terminations[agent_name] = True
            self._accumulate_rewards()  # (the only rewards: every earlier step's are 0)
        self._select()

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """AECEnv's ``last``: the agent to move's observation (with ``observe``), cumulative
        reward, termination, truncation and info (written out: one call fewer a step)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        state = self.game_state
        # the agent's own mask: zeros, then a 1 per legal id, written in a bytearray (a byte set
        # costs less there than through the array or a memoryview of it) that the array then wraps
        ones = bytearray(self._actions)
        if self._mover == seat:
            for action in state.legal_actions():
                ones[action] = 1
        mask = _frombuffer(ones, _INT8)
        # the seat's tensor is kept up to date (only what changed since it was last read is
        # written); the agent gets its own copies of it and of the mask, which later steps leave
        # alone and which it may change
        return {"observation": self._tensors[seat].update(state).copy(), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with render_mode='ansi'")
            return None
        seat = self.game_state.current_player()
        return self.game_state.observation_string(seat if seat >= 0 else 0)

    def close(self) -> None:
        pass

    def _select(self) -> None:
        seat = self._mover = self.game_state.current_player()
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]


def env(ruleset: str | os.PathLike[str] | CompiledRuleset = "original-dutch", players: int = 4,
        render_mode: str | None = None) -> TarguiEnv:
    """An AEC environment of ``ruleset`` (a built-in name, a path or a compiled ruleset)
    with ``players`` seats. No wrappers: the engine itself refuses an illegal action
    (``IllegalAction``, a ``ValueError`` that says why), so nothing is clipped."""
    return TarguiEnv(ruleset, players, render_mode)
